#pragma once

#include "metrics.h"
#include "scenario.h"

#include "core/limiter/limiter.h"

#include <QByteArray>

#include <atomic>
#include <functional>
#include <optional>

namespace sluice::sim {

// Where a run is, between two batches.
struct Progress
{
    qint64 done = 0;      // offered requests decided by every rule
    qint64 total = 0;     // offered requests in the run
    qint64 virtualUs = 0; // virtual time reached, since the start of the scenario
};

// One decision, as it is made (tests, a per-subject view).
struct DecisionEvent
{
    int rule = 0; // index in Scenario::rules
    qint64 tUs = 0;
    quint32 subject = 0;
    Decision decision;
};

struct RunOptions
{
    // Decisions per Limiter::decideBatch call: one round trip to Redis for the lot. In-process
    // too, the run checks `cancel` and reports progress once per batch.
    int batch = 256;
    // now_us of virtual time 0. Decisions never depend on the absolute time (no algorithm is
    // aligned to the calendar); this one is a plausible date, well below 2^53 us.
    qint64 epochUs = 1'700'000'000'000'000;
    // min_ttl_ms passed with every decision, so that state written early outlives a run slower
    // than real time (key TTLs run on the wall clock, the decisions on virtual time). Unset:
    // none for the in-process twins, defaultRedisMinTtlMs on Redis (redisrun.h); 0: none at all.
    std::optional<qint64> minTtlMs;
    // Wall-clock guard: a run that takes longer than this (ms) stops with a timeout error rather
    // than risk state that expired under it. 0: none. runOnRedis sets 90% of min_ttl_ms.
    qint64 wallLimitMs = 0;
    // The run's keys are <keyPrefix><rule id>:{<subject>}, {global} for a global rule (each
    // rule's own key_prefix is not used). runOnRedis ignores it and makes a fresh one:
    // sluice:sim:<16 hex digits>:.
    QByteArray keyPrefix = "sim:";
    // Called after every batch, on the thread of the run; keep it cheap (throttle before
    // touching widgets).
    std::function<void(const Progress &)> progress;
    // Checked before every batch: once true, the run stops and returns what it decided so far
    // with SimResult::cancelled set (a Redis run deletes its keys first).
    const std::atomic<bool> *cancel = nullptr;
    // Called for every decision; each rule's come in arrival order (rules take turns batch by
    // batch). Costs a call per decision.
    std::function<void(const DecisionEvent &)> onDecision;
};

// Runs a scenario on a virtual clock through a Limiter: every offered request, in time order,
// is decided by every rule of the scenario (each rule on its own keys, as if it were alone),
// with now_us = epoch + the request's virtual time. The same scenario gives the same decisions
// on the in-process twins and on the scripts in Redis, whatever the wall-clock speed of the run.
// Not thread-safe; run it in one worker thread. The simulator knows only Limiter: a run on
// Redis, with its own connection, run prefix and clean-up, is sim::runOnRedis (redisrun.h).
class Simulator
{
public:
    // Checks the scenario and generates its traffic (seeded: the same requests every time).
    static Result<Simulator> create(Scenario scenario);

    const Scenario &scenario() const { return m_scenario; }
    const Traffic &traffic() const { return m_traffic; }

    // Through any limiter, which must hold none of the run's keys yet. `backend` names it in
    // the result. Errors: a failed round trip or decision (the run stops there).
    Result<SimResult> run(Limiter &limiter, const RunOptions &options,
                          const QString &backend) const;
    // The in-process fast path ("twin slots"), the simulator's own backend: the arithmetic of
    // LocalModel (model::apply) on each (rule, subject) state in a slot of its own, expiring on
    // the virtual clock as LocalModel's keys do, without LocalModel's key hashing and sweeps
    // (9x faster on a million requests). Its contract is the test that runs every preset
    // through run() on a LocalModel and through runLocal() and finds the same results
    // (tst_simulator anyLimiter), beside the local == Redis test.
    Result<SimResult> runLocal(const RunOptions &options = {}) const;

private:
    Simulator(Scenario scenario, Traffic traffic)
        : m_scenario(std::move(scenario))
        , m_traffic(std::move(traffic))
    {}
    // limiter == nullptr: the twin slots (model::apply on a state per key).
    Result<SimResult> runWith(Limiter *limiter, const RunOptions &options,
                              const QString &backend) const;

    Scenario m_scenario;
    Traffic m_traffic;
};

} // namespace sluice::sim
