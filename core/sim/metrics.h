#pragma once

#include "core/limiter/policy.h"

#include <QByteArray>
#include <QString>
#include <QtGlobal>

#include <optional>
#include <vector>

namespace sluice::sim {

// The largest number of events in any half-open span [t, t + W), computed exactly by a
// two-pointer sweep over event times fed in non-decreasing order: the events still inside the
// span that ends at the newest one are kept (O(events in one span) memory), the oldest leave
// as the newest arrives. In integer microseconds (t_i - W, t_i] and [t_i - W + 1, t_i + 1) are
// the same span, and a span holding the most events can always be slid until its last event
// sits at its end, so the maximum over the spans ending at an event is the maximum over all.
class WindowCounter
{
public:
    explicit WindowCounter(qint64 windowUs = 1)
        : m_windowUs(windowUs)
    {}
    // tUs must not be smaller than the previous one.
    void add(qint64 tUs);
    qint64 max() const { return m_max; }
    // The first event of (the first) span holding max() events; -1 while there is none.
    qint64 maxStartUs() const { return m_maxStartUs; }

private:
    qint64 m_windowUs;
    // The events of the current span, oldest first: a ring of power-of-two capacity.
    std::vector<qint64> m_ring = std::vector<qint64>(16);
    size_t m_head = 0;
    size_t m_size = 0;
    qint64 m_max = 0;
    qint64 m_maxStartUs = -1;
};

// The other limiter a rule adopts (FORMATS.md "adopt"), run beside the rules by its twin
// (foreigncounter.h): a RuleResult of its own, named <rule>@<layout>.
struct AdoptedRun
{
    QString rule;   // the rule that adopts it
    QString layout; // string_counter, ...
    QString script; // get_incr_expire, ...
    qint64 limit = 0;
    qint64 windowUs = 0;
    // The virtual time (since the start) of the first request that left a key without TTL
    // (get_then_incr: an INCR after the expiry); -1: none did.
    qint64 lostTtlAtUs = -1;
    friend bool operator==(const AdoptedRun &, const AdoptedRun &) = default;
};

// One row of FORMATS.md's `simulate --json` results: what one rule did with the traffic.
struct RuleResult
{
    QString rule;
    Algorithm algorithm = Algorithm::FixedWindow;
    qint64 offered = 0;
    qint64 admitted = 0;
    qint64 rejected = 0;
    // Admissions in the busiest half-open span [t, t + measure_window), over all subjects.
    qint64 maxAdmittedInWindow = 0;
    qint64 maxAdmittedWindowStartUs = -1; // where that span starts (for shading), -1: none
    // The same on release times (admission + delay: the leaky bucket's output).
    qint64 maxReleasedInWindow = 0;
    qint64 maxReleasedWindowStartUs = -1;
    qint64 peakAdmittedPerBin = 0;
    double meanDelayMs = 0; // over admitted requests
    qint64 maxDelayMs = 0;
    std::optional<AdoptedRun> adopted; // set: the twin of an adopted limiter, not a rule

    friend bool operator==(const RuleResult &, const RuleResult &) = default;
};

// One bin of one rule's time series. A request counts in the bin of its arrival (offered,
// admitted, rejected) and, when admitted, in the bin of its release (released), which for the
// leaky bucket may come bins later (even after the end of the scenario: the series then has
// more bins than duration / bin).
struct SeriesBin
{
    qint64 offered = 0;
    qint64 admitted = 0;
    qint64 rejected = 0;
    qint64 released = 0;
    friend bool operator==(const SeriesBin &, const SeriesBin &) = default;
};

// The outcome of a run.
struct SimResult
{
    QString scenario;
    QString backend; // "local" | "redis"
    qint64 binUs = 0;
    qint64 measureWindowUs = 0;
    std::vector<RuleResult> rules;
    std::vector<std::vector<SeriesBin>> series; // [rule][bin], every rule has the same bin count
    // Offered requests decided; less than the traffic's when the run was cancelled.
    qint64 processed = 0;
    qint64 total = 0;
    bool cancelled = false;
    // A hash of every decision (allowed, remaining, retry, reset, delay), rule by rule in
    // arrival order: equal on two backends when every decision was (but for a 2^-64 chance).
    quint64 digest = 0;
    double wallSeconds = 0; // the run alone (not generating the traffic)
    QByteArray keyPrefix;   // the prefix the run's keys had
    QString warning;        // something the user should know (keys left behind, ...)

    qint64 bins() const { return series.empty() ? 0 : qint64(series.front().size()); }
    // The results and the series, what must agree between backends (not backend, timing, ...).
    bool sameOutcome(const SimResult &other) const
    {
        return rules == other.rules && series == other.series && digest == other.digest &&
               processed == other.processed;
    }
};

namespace report {

// FORMATS.md: {"scenario": NAME, "backend": "local"|"redis", "results": [...]}, one object per
// rule with its fields in the documented order, one line, no trailing newline.
QByteArray json(const SimResult &r);
// The time series: "t_ms,rule,offered,admitted,rejected,released", then one row per bin and
// rule (bins in order, rules in scenario order within a bin). Rule ids need no quoting
// ([A-Za-z0-9._-]).
QByteArray csv(const SimResult &r);

} // namespace report
} // namespace sluice::sim
