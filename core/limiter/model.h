#pragma once

#include "decision.h"
#include "policy.h"

#include <QtGlobal>

#include <QByteArray>
#include <QList>

#include <deque>
#include <optional>
#include <variant>

// The arithmetic of the six scripts in lua/, in C++: the same integer computations, step for
// step, so that a twin fed the same now_us replies exactly what the script replies
// (ALGORITHMS.md "The local twins"). Pure functions over a state value: no clock, no I/O.
namespace sluice::model {

// Rates are reduced by gcd(count, period_us): c = count / g, P = period_us / g. A bucket level
// is kept in integer ticks, P ticks per token, and a bucket drains or refills c ticks per
// microsecond, so no fraction is ever rounded (ALGORITHMS.md "Arithmetic is exact").
struct ReducedRate
{
    qint64 c = 1; // ticks per microsecond
    qint64 p = 1; // ticks per token
};
ReducedRate reduce(const Rate &rate);

// State layouts mirror the Redis ones documented at the top of each lua/ file.
struct FixedWindowState
{
    qint64 startUs = 0; // hash field s
    qint64 count = 0;   // hash field c
};
struct SlidingLogState
{
    std::deque<qint64> entries; // sorted set scores, ascending, one per admitted unit
};
struct SlidingCounterState
{
    qint64 startUs = 0;  // hash field s: start of the current window
    qint64 current = 0;  // hash field c
    qint64 previous = 0; // hash field p
};
struct BucketState // token_bucket and leaky_bucket
{
    qint64 level = 0;  // hash field l, in ticks (tokens for the token bucket, queue for leaky)
    qint64 lastUs = 0; // hash field t
};
struct GcraState
{
    // TAT = tatUs + remainder / c (c of the reduced rate), stored as "<tatUs>" or
    // "<tatUs>+<remainder>/<c>".
    qint64 tatUs = 0;
    qint64 remainder = 0;
    qint64 denominator = 1;
};

// std::monostate: the key does not exist.
using State = std::variant<std::monostate, FixedWindowState, SlidingLogState, SlidingCounterState,
                           BucketState, GcraState>;

struct Outcome
{
    Decision decision;
    bool wrote = false; // the state was changed
    // When wrote: the PEXPIRE the script sets, >= 1 and >= minTtlMs; 0 when the write keeps
    // the key's TTL (a fixed window's increment without min_ttl_ms: the window's end, and so
    // the TTL set where it opened, has not moved).
    qint64 ttlMs = 0;
    bool keepsTtl = false; // set by an algorithm whose write leaves the TTL as it was
};

// One call of the script: updates `state` in place when it writes, leaves it untouched
// otherwise. `policy` must have passed Policy::validate(); cost >= 0.
Outcome apply(const Policy &policy, State &state, qint64 cost, qint64 nowUs, qint64 minTtlMs = 0);

// A rule change (ALGORITHMS.md "When a rule changes"): `stored` was written under the rule
// version `storedVersion` (Policy::version()); what the scripts make of it under `policy`, per
// policy.onChange, before they decide. nullopt: the script would use `stored` as it is (an
// empty version: an older Sluice wrote it; the same version; a foreign state, which apply()
// treats as absent). A monostate: a fresh state (reset, another algorithm, a version that does
// not parse). Nothing is written here: the scripts persist a migration only with an admission.
std::optional<State> migrate(const Policy &policy, const QByteArray &storedVersion,
                             const State &stored, qint64 nowUs);

// ceil(a x b / d) as the scripts compute it, capped at `cap`: in doubles, corrected to the
// exact quotient while a x b < 2^53 (beyond, the double result, the same in Lua and C++).
// a, b, d, cap in 0..2^53-1, d >= 1.
qint64 mulDivCeil(qint64 a, qint64 b, qint64 d, qint64 cap);

// Foreign state (ALGORITHMS.md "Stored state"): what a script accepts from a stored field.
// Levels (l) lie in 0..2^52, counts in 0..2^53-1, times in 0..2^53-1 and less than 2^52 us
// ahead of now; anything else (and a value that is not a whole number: nan, inf, text) makes
// the whole state absent, so it rebuilds itself on the next write. apply() checks a State
// against these bounds the way the scripts do.
inline constexpr qint64 maxLevel = qint64(1) << 52;
inline constexpr qint64 maxAheadUs = qint64(1) << 52;
inline constexpr qint64 maxStored = (qint64(1) << 53) - 1;

// A stored value as a script reads it: Lua 5.1's tonumber() as Redis runs it (strtod, hex,
// surrounding blanks, stops at a NUL), then a whole number within +-2^62; nullopt otherwise
// (nan, inf, 1e400, fractions, text).
std::optional<qint64> storedNumber(const QByteArray &text);
// The State a script sees in what Redis holds: `values` are the hash fields of the layout in
// order (fixed_window s c; sliding_counter s c p; buckets l t; nullopt = absent), the string
// for gcra (one value), or the scores of the sorted set for sliding_log (ascending, as Redis
// prints them: "inf", "-inf"). Not a number at all -> monostate; ranges are apply()'s job.
State storedState(Algorithm algorithm, const QList<std::optional<QByteArray>> &values);

// Integer helpers shared by every algorithm (and mirrored in Lua).
inline qint64 ceilDiv(qint64 a, qint64 b)
{
    return a <= 0 ? -((-a) / b) : (a + b - 1) / b;
}
inline qint64 usToMsCeil(qint64 us)
{
    return ceilDiv(us, 1000);
}

} // namespace sluice::model
