#include "replaysession.h"

#include "core/common/duration.h"
#include "core/rules/codec.h"

#include <QElapsedTimer>
#include <QLocale>

#ifdef Q_OS_LINUX
#include <sys/resource.h>
#include <unistd.h>
#endif

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

QString grouped(qint64 n)
{
    return QLocale().toString(n);
}

QString percent(double share)
{
    return QLocale().toString(share * 100.0, 'f', share > 0 && share < 0.001 ? 3 : 1) + u" %"_s;
}

} // namespace

void ReplayWorker::run(replay::Options options, const std::atomic<bool> *cancel)
{
#ifdef Q_OS_LINUX
    // The replay keeps both cores busy for seconds (it reads on this thread and decides on one
    // it starts, which inherits this niceness): below the GUI thread, so that on a loaded
    // machine the scheduler runs the GUI first and the console never waits for a core.
    static thread_local bool lowered = false;
    if (!lowered) {
        lowered = true;
        setpriority(PRIO_PROCESS, id_t(gettid()), std::min(19, getpriority(PRIO_PROCESS, 0) + 10));
    }
#endif
    QElapsedTimer since;
    since.start();
    QElapsedTimer total;
    total.start();
    options.cancel = cancel;
    options.progress = [&](const replay::Progress &p) {
        if (since.elapsed() < 100) {
            return;
        }
        since.restart();
        const double secs = double(total.nsecsElapsed()) / 1e9;
        Q_EMIT progress(p.lines, p.bytes, p.totalBytes, secs > 0 ? double(p.lines) / secs : 0);
    };
    auto report = replay::run(options);
    if (!report) {
        Q_EMIT failed(report.error().message);
        return;
    }
    Q_EMIT finished(*report);
}

ReplaySession::ReplaySession(QObject *parent)
    : QObject(parent)
{
    m_message = PageMessage::plain(Tone::Info, tr("Choose the logs and a rule file, then Replay."));
    connect(m_worker.get(), &ReplayWorker::progress, this,
            [this](qint64 lines, qint64 bytes, qint64 totalBytes, double perSecond) {
                say(PageMessage::plain(
                    Tone::Info,
                    tr("%1 lines, %2 lines/s").arg(grouped(lines), grouped(qint64(perSecond)))));
                Q_EMIT progressed(lines, bytes, totalBytes, perSecond);
            });
    connect(m_worker.get(), &ReplayWorker::finished, this, &ReplaySession::onFinished);
    connect(m_worker.get(), &ReplayWorker::failed, this, [this](const QString &message) {
        setRunning(false);
        say(PageMessage::plain(Tone::Bad, message));
        Q_EMIT finished();
    });
}

ReplaySession::~ReplaySession()
{
    // The worker thread is joined by m_worker's destructor: stop the run first.
    m_cancelFlag.store(true);
}

void ReplaySession::say(const PageMessage &message)
{
    m_message = message;
    Q_EMIT messageChanged();
}

void ReplaySession::setRunning(bool running)
{
    m_running = running;
    Q_EMIT runningChanged(running);
}

bool ReplaySession::start(const Inputs &in)
{
    if (m_running) {
        return false;
    }
    replay::Options o;
    for (const QString &p : in.logs) {
        if (!p.trimmed().isEmpty()) {
            o.files << p.trimmed();
        }
    }
    if (o.files.isEmpty()) {
        say(PageMessage::plain(Tone::Bad, tr("Choose at least one log file.")));
        return false;
    }
    const QString rulesFile = in.rulesFile.trimmed();
    const bool fromPage = rulesFile.isEmpty() && !m_pageRules.rules.empty();
    const rules::Loaded loaded =
        fromPage ? rules::Loaded{m_pageRules, {}} : rules::loadFile(rulesFile);
    if (!loaded.ok()) {
        say(PageMessage::plain(Tone::Bad, loaded.errors.isEmpty()
                                              ? tr("Choose a rule file.")
                                              : loaded.errors.first().toString()));
        return false;
    }
    o.rules = loaded.set;
    const auto format = replay::formatFromName(in.format);
    o.format = format ? *format : replay::Format::Auto;
    if (o.format == replay::Format::NginxCustom) {
        o.logFormat = in.logFormat;
    }
    m_fromPage = fromPage;
    m_cancelFlag.store(false);
    setRunning(true);
    say(PageMessage::plain(Tone::Info, tr("Replaying…")));
    const std::atomic<bool> *flag = &m_cancelFlag;
    m_worker.post([o, flag](ReplayWorker *w) { w->run(o, flag); });
    return true;
}

void ReplaySession::cancel()
{
    if (!m_running) {
        return;
    }
    m_cancelFlag.store(true);
    say(PageMessage::plain(Tone::Info, tr("Cancelling…")));
}

QString ReplaySession::summary(const replay::Report &report) const
{
    QString text = tr("%1 lines, %2 unparsed, %3 late; %4 s")
                       .arg(grouped(report.lines), grouped(report.unparsed), grouped(report.late))
                       .arg(QLocale().toString(report.wallSeconds, 'f', 2));
    if (report.spread) {
        text += tr("; whole seconds spread evenly");
    }
    if (report.outliers > 0) {
        text += tr("; %1 outliers, not replayed").arg(grouped(report.outliers));
    }
    if (!report.warning.isEmpty()) {
        text += u"; "_s + report.warning;
    }
    if (report.cancelled) {
        text = tr("Cancelled: ") + text;
    }
    if (!report.error.isEmpty()) {
        text += u"; "_s + report.error;
    }
    return text;
}

void ReplaySession::onFinished(const replay::Report &report)
{
    setRunning(false);
    m_report = report;
    m_replayed.clear();
    for (const replay::RuleReport &r : m_report.rules) {
        m_replayed.push_back(&r);
    }
    m_selected = -1;
    const bool problem = report.cancelled || !report.error.isEmpty();
    say(PageMessage::plain(problem ? Tone::Warning : Tone::Info, summary(report)));
    Q_EMIT finished();
    for (int i = 0; i < ruleCount(); ++i) {
        if (!m_replayed[size_t(i)]->skipped) {
            selectRule(i);
            break;
        }
    }
}

const replay::RuleReport *ReplaySession::rule(int index) const
{
    return index >= 0 && index < ruleCount() ? m_replayed[size_t(index)] : nullptr;
}

bool ReplaySession::decidedNothing(const replay::RuleReport &r)
{
    return r.skipped || r.denied + r.shadowDenied == 0;
}

QString ReplaySession::noteFor(const replay::RuleReport &r)
{
    QStringList why;
    if (r.skipped) {
        why << (r.disabled ? tr("disabled: not replayed") : tr("skipped: %1").arg(r.skipReason));
    } else if (r.matched == 0) {
        why << tr("no line matched its route");
    } else {
        if (r.noSubject > 0) {
            why << tr("%n line(s) without a subject for %1", nullptr,
                      int(std::min<qint64>(r.noSubject, INT_MAX)))
                       .arg(r.scope);
        }
        if (r.subjectTooLong > 0) {
            why << tr("%n line(s) with a subject too long to decide", nullptr,
                      int(std::min<qint64>(r.subjectTooLong, INT_MAX)));
        }
        if (r.decided > 0 && r.denied + r.shadowDenied == 0) {
            why << tr("denied none: no subject above %1 (highest peak %2)")
                       .arg(grouped(r.limit), grouped(r.max));
        }
    }
    if (!r.stagedOf.isEmpty()) {
        why << tr("the staged candidate of %1, in shadow: counts, never denies").arg(r.stagedOf);
    } else if (r.shadow && !r.skipped) {
        why << tr("shadow: counts what it would deny, never denies");
    }
    if (r.overrides > 0) {
        why << tr("%n override(s) not applied by the replay", nullptr, int(r.overrides));
    }
    return why.isEmpty() ? r.description : why.join(u"; "_s);
}

void ReplaySession::selectRule(int index)
{
    const replay::RuleReport *r = rule(index);
    m_selected = r == nullptr ? -1 : index;
    Q_EMIT selectionChanged();
    if (r != nullptr && !r->skipped) {
        setLimit(r->limit);
    }
}

void ReplaySession::setLimit(qint64 limit)
{
    const replay::RuleReport *r = selected();
    if (r == nullptr || r->skipped) {
        return;
    }
    m_limit = std::max<qint64>(1, limit);
    Q_EMIT limitChanged();
}

replay::WouldDeny ReplaySession::wouldDeny() const
{
    const replay::RuleReport *r = selected();
    return r == nullptr || r->skipped ? replay::WouldDeny{} : r->wouldDeny(m_limit);
}

QString ReplaySession::sharesText() const
{
    const replay::RuleReport *r = selected();
    if (r == nullptr || r->skipped) {
        return {};
    }
    const replay::Candidate c = r->shares(m_limit);
    return tr("Limit %1 per %2%3: %4 of subjects (%5), %6 of requests (%7). Peaks: p50 %8, p90 "
              "%9, p99 %10, max %11.")
        .arg(grouped(m_limit), duration::formatUs(r->windowUs),
             m_limit == r->limit ? tr(" (the rule's)") : QString(), percent(c.subjectShare),
             grouped(c.subjects), percent(c.requestShare), grouped(c.requests), grouped(r->p50),
             grouped(r->p90))
        .arg(grouped(r->p99), grouped(r->max));
}

QString ReplaySession::limitTarget(QString *why) const
{
    const replay::RuleReport *r = selected();
    QString reason;
    if (r == nullptr || r->skipped) {
        reason = tr("Choose a replayed rule first.");
    } else if (!m_fromPage) {
        reason = tr("Replay the Rules page's rules (no rule file) to write a limit into them.");
    } else if (m_limit == r->limit) {
        reason = tr("Drag the red line to another limit first.");
    }
    if (why != nullptr) {
        *why = reason;
    }
    return reason.isEmpty() ? (r->stagedOf.isEmpty() ? r->id : r->stagedOf) : QString();
}

bool ReplaySession::useLimit()
{
    QString why;
    const QString id = limitTarget(&why);
    if (id.isEmpty()) {
        say(PageMessage::plain(Tone::Warning, why));
        return false;
    }
    Q_EMIT useLimitRequested(id, m_limit);
    return true;
}

void ReplaySession::limitUsed(bool written, const QString &detail)
{
    say(written ? PageMessage::headlined(
                      Tone::Good,
                      tr("Limit %1 written into the rule on the Rules page").arg(grouped(m_limit)),
                      detail)
                : PageMessage::headlined(Tone::Bad, tr("The limit was not written"), detail));
}

} // namespace sluice::ui
