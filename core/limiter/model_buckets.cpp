#include "model_p.h"

#include <algorithm>

// The twins of lua/token_bucket.lua, lua/leaky_bucket.lua and lua/gcra.lua: the same integer
// arithmetic, step for step (lua/README.md). Where a script compares a product that may be
// inexact in a double (dt x c against a level), the twin compares the quotient instead
// (dt >= ceil(level / c)); both decide exactly the same, and neither overflows.

namespace sluice::model::detail {

namespace {

// floor(a / b) like the scripts' idiv (levels are never negative, but mirror it anyway).
qint64 floorDiv(qint64 a, qint64 b)
{
    return a >= 0 ? a / b : -ceilDiv(-a, b);
}

// lua/token_bucket.lua and lua/leaky_bucket.lua: l in 0..2^52, t a stored time.
bool storedBucket(const BucketState &b, qint64 nowUs)
{
    return b.level >= 0 && b.level <= maxLevel && storedTime(b.lastUs, nowUs);
}

// The bucket a script reads: the stored level and time, or `absent` at now where there is no
// bucket (a missing key, another algorithm's state, a foreign one). The clock stepped back:
// the stored time never moves backwards (`atUs`), and no time passes (`dtUs` 0).
struct Read
{
    qint64 level;
    qint64 atUs;
    qint64 dtUs;
};

Read readBucket(const State &s, qint64 nowUs, qint64 absent)
{
    qint64 level = absent;
    qint64 lastUs = nowUs;
    if (const auto *b = std::get_if<BucketState>(&s); b && storedBucket(*b, nowUs)) {
        level = b->level;
        lastUs = b->lastUs;
    }
    const qint64 e = std::max(nowUs, lastUs);
    return {level, e, e - lastUs};
}

Decision decision(bool allowed, qint64 limit, qint64 remaining, qint64 retryMs, qint64 resetMs,
                  qint64 delayMs = 0)
{
    Decision d;
    d.allowed = allowed;
    d.limit = limit;
    d.remaining = remaining;
    d.retryAfterMs = retryMs;
    d.resetAfterMs = resetMs;
    d.delayMs = delayMs;
    return d;
}

} // namespace

Outcome tokenBucket(const Policy &p, State &s, qint64 cost, qint64 nowUs)
{
    const ReducedRate r = reduce(p.rate);
    const qint64 cap = p.burst * r.p;

    // No bucket is a full one; a clock stepped back refills nothing.
    const Read read = readBucket(s, nowUs, cap);
    qint64 level = read.level;
    const qint64 e = read.atUs;
    const qint64 dt = read.dtUs;
    if (dt >= ceilDiv(cap - level, r.c)) {
        level = cap;
    } else {
        level += dt * r.c;
    }

    Outcome out;
    bool allowed = true;
    qint64 retryMs = -1;
    if (cost > p.burst) {
        allowed = false;
    } else {
        const qint64 need = cost * r.p;
        if (level >= need) {
            if (cost > 0) {
                level -= need;
                s = BucketState{level, e};
                out.wrote = true;
            }
        } else {
            allowed = false;
            retryMs = usToMsCeil(e - nowUs + ceilDiv(need - level, r.c));
        }
    }
    out.decision = decision(allowed, p.burst, floorDiv(level, r.p), retryMs,
                            usToMsCeil(e - nowUs + ceilDiv(cap - level, r.c)));
    return out;
}

Outcome leakyBucket(const Policy &p, State &s, qint64 cost, qint64 nowUs)
{
    const ReducedRate r = reduce(p.rate);
    const qint64 cap = p.burst * r.p;

    // No bucket is an empty queue; a clock stepped back drains nothing.
    const Read read = readBucket(s, nowUs, 0);
    qint64 level = read.level;
    const qint64 e = read.atUs;
    const qint64 dt = read.dtUs;
    if (dt >= ceilDiv(level, r.c)) {
        level = 0;
    } else {
        level -= dt * r.c;
    }

    Outcome out;
    bool allowed = true;
    qint64 retryMs = -1;
    qint64 delayMs = 0;
    if (cost > p.burst) {
        allowed = false;
    } else {
        const qint64 need = cost * r.p;
        if (cost == 0 || level + need <= cap) {
            // The queue ahead of this request drains in level / c us, counted from e.
            delayMs = usToMsCeil(e - nowUs + ceilDiv(level, r.c));
            if (cost > 0) {
                level += need;
                s = BucketState{level, e};
                out.wrote = true;
            }
        } else {
            allowed = false;
            retryMs = usToMsCeil(e - nowUs + ceilDiv(level + need - cap, r.c));
        }
    }
    const qint64 remaining = level < cap ? floorDiv(cap - level, r.p) : 0;
    out.decision = decision(allowed, p.burst, remaining, retryMs,
                            usToMsCeil(e - nowUs + ceilDiv(level, r.c)), delayMs);
    return out;
}

Outcome gcra(const Policy &p, State &s, qint64 cost, qint64 nowUs)
{
    const ReducedRate r = reduce(p.rate);
    const qint64 limit = p.burst + 1;
    // Times in 1/c us: the emission interval T is P, the tolerance DVT is P x (burst + 1).
    const qint64 dvt = limit * r.p;

    // base = max(TAT, now) = tatUs + rem / c with tatUs >= now. A missing key is TAT = now.
    qint64 tatUs = nowUs;
    qint64 rem = 0;
    const auto *g = std::get_if<GcraState>(&s);
    // A remainder that is not a fraction is a foreign state (lua/gcra.lua), so is absent.
    if (g && g->remainder >= 0 && g->remainder < g->denominator && g->denominator <= maxStored) {
        qint64 v = g->tatUs;
        qint64 x = g->remainder;
        // Written under another rate: round up to the whole us (never over-admit).
        if (x > 0 && g->denominator != r.c) {
            v += 1;
            x = 0;
        }
        // Past TATs mean nothing; one 2^52 us or more ahead (or above 2^53 - 1) is foreign.
        if (v >= nowUs && v <= maxStored && v - nowUs < maxAheadUs) {
            tatUs = v;
            rem = x;
        }
    }

    // rel = d x c + rem, unless it exceeds DVT ("far", only after a clock step back), in which
    // case it is never multiplied out. d x c > dvt - rem, computed without the product.
    const qint64 d = tatUs - nowUs;
    const qint64 room = dvt - rem;
    const bool far = room < 0 || d > room / r.c;
    const qint64 rel = far ? 0 : d * r.c + rem;

    Outcome out;
    bool allowed = true;
    qint64 retryMs = -1;
    if (cost > limit) {
        allowed = false;
    } else if (cost > 0) {
        const qint64 need = cost * r.p;
        if (!far && rel + need <= dvt) {
            // new TAT = base + need / c = (tatUs + q) + x / c; reset = ceil(rel' / c) us.
            const qint64 sum = rem + need;
            const qint64 q = sum / r.c;
            const qint64 x = sum - q * r.c;
            s = GcraState{tatUs + q, x, r.c};
            out.wrote = true;
            out.decision = decision(true, limit, (dvt - rel - need) / r.p, -1,
                                    usToMsCeil(d + q + (x > 0 ? 1 : 0)));
            return out;
        }
        // Denied: ceil((d x c + rem + need - dvt) / c) = d + ceil((rem + need - dvt) / c) us.
        allowed = false;
        retryMs = usToMsCeil(d + ceilDiv(rem + need - dvt, r.c));
    }
    const qint64 remaining = far ? 0 : (dvt - rel) / r.p;
    out.decision = decision(allowed, limit, remaining, retryMs, usToMsCeil(d + (rem > 0 ? 1 : 0)));
    return out;
}

} // namespace sluice::model::detail
