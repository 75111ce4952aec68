#pragma once

#include "core/sim/metrics.h"
#include "core/sim/scenario.h"

#include "core/redis/endpoint.h"

#include <QMutex>
#include <QObject>
#include <QString>

#include <atomic>
#include <optional>

class QThread;

namespace sluice::ui {

// Runs one simulation at a time in a thread of its own, so that the GUI thread never waits on
// the traffic generation, the decisions or Redis. On Redis the run uses its own connection to
// the given endpoint and a run-scoped key prefix that the simulator removes afterwards (after
// success, failure or cancel). Lives in the GUI thread; its signals arrive there.
class SimulationRunner : public QObject
{
    Q_OBJECT
public:
    explicit SimulationRunner(QObject *parent = nullptr);
    // Cancels a run in progress and waits for it to stop (it checks between two batches of
    // 256 decisions, and a Redis run then deletes its keys).
    ~SimulationRunner() override;

    bool isRunning() const { return m_thread != nullptr; }
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
    void onThreadFinished();

    QThread *m_thread = nullptr;
    std::atomic<bool> m_cancel{false};
    sim::Scenario m_scenario;
    // Written by the run's thread before it ends, read on the GUI thread after.
    QMutex m_mutex;
    std::optional<sim::SimResult> m_result;
    QString m_error;
};

} // namespace sluice::ui
