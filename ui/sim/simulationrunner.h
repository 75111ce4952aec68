#pragma once

#include "simulationworker.h"

#include "core/sim/metrics.h"
#include "core/sim/scenario.h"

#include "core/redis/endpoint.h"

#include "ui/common/workerthread.h"

#include <QObject>
#include <QString>

#include <atomic>
#include <optional>

namespace sluice::ui {

// Runs one simulation at a time on a SimulationWorker in a thread of its own (WorkerThread),
// so that the GUI thread never waits on the traffic generation, the decisions or Redis. On
// Redis the run uses its own connection to the given endpoint and a run-scoped key prefix that
// the simulator removes afterwards (after success, failure or cancel). Lives in the GUI
// thread; its signals arrive there.
class SimulationRunner : public QObject
{
    Q_OBJECT
public:
    explicit SimulationRunner(QObject *parent = nullptr);
    // Cancels a run in progress and waits for it to stop (it checks between two batches of
    // 256 decisions, and a Redis run then deletes its keys).
    ~SimulationRunner() override;

    bool isRunning() const { return m_running; }
    // Starts `scenario` on the in-process twins (no endpoint) or on the scripts in Redis.
    // False when a run is already going.
    bool start(const sim::Scenario &scenario, const std::optional<Endpoint> &redis);
    // Asks the run to stop; finished() then comes with SimResult::cancelled set.
    void cancel();

Q_SIGNALS:
    // Throttled to about 20 per second.
    void progress(qint64 done, qint64 total);
    // The run ended (cancelled or not); `scenario` is the one it ran.
    void finished(const sluice::sim::SimResult &result, const sluice::sim::Scenario &scenario);
    // The run could not be made or stopped on an error (message in words, for the page).
    void failed(const QString &message);

private:
    bool m_running = false;
    sim::Scenario m_scenario;
    std::atomic<bool> m_cancel{false};       // read by the worker's run: outlives m_worker
    WorkerThread<SimulationWorker> m_worker; // last: its thread stops first
};

} // namespace sluice::ui
