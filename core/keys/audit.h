#pragma once

#include "keyinfo.h"
#include "keyscanner.h"
#include "layouts.h"

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <functional>
#include <optional>

// `sluice-cli keys audit` and the Keys page's "Audit the whole keyspace": every key
// of the keyspace (or of a glob), within the scan budget, recognised by its layout
// (layouts.h), judged, grouped. Application keys are counted, never flagged.
namespace sluice::keys {

enum class AuditHealth {
    Ok,
    NeverExpires,     // a limiter key without TTL that its library would have given one
    TtlExceedsWindow, // a TTL longer than the layout's window, where that is known
    Orphan,           // its name holds a window that ended longer ago than any TTL it got
    ByDesign,         // without TTL, as its library keeps such keys on purpose: not flagged
    Unknown,          // under a Sluice rule's prefix, but not the rule's state
    LooksLike,        // named like a layout's keys, but its type or value is not that layout's:
                      // not attributed to it, not flagged, never fixed
    Suspect,          // an integer string without TTL named like a limit, matching no layout
    OtherNoTtl,       // an application key without TTL: counted, never flagged
    Other,            // an application key with a TTL
};
// The ids of keyinfo.h's healthName where the verdict is the same ("ok", "never_expires",
// "ttl_too_long", "wrong_type"), and the audit's own: "window_ended", "by_design", "looks_like",
// "suspect", "other_no_ttl", "other".
QString auditHealthName(AuditHealth h);
inline bool isFlagged(AuditHealth h)
{
    return h == AuditHealth::NeverExpires || h == AuditHealth::TtlExceedsWindow ||
           h == AuditHealth::Orphan || h == AuditHealth::Unknown || h == AuditHealth::Suspect;
}

// A rule file's adoption (FORMATS.md "adopt"): the keys matching `match` belong to an existing
// limiter of layout `layout`, with this window and limit.
struct Adoption
{
    QString ruleId;
    QByteArray match; // a glob, as SCAN MATCH reads it
    QString layout;   // a layout id (layouts.h), an adoptable one
    qint64 windowMs = 0;
    qint64 limit = 0;
};

struct AuditEntry
{
    QByteArray key;
    QByteArray type;
    qint64 pttlMs = -2;
    QString layout; // empty: none
    AuditHealth health = AuditHealth::Other;
    QString lostTtl;      // the layout's lost-TTL id (layouts.h lostTtlName); empty without one
    int severity = -1;    // severity() of it; -1 without a layout
    QString looksLike;    // LooksLike: the layout the name suggests
    QString state;        // in words; empty when not decoded
    QString cause;        // why it is flagged, in words (empty for ok and other keys)
    qint64 windowMs = -1; // the layout's window where known
    qint64 limit = 0;     // an adoption's (or a Sluice rule's) limit; 0: unknown
    QString ruleId;       // the Sluice rule, or the rule that adopts the key
    std::optional<qint64> count; // a counter's value
    // For the watcher (keywatcher.h): the server's TIME of the read (us), a sorted set's
    // ZCARD (-1: not a sorted set) and the tokens left a Spring Cloud Gateway key holds.
    qint64 readUs = 0;
    qint64 entries = -1;
    std::optional<double> tokens;
};

struct AuditGroup
{
    QString layout;
    qint64 keys = 0;
    qint64 ok = 0;
    qint64 neverExpires = 0;
    qint64 ttlExceedsWindow = 0;
    qint64 unknown = 0;
    qint64 orphans = 0;
    qint64 byDesign = 0;
    int severity = -1; // of the layout's lost TTL (layouts.h severity())
    qint64 flagged() const { return neverExpires + ttlExceedsWindow + orphans + unknown; }
};

struct AuditReport
{
    ScanSummary scan;
    // Flagged groups first, the worst lost TTL first (blocks_subject, idle_key_kept,
    // heals_on_next_request, orphaned_by_window_in_name), then the most flagged; then by keys.
    QList<AuditGroup> groups;
    qint64 suspects = 0;
    qint64 looksLike = 0;
    qint64 otherNoTtl = 0;
    qint64 other = 0;
    qint64 keys() const; // every key judged
    qint64 flagged() const;
    void add(const AuditEntry &e);
    void sortGroups();
    const AuditGroup *group(const QString &layout) const;
};

class KeyAuditor
{
public:
    struct Options
    {
        KeyScanner::Options scan;     // patterns empty: "*" (the whole keyspace)
        std::optional<RuleSet> rules; // Sluice's own keys then judged by their rule
        QList<Adoption> adoptions;    // empty: those of `rules` (adoptionsOf)
        // The page callback uses the connection (keys fix does): false lets the scan send its
        // next round trip before the callback, so that Redis reads while the page is judged.
        bool pageUsesConnection = true;
    };
    using PageCallback = std::function<void(const QList<AuditEntry> &, const ScanProgress &)>;

    // Scans, reads every key's value (valuereads.h: in the scan's own round trips, with its
    // PTTL where its type can be told before, else a round trip after its TYPE, within a
    // per-key budget; a key judged from its rule's state is not read again), judges. Each
    // page's entries reach `onPage` one to three round trips after the scanner listed them
    // (the scanner keeps a round trip ahead when nothing paces it); a scan that fails or is
    // cancelled leaves the keys of its last pages (counted as scanned) unjudged. Synchronous:
    // run it in a worker.
    static AuditReport run(Connection &c, const Options &options, const PageCallback &onPage);

    // Reads the values of keys already listed (TYPE and PTTL known from `infos`) and judges
    // them: one round trip (two when a string's exact length or a large sorted set's size is
    // needed).
    static Result<QList<AuditEntry>> judge(Connection &c, const QList<KeyInfo> &infos,
                                           const QList<Adoption> &adoptions);

    // The verdict for one key as read; `info` is the scanner's (with its rule when rules were
    // given). Public for tests.
    static AuditEntry classify(const ForeignRead &read, const KeyInfo &info,
                               const QList<Adoption> &adoptions);
};

// The adoptions of a rule set's adopt blocks (their window and limit, or the rule's).
QList<Adoption> adoptionsOf(const RuleSet &rules);

// Names in a key that suggest a limit, for the suspects: "limit", "rate", "throttle",
// "quota", "count"; the first one found, or empty.
QString limitWordIn(const QByteArray &key);

} // namespace sluice::keys

Q_DECLARE_METATYPE(sluice::keys::AuditEntry)
Q_DECLARE_METATYPE(sluice::keys::AuditReport)
