#include "monitorsession.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionstate.h"

#include <QDateTime>
#include <QLocale>

#include <algorithm>
#include <climits>

namespace sluice::ui {

namespace {

QString clock(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("HH:mm:ss"));
}

} // namespace

MonitorSession::MonitorSession(ConnectionController *connection, QObject *parent)
    : MonitorSession(connection, MonitorWorker::Options{}, parent)
{}

MonitorSession::MonitorSession(ConnectionController *connection, MonitorWorker::Options options,
                               QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_worker(QStringLiteral("sluice-monitor"), options)
{
    qRegisterMetaType<MonitorSnapshot>();
    connect(m_worker.get(), &MonitorWorker::snapshotReady, this, &MonitorSession::onSnapshot);
    connect(m_worker.get(), &MonitorWorker::unblocked, this, &MonitorSession::onUnblocked);
    m_worker.post([](MonitorWorker *w) { w->start(); });
    connect(m_connection, &ConnectionController::sessionChanged, this, &MonitorSession::onSession);
    connect(m_connection, &ConnectionController::stateChanged, this,
            &MonitorSession::onConnectionState);
    onSession();
}

// A running key scan stops within a round trip; WorkerThread then quits and waits.
MonitorSession::~MonitorSession()
{
    m_worker.get()->cancel();
}

QString MonitorSession::busiestLabel() const
{
    return m_busiestId.isEmpty() ? tr("Busiest rule") : tr("Busiest: %1").arg(m_busiestId);
}

void MonitorSession::setRules(const RuleSet &rules)
{
    m_rules = rules;
    QString top;
    if (!m_rules.rules.empty()) {
        const bool kept = m_topRule == MonitorSnapshot::busiestRule ||
                          std::any_of(m_rules.rules.begin(), m_rules.rules.end(),
                                      [this](const Rule &r) { return r.id == m_topRule; });
        top = kept ? m_topRule : MonitorSnapshot::busiestRule;
    }
    if (top != m_topRule) {
        m_topRule = top;
        m_top.clear();
        Q_EMIT topChanged();
    }
    m_worker.post([rules, top](MonitorWorker *w) { w->setRules(rules, top); });
}

void MonitorSession::setTopRule(const QString &ruleId)
{
    if (ruleId == m_topRule) {
        return;
    }
    m_topRule = ruleId;
    m_top.clear();
    Q_EMIT topChanged();
    m_worker.post([ruleId](MonitorWorker *w) { w->setTopRule(ruleId); });
}

void MonitorSession::refresh()
{
    m_worker.post([](MonitorWorker *w) { w->refresh(true); });
}

void MonitorSession::setPageVisible(bool visible)
{
    m_worker.post([visible](MonitorWorker *w) { w->setScanKeys(visible); });
}

void MonitorSession::unblock(const QByteArray &key)
{
    ++m_unblocking;
    if (m_unblocking == 1) {
        Q_EMIT unblockingChanged();
    }
    m_worker.post([key](MonitorWorker *w) { w->unblock(key); });
}

void MonitorSession::onSession()
{
    ++m_generation;
    m_snapshot = MonitorSnapshot{};
    m_error.clear();
    m_top.clear();
    m_busiestId.clear();
    m_worker.post([e = m_connection->endpoint(), g = m_generation,
                   b = m_connection->scanBudget()](MonitorWorker *w) { w->setEndpoint(e, g, b); });
    Q_EMIT reset();
    Q_EMIT limitedChanged();
    Q_EMIT topChanged();
    Q_EMIT statusChanged();
}

void MonitorSession::onConnectionState(const ConnectionState &state)
{
    const bool lost = state.state == ConnectionState::State::Lost ||
                      state.state == ConnectionState::State::Failed;
    if (lost != m_connectionLost) {
        m_connectionLost = lost;
        Q_EMIT statusChanged();
    }
}

void MonitorSession::onSnapshot(const MonitorSnapshot &s)
{
    if (s.session != m_generation) {
        return; // read for a previous session
    }
    if (!s.ok()) {
        m_error = s.error;
        Q_EMIT statusChanged();
        Q_EMIT updated();
        return;
    }
    m_error.clear();
    const MonitorSnapshot old = std::exchange(m_snapshot, s);
    if (!s.limitedRead) {
        // Keys are scanned every other tick: keep the last scan's subjects and counts.
        m_snapshot.limited = old.limited;
        m_snapshot.keysScanned = old.keysScanned;
        m_snapshot.limitedCapped = old.limitedCapped;
        m_snapshot.adoptedKeys = old.adoptedKeys;
        m_snapshot.adoptedNeverExpire = old.adoptedNeverExpire;
    }
    if (m_topRule == MonitorSnapshot::busiestRule && s.topBusiest) {
        m_top = s.top;
        m_busiestId = s.topRuleId;
        Q_EMIT topChanged();
    } else if (!s.topBusiest && !m_topRule.isEmpty() && s.topRuleId == m_topRule) {
        m_top = s.top;
        Q_EMIT topChanged();
    }
    if (s.limitedRead) {
        Q_EMIT limitedChanged();
    }
    Q_EMIT statusChanged();
    Q_EMIT updated();
}

void MonitorSession::onUnblocked(const QByteArray &key, bool existed, const QString &error)
{
    m_unblocking = std::max(0, m_unblocking - 1);
    if (m_unblocking == 0) {
        Q_EMIT unblockingChanged();
    }
    Q_EMIT unblockFinished(key, existed, error);
}

QString MonitorSession::statusText() const
{
    if (!m_connection->endpoint()) {
        return tr("Not connected: choose a server on the Connection page.");
    }
    if (m_connectionLost || !m_error.isEmpty()) {
        const QString why = m_error.isEmpty() ? tr("the connection is lost") : m_error;
        return m_snapshot.readAtMs > 0
                   ? tr("\u26a0 Not updating (%1): showing the data read at %2. Retrying every "
                        "second.")
                         .arg(why, clock(m_snapshot.readAtMs))
                   : tr("\u26a0 Cannot read yet (%1). Retrying every second.").arg(why);
    }
    if (m_snapshot.readAtMs > 0) {
        return tr("\u25cf Live, read at %1").arg(clock(m_snapshot.readAtMs));
    }
    return tr("Reading…");
}

Tone MonitorSession::statusTone() const
{
    if (!m_connection->endpoint()) {
        return Tone::Info;
    }
    if (m_connectionLost || !m_error.isEmpty()) {
        return Tone::Warning;
    }
    return m_snapshot.readAtMs > 0 ? Tone::Good : Tone::Info;
}

QString MonitorSession::limitedHeading() const
{
    const qsizetype n = std::count_if(m_snapshot.limited.begin(), m_snapshot.limited.end(),
                                      [](const LimitedSubject &s) { return s.limited; });
    return n ? tr("Limited right now (%1)").arg(n) : tr("Limited right now");
}

QString MonitorSession::limitedNote() const
{
    QString text;
    if (m_snapshot.readAtMs == 0) {
        text = QString();
    } else if (std::none_of(m_snapshot.limited.begin(), m_snapshot.limited.end(),
                            [](const LimitedSubject &s) { return s.limited; })) {
        text = tr("No subject is denied right now (%n key(s) read).", nullptr,
                  int(std::min<qint64>(m_snapshot.keysScanned, INT_MAX)));
    } else {
        text = tr("Subjects whose next request would be denied, longest wait first.");
    }
    if (m_snapshot.adoptedKeys > 0) {
        const int adopted = int(std::min<qint64>(m_snapshot.adoptedKeys, INT_MAX));
        text += QLatin1Char(' ') +
                (m_snapshot.adoptedNeverExpire > 0
                     ? tr("%n key(s) of other limiters, adopted by the rules, are watched too; "
                          "%1 never expire: once full, such a key denies forever (fix it on the "
                          "Keys page).",
                          nullptr, adopted)
                           .arg(m_snapshot.adoptedNeverExpire)
                     : tr("%n key(s) of other limiters, adopted by the rules, are watched too.",
                          nullptr, adopted));
    }
    if (m_snapshot.limitedCapped) {
        text += QLatin1Char(' ') + tr("Only the first %1 keys were read: the list may be "
                                      "incomplete.")
                                       .arg(QLocale().toString(m_snapshot.keysScanned));
    }
    return text;
}

QString MonitorSession::unblockQuestion(const LimitedSubject &subject)
{
    return tr("Unblock %1 on rule %2?\n\nThis deletes the key %3: the subject's next request is "
              "admitted as if it had never been seen, and its limit starts over.")
        .arg(QString::fromUtf8(subject.subject), subject.ruleId, QString::fromUtf8(subject.key));
}

MonitorSession::Outcome MonitorSession::describeUnblock(const QByteArray &key, bool existed,
                                                        const QString &error)
{
    const QString k = QString::fromUtf8(key).toHtmlEscaped();
    if (!error.isEmpty()) {
        return {tr("<b>\u2717 Could not unblock: %1.</b><br>The key %2 is unchanged; try again "
                   "when the connection is back.")
                    .arg(error.toHtmlEscaped(), k),
                Tone::Bad};
    }
    if (existed) {
        return {tr("<b>\u2713 Unblocked.</b> Deleted %1: the subject's next request is admitted.")
                    .arg(k),
                Tone::Good};
    }
    return {tr("<b>\u2713 Nothing to unblock.</b> %1 had expired already.").arg(k), Tone::Good};
}

} // namespace sluice::ui
