#pragma once

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>
#include <vector>

// The limiter key layouts Sluice recognises, its own and other libraries'
// (FORMATS.md "keys audit"): a table of rows, data only, in layouttable.cpp. A key is matched
// against the rows in order, by its name (a regular expression), its Redis type and the shape
// of its value; the first row that fits names the key's layout. Pure: no I/O, so every row is
// tested on values planted per the library's documented layout, without Redis, as well as
// through `keys audit` on a real server (tests/tst_layouts.cpp).
namespace sluice::keys {

// What the audit read of one key (core/keys/audit.cpp reads it; capped like KeyReader's reads:
// at most 64 bytes of a string, the first fields of a hash, the two ends of a sorted set).
struct ForeignRead
{
    QByteArray key;
    QByteArray type;    // TYPE
    qint64 pttlMs = -2; // PTTL: -1 never expires
    qint64 nowUs = 0;   // server TIME of the read
    // string
    qint64 strlen = 0;
    QByteArray head; // the first 64 bytes at most
    // hash: the fields of one HSCAN page (all of them for a small hash), and their count (one
    // more than came when the hash is larger than a page: at least that many)
    qint64 hlen = 0;
    QList<std::pair<QByteArray, QByteArray>> fields;
    // zset: ZCARD and its two ends (member, score). list: LLEN and its two ends, the item at
    // index 0 as `newest` (LPUSH puts the newest first) and at -1 as `oldest`, each item as
    // both member and score
    qint64 zcard = 0;
    std::optional<std::pair<QByteArray, QByteArray>> oldest;
    std::optional<std::pair<QByteArray, QByteArray>> newest;

    std::optional<QByteArray> field(QByteArrayView name) const;
};

// The value shapes a row can require (checked by shapeFits()).
enum class ValueShape {
    Integer, // string: a whole number (GET/INCR counters)
    Number,  // string: a decimal number
    CellTat, // string: a whole number of ns since the epoch, near now (redis-cell's TAT)
    RateTat, // string: a decimal number of s since 2017-01-01, near now (redis_rate's TAT)
    Binary,  // string: starts with three zero bytes (a big-endian int: Bucket4j's state)
    // zset, any name: a sliding-window log. Its newest member starts with a timestamp (s, ms,
    // us or ns, near now: "1700000000123", "1700000000123-7f3a", "<now_us>:<i>") and its score
    // is a timestamp within a day of it. A registry of client ids scored by their last-seen
    // time (job schedulers keep one) does not fit: its members are names, not times.
    TimestampLog,
    TimestampScores, // zset, named by the row: its newest score is a timestamp near now
    TimestampList,   // list: both ends are timestamps near now (python limits' moving window)
    RedissonConfig,  // hash: fields rate, interval, type (RRateLimiter.trySetRate)
    DurationHash,    // hash: exactly start, end, count (Laravel's DurationLimiter)
    SluiceFixed,     // hash: fields s, c (and no p)
    SluiceCounter,   // hash: fields s, c, p
    SluiceBucket,    // hash: fields l, t
    SluiceLog,       // zset, any (Sluice's sliding log: members unique, scores us)
    SluiceGcra,      // string: "<tat_us>" or "<tat_us>+<rem>/<c>"
};

// Where a row's window (the longest its keys need to live) comes from, when it can be known.
enum class WindowFrom {
    Unknown,       // the library's configuration, not in Redis: only an adoption says it
    KongPeriod,    // the key's period start (ms) and last segment: second, minute, ... year
    EnvoyUnit,     // the key's trailing window start: the largest unit it is a multiple of
    LimitsName,    // python limits: <amount>/<multiples>/<GRANULARITY> at the end of the name
    RedissonField, // the config hash's interval field (ms)
    SluiceRule,    // the rule that produces the key (--rules), as `keys` judges it
};

// How a row's state is put in words.
enum class Decoder {
    Counter,        // "57 requests in this window"
    Points,         // rate-limiter-flexible: "57 points consumed in this window"
    Flag,           // a block or ban key: "blocked" (its value is a marker)
    TimestampLog,   // "3 timestamps in the last 60 s" / "3 timestamps, newest 1.2 s ago"
    GatewayTokens,  // "12 tokens left at the last request"
    GatewayStamp,   // "last request 3 s ago"
    RedissonConfig, // "10 permits per 1 s (overall)"
    RedissonValue,  // "7 permits available"
    RedissonLog,    // "3 permits taken in the interval"
    Bucket4j,       // "binary bucket state, 120 bytes"
    CellTat,        // "TAT in 1.2 s"
    RateTat,        // redis_rate: "TAT in 1.2 s"
    Duration,       // Laravel's DurationLimiter: "3 in the window ending in 12 s"
    Timer,          // Laravel's :timer: "available again in 12 s"
    Sluice,         // Sluice's own: the rule's decoder (KeyState), or the fields in words
};

// What happens when one of the row's keys loses its TTL (FORMATS.md "keys audit": the ids),
// from the library's own code, checked on the real library where it installs here
// (tests/tst_real_limiters.cpp). Listed from the worst; `keys audit` orders by it.
enum class LostTtl {
    BlocksSubject,          // "blocks_subject": the key keeps counting, never resets; once
                            // at the limit its subject is denied until someone deletes it
    IdleKeyKept,            // "idle_key_kept": the state keeps its own clock (or each request
                            // trims it), so nobody is blocked; an idle subject's key stays
    HealsOnNextRequest,     // "heals_on_next_request": the library sets the TTL again on the
                            // subject's next request; only an idle subject's key stays
    OrphanedByWindowInName, // "orphaned_by_window_in_name": the name holds its window, the
                            // next window is another key; this one is dead weight forever
};
QString lostTtlName(LostTtl l);
// 3 (blocks_subject) .. 0 (orphaned_by_window_in_name): higher is worse.
int severity(LostTtl l);
// Its effect in words: "once at its limit it denies its subject until someone deletes it".
QString lostTtlWords(LostTtl l);

// Whether `keys top` and the Monitor's "Other limiters" can tell a subject at its limit from the
// keys alone (FORMATS.md "Limiter key layouts", column "limit").
enum class LimitFrom {
    Adoption,   // "adoption": the library's configuration, not in Redis; an adopt block (a rule
                // file's) gives it, for the adoptable rows
    TokensLeft, // "in_key": the key holds what is left (Spring's tokens): none left is at it
    BlockKey,   // "block_key": the key exists while its subject is blocked: it is over it
    SluiceRule, // "rule": Sluice's own keys; the Monitor's rules show them
    Unknown,    // "unknown": neither the key nor an adoption says it
};
QString limitFromName(LimitFrom l);

struct Layout
{
    const char *id;         // stable: used in --json, rule files (adopt) and docs
    const char *library;    // who writes it
    const char *keyShape;   // for people: "rlflx:<key>"
    const char *keyRegex;   // the key name, whole (anchored); "" for any name
    const char *type;       // Redis TYPE
    ValueShape value;       // what the value must look like
    const char *valueShape; // for people: "integer: points consumed"
    const char *ttlSet;     // for people: the TTL the library sets, and when
    LostTtl lostTtl;        // what a lost TTL does
    // Why the library keeps some of these keys without TTL on purpose ("" when it never
    // does): such a key is `by_design`, never flagged, and `keys fix` leaves it alone.
    const char *byDesign;
    WindowFrom window;       // where the window comes from
    Decoder decoder;         // how the state is put in words
    bool adoptable;          // can be adopted by a rule file (its state is a count in a window)
    bool byName;             // the name alone is distinctive: a key named so that holds
                             // something else "looks like" it (not for any-name rows)
    const char *explanation; // one line: what it is
    const char *source;      // where the row was read from (the library's file)
    // Where the limit comes from (the rows that say nothing: an adoption when adoptable,
    // Sluice's rule for Sluice's rows, else unknown; limitFrom() resolves it).
    std::optional<LimitFrom> limit = std::nullopt;
};
LimitFrom limitFrom(const Layout &layout);
// lostTtlWords(layout.lostTtl), in the words of a block key where that differs ("the block never
// ends" rather than "it keeps counting").
QString lostTtlWords(const Layout &layout);

// The table, most specific first.
const QList<Layout> &layouts();
const Layout *findLayout(const QString &id);
// The row's id as a QString, made once (shared by every key of the row).
const QString &idOf(const Layout &layout);
// "string_counter, sorted_set_log, ...": for error messages naming the ids accepted.
QString layoutIds(bool adoptableOnly = false);

// The literal runs every name `expression` matches contains (top-level text outside classes
// and groups, none made optional by a quantifier): a key without one of them is turned away
// before the expression runs. Nothing when the expression has a top-level alternation.
std::vector<QByteArray> requiredLiterals(const char *expression);

// Whether the name of `key` fits the row's keyRegex (an empty regex: any key).
bool keyFits(const Layout &layout, const QByteArray &key);
// Whether the read value has the row's type and value shape (at `read.nowUs`).
bool shapeFits(const Layout &layout, const ForeignRead &read);
// The first row whose name, type and value fit; nullptr when none does. `sluiceAlgorithm`:
// the algorithm of the Sluice rule producing the key, when rules were given ("" otherwise):
// only that algorithm's Sluice row can match (a string counter under a gcra-shaped key is
// then a string counter), and it tells a token bucket from a leaky bucket (same fields).
const Layout *matchLayout(const ForeignRead &read, const QString &sluiceAlgorithm = {});
// The first row whose name fits whatever the type and value: a key named like a layout but
// holding something else is `unknown` under that row.
const Layout *matchByName(const QByteArray &key);

// The Redis type every row whose name `key` fits shares (rows of any name aside): "string",
// "hash", ...; nullptr when no such row or rows of different types. A guess of its type
// (valuereads.h), not a match.
const char *typeByName(const QByteArray &key);

// The window the row's keys need, in ms, from what is known of this key (-1: unknown).
qint64 knownWindowMs(const Layout &layout, const ForeignRead &read);
// When the window the key's name holds ended, in us since the epoch, for rows whose name
// holds its window (Kong's period start and period; Envoy's window start, bounded by the
// largest unit it is a multiple of): nullopt when the name does not say.
std::optional<qint64> windowEndUs(const Layout &layout, const QByteArray &key);

// The state in words ("57 requests in this window"). With `limit` > 0 (an adoption),
// against that limit: "57 / 100 in this window".
QString describeState(const Layout &layout, const ForeignRead &read, qint64 limit = 0,
                      qint64 windowMs = -1);
// The count a counter row holds (Counter, Points, Redisson value): nullopt for others.
std::optional<qint64> counterValue(const Layout &layout, const ForeignRead &read);

} // namespace sluice::keys
