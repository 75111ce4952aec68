#pragma once

#include "core/limiter/decision.h"
#include "core/rules/adoption.h"

#include <QtGlobal>

// The in-process twin of another library's fixed-window counter, the one a rule's `adopt`
// block names (FORMATS.md "adopt", "simulate"): what that counter decides for a request at a
// given instant, on a virtual clock, so that a scenario runs it beside Sluice's algorithms.
// Key expiry follows Redis: a key whose expiry is at `when` ms is gone once now_ms > when.
// tst_foreigncounter drives the real Lua and commands of each script on the fixture's Redis
// and finds the same decisions.
namespace sluice::sim {

struct ForeignCounter
{
    adoption::CounterScript script = adoption::CounterScript::GetIncrExpire;
    qint64 limit = 0;
    qint64 windowUs = 0;
    // get_then_incr: the time between its GET and its INCR (one round trip of the client).
    qint64 roundTripUs = 1000;

    // The TTL its writes set, in ms: EXPIRE takes whole seconds (get_incr_expire rounds the
    // window up to one), PEXPIRE milliseconds.
    qint64 ttlMs() const;
};

// The key of one subject, as Redis holds it.
struct ForeignState
{
    bool exists = false;
    qint64 count = 0;
    qint64 expiresAtMs = -1; // -1: no TTL (never expires)
    qint64 windowStart = 0;  // calendar: the window the key is for (now / window)

    bool aliveAt(qint64 nowUs) const
    {
        return exists && (expiresAtMs < 0 || nowUs / 1000 <= expiresAtMs);
    }
};

struct ForeignOutcome
{
    Decision decision;
    bool lostTtl = false; // this request left the key without TTL (get_then_incr)
};

// One request of cost 1 at `nowUs`.
ForeignOutcome decide(const ForeignCounter &counter, ForeignState &state, qint64 nowUs);

} // namespace sluice::sim
