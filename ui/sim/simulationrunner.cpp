#include "simulationrunner.h"

namespace sluice::ui {

SimulationRunner::SimulationRunner(QObject *parent)
    : QObject(parent)
    , m_worker(QStringLiteral("simulation"))
{
    connect(m_worker.get(), &SimulationWorker::progress, this, [this](qint64 done, qint64 total) {
        if (m_running) {
            Q_EMIT progress(done, total);
        }
    });
    connect(m_worker.get(), &SimulationWorker::ran, this, [this](const sim::SimResult &result) {
        m_running = false;
        Q_EMIT finished(result, m_scenario);
    });
    connect(m_worker.get(), &SimulationWorker::failed, this, [this](const QString &message) {
        m_running = false;
        Q_EMIT failed(message.isEmpty() ? tr("the run stopped without a result") : message);
    });
}

SimulationRunner::~SimulationRunner()
{
    // The run sees it within a batch; m_worker then quits and waits for its thread.
    m_cancel.store(true);
}

bool SimulationRunner::start(const sim::Scenario &scenario, const std::optional<Endpoint> &redis)
{
    if (m_running) {
        return false;
    }
    m_running = true;
    m_cancel.store(false);
    m_scenario = scenario;
    m_worker.post([scenario, redis, cancel = &m_cancel](SimulationWorker *w) {
        w->run(scenario, redis, cancel);
    });
    return true;
}

void SimulationRunner::cancel()
{
    m_cancel.store(true);
}

} // namespace sluice::ui
