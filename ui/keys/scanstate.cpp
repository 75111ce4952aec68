#include "scanstate.h"

#include "keypresentation.h"

#include "ui/connection/connectionprofile.h"

#include <QLocale>
#include <QTimer>

namespace sluice::ui {

namespace {

QString number(qint64 n)
{
    return QLocale().toString(n);
}

QString timeOfDay(const QDateTime &t)
{
    return t.toLocalTime().toString(QStringLiteral("HH:mm:ss"));
}

QString seconds(qint64 ms)
{
    // "40 ms" (not "0.0 s"), "0.2 s", then the TTL column's words ("12 s", "3 min 12 s").
    if (ms < 100) {
        return KeysScanState::tr("%1 ms").arg(ms);
    }
    return ms < 1000 ? KeysScanState::tr("%1 s").arg(QLocale().toString(double(ms) / 1000, 'f', 1))
                     : keypresentation::ttlText(ms);
}

} // namespace

KeysScanState::KeysScanState(QObject *parent)
    : QObject(parent)
    , m_tick(new QTimer(this))
{
    // The freshness changes with time alone: looked at every second, said when it changed.
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, &KeysScanState::tick);
}

void KeysScanState::setInterval(qint64 ms)
{
    ms = std::max<qint64>(ms, 0);
    if (ms != m_intervalMs) {
        m_intervalMs = ms;
        notify();
    }
}

qint64 KeysScanState::freshFor() const
{
    return m_intervalMs > 0 ? m_intervalMs
                            : qint64(ConnectionProfile::defaultKeysRescanSeconds) * 1000;
}

qint64 KeysScanState::now() const
{
    return m_nowForTest > 0 ? m_nowForTest : QDateTime::currentMSecsSinceEpoch();
}

void KeysScanState::reset()
{
    m_scanning = false;
    m_finishedAt = {};
    m_durationMs = 0;
    m_keys = 0;
    m_complete = false;
    m_atCap = false;
    m_fraction = 0;
    m_failure.clear();
    m_failedAt = {};
    m_health = {};
    m_tick->stop();
    notify();
}

void KeysScanState::setScanning(bool scanning)
{
    if (scanning != m_scanning) {
        m_scanning = scanning;
        notify();
    }
}

void KeysScanState::scanDone(qint64 durationMs, qint64 keys, bool complete, double fraction,
                             bool atCap)
{
    m_finishedAt = QDateTime::fromMSecsSinceEpoch(now());
    m_durationMs = durationMs;
    m_keys = keys;
    m_complete = complete;
    m_atCap = !complete && atCap;
    m_fraction = complete ? 1.0 : std::clamp(fraction, 0.0, 1.0);
    m_failure.clear();
    m_failedAt = {};
    if (!m_tick->isActive()) {
        m_tick->start();
    }
    notify();
}

void KeysScanState::failed(const QString &why)
{
    if (m_failure.isEmpty()) {
        m_failedAt = QDateTime::fromMSecsSinceEpoch(now());
    }
    m_failure = why;
    notify();
}

void KeysScanState::setHealth(const keys::HealthSummary &health)
{
    const keys::HealthSummary &o = m_health;
    if (health.keys == o.keys && health.limiterKeys == o.limiterKeys && health.ok == o.ok &&
        health.noTtl == o.noTtl && health.noTtlOwnClock == o.noTtlOwnClock &&
        health.ttlExceedsRule == o.ttlExceedsRule && health.orphans == o.orphans &&
        health.wrongType == o.wrongType && health.unreadable == o.unreadable &&
        health.refused == o.refused && health.grant == o.grant) {
        return;
    }
    m_health = health;
    notify();
}

KeysScanState::Freshness KeysScanState::freshness() const
{
    if (!hasResult()) {
        return Freshness::None;
    }
    if (!m_failure.isEmpty()) {
        return Freshness::Stale;
    }
    const qint64 age = now() - m_finishedAt.toMSecsSinceEpoch();
    const qint64 rescanTakes = std::max<qint64>(2 * m_durationMs, 1000);
    if (age < freshFor() + rescanTakes) {
        return Freshness::Fresh;
    }
    return age < 2 * (freshFor() + rescanTakes) ? Freshness::Aging : Freshness::Stale;
}

bool KeysScanState::mayShowHealthy() const
{
    return freshness() == Freshness::Fresh && m_complete;
}

QString KeysScanState::scanLine() const
{
    if (!hasResult()) {
        return m_scanning ? tr("first scan running…") : tr("not scanned yet");
    }
    QString line =
        m_keys == 1
            ? tr("scanned %1, %2, 1 key").arg(timeOfDay(m_finishedAt), seconds(m_durationMs))
            : tr("scanned %1, %2, %3 keys")
                  .arg(timeOfDay(m_finishedAt), seconds(m_durationMs), number(m_keys));
    if (!m_complete) {
        line += tr(", %1 % of the keyspace").arg(int(m_fraction * 100));
    }
    if (freshness() == Freshness::Stale) {
        line += tr(" · stale");
    }
    return line;
}

QString KeysScanState::notCurrentText() const
{
    if (!hasResult()) {
        return m_failure.isEmpty()
                   ? QString()
                   : tr("Redis does not answer (%1): no scan has finished yet.").arg(m_failure);
    }
    if (!m_failure.isEmpty()) {
        // Why it failed is the page's message line (and failure()): not said twice.
        return tr("Not current: Redis stopped answering at %1. The rows are those of the last "
                  "good scan, at %2; nothing is known since.")
            .arg(timeOfDay(m_failedAt), timeOfDay(m_finishedAt));
    }
    switch (freshness()) {
    case Freshness::Stale:
        return m_intervalMs > 0 ? tr("Stale: the last scan finished at %1, more than two "
                                     "rescan intervals ago.")
                                      .arg(timeOfDay(m_finishedAt))
                                : tr("Stale: the last scan finished at %1, and automatic "
                                     "rescans are off for this connection (F5 scans again).")
                                      .arg(timeOfDay(m_finishedAt));
    case Freshness::Aging:
        return m_intervalMs > 0 ? tr("As of %1; the next scan is due.").arg(timeOfDay(m_finishedAt))
                                : tr("As of %1; automatic rescans are off (F5 scans again).")
                                      .arg(timeOfDay(m_finishedAt));
    case Freshness::None:
    case Freshness::Fresh:
        break;
    }
    return {};
}

QString KeysScanState::headline() const
{
    if (!hasResult()) {
        return m_failure.isEmpty() ? QString() : tr("Keys: Redis does not answer");
    }
    const bool stale = freshness() == Freshness::Stale;
    QString text;
    if (m_health.noTtl > 0) {
        text = tr("%n key(s) never expire", nullptr, int(qMin<qint64>(m_health.noTtl, 2e9)));
    } else if (flagged() > 0) {
        text = tr("%n flagged key(s)", nullptr, int(qMin<qint64>(flagged(), 2e9)));
    } else if (stale) {
        return tr("Keys: stale since %1").arg(timeOfDay(m_finishedAt));
    } else if (!m_complete) {
        return tr("Keys: partial scan (%1 %)").arg(int(m_fraction * 100));
    } else {
        return {};
    }
    if (stale) {
        text += QLatin1Char(' ') + tr("(as of %1)").arg(timeOfDay(m_finishedAt));
    }
    return text;
}

Tone KeysScanState::headlineTone() const
{
    // Red for keys that can block a subject until deleted; keys whose state resets by its own
    // clock only hold memory: a warning, as the other flags.
    if (m_health.noTtlBlocking() > 0) {
        return Tone::Bad;
    }
    return flagged() > 0 || freshness() == Freshness::Stale || !m_complete ? Tone::Warning
                                                                           : Tone::Good;
}

QString KeysScanState::badgeText() const
{
    if (hasResult() && m_health.noTtl > 0) {
        return tr("Keys  %1").arg(m_health.noTtl);
    }
    return tr("Keys");
}

QString KeysScanState::badgeToolTip() const
{
    QStringList lines;
    if (hasResult() && flagged() > 0) {
        lines << tr("%n flagged key(s), %1 never expire", nullptr,
                    int(qMin<qint64>(flagged(), 2e9)))
                     .arg(m_health.noTtl);
    }
    lines << scanLine();
    const QString why = notCurrentText();
    if (!why.isEmpty()) {
        lines << why;
    }
    return lines.join(QLatin1Char('\n'));
}

void KeysScanState::tick()
{
    if (freshness() != m_lastFreshness) {
        notify();
    }
}

void KeysScanState::notify()
{
    m_lastFreshness = freshness();
    Q_EMIT changed();
}

} // namespace sluice::ui
