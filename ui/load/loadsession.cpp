#include "loadsession.h"

#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"
#include "ui/common/statswatch.h"
#include "ui/connection/connectioncontroller.h"

#include <QLocale>
#include <QTimer>

#include <algorithm>
#include <cmath>

namespace sluice::ui {

namespace {

constexpr int pollMs = 250;

QString number(qint64 v)
{
    return QLocale().toString(v);
}

QString endpointId(const Endpoint &e)
{
    return e.safeUrl() + QLatin1Char('\n') + e.password;
}

} // namespace

LoadSession::LoadSession(ConnectionController *connection, QObject *parent)
    : QObject(parent)
    , m_connection(connection)
    , m_poll(new QTimer(this))
{
    qRegisterMetaType<load::LoadProgress>();
    m_draft.values = {{QStringLiteral("rate"), QStringLiteral("200/s")},
                      {QStringLiteral("from_rate"), QStringLiteral("20/s")},
                      {QStringLiteral("to_rate"), QStringLiteral("500/s")},
                      {QStringLiteral("count"), QStringLiteral("500")},
                      {QStringLiteral("at"), QStringLiteral("1s")},
                      {QStringLiteral("duration"), QStringLiteral("10s")}};
    m_statsWatch = new StatsWatch(this);
    m_poll->setInterval(pollMs);
    connect(m_poll, &QTimer::timeout, this, &LoadSession::poll);
    connect(m_connection, &ConnectionController::sessionChanged, this, &LoadSession::check);
    check();
}

LoadSession::~LoadSession()
{
    // The generator's destructor cancels and joins (a round trip in flight at most); the
    // flusher's writes what is left.
    m_generator.reset();
    m_statsWatch->watch(nullptr, {});
    m_flusher.reset();
}

void LoadSession::setRules(const RuleSet &rules)
{
    // Disabled rules start unticked; what the user unticked stays so (of the rules still there).
    QSet<QString> unticked;
    for (const Rule &r : rules.rules) {
        if (!r.enabled || m_unticked.contains(r.id)) {
            unticked.insert(r.id);
        }
    }
    m_rules = rules;
    m_unticked = unticked;
    Q_EMIT rulesChanged();
    check();
}

bool LoadSession::isTicked(const QString &ruleId) const
{
    return !m_unticked.contains(ruleId);
}

void LoadSession::setTicked(const QString &ruleId, bool ticked)
{
    if (ticked) {
        m_unticked.remove(ruleId);
    } else {
        m_unticked.insert(ruleId);
    }
    check();
}

QStringList LoadSession::tickedIds() const
{
    QStringList ids;
    for (const Rule &r : m_rules.rules) {
        if (isTicked(r.id)) {
            ids << r.id;
        }
    }
    return ids;
}

void LoadSession::check()
{
    m_checked =
        checkAlone(m_draft, m_draft.values.value(QStringLiteral("duration")), m_subjects, m_seed);
    Q_EMIT changed();
}

QString LoadSession::rulesProblem() const
{
    if (m_rules.rules.empty()) {
        return tr("No rules yet: load or pull a rule set on the Rules page.");
    }
    if (tickedIds().isEmpty()) {
        return tr("Tick at least one rule.");
    }
    return {};
}

Result<load::LoadOptions> LoadSession::options() const
{
    if (!m_checked.ok()) {
        return Error::make(Error::Kind::Invalid, m_checked.firstProblem());
    }
    if (const QString problem = rulesProblem(); !problem.isEmpty()) {
        return Error::make(Error::Kind::Invalid, problem);
    }
    const std::optional<Endpoint> endpoint = m_connection->endpoint();
    if (!endpoint) {
        return Error::make(Error::Kind::Invalid,
                           tr("Not connected: choose a server on the Connection page."));
    }
    load::LoadOptions o;
    o.endpoint = *endpoint;
    o.rules = m_rules;
    o.ruleIds = tickedIds();
    o.pattern = *m_checked.pattern;
    o.durationUs = m_checked.durationUs;
    o.threads = m_threads;
    o.subjects = m_subjects;
    o.seed = m_seed;
    o.keyPrefixOverride = m_realKeys ? QByteArray() : load::runScopedPrefix();
    return o;
}

QString LoadSession::plan() const
{
    const auto o = options();
    if (!o) {
        return {};
    }
    const qint64 n = qint64(std::llround(o->pattern.expectedCount(o->durationUs)));
    const qint64 candidates = qint64(load::stagedCandidates(o->rules, o->ruleIds, false).size());
    const qint64 rules = o->ruleIds.size() + candidates;
    const QString count = o->pattern.kind == sim::TrafficPattern::Kind::Poisson
                              ? tr("About %1 requests").arg(number(n))
                              : tr("%1 requests").arg(number(n));
    const QString subjects =
        o->subjects == 1 ? tr("one subject") : tr("%1 subjects").arg(number(o->subjects));
    QString text = rules == 1 ? tr("%1 over %2 from %3, each decided by one rule.")
                                    .arg(count, duration::formatUs(o->durationUs), subjects)
                              : tr("%1 over %2 from %3, each decided by %4 rules: %5 decisions.")
                                    .arg(count, duration::formatUs(o->durationUs), subjects,
                                         number(rules), number(n * rules));
    if (candidates > 0) {
        // As a check service reading the store decides them: the Monitor's candidate charts.
        text += QLatin1Char(' ') +
                tr("%n of them the staged change's candidates, deciding in shadow beside the "
                   "rules they would replace (their charts on the Monitor).",
                   nullptr, int(candidates));
    }
    return text;
}

bool LoadSession::start()
{
    if (isRunning()) {
        return false;
    }
    auto o = options();
    if (!o) {
        say(Tone::Bad, tr("<b>\u2717 Cannot start:</b> %1").arg(o.error().message.toHtmlEscaped()));
        return false;
    }
    // The statistics: one recorder for the session, and a flusher per server.
    if (!m_recorder) {
        m_recorder = std::make_unique<stats::StatsRecorder>();
    }
    if (!m_flusher || m_flusherEndpoint != endpointId(o->endpoint)) {
        m_flusher.reset(); // writes what the last server was owed
        m_flusher = std::make_unique<stats::StatsFlusher>(o->endpoint, m_recorder.get());
        m_flusherEndpoint = endpointId(o->endpoint);
        m_flusher->start();
        m_statsWatch->watch(m_flusher.get(), o->endpoint.user); // a failure in the status bar
    }
    o->recorder = m_recorder.get();
    auto generator = std::make_unique<load::LoadGenerator>(o.value());
    if (auto r = generator->start(); !r) {
        say(Tone::Bad, tr("<b>\u2717 Cannot start:</b> %1").arg(r.error().message.toHtmlEscaped()));
        return false;
    }
    m_generator = std::move(generator);
    m_progress = load::LoadProgress{};
    m_progress.durationS = double(o->durationUs) / 1e6;
    m_rates.clear();
    m_rateTop = 10;
    m_lastAllowed = m_lastDenied = 0;
    m_lastElapsed = 0;
    say(Tone::Info, {});
    m_poll->start();
    Q_EMIT started();
    Q_EMIT changed();
    Q_EMIT progressed();
    return true;
}

void LoadSession::stop()
{
    if (m_generator) {
        m_generator->cancel();
    }
}

void LoadSession::poll()
{
    if (!m_generator) {
        return;
    }
    const load::LoadProgress p = m_generator->progress();
    const double dt = p.elapsedS - m_lastElapsed;
    if (dt > 0.05) {
        const RatePoint point{p.elapsedS, double(p.allowed - m_lastAllowed) / dt,
                              double(p.denied - m_lastDenied) / dt};
        m_rates.append(point);
        m_rateTop = std::max({m_rateTop, point.allowed * 1.05, point.denied * 1.05});
        m_lastAllowed = p.allowed;
        m_lastDenied = p.denied;
        m_lastElapsed = p.elapsedS;
    }
    m_progress = p;
    if (p.finished) {
        finish();
        return;
    }
    Q_EMIT progressed();
}

void LoadSession::finish()
{
    m_poll->stop();
    m_generator.reset(); // finished: the join returns at once
    if (m_flusher) {
        m_flusher->flushSoon(); // the Monitor page sees the last second without waiting
    }
    const load::LoadProgress &p = m_progress;
    const QString denied = number(p.denied + p.shadowDenied);
    if (!p.error.isEmpty()) {
        say(Tone::Bad, tr("<b>\u2717 The run failed:</b> %1").arg(p.error.toHtmlEscaped()));
    } else if (p.cancelled) {
        say(Tone::Warning, tr("<b>Stopped</b> after %1 s: %2 decisions, %3 allowed, %4 denied.")
                               .arg(QLocale().toString(p.elapsedS, 'f', 1), number(p.sent),
                                    number(p.allowed), denied));
    } else if (p.errors > 0) {
        say(Tone::Warning, tr("<b>\u26a0 Finished with %1 errors:</b> %2")
                               .arg(number(p.errors), p.lastError.toHtmlEscaped()));
    } else {
        // "The Monitor page shows them" only while their statistics are written; the keys it
        // could not remove are said (they expire by their TTL).
        m_statsWatch->poll();
        const bool unsaid = m_statsWatch->failing() || !p.cleanupError.isEmpty();
        QString text = tr("<b>\u2713 Finished:</b> %1 decisions in %2 s, %3 allowed, %4 denied.")
                           .arg(number(p.sent), QLocale().toString(p.elapsedS, 'f', 1),
                                number(p.allowed), denied);
        text += QLatin1Char(' ') + (m_statsWatch->failing()
                                        ? m_statsWatch->text().toHtmlEscaped() + QLatin1Char('.')
                                        : tr("The Monitor page shows them."));
        if (!p.cleanupError.isEmpty()) {
            text +=
                QLatin1Char(' ') +
                tr("The run's keys stay until their TTL: %1.").arg(p.cleanupError.toHtmlEscaped());
        }
        say(unsaid ? Tone::Warning : Tone::Good, text);
    }
    Q_EMIT progressed();
    Q_EMIT changed();
    Q_EMIT finished(p);
}

void LoadSession::say(Tone tone, const QString &html)
{
    m_message = PageMessage::rich(tone, html);
    Q_EMIT messageChanged();
}

} // namespace sluice::ui
