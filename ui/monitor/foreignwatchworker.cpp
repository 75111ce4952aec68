#include "foreignwatchworker.h"

#include "ui/common/workerthread.h"

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <limits>

using namespace std::chrono_literals;

namespace sluice::ui {

ForeignWatchWorker::ForeignWatchWorker(int intervalMs, QObject *parent)
    : QObject(parent)
    , m_intervalMs(intervalMs)
{}

ForeignWatchWorker::~ForeignWatchWorker() = default;

void ForeignWatchWorker::start()
{
    m_timer = new QTimer(this);
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, &ForeignWatchWorker::tick);
}

void ForeignWatchWorker::setEndpoint(std::optional<Endpoint> endpoint, quint64 session,
                                     double scanBudget)
{
    m_connection = workerConnection(std::move(endpoint), 3s, 1s);
    m_session = session;
    m_scanBudget = scanBudget;
    restartSamples();
}

void ForeignWatchWorker::setAdoptions(QList<keys::Adoption> adoptions)
{
    m_adoptions = std::move(adoptions);
    restartSamples();
}

void ForeignWatchWorker::setActive(bool on)
{
    m_active = on;
    restartSamples();
}

// A change of what to read: the last sample is no base to compare with; sample at once.
void ForeignWatchWorker::restartSamples()
{
    m_last.reset();
    if (m_timer == nullptr) {
        return;
    }
    m_timer->stop();
    if (m_active && m_connection) {
        m_timer->start(0);
    }
}

void ForeignWatchWorker::tick()
{
    if (!m_active || !m_connection || m_cancel) {
        return;
    }
    QElapsedTimer took;
    took.start();
    QString error;
    if (auto c = m_connection->get(); !c) {
        error = c.error().message;
    }
    if (error.isEmpty()) {
        keys::KeyWatcher::Options o;
        o.adoptions = m_adoptions;
        o.scan.maxKeysPerSecond = m_scanBudget;
        o.cancel = &m_cancel;
        o.maxKeys = 200'000;
        keys::WatchSample s = keys::KeyWatcher::sample(*m_connection->current(), o);
        if (s.error) {
            error = s.error->message;
            m_last.reset();
        } else {
            if (m_last) {
                Q_EMIT reportReady(m_session, keys::KeyWatcher::compare(*m_last, s), QString());
            }
            m_last = std::move(s);
        }
    }
    if (!error.isEmpty()) {
        Q_EMIT reportReady(m_session, keys::WatchReport{}, error);
    }
    // Every interval; a sample that takes longer than a fifth of it is followed by a pause four
    // times as long, so that a large keyspace costs the server at most a fifth of one
    // connection's time.
    const qint64 spent = took.elapsed();
    m_timer->start(int(std::min<qint64>(std::max<qint64>(m_intervalMs - spent, 4 * spent),
                                        std::numeric_limits<int>::max())));
}

} // namespace sluice::ui
