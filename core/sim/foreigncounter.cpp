#include "foreigncounter.h"

#include "core/common/duration.h"

#include <algorithm>

namespace sluice::sim {

using adoption::CounterScript;

qint64 ForeignCounter::ttlMs() const
{
    const qint64 ms = std::max<qint64>(1, windowUs / duration::usPerMs);
    if (script == CounterScript::GetIncrExpire) {
        return std::max<qint64>(1, (ms + 999) / 1000) * 1000;
    }
    return ms;
}

namespace {

// The decision as the library's caller reads it: allowed while the count is within the limit;
// the reset is the key's TTL (-1: never).
Decision decision(const ForeignCounter &c, const ForeignState &s, bool allowed, qint64 nowUs)
{
    Decision d;
    d.allowed = allowed;
    d.limit = c.limit;
    d.remaining = std::max<qint64>(0, c.limit - s.count);
    const qint64 left = s.expiresAtMs < 0 ? -1 : std::max<qint64>(0, s.expiresAtMs - nowUs / 1000);
    d.resetAfterMs = left;
    d.retryAfterMs = allowed ? -1 : left;
    return d;
}

} // namespace

ForeignOutcome decide(const ForeignCounter &c, ForeignState &s, qint64 nowUs)
{
    ForeignOutcome out;
    const qint64 nowMs = nowUs / 1000;
    if (!s.aliveAt(nowUs)) {
        s = ForeignState{};
    }
    switch (c.script) {
    case CounterScript::GetIncrExpire:
        // local current = GET; if current and current > count then return current end;
        // current = INCR; if current == 1 then EXPIRE key window_s end; return current
        if (s.exists && s.count > c.limit) {
            out.decision = decision(c, s, false, nowUs);
            return out;
        }
        [[fallthrough]];
    case CounterScript::IncrExpire:
        // INCR (making the key, without TTL, when absent); the EXPIRE when it answered 1.
        if (!s.exists) {
            s.exists = true;
            s.expiresAtMs = -1;
        }
        if (++s.count == 1) {
            s.expiresAtMs = nowMs + c.ttlMs();
        }
        out.decision = decision(c, s, s.count <= c.limit, nowUs);
        return out;
    case CounterScript::IncrRepairTtl:
        // INCR; PTTL; PEXPIRE <window> when PTTL < 0: a key without TTL gets one back.
        if (!s.exists) {
            s.exists = true;
            s.expiresAtMs = -1;
        }
        ++s.count;
        if (s.expiresAtMs < 0) {
            s.expiresAtMs = nowMs + c.ttlMs();
        }
        out.decision = decision(c, s, s.count <= c.limit, nowUs);
        return out;
    case CounterScript::Calendar: {
        const qint64 windowMs = std::max<qint64>(1, c.windowUs / duration::usPerMs);
        const qint64 window = nowMs / windowMs;
        if (s.exists && s.windowStart != window) {
            s = ForeignState{}; // another window: another key
        }
        if (!s.exists) {
            s.exists = true;
            s.windowStart = window;
            s.expiresAtMs = (window + 1) * windowMs;
        }
        ++s.count;
        out.decision = decision(c, s, s.count <= c.limit, nowUs);
        return out;
    }
    case CounterScript::GetThenIncr: {
        // GET at now: absent, SET key 1 PX window; at or above the limit, deny; else INCR one
        // round trip later, on a key that may have expired meanwhile.
        if (!s.exists) {
            s.exists = true;
            s.count = 1;
            s.expiresAtMs = nowMs + c.ttlMs();
            out.decision = decision(c, s, true, nowUs);
            return out;
        }
        if (s.count >= c.limit) {
            out.decision = decision(c, s, false, nowUs);
            return out;
        }
        const qint64 incrAtUs = nowUs + c.roundTripUs;
        if (!s.aliveAt(incrAtUs)) {
            s = ForeignState{}; // INCR on a key that is gone: 1, and no TTL
            s.exists = true;
            s.expiresAtMs = -1;
            out.lostTtl = true;
        }
        ++s.count;
        out.decision = decision(c, s, s.count <= c.limit, nowUs);
        return out;
    }
    }
    return out;
}

} // namespace sluice::sim
