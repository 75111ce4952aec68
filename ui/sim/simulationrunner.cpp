#include "simulationrunner.h"

#include "core/sim/redisrun.h"
#include "core/sim/simulator.h"

#include <QElapsedTimer>
#include <QMutexLocker>
#include <QThread>

namespace sluice::ui {

SimulationRunner::SimulationRunner(QObject *parent)
    : QObject(parent)
{}

SimulationRunner::~SimulationRunner()
{
    if (m_thread) {
        m_cancel.store(true);
        m_thread->disconnect(this);
        m_thread->wait();
        delete m_thread;
    }
}

bool SimulationRunner::start(const sim::Scenario &scenario, const std::optional<Endpoint> &redis)
{
    if (m_thread) {
        return false;
    }
    m_cancel.store(false);
    m_scenario = scenario;
    {
        QMutexLocker lock(&m_mutex);
        m_result.reset();
        m_error.clear();
    }
    m_thread = QThread::create([this, scenario, redis] {
        auto simulator = sim::Simulator::create(scenario);
        if (!simulator) {
            QMutexLocker lock(&m_mutex);
            m_error = simulator.error().message;
            return;
        }
        sim::RunOptions options;
        options.cancel = &m_cancel;
        QElapsedTimer throttle;
        throttle.start();
        options.progress = [this, &throttle](const sim::Progress &p) {
            if (throttle.elapsed() < 50 && p.done < p.total) {
                return;
            }
            throttle.restart();
            QMetaObject::invokeMethod(
                this, [this, p] { Q_EMIT progress(p.done, p.total); }, Qt::QueuedConnection);
        };
        auto result =
            redis ? sim::runOnRedis(*simulator, *redis, options) : simulator->runLocal(options);
        QMutexLocker lock(&m_mutex);
        if (result) {
            m_result = std::move(*result);
        } else {
            m_error = result.error().message;
        }
    });
    m_thread->setObjectName(QStringLiteral("simulation"));
    connect(m_thread, &QThread::finished, this, &SimulationRunner::onThreadFinished);
    m_thread->start();
    return true;
}

void SimulationRunner::cancel()
{
    m_cancel.store(true);
}

void SimulationRunner::onThreadFinished()
{
    QThread *thread = m_thread;
    m_thread = nullptr;
    if (thread) {
        thread->deleteLater();
    }
    std::optional<sim::SimResult> result;
    QString error;
    {
        QMutexLocker lock(&m_mutex);
        result = std::move(m_result);
        m_result.reset();
        error = m_error;
    }
    if (result) {
        Q_EMIT finished(*result, m_scenario);
    } else {
        Q_EMIT failed(error.isEmpty() ? tr("the run stopped without a result") : error);
    }
}

} // namespace sluice::ui
