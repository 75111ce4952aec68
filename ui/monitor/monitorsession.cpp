#include "monitorsession.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionstate.h"

#include "limitedmodel.h"

#include "core/common/bytes.h"

#include <QDateTime>
#include <QLocale>
#include <QSet>

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
    connect(m_worker.get(), &MonitorWorker::overridden, this, &MonitorSession::onOverridden);
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

void MonitorSession::setRange(int seconds)
{
    if (seconds != 0 && !ranges().contains(seconds)) {
        return;
    }
    if (seconds != m_range) {
        m_range = seconds;
        Q_EMIT rangeChanged();
    }
}

qint64 MonitorSession::burstStart(const QList<stats::RuleSeries> &series, qint64 nowSecond)
{
    // Every second with decisions, of any rule, newest first.
    QSet<qint64> busy;
    for (const stats::RuleSeries &r : series) {
        for (qsizetype i = 0; i < r.seconds.size(); ++i) {
            if (r.seconds[i].total() > 0 && r.firstSecond + i <= nowSecond) {
                busy.insert(r.firstSecond + i);
            }
        }
    }
    if (busy.isEmpty()) {
        return -1;
    }
    qint64 start = *std::max_element(busy.begin(), busy.end());
    // Back from the newest second while the quiet stretches are shorter than burstGap.
    for (qint64 s = start - 1; s > start - burstGap - 1; --s) {
        if (busy.contains(s)) {
            start = s;
        }
    }
    return start;
}

int MonitorSession::autoSeconds(const QList<stats::RuleSeries> &series, qint64 nowSecond)
{
    const qint64 from = burstStart(series, nowSecond);
    if (from < 0) {
        return 60;
    }
    const qint64 span = nowSecond - from + 1;
    for (int step : autoSteps()) {
        if (step >= span) {
            return step;
        }
    }
    return autoSteps().last();
}

int MonitorSession::shownSeconds() const
{
    if (m_range > 0) {
        return m_range;
    }
    return autoSeconds(m_snapshot.series, m_snapshot.nowSecond);
}

QString MonitorSession::rangeText(int seconds)
{
    if (seconds % 3600 == 0) {
        return tr("%n h", nullptr, seconds / 3600);
    }
    if (seconds % 60 == 0) {
        return tr("%n min", nullptr, seconds / 60);
    }
    return tr("%n s", nullptr, seconds);
}

QString MonitorSession::rangeNote() const
{
    if (m_snapshot.readAtMs == 0) {
        return {};
    }
    const int shown = shownSeconds();
    const qint64 now = m_snapshot.nowSecond;
    bool any = false;
    for (const stats::RuleSeries &r : m_snapshot.series) {
        for (qsizetype i = std::max<qsizetype>(0, r.seconds.size() - shown);
             i < r.seconds.size() && !any; ++i) {
            any = r.seconds[i].total() > 0;
        }
    }
    QStringList parts;
    if (m_range == 0) {
        const qint64 from = burstStart(m_snapshot.series, now);
        parts << (any && from >= 0
                      ? tr("Auto: the last %1, the shortest range that holds the latest burst of "
                           "decisions (from %2).")
                            .arg(rangeText(shown), QDateTime::fromSecsSinceEpoch(from).toString(
                                                       QStringLiteral("HH:mm:ss")))
                      : tr("Auto: no decision recorded yet; showing the last %1.")
                            .arg(rangeText(shown)));
    } else if (!any) {
        parts << tr("No decisions recorded in the last %1.").arg(rangeText(shown));
    }
    if (shown > m_snapshot.windowSeconds && m_snapshot.windowSeconds > 0) {
        const qint64 kept = now - m_snapshot.windowSeconds + 1;
        parts << tr("The statistics keep %1 minutes: nothing before %2 in this range.")
                     .arg(stats::ttlSeconds / 60)
                     .arg(QDateTime::fromSecsSinceEpoch(kept).toString(QStringLiteral("HH:mm")));
    }
    return parts.join(QLatin1Char(' '));
}

void MonitorSession::noteLoad(const load::LoadProgress &progress)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const load::RuleProgress &r : progress.rules) {
        if (progress.keyPrefix.isEmpty()) {
            m_ownKeyRuns.remove(r.ruleId);
            m_realKeyRuns.insert(r.ruleId, now);
        } else {
            m_realKeyRuns.remove(r.ruleId);
            m_ownKeyRuns.insert(r.ruleId, now);
        }
    }
    Q_EMIT limitedChanged();
}

namespace {

// How long a key of `rule` outlives the decision that wrote it, at the least: its window (a
// bucket: the time to refill its burst). 0 when unknown.
qint64 keyLifeUs(const Rule &rule)
{
    if (algorithm::isWindow(rule.algorithm)) {
        return rule.windowUs;
    }
    return rule.rate.count > 0 ? rule.burst * rule.rate.periodUs / rule.rate.count : 0;
}

} // namespace

QStringList MonitorSession::unwatchedRules() const
{
    QStringList out;
    // An unblock just deleted a key: its rule's last decisions have none now, rightly.
    if (!m_keysRead || m_snapshot.readAtMs == 0 || m_snapshot.limitedCapped ||
        m_snapshot.readAtMs - m_lastUnblockMs < 10'000) {
        return out;
    }
    // A second's statistics reach Redis within a flush (a second) of it: the last five seconds
    // of decisions must have left keys, when the keys live longer than that (a rule of a
    // 1 s window leaves none behind a second later, on whatever keys it decided).
    constexpr int recent = 5;
    constexpr qint64 longEnoughUs = 2LL * recent * 1'000'000;
    for (const stats::RuleSeries &r : m_snapshot.series) {
        const Rule *rule = m_rules.find(r.ruleId);
        if (!rule || rule->adopt || m_snapshot.keysPerRule.value(r.ruleId) > 0) {
            continue;
        }
        qint64 n = 0;
        for (qsizetype i = std::max<qsizetype>(0, r.seconds.size() - recent); i < r.seconds.size();
             ++i) {
            n += r.seconds[i].allowed + r.seconds[i].denied;
        }
        // This console's Load page ran on the rule's real keys just now: its decisions are on
        // them (expired, or unblocked), not elsewhere.
        const qint64 realRun = m_realKeyRuns.value(r.ruleId, 0);
        const bool onRealKeys = realRun > 0 && m_snapshot.readAtMs - realRun < 2 * recent * 1000;
        const bool recentElsewhere = n > 0 && keyLifeUs(*rule) >= longEnoughUs && !onRealKeys;
        // A run of the Load page on its own keys whose decisions are still in the statistics.
        const qint64 ownRun = m_ownKeyRuns.value(r.ruleId, 0);
        const bool loaded =
            ownRun > 0 && m_snapshot.readAtMs - ownRun < qint64(stats::ttlSeconds) * 1000;
        if (recentElsewhere || loaded) {
            out << r.ruleId;
        }
    }
    return out;
}

bool MonitorSession::ownKeysRun(const QString &ruleId) const
{
    return m_ownKeyRuns.contains(ruleId);
}

QString MonitorSession::topNote() const
{
    if (m_top.isEmpty()) {
        return {};
    }
    const QString shown = m_topRule == MonitorSnapshot::busiestRule ? m_busiestId : m_topRule;
    if (!shown.isEmpty() && unwatchedRules().contains(shown)) {
        return tr("Recorded decisions. %1 has no key in Redis under its prefix: they were "
                  "decided on other keys, which Limited right now does not read.")
            .arg(shown);
    }
    return tr("Recorded decisions of the last 15 minutes: a subject denied then may be "
              "admitted again now.");
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
    m_lastUnblockMs = QDateTime::currentMSecsSinceEpoch();
    ++m_unblocking;
    if (m_unblocking == 1) {
        Q_EMIT unblockingChanged();
    }
    m_worker.post([key](MonitorWorker *w) { w->unblock(key); });
}

void MonitorSession::storeOverrides(const QList<OverrideTarget> &targets, Override::Action action,
                                    qint64 ttlUs, const QString &note)
{
    if (targets.isEmpty()) {
        return;
    }
    ++m_overriding;
    if (m_overriding == 1) {
        Q_EMIT overridingChanged();
    }
    m_worker.post([targets, action, ttlUs, note](MonitorWorker *w) {
        w->storeOverrides(targets, action, ttlUs, note);
    });
}

void MonitorSession::setStoreNamespace(const QByteArray &ns)
{
    m_worker.post([ns](MonitorWorker *w) { w->setStoreNamespace(ns); });
}

void MonitorSession::onOverridden(const QList<OverrideResult> &results)
{
    m_overriding = std::max(0, m_overriding - 1);
    if (m_overriding == 0) {
        Q_EMIT overridingChanged();
    }
    Q_EMIT overrideFinished(results);
}

void MonitorSession::onSession()
{
    ++m_generation;
    m_keysRead = false;
    m_failedSinceMs = 0;
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
        if (lost && m_failedSinceMs == 0) {
            m_failedSinceMs = QDateTime::currentMSecsSinceEpoch();
            Q_EMIT limitedChanged();
        }
        Q_EMIT statusChanged();
    }
}

void MonitorSession::onSnapshot(const MonitorSnapshot &s)
{
    if (s.session != m_generation) {
        return; // read for a previous session
    }
    if (!s.ok()) {
        if (m_error.isEmpty()) {
            // The console's one connection state hears it first from whichever page sees it:
            // the session checks at once (a read refused for another reason leaves it
            // Connected).
            m_connection->reportLost();
        }
        m_error = s.error;
        if (m_failedSinceMs == 0) {
            m_failedSinceMs = QDateTime::currentMSecsSinceEpoch();
            Q_EMIT limitedChanged();
        }
        Q_EMIT statusChanged();
        Q_EMIT updated();
        return;
    }
    m_error.clear();
    if (s.reachedRedis) {
        m_connection->reportReachable(); // the status bar follows at once, not after its countdown
    }
    // A good read is the truth for the list, whatever the connection state says meanwhile.
    const bool wasStale = m_failedSinceMs > 0;
    m_failedSinceMs = 0;
    const MonitorSnapshot old = std::exchange(m_snapshot, s);
    if (!s.limitedRead) {
        // Keys are scanned every other tick: keep the last scan's subjects and counts.
        m_snapshot.limited = old.limited;
        m_snapshot.keysScanned = old.keysScanned;
        m_snapshot.limitedCapped = old.limitedCapped;
        m_snapshot.adoptedKeys = old.adoptedKeys;
        m_snapshot.adoptedNeverExpire = old.adoptedNeverExpire;
        m_snapshot.keysPerRule = old.keysPerRule;
        m_snapshot.overridesError = old.overridesError;
    }
    if (m_topRule == MonitorSnapshot::busiestRule && s.topBusiest) {
        m_top = s.top;
        m_busiestId = s.topRuleId;
        Q_EMIT topChanged();
    } else if (!s.topBusiest && !m_topRule.isEmpty() && s.topRuleId == m_topRule) {
        m_top = s.top;
        Q_EMIT topChanged();
    }
    if (s.limitedRead || (wasStale && m_failedSinceMs == 0)) {
        m_keysRead = m_keysRead || s.limitedRead;
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

PageMessage MonitorSession::status() const
{
    if (!m_connection->endpoint()) {
        return PageMessage::plain(Tone::Info,
                                  tr("Not connected: choose a server on the Connection page."));
    }
    if (m_connectionLost || !m_error.isEmpty()) {
        const QString why = m_error.isEmpty() ? tr("the connection is lost") : m_error;
        return PageMessage::plain(
            Tone::Warning,
            m_snapshot.readAtMs > 0
                ? tr("\u26a0 Not updating (%1): showing the data read at %2. Retrying every "
                     "second.")
                      .arg(why, clock(m_snapshot.readAtMs))
                : tr("\u26a0 Cannot read yet (%1). Retrying every second.").arg(why));
    }
    if (m_snapshot.readAtMs > 0) {
        return PageMessage::plain(Tone::Good,
                                  tr("\u25cf Live, read at %1").arg(clock(m_snapshot.readAtMs)));
    }
    return PageMessage::plain(Tone::Info, tr("Reading…"));
}

bool MonitorSession::isLimitedStale() const
{
    return m_snapshot.readAtMs > 0 && m_failedSinceMs > 0;
}

QString MonitorSession::unwatchedNote(const QStringList &unwatched) const
{
    const QString rules = unwatched.size() <= 2
                              ? unwatched.join(QStringLiteral(", "))
                              : tr("%1 and %n other rule(s)", nullptr, int(unwatched.size() - 1))
                                    .arg(unwatched.first());
    const bool ours = std::all_of(unwatched.begin(), unwatched.end(),
                                  [this](const QString &id) { return ownKeysRun(id); });
    if (ours) {
        return tr("%1 last ran on the Load page's own keys (sluice:load:<run>:…, removed when the "
                  "run ends), which this list does not read. To watch a run here, tick \"Decide "
                  "on the rules' real keys\" on the Load page.")
            .arg(rules);
    }
    return tr("%1 decided in the last seconds but has no key under its prefix: the decisions "
              "were made on other keys, which this list does not read (a load's default run, "
              "the Load page's or sluice-cli load's, uses sluice:load:<run>:…). To watch a run "
              "of the Load page here, tick \"Decide on the rules' real keys\".")
        .arg(rules);
}

QString MonitorSession::limitedHeading() const
{
    if (isLimitedStale()) {
        return tr("Limited right now (not current)");
    }
    const qsizetype n = std::count_if(m_snapshot.limited.begin(), m_snapshot.limited.end(),
                                      [](const LimitedSubject &s) { return s.limited; });
    return n ? tr("Limited right now (%1)").arg(n) : tr("Limited right now");
}

QString MonitorSession::limitedNote() const
{
    QString text;
    const QStringList unwatched = unwatchedRules();
    const bool anyLimited = std::any_of(m_snapshot.limited.begin(), m_snapshot.limited.end(),
                                        [](const LimitedSubject &s) { return s.limited; });
    const int read = int(std::min<qint64>(m_snapshot.keysScanned, INT_MAX));
    if (m_snapshot.readAtMs == 0) {
        text = QString();
    } else if (isLimitedStale()) {
        // Never an all-clear read before Redis stopped answering.
        text = tr("Not current: Redis stopped answering at %1. These are the subjects read at "
                  "%2; who is limited now is not known.")
                   .arg(clock(m_failedSinceMs), clock(m_snapshot.readAtMs));
    } else if (!anyLimited && !unwatched.isEmpty()) {
        text = tr("No subject is denied on the rules' own keys (%n key(s) read).", nullptr, read);
    } else if (!anyLimited) {
        text = tr("No subject is denied right now (%n key(s) read).", nullptr, read);
    } else {
        text = tr("Subjects whose next request would be denied, longest wait first.");
    }
    if (!unwatched.isEmpty()) {
        text += QLatin1Char(' ') + unwatchedNote(unwatched);
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
    if (std::any_of(m_snapshot.limited.begin(), m_snapshot.limited.end(),
                    [](const LimitedSubject &s) { return s.overrideAction && !s.limited; })) {
        text += QLatin1Char(' ') + tr("A subject an override lets through is listed with it, "
                                      "and not counted as limited.");
    }
    if (!m_snapshot.overridesError.isEmpty()) {
        text += QLatin1Char(' ') + tr("The overrides stored in Redis could not be read (%1): "
                                      "only the rule file's are shown.")
                                       .arg(m_snapshot.overridesError);
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

PageMessage MonitorSession::describeUnblock(const QByteArray &key, bool existed,
                                            const QString &error)
{
    const QString k = QString::fromUtf8(key).toHtmlEscaped();
    if (!error.isEmpty()) {
        return PageMessage::rich(
            Tone::Bad, tr("<b>\u2717 Could not unblock: %1.</b><br>The key %2 is unchanged; try "
                          "again when the connection is back.")
                           .arg(error.toHtmlEscaped(), k));
    }
    if (existed) {
        return PageMessage::rich(
            Tone::Good,
            tr("<b>\u2713 Unblocked.</b> Deleted %1: the subject's next request is admitted.")
                .arg(k));
    }
    return PageMessage::rich(
        Tone::Good, tr("<b>\u2713 Nothing to unblock.</b> %1 had expired already.").arg(k));
}

} // namespace sluice::ui

namespace sluice::ui {

namespace {

// "subject 10.1.2.3 on rule login"
QString targetText(const OverrideTarget &t)
{
    return MonitorSession::tr("%1 on rule %2")
        .arg(bytes::printable(t.subject).toHtmlEscaped(), t.ruleId.toHtmlEscaped());
}

} // namespace

QString MonitorSession::allowQuestion(const QList<OverrideTarget> &targets)
{
    QStringList who;
    for (const OverrideTarget &t : targets.mid(0, 5)) {
        who << tr("%1 on rule %2").arg(bytes::printable(t.subject), t.ruleId);
    }
    if (targets.size() > 5) {
        who << tr("and %n more", nullptr, int(targets.size() - 5));
    }
    return tr("Allow %1 for one hour?\n\nThis stores an override in Redis: for the next hour "
              "the rule never limits this subject (its key is not even read), wherever the "
              "rules come from the store (the check service reading its rules from Redis). It "
              "ends by itself; remove it sooner on the Rules page.",
              nullptr, int(targets.size()))
        .arg(who.join(QStringLiteral(", ")));
}

PageMessage MonitorSession::describeOverrides(const QList<OverrideResult> &results)
{
    QStringList done;
    QStringList failed;
    Override::Action action = Override::Action::Allow;
    qint64 endUs = 0;
    for (const OverrideResult &r : results) {
        action = r.action;
        if (r.error.isEmpty()) {
            done << targetText(r.target);
            endUs = std::max(endUs, r.expiresUs);
        } else {
            failed << tr("%1: %2").arg(targetText(r.target), r.error.toHtmlEscaped());
        }
    }
    const bool allow = action == Override::Action::Allow;
    QStringList parts;
    if (!done.isEmpty()) {
        const QString until = endUs > 0 ? LimitedModel::endText(endUs / 1000) : QString();
        parts << (allow ? tr("<b>\u2713 Allowed until %1:</b> %2. The rule does not limit it "
                             "until then.",
                             nullptr, int(done.size()))
                        : tr("<b>\u2713 Blocked until %1:</b> %2. Every request is denied "
                             "until then.",
                             nullptr, int(done.size())))
                     .arg(until, done.join(QStringLiteral(", ")));
    }
    if (!failed.isEmpty()) {
        parts << (allow ? tr("<b>\u2717 Could not allow</b> %1.", nullptr, int(failed.size()))
                        : tr("<b>\u2717 Could not block</b> %1.", nullptr, int(failed.size())))
                     .arg(failed.join(QStringLiteral("; ")));
    }
    return PageMessage::rich(failed.isEmpty() ? Tone::Good
                                              : (done.isEmpty() ? Tone::Bad : Tone::Warning),
                             parts.join(QStringLiteral("<br>")));
}

} // namespace sluice::ui
