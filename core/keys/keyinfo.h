#pragma once

#include "core/limiter/policy.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

// What the Keys page and `sluice-cli keys` know about one Redis key (FORMATS.md `keys`): plain
// values, cheap to copy, safe to send from a worker thread to the GUI in a signal.
namespace sluice::keys {

// The verdict on one key, worst first in this order of precedence: orphan, wrong_type, no_ttl,
// ttl_exceeds_rule, ok (a key with no rule cannot be judged further; state that is not the
// rule's cannot be repaired by a TTL).
enum class Health {
    Ok,
    NoTtl,          // PTTL -1: nothing will ever delete it
    TtlExceedsRule, // PTTL above the most the rule's state can need (e.g. seconds taken for ms)
    Orphan,         // no rule of the set produces this key
    WrongType,      // the key is not its rule's state (another type, or a value that does not
                    // parse): the rule's script fails on it with WRONGTYPE or ignores it
    Unreadable,     // a key of a rule that could not be read (NOPERM from the user's ACL, ...):
                    // nothing is known of its state, so nothing is claimed (not wrong_type)
};
// The health ids (FORMATS.md "Key health"), one vocabulary for `keys`, `keys audit` and the
// console's labels: "ok", "never_expires", "ttl_too_long", "no_rule", "wrong_type",
// "unreadable". Stable, used in --json and in the text tables.
QString healthName(Health h);
// Every health, in the order above, and their ids.
const QList<Health> &allHealths();
QStringList healthNames();
// An id, or one of the previous release's (no_ttl, ttl_exceeds_rule, ttl_exceeds_window,
// orphan, unknown: *deprecated is then set), for filters a user may have scripted.
std::optional<Health> healthFromName(const QString &name, bool *deprecated = nullptr);
// The two verdicts that a TTL taken from the rule repairs (`keys fix`, "Fix all from rules").
inline bool isFixable(Health h)
{
    return h == Health::NoTtl || h == Health::TtlExceedsRule;
}

// A limiter state decoded into numbers at one instant (`atUs`, the server's TIME when the key
// was read), with the script's own arithmetic (core/limiter/model.h peeks), so the numbers are
// those the script would answer with a cost-0 request at that instant.
struct KeyState
{
    enum class Kind {
        None, // not read: no rule, or the key is gone
        FixedWindow,
        SlidingLog,
        SlidingCounter,
        TokenBucket,
        LeakyBucket,
        Gcra,
        Unreadable, // a value that is not the rule's state; `problem` says why
    };
    Kind kind = Kind::None;
    qint64 atUs = 0;       // server time (us since the epoch) the numbers are for
    qint64 limit = 0;      // N (windows), B (token and leaky buckets), burst + 1 (GCRA)
    qint64 remaining = 0;  // what could still be admitted now (the script's peek)
    qint64 resetMs = -1;   // until empty (windows, leaky) or full (token, GCRA); 0: already
    qint64 count = 0;      // windows: units in the live window (counter: the current window)
    qint64 previous = 0;   // sliding counter: the previous window's count
    qint64 entries = 0;    // sliding log: members in the set, trimmed or not
    qint64 nextFreeMs = 0; // sliding log: until the oldest entry in the window leaves it
    qint64 delayMs = 0;    // leaky bucket: the queueing delay a request admitted now gets
    double level = 0;      // tokens (token), queued units (leaky), weighted count (counter)
    qint64 startUs = 0;    // windows: start of the current window; GCRA: TAT (whole us)
    qint64 valueBytes = 0; // Unreadable: size of the value (bytes, fields or members)
    QString problem;       // Unreadable: what is wrong, in words
    bool permissionRefused = false; // Unreadable: the user's ACL refused the read (NOPERM)
    bool neverResets = false;       // an adopted counter without TTL: its window never ends
    bool ttlComesBack = false;      // an adopted counter without TTL whose library sets one again
                                    // on the subject's next request

    // One line for a table cell: "2 / 3 in this window, resets in 1.2 s", "14.2 tokens of 200,
    // full in 3 s", "queue 3 of 50, wait 600 ms", "GCRA: 4 of 6 available, full in 2 s".
    QString describe() const { return describe(true); }
    // withReset false: a window's count only ("3 / 3 in this window (full)"), for a table
    // whose own column says when it resets (the Monitor's Time left).
    QString describe(bool withReset) const;
};
// "fixed_window", ... as algorithm::name(); "unreadable", "none".
QString kindName(KeyState::Kind kind);
KeyState::Kind kindOf(Algorithm a);

struct KeyInfo
{
    QByteArray key;     // raw bytes, any of them (newlines, NUL, invalid UTF-8)
    QByteArray type;    // TYPE: "hash", "zset", "string", ...; "none" when gone
    qint64 pttlMs = -2; // PTTL: -1 never expires, -2 gone, -3 not read (a read error)
    QString ruleId;     // empty: no rule produces this key (or no rules were given)
    QString adoptedAs;  // a layout id: the key is another limiter's, adopted by rule ruleId
    QByteArray subject; // from the key (rules::KeyMap); empty without a rule
    // Written under a per-subject override limit of rule ruleId (<prefix><id>:override:{s}):
    // its state is decoded against the override's limit while the override lasts.
    bool override = false;
    Algorithm algorithm{}; // of the rule, when ruleId is not empty
    qint64 maxTtlMs = -1;  // the most the rule's state can need (KeyHealth); -1: no rule
    Health health = Health::Ok;
    KeyState state;
    // Redis Cluster: the node (host:port) the scan read the key from, its master or, when the
    // scan read replicas, a replica of it; empty off a cluster.
    QString node;

    bool exists() const { return pttlMs != -2; }
    bool hasRule() const { return !ruleId.isEmpty(); }
    // A key that never expires but blocks nobody: Sluice's own layouts record the window start
    // (or the bucket's last update, the TAT), so the limit still resets when its time comes;
    // an adopted layout whose library sets the TTL again on the next request (layouts.h
    // LostTtl) heals. Only the key stays in Redis (memory). An adopted counter that keeps
    // counting (a plain INCR) or a key no rule explains has no such clock: once at its limit
    // it denies until someone deletes it.
    bool resetsByOwnClock() const;
    // Why the key got its verdict and what it does, in words (empty for ok). The cause of the
    // usual no_ttl case is spelled out: an INCR after expiry, or an EXPIRE sent in a separate
    // round trip that never arrived, leaves a counter without TTL that can block a subject
    // forever.
    QString explanation() const;
};

// "850 ms", "1.2 s", "12 s", "3 min 12 s", "2 h 5 min", "3 d 4 h": for people, not files.
QString formatDurationMs(qint64 ms);
// The same text into `out` (32 chars at least), without allocating; returns its length.
int formatDurationMs(qint64 ms, char *out);
// "14", "14.2": one decimal, no trailing ".0".
QString formatAmount(double v);

} // namespace sluice::keys

Q_DECLARE_METATYPE(sluice::keys::KeyInfo)
