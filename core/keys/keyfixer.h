#pragma once

#include "keyinfo.h"
#include "keyscanner.h"

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/rules/rule.h"

#include <QList>
#include <QMetaType>

#include <atomic>
#include <optional>

namespace sluice::keys {

// The Keys page's repairs and `sluice-cli keys fix` (ANCHORS.md section 4 item 2): for a
// selection of keys, or all flagged ones, as the scan judged them.
//
// SetTtl: for keys judged no_ttl or ttl_exceeds_rule, PEXPIRE the rule's maxTtlMs, but only if
// the key, at that instant, still has no TTL or one longer than that (a tiny atomic script:
// PTTL, compare, PEXPIRE). A key that got a TTL meanwhile (its subject made a request, the
// script ran) is never extended: its TTL stays as it is. Orphans (no rule, so no TTL to take
// from one), wrong_type keys (not the rule's state) and healthy keys are left untouched and
// reported as skipped.
//
// Delete: UNLINK (freed in the background: a 512 MB value does not stall Redis). Keys judged
// no_ttl or ttl_exceeds_rule are deleted only if they are still so (same atomic check); other
// keys only because the caller selected them.
//
// Dry run: the same decisions from a pipelined PTTL per key; nothing is written.
// Pipelined: `batch` keys per round trip. Not thread-safe (one Connection).
class KeyFixer
{
public:
    enum class Action { SetTtl, Delete };
    enum class Status {
        Done,        // the TTL was set (or lowered), or the key deleted
        WouldDo,     // dry run: it would have been done
        AlreadyFine, // flagged by the scan, but it has a TTL within the rule's now: untouched
        Gone,        // the key no longer exists
        Skipped,     // not something this action repairs (orphan, wrong_type, ok): untouched
        Failed,      // Redis refused (the message says why)
    };
    struct Options
    {
        bool dryRun = false;
        int batch = 500;
        const std::atomic<bool> *cancel = nullptr; // checked between batches
        // Delete only keys judged no_ttl or ttl_exceeds_rule ("all flagged keys"); the others
        // are skipped as SetTtl skips them. False: a selection is deleted as selected.
        bool onlyFlagged = false;
        // Act only on keys that still have no TTL at fix time (a TTL set meanwhile, however
        // long, is left as it is): `keys fix --match GLOB --ttl D` on keys Sluice did not write.
        bool onlyWithoutTtl = false;
    };
    struct Outcome
    {
        QByteArray key;
        QString ruleId;
        Health health = Health::Ok; // as the scan judged it
        Status status = Status::Skipped;
        qint64 ttlMs = -1;              // SetTtl: the TTL set (or that would be)
        qint64 pttlBefore = -3;         // PTTL just before (-3: not read)
        qint64 pttlAfter = -3;          // PTTL just after (the same as before if untouched)
        QString message;                // Skipped, Failed: why
        bool permissionRefused = false; // unreadable because the user's ACL refused the read
    };
    struct Report
    {
        Action action = Action::SetTtl;
        bool dryRun = false;
        bool cancelled = false;
        QList<Outcome> outcomes;    // in the order of the keys given, up to a failure
        std::optional<Error> error; // a lost connection: the outcomes before it stand
        qint64 count(Status s) const;
    };

    static Report run(Connection &c, const QList<KeyInfo> &keys, Action action,
                      const Options &options);
    static Report run(Connection &c, const QList<KeyInfo> &keys, Action action)
    {
        return run(c, keys, action, Options{});
    }

    // Whether `key` is inside a limiter's keys: it starts with the key_prefix of one of
    // `rules` (an empty prefix, refused by validation, matches nothing). The console deletes
    // a selection inside after one confirmation, and asks for the count of the others to be
    // typed in (keysOutsideRulePrefixes).
    static bool isInsideRulePrefix(const QByteArray &key, const RuleSet &rules);
    // The keys of `keys` that are not inside (above), in their order.
    static QList<QByteArray> keysOutsideRulePrefixes(const QList<KeyInfo> &keys,
                                                     const RuleSet &rules);

    // "Fix all from rules" and `sluice-cli keys fix`: scans with `scanner` and applies
    // `action` to the keys of each page that are not ok, page by page on the same connection
    // (the scanner leaves it idle between pages), so memory stays flat on any keyspace.
    // Delete acts on flagged keys only (onlyFlagged is forced). A failed fix stops the scan;
    // a failed scan keeps the fixes done before it.
    struct Sweep
    {
        ScanSummary scan;
        Report fixes; // every key that was not ok, in scan order
    };
    static Sweep sweep(Connection &c, KeyScanner &scanner, const KeyScanner::Options &scanOptions,
                       Action action, const Options &options);
};

// "done", "would_do", "already_fine", "gone", "skipped", "failed": stable, used in --json.
QString statusName(KeyFixer::Status s);
QString actionName(KeyFixer::Action a); // "set_ttl", "delete"

} // namespace sluice::keys

Q_DECLARE_METATYPE(sluice::keys::KeyFixer::Report)
