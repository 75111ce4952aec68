#include "model_p.h"

#include <algorithm>
#include <cmath>
#include <iterator>

// The twin of the migration block of each lua/ script (lua/README.md "Rule versions"): what a
// state written under one rule version becomes under another, before the decision. Every
// step is the scripts' own, in the same order, so that twin and script decide alike.

namespace sluice::model {

namespace {

constexpr qint64 maxArg = (qint64(1) << 53) - 1;

// The parameters a version names (Policy::version()): {a, b} for windows (limit, window_us),
// {a, b, c} for buckets (count, period_us, burst). nullopt: another algorithm, or a version
// that does not parse the way the scripts' string.match + tonumber read it.
struct Version
{
    qint64 a = 0;
    qint64 b = 0;
    qint64 c = 0;
};

std::optional<qint64> versionNumber(const QByteArray &digits)
{
    if (digits.isEmpty() || !std::all_of(digits.begin(), digits.end(),
                                         [](char ch) { return ch >= '0' && ch <= '9'; })) {
        return std::nullopt;
    }
    qsizetype i = 0;
    while (i + 1 < digits.size() && digits[i] == '0') {
        ++i;
    }
    if (digits.size() - i > 16) {
        return std::nullopt; // above 2^53 - 1 (16 digits)
    }
    const qint64 v = digits.mid(i).toLongLong();
    if (v < 1 || v > maxArg) {
        return std::nullopt;
    }
    return v;
}

std::optional<Version> parseVersion(const Policy &policy, const QByteArray &version)
{
    const QList<QByteArray> parts = version.split(':');
    const bool window = algorithm::isWindow(policy.algorithm);
    if (parts.size() != (window ? 3 : 4)) {
        return std::nullopt;
    }
    if (parts[0] != policy.version().left(2)) {
        return std::nullopt; // another algorithm: a fresh state
    }
    Version v;
    const auto a = versionNumber(parts[1]);
    const auto b = versionNumber(parts[2]);
    if (!a || !b) {
        return std::nullopt;
    }
    v.a = *a;
    v.b = *b;
    if (!window) {
        const auto c = versionNumber(parts[3]);
        if (!c) {
            return std::nullopt;
        }
        v.c = *c;
    }
    return v;
}

// The used amount u of an old capacity, under the new one (ALGORITHMS.md "When a rule
// changes"). keep_used: u; proportional: the same fraction, rounded up; additive: a raise
// keeps u (what is left grows by the difference), a cut takes the difference off u (what is
// left is capped by the new capacity).
qint64 changed(OnChange mode, qint64 u, qint64 oldCap, qint64 newCap)
{
    switch (mode) {
    case OnChange::Proportional:
        return mulDivCeil(std::min(u, oldCap), newCap, oldCap, newCap);
    case OnChange::Additive:
        return newCap >= oldCap ? u : std::max(qint64(0), u - (oldCap - newCap));
    case OnChange::KeepUsed:
    case OnChange::Reset:
        break;
    }
    return u;
}

// The same in bucket ticks: u in old ticks (P per token, capacity oldUnits x P); the result
// in new ticks, at most the new capacity newUnits x P'.
qint64 changedTicks(OnChange mode, qint64 u, qint64 oldUnits, qint64 oldP, qint64 newUnits,
                    qint64 newP)
{
    const qint64 oldCap = oldUnits * oldP;
    const qint64 newCap = newUnits * newP;
    if (mode == OnChange::Proportional) {
        return mulDivCeil(std::min(u, oldCap), newCap, oldCap, newCap);
    }
    const qint64 kept = mulDivCeil(u, newP, oldP, newCap);
    if (mode == OnChange::Additive && newUnits < oldUnits) {
        // The cut in new ticks; above 2^53 it is more than kept (<= newCap < 2^53) anyway.
        const qint64 cutUnits = oldUnits - newUnits;
        if (cutUnits > maxArg / newP) {
            return 0;
        }
        return std::max(qint64(0), kept - cutUnits * newP);
    }
    return kept;
}

} // namespace

qint64 mulDivCeil(qint64 a, qint64 b, qint64 d, qint64 cap)
{
    const double x = double(a) * double(b);
    const double dd = double(d);
    double q = std::ceil(x / dd);
    if (x < 9007199254740992.0) {
        if (q * dd < x) {
            q += 1;
        } else if (q > 0 && (q - 1) * dd >= x) {
            q -= 1;
        }
    }
    if (q > double(cap)) {
        return cap;
    }
    return qint64(q);
}

std::optional<State> migrate(const Policy &policy, const QByteArray &storedVersion,
                             const State &stored, qint64 nowUs)
{
    if (storedVersion.isEmpty() || std::holds_alternative<std::monostate>(stored) ||
        storedVersion == policy.version()) {
        return std::nullopt;
    }
    const std::optional<Version> old = parseVersion(policy, storedVersion);
    const OnChange mode = policy.onChange;
    const bool fresh = !old || mode == OnChange::Reset;
    switch (policy.algorithm) {
    case Algorithm::FixedWindow: {
        const auto *st = std::get_if<FixedWindowState>(&stored);
        if (!st || !(detail::storedTime(st->startUs, nowUs) && detail::storedCount(st->count))) {
            return fresh ? std::optional<State>(State{}) : std::nullopt;
        }
        if (fresh) {
            return State{};
        }
        return State{FixedWindowState{st->startUs, changed(mode, st->count, old->a, policy.limit)}};
    }
    case Algorithm::SlidingCounter: {
        const auto *st = std::get_if<SlidingCounterState>(&stored);
        if (!st || !(detail::storedTime(st->startUs, nowUs) && detail::storedCount(st->current) &&
                     detail::storedCount(st->previous))) {
            return fresh ? std::optional<State>(State{}) : std::nullopt;
        }
        if (fresh) {
            return State{};
        }
        return State{SlidingCounterState{st->startUs,
                                         changed(mode, st->current, old->a, policy.limit),
                                         changed(mode, st->previous, old->a, policy.limit)}};
    }
    case Algorithm::SlidingLog: {
        const auto *log = std::get_if<SlidingLogState>(&stored);
        if (!log) {
            return std::nullopt;
        }
        const qint64 lo = nowUs - policy.windowUs;
        const auto first = std::upper_bound(log->entries.begin(), log->entries.end(), lo);
        const qint64 count = qint64(std::distance(first, log->entries.end()));
        // The script reads the version only when the window holds entries, and a foreign log
        // (the newest 2^52 us or more ahead) is absent whatever its version.
        if (count == 0 || log->entries.back() - nowUs >= maxAheadUs) {
            return std::nullopt;
        }
        if (fresh) {
            return State{};
        }
        const qint64 u = changed(mode, count, old->a, policy.limit);
        if (u == count) {
            return std::nullopt;
        }
        SlidingLogState out = *log;
        const auto at = out.entries.begin() + std::distance(log->entries.begin(), first);
        if (u < count) {
            out.entries.erase(at, at + (count - u)); // the oldest in the window leave first
        } else {
            const qint64 oldest = *at; // the extra units leave with the oldest one
            out.entries.insert(at, std::size_t(u - count), oldest);
        }
        return State{std::move(out)};
    }
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket: {
        const auto *b = std::get_if<BucketState>(&stored);
        if (!b ||
            !(b->level >= 0 && b->level <= maxLevel && detail::storedTime(b->lastUs, nowUs))) {
            return fresh ? std::optional<State>(State{}) : std::nullopt;
        }
        if (fresh) {
            return State{};
        }
        const ReducedRate o = reduce(Rate{old->a, old->b});
        if (old->c > maxLevel / o.p) {
            return State{}; // beyond the exact bounds (Policy::validate): not a rule of ours
        }
        const ReducedRate r = reduce(policy.rate);
        const qint64 oldCap = old->c * o.p;
        const qint64 newCap = policy.burst * r.p;
        const bool token = policy.algorithm == Algorithm::TokenBucket;
        // Used ticks: what a token bucket lacks of full, what a leaky bucket's queue holds.
        const qint64 used = token ? std::max(qint64(0), oldCap - b->level) : b->level;
        const qint64 u = changedTicks(mode, used, old->c, o.p, policy.burst, r.p);
        return State{BucketState{token ? newCap - u : u, b->lastUs}};
    }
    case Algorithm::Gcra: {
        const auto *g = std::get_if<GcraState>(&stored);
        if (!g ||
            !(g->remainder >= 0 && g->remainder < g->denominator && g->denominator <= maxStored)) {
            return fresh ? std::optional<State>(State{}) : std::nullopt;
        }
        if (fresh) {
            return State{};
        }
        const ReducedRate o = reduce(Rate{old->a, old->b});
        if (old->c + 1 > maxLevel / o.p) {
            return State{};
        }
        qint64 v = g->tatUs;
        qint64 x = g->remainder;
        if (x > 0 && g->denominator != o.c) {
            v += 1; // not in the old rate's units: round up to the whole us
            x = 0;
        }
        if (!(v <= maxStored && v - nowUs < maxAheadUs)) {
            return std::nullopt; // foreign: apply() sees no state
        }
        const qint64 oldDvt = (old->c + 1) * o.p;
        // Used, in the old 1/c us: 0 for a past TAT, at most the old DVT.
        qint64 rel = 0;
        if (v >= nowUs) {
            const qint64 d = v - nowUs;
            const qint64 room = oldDvt - x;
            rel = room < 0 || d > room / o.c ? oldDvt : d * o.c + x;
        }
        const ReducedRate r = reduce(policy.rate);
        const qint64 u = changedTicks(mode, rel, old->c + 1, o.p, policy.burst + 1, r.p);
        const qint64 q = u / r.c;
        return State{GcraState{nowUs + q, u - q * r.c, r.c}};
    }
    }
    return std::nullopt;
}

} // namespace sluice::model
