#include "model_p.h"

#include <algorithm>
#include <iterator>

// The twins of lua/fixed_window.lua, lua/sliding_log.lua and lua/sliding_counter.lua. Every
// step follows the script (lua/README.md), in qint64: C++ integer division is exact where the
// scripts need their corrected idiv, and the parameters' 2^53 bounds (Policy::validate) keep
// every product far from overflow.

namespace sluice::model::detail {

namespace {

Decision windowDecision(bool allowed, qint64 limit, qint64 remaining, qint64 retryAfterMs,
                        qint64 resetAfterMs)
{
    Decision d;
    d.allowed = allowed;
    d.limit = limit;
    d.remaining = std::max(remaining, qint64(0)); // < 0 only after the limit was lowered
    d.retryAfterMs = retryAfterMs;
    d.resetAfterMs = resetAfterMs;
    d.delayMs = 0;
    return d;
}

} // namespace

Outcome fixedWindow(const Policy &p, State &s, qint64 cost, qint64 nowUs)
{
    const qint64 limit = p.limit;
    const qint64 window = p.windowUs;
    auto *st = std::get_if<FixedWindowState>(&s);
    if (st && !(storedTime(st->startUs, nowUs) && storedCount(st->count))) {
        st = nullptr; // foreign: no window, and the next admission rewrites both fields
    }

    // The window is live while now - s < W; a clock before s keeps it live.
    qint64 count = 0;
    qint64 leftUs = 0; // until the live window ends; 0 when there is none
    if (st && nowUs - st->startUs < window) {
        count = st->count;
        leftUs = window - (nowUs - st->startUs);
    }

    Outcome out;
    bool allowed = true;
    if (cost > 0) {
        // cost <= limit and a denial imply count > 0: the window is live and its end admits.
        allowed = count + cost <= limit;
        // A counted denial (count_rejected) is written as an admission into the live window.
        const bool counted = !allowed && p.countRejected && cost <= limit;
        if ((allowed || counted) && leftUs > 0) {
            st->count += cost;
            count += cost;
            out.wrote = true;
            out.keepsTtl = true; // HINCRBY: the TTL set where the window opened stays
        } else if (allowed) {
            s = FixedWindowState{nowUs, cost};
            count = cost;
            leftUs = window;
            out.wrote = true;
        }
    }

    const qint64 resetMs = usToMsCeil(leftUs);
    const qint64 retryMs = allowed || cost > limit ? -1 : resetMs;
    out.decision = windowDecision(allowed, limit, limit - count, retryMs, resetMs);
    return out;
}

Outcome slidingLog(const Policy &p, State &s, qint64 cost, qint64 nowUs)
{
    const qint64 limit = p.limit;
    const qint64 window = p.windowUs;
    const auto *log = std::get_if<SlidingLogState>(&s);
    // Foreign: the newest entry 2^52 us or more ahead (the script deletes the key on admission).
    const bool foreign = log && !log->entries.empty() && log->entries.back() - nowUs >= maxAheadUs;
    if (!log || foreign) {
        // Absent (or not a log): an empty log, which admits any cost <= limit, so the state is
        // replaced only when the script would write.
        if (cost == 0 || cost > limit) {
            return {windowDecision(cost == 0, limit, limit, -1, 0), false, 0};
        }
        s = SlidingLogState{};
    }
    std::deque<qint64> &entries = std::get<SlidingLogState>(s).entries;

    // Entries with score <= lo have left the window; the ones after now (clock stepped back)
    // still count. ZCOUNT key (lo +inf.
    const qint64 lo = nowUs - window;
    const auto first = std::upper_bound(entries.begin(), entries.end(), lo);
    const qint64 count = qint64(std::distance(first, entries.end()));
    const auto resetFrom = [&](qint64 newest) { return usToMsCeil(window - (nowUs - newest)); };

    Outcome out;
    if (cost > 0 && count + cost > limit && p.countRejected && cost <= limit) {
        // A counted denial (count_rejected): the cost's entries are added at now as an
        // admission's would be, and the oldest ones leave so that the log keeps exactly
        // `limit` entries. The decisions are those of a log that kept them all (a window
        // holding `limit` or more denies every cost > 0, and fewer than `limit` newest
        // entries are all kept); the log stays at most `limit` entries long.
        entries.erase(entries.begin(), first);
        entries.erase(entries.begin(), entries.begin() + (count + cost - limit));
        entries.insert(std::upper_bound(entries.begin(), entries.end(), nowUs), std::size_t(cost),
                       nowUs);
        out.wrote = true;
        // The request again is admitted once the cost-th oldest entry has left.
        const qint64 retryMs = usToMsCeil(window - (nowUs - entries[std::size_t(cost - 1)]));
        out.decision = windowDecision(false, limit, 0, retryMs, resetFrom(entries.back()));
        return out;
    }
    if (cost > 0 && count + cost > limit) {
        qint64 retryMs = -1;
        if (cost <= limit) {
            // The (count + cost - limit)-th oldest entry in the window must leave first.
            const qint64 k = count + cost - limit;
            const qint64 score = *(first + (k - 1));
            retryMs = usToMsCeil(window - (nowUs - score));
        }
        out.decision = windowDecision(false, limit, limit - count, retryMs,
                                      count > 0 ? resetFrom(entries.back()) : 0);
        return out;
    }
    if (cost == 0) {
        out.decision = windowDecision(true, limit, limit - count, -1,
                                      count > 0 ? resetFrom(entries.back()) : 0);
        return out;
    }

    // Admitted: ZREMRANGEBYSCORE -inf lo, then ZADD cost entries at now (in score order).
    entries.erase(entries.begin(), first);
    entries.insert(std::upper_bound(entries.begin(), entries.end(), nowUs), std::size_t(cost),
                   nowUs);
    out.wrote = true;
    out.decision =
        windowDecision(true, limit, limit - (count + cost), -1, resetFrom(entries.back()));
    return out;
}

Outcome slidingCounter(const Policy &p, State &s, qint64 cost, qint64 nowUs)
{
    const qint64 limit = p.limit;
    const qint64 window = p.windowUs;
    const auto *stored = std::get_if<SlidingCounterState>(&s);
    // Foreign (lua/sliding_counter.lua): absent, so empty; an admission rewrites s c p.
    if (stored &&
        !(storedTime(stored->startUs, nowUs) && stored->current >= 0 && stored->previous >= 0 &&
          stored->current <= maxStored / window && stored->previous <= maxStored / window)) {
        stored = nullptr;
    }

    // Roll the stored state forward to now: k = floor((now - s) / W), 0 when now < s.
    qint64 start = 0;
    qint64 current = 0;
    qint64 previous = 0;
    bool rolled = false;
    if (stored) {
        start = stored->startUs;
        current = stored->current;
        previous = stored->previous;
        const qint64 d = nowUs - start;
        if (d >= window) {
            if (d < 2 * window) {
                previous = current; // k = 1: this count becomes the previous one
                current = 0;
                start += window;
                rolled = true;
            } else {
                current = 0; // k >= 2: both counts have slid out
                previous = 0;
            }
        }
    }
    const bool empty = current == 0 && previous == 0;
    const qint64 elapsed = empty ? 0 : std::max(nowUs - start, qint64(0));
    const qint64 nw = limit * window;

    Outcome out;
    bool allowed = true;
    if (cost > 0) {
        qint64 by = cost; // what is added to the current count
        if (cost > limit || previous * (window - elapsed) + (current + cost) * window > nw) {
            allowed = false;
            // Counted (count_rejected) up to the limit, so that the products stay exact. A
            // denial finds a count > 0: never an empty state.
            by =
                p.countRejected && cost <= limit ? std::clamp(limit - current, qint64(0), cost) : 0;
        }
        if (by > 0) {
            if (empty) {
                start = nowUs; // a new grid anchored at now
                current = by;
                previous = 0;
            } else {
                // HINCRBY into a current count > 0 keeps the end of the next window, and so
                // the TTL (lua/sliding_counter.lua); after a roll the script HSETs s c p.
                out.keepsTtl = !rolled && current > 0;
                current += by;
            }
            s = SlidingCounterState{start, current, previous};
            out.wrote = true;
        }
    }

    const qint64 x = nw - previous * (window - elapsed) - current * window;
    const qint64 remaining = x > 0 ? x / window : 0;
    qint64 resetMs = 0;
    if (current > 0) {
        resetMs = usToMsCeil(2 * window - (nowUs - start));
    } else if (previous > 0) {
        resetMs = usToMsCeil(window - (nowUs - start));
    }

    qint64 retryMs = -1;
    if (!allowed && cost <= limit) {
        const qint64 d = limit - current - cost;
        qint64 eMin = window;
        if (d >= 0 && previous > 0) {
            eMin = window - d * window / previous;
        }
        qint64 retryUs = 0;
        if (eMin < window) {
            // Later in this window, once the previous window's weight has fallen enough.
            retryUs = eMin - (nowUs - start);
        } else {
            // In the next window, where this window's count becomes the previous one.
            qint64 e2 = 0;
            if (current > 0) {
                e2 = std::max(window - (limit - cost) * window / current, qint64(0));
            }
            retryUs = window + e2 - (nowUs - start);
        }
        retryMs = usToMsCeil(retryUs);
    }
    out.decision = windowDecision(allowed, limit, remaining, retryMs, resetMs);
    return out;
}

} // namespace sluice::model::detail
