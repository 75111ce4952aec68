#pragma once

#include "core/sim/metrics.h"
#include "core/sim/scenario.h"

#include "core/redis/endpoint.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <optional>

namespace sluice::ui {

// The Simulation page's worker (SimulationRunner's WorkerThread): runs one simulation at a
// time, synchronously, in the worker's thread, so that the GUI thread never waits on the
// traffic generation, the decisions or Redis. On Redis the run opens its own connection to the
// endpoint and writes under a run-scoped key prefix that the simulator removes afterwards
// (after success, failure or cancel). Its signals are emitted in the worker's thread.
class SimulationWorker : public QObject
{
    Q_OBJECT
public:
    // `cancel` is checked between two batches of 256 decisions; it must outlive the call.
    void run(const sim::Scenario &scenario, const std::optional<Endpoint> &redis,
             const std::atomic<bool> *cancel);

Q_SIGNALS:
    // Throttled to about 20 per second.
    void progress(qint64 done, qint64 total);
    // The run ended (cancelled or not).
    void ran(const sluice::sim::SimResult &result);
    // The run could not be made or stopped on an error (in words; empty: no word why).
    void failed(const QString &message);
};

} // namespace sluice::ui
