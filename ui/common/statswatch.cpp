#include "statswatch.h"

#include "core/redis/errors.h"
#include "core/stats/statsflusher.h"

#include <QTimer>

namespace sluice::ui {

StatsWatch::StatsWatch(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setInterval(500);
    connect(m_timer, &QTimer::timeout, this, &StatsWatch::poll);
}

void StatsWatch::watch(const stats::StatsFlusher *flusher, const QString &user)
{
    m_flusher = flusher;
    m_user = user.isEmpty() ? QStringLiteral("default") : user;
    if (m_flusher) {
        m_timer->start();
    } else {
        m_timer->stop();
    }
    poll();
}

QString StatsWatch::text() const
{
    if (!m_failing) {
        return {};
    }
    if (!m_grant.isEmpty()) {
        return tr("Statistics are not written: grant %1").arg(m_grant);
    }
    return tr("Statistics are not written: %1").arg(m_error);
}

void StatsWatch::poll()
{
    bool failing = false;
    QString error;
    if (m_flusher) {
        const stats::StatsFlusher::Status s = m_flusher->status();
        failing = !s.redisOk;
        error = s.lastError;
    }
    if (failing == m_failing && (!failing || error == m_error)) {
        return;
    }
    const bool turned = failing != m_failing;
    m_failing = failing;
    m_error = failing ? error : QString();
    m_grant = failing ? redis::grantOf(error, m_user) : QString();
    if (turned) {
        Q_EMIT changed(); // once per streak: a new wording of the same failure is no news
    }
}

} // namespace sluice::ui
