#include "replay.h"

#include "args.h"
#include "command.h"

#include "core/common/duration.h"
#include "core/replay/replay.h"
#include "core/rules/codec.h"

#include <QDateTime>
#include <QRegularExpression>
#include <QSaveFile>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <optional>
#include <signal.h>

using namespace Qt::StringLiterals;

namespace sluice::cli {

namespace {

const QString command = u"replay"_s;

std::atomic<bool> interrupted{false};

extern "C" void onReplayInterrupt(int)
{
    interrupted.store(true);
}

void out(const QString &text)
{
    const QByteArray b = text.toUtf8();
    std::fwrite(b.constData(), 1, size_t(b.size()), stdout);
}

void err(const QString &line)
{
    const QByteArray b = (line + u'\n').toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
}

QString grouped(qint64 n)
{
    QString digits = QString::number(n < 0 ? -n : n);
    for (qsizetype i = digits.size() - 3; i > 0; i -= 3) {
        digits.insert(i, u',');
    }
    return (n < 0 ? u"-"_s : QString()) + digits;
}

QString when(qint64 us)
{
    return QDateTime::fromMSecsSinceEpoch(us / 1000, Qt::UTC)
        .toString(u"yyyy-MM-dd HH:mm:ss.zzz"_s);
}

QString percent(double share)
{
    return QString::number(share * 100.0, 'f', share > 0 && share < 0.001 ? 3 : 1) + u" %"_s;
}

QString table(const QList<QStringList> &rows, int leftColumns)
{
    QList<qsizetype> widths;
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (widths.size() <= i) {
                widths.append(0);
            }
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    QString text;
    for (const QStringList &row : rows) {
        QString line = u"    "_s;
        for (qsizetype i = 0; i < row.size(); ++i) {
            line += i < leftColumns ? row[i].leftJustified(widths[i])
                                    : row[i].rightJustified(widths[i]);
            line += u"  "_s;
        }
        text += line.trimmed().prepend(u"    "_s) + u'\n';
    }
    return text;
}

QString ruleText(const replay::Report &r, const replay::RuleReport &x)
{
    QString t = u"\nrule %1%2: %3%4\n"_s.arg(
        x.id, x.set == u"against"_s ? u" (--against)"_s : QString(), x.description,
        x.route.trimmed().isEmpty() ? u", every request"_s : u", route "_s + x.route);
    if (x.skipped) {
        return t + u"  skipped: "_s + x.skipReason + u'\n';
    }
    t += u"  matched %1, admitted %2, denied %3, shadow-denied %4"_s.arg(
        grouped(x.matched), grouped(x.admitted), grouped(x.denied), grouped(x.shadowDenied));
    if (x.noSubject > 0) {
        t += u"; %1 without a subject for %2 (not limited)"_s.arg(grouped(x.noSubject), x.scope);
    }
    if (x.subjectTooLong > 0) {
        t += u"; %1 with a subject over %2 bytes (not decided)"_s.arg(grouped(x.subjectTooLong))
                 .arg(replay::maxSubjectBytes);
    }
    t += u"\n  subjects: %1 seen, %2 denied at least once\n"_s.arg(grouped(x.subjects),
                                                                   grouped(x.subjectsDenied));
    if (x.hasStatus) {
        t += u"  the log's 429s: %1, of which the rule denies %2; the rule denies %3 the log "
             "served\n"_s.arg(grouped(x.log429), grouped(x.log429Denied), grouped(x.deniedNot429));
    }
    if (!x.top.empty()) {
        QList<QStringList> rows{
            {u"subject"_s, u"requests"_s, u"denied"_s, u"first denial"_s, u"last denial"_s}};
        for (const replay::DeniedSubject &d : x.top) {
            rows.append({bytes::printable(d.subject.left(60)), grouped(d.requests),
                         grouped(d.denied), when(d.firstUs), when(d.lastUs)});
        }
        t += u"  most denied subjects:\n"_s + table(rows, 1);
    }
    if (!x.deniedPerBin.empty()) {
        qint64 peak = 0;
        size_t at = 0;
        qint64 nonZero = 0;
        for (size_t i = 0; i < x.deniedPerBin.size(); ++i) {
            if (x.deniedPerBin[i] > peak) {
                peak = x.deniedPerBin[i];
                at = i;
            }
            nonZero += x.deniedPerBin[i] > 0 ? 1 : 0;
        }
        t += u"  denials per %1: at most %2 (from %3), in %4 of %5 bins (--csv: the series)\n"_s
                 .arg(duration::formatUs(r.binUs), grouped(peak),
                      when(r.firstUs + qint64(at) * r.binUs))
                 .arg(nonZero)
                 .arg(x.deniedPerBin.size());
    }
    const QString w = duration::formatUs(x.windowUs);
    t += u"  peak requests per subject in %1: p50 %2, p90 %3, p99 %4, p99.9 %5, max %6\n"_s.arg(
        w, grouped(x.p50), grouped(x.p90), grouped(x.p99), grouped(x.p999), grouped(x.max));
    for (const replay::Candidate &c : x.candidates) {
        const QString src = c.source == u"rule"_s    ? u" (the rule's)"_s
                            : c.source == u"given"_s ? QString()
                                                     : u" (at "_s + c.source + u')';
        t += u"  limit %1 per %2%3: %4 of subjects, %5 of requests\n"_s.arg(
            grouped(c.limit), w, src, percent(c.subjectShare), percent(c.requestShare));
    }
    return t;
}

QString humanReport(const replay::Report &r)
{
    QStringList files;
    for (qsizetype i = 0; i < r.files.size(); ++i) {
        files << u"%1 (%2)"_s.arg(r.files[i], r.formats.value(i));
    }
    const double rate = r.wallSeconds > 0 ? double(r.lines) / r.wallSeconds : 0;
    QString t = u"replay of %1: %2 lines, %3 parsed, %4 unparsed, %5 matching no rule, %6 late "
                "(reorder window %7), %8 outliers\n"_s.arg(
                    files.join(u", "_s), grouped(r.lines), grouped(r.parsed), grouped(r.unparsed),
                    grouped(r.unmatched), grouped(r.late),
                    r.reorderWindowUs == 0 ? u"0s"_s : duration::formatUs(r.reorderWindowUs),
                    grouped(r.outliers));
    if (r.lastUs > 0) {
        t += u"from %1 to %2 UTC, on %3, in %4 s (%5 lines/s)\n"_s.arg(
            when(r.firstUs), when(r.lastUs),
            r.backend == u"redis"_s ? u"the scripts in Redis under "_s +
                                          QString::fromUtf8(r.keyPrefix) + u" (removed)"_s
                                    : u"the in-process twins"_s,
            QString::number(r.wallSeconds, 'f', 2), grouped(qint64(rate)));
    }
    if (r.spread) {
        t += u"the log's times have whole seconds: the requests of each second are spread evenly "
             "over it\n"_s;
    }
    if (!r.badLines.empty()) {
        t += u"lines that do not parse (the first %1 of %2):\n"_s.arg(r.badLines.size())
                 .arg(grouped(r.unparsed));
        for (const replay::LineNote &n : r.badLines) {
            t += u"  %1:%2: %3: %4\n"_s.arg(n.file).arg(n.line).arg(n.reason, n.sample);
        }
    }
    if (!r.outlierLines.empty()) {
        t += u"lines far ahead of the lines before and after them, not replayed (the first %1 of "
             "%2):\n"_s.arg(r.outlierLines.size())
                 .arg(grouped(r.outliers));
        for (const replay::LineNote &n : r.outlierLines) {
            t += u"  %1:%2: %3\n"_s.arg(n.file).arg(n.line).arg(n.sample);
        }
    }
    if (!r.lateLines.empty()) {
        t += u"lines out of order by more than the reorder window, not replayed (the first %1 of "
             "%2):\n"_s.arg(r.lateLines.size())
                 .arg(grouped(r.late));
        for (const replay::LineNote &n : r.lateLines) {
            t += u"  %1:%2\n"_s.arg(n.file).arg(n.line);
        }
    }
    for (const replay::RuleReport &x : r.rules) {
        t += ruleText(r, x);
    }
    for (const replay::RuleReport &x : r.against) {
        t += ruleText(r, x);
    }
    if (!r.comparisons.empty()) {
        t += u"\n--rules against --against, subjects denied:\n"_s;
        QList<QStringList> rows{{u"rule"_s, u"only by --rules"_s, u"only by --against"_s,
                                 u"by both"_s, u"e.g. only by --rules"_s,
                                 u"e.g. only by --against"_s}};
        for (const replay::Comparison &c : r.comparisons) {
            if (!c.comparable) {
                rows.append({c.rule, c.why});
                continue;
            }
            QStringList a, b;
            for (const QByteArray &s : c.onlyRulesExamples.mid(0, 3)) {
                a << bytes::printable(s.left(40));
            }
            for (const QByteArray &s : c.onlyAgainstExamples.mid(0, 3)) {
                b << bytes::printable(s.left(40));
            }
            rows.append({c.rule, grouped(c.onlyRules), grouped(c.onlyAgainst), grouped(c.both),
                         a.join(u", "_s), b.join(u", "_s)});
        }
        t += table(rows, 1);
    }
    return t;
}

// --field and --candidate may repeat; they are taken out before the other flags are parsed.
QList<QByteArray> takeRepeated(QList<QByteArray> &argv, const QByteArray &flag, QString *error)
{
    QList<QByteArray> values;
    QList<QByteArray> rest;
    for (qsizetype i = 0; i < argv.size(); ++i) {
        const QByteArray &a = argv[i];
        if (a == "--" + flag) {
            if (i + 1 >= argv.size()) {
                *error = u"--%1 needs a value"_s.arg(QString::fromLatin1(flag));
                return {};
            }
            values << argv[++i];
        } else if (a.startsWith("--" + flag + '=')) {
            values << a.mid(flag.size() + 3);
        } else {
            rest << a;
        }
    }
    argv = rest;
    return values;
}

// sluice-cli replay: options (the logs and the rules required), the log's format, the
// replay's bounds and backend, the rules (and --against), the replay itself, then the report.
class ReplayCommand
{
public:
    explicit ReplayCommand(const QList<QByteArray> &argv)
        : m_argv(argv)
    {}
    Stop options();
    Stop logFormat();
    Stop candidates();
    Stop trust();
    Stop backend();
    Stop sizes();
    Stop rules();
    Stop replayLogs();
    int report();

private:
    const QList<QByteArray> m_argv;
    CommandContext m_context{command};
    QList<QByteArray> m_fieldFlags;
    QList<QByteArray> m_candidateFlags;
    replay::Options m_options;
    QString m_backend;
    std::optional<replay::Report> m_report;
};

Stop ReplayCommand::options()
{
    QList<QByteArray> argv = m_argv;
    QString repeatError;
    // The flags that may repeat, taken out before Args::parse (which refuses a repeat).
    static const Flag repeatable[] = {{"field", true}, {"candidate", true}};
    m_fieldFlags = takeRepeated(argv, repeatable[0].name, &repeatError);
    m_candidateFlags = takeRepeated(argv, repeatable[1].name, &repeatError);
    if (!repeatError.isEmpty()) {
        return m_context.usage(repeatError);
    }
    if (const Stop s = m_context.parse(argv,
                                       {{"rules", true},
                                        {"from-redis", false},
                                        {"against", true},
                                        {"format", true},
                                        {"log-format", true},
                                        {"trust-proxies", true},
                                        {"reorder-window", true},
                                        {"backend", true},
                                        {"url", true},
                                        {"batch", true},
                                        {"max-subjects", true},
                                        {"csv", true},
                                        {"json", false}},
                                       CommandContext::Positionals::Any)) {
        return s;
    }
    for (const QByteArray &p : m_context.args().positional()) {
        m_options.files << QString::fromLocal8Bit(p);
    }
    if (m_options.files.isEmpty()) {
        return m_context.usage(u"give at least one log file"_s);
    }
    if (!m_context.args().has("rules") && !m_context.args().has("from-redis")) {
        return m_context.usage(u"--rules FILE is required (or --from-redis with --url)"_s);
    }
    return std::nullopt;
}

// --format, --log-format and the --field mapping of JSON lines.
Stop ReplayCommand::logFormat()
{
    const Args &args = m_context.args();
    replay::Options &o = m_options;
    if (args.has("format")) {
        const auto f = replay::formatFromName(args.text("format"));
        if (!f) {
            return m_context.usage(u"--format '%1': expected auto, nginx-combined, nginx (with "
                                   "--log-format), envoy, alb or json"_s.arg(args.text("format")));
        }
        o.format = *f;
    }
    if (args.has("log-format")) {
        if (o.format != replay::Format::Auto && o.format != replay::Format::NginxCustom) {
            return m_context.usage(u"--log-format describes an nginx log: it does not combine "
                                   "with --format %1"_s.arg(args.text("format")));
        }
        o.format = replay::Format::NginxCustom;
        o.logFormat = args.text("log-format");
    } else if (o.format == replay::Format::NginxCustom) {
        return m_context.usage(u"--format nginx needs the log_format string: --log-format '...'"_s);
    }
    for (const QByteArray &f : std::as_const(m_fieldFlags)) {
        const qsizetype eq = f.indexOf('=');
        if (eq <= 0) {
            return m_context.usage(u"--field '%1': expected ROLE=KEY, e.g. --field time=ts"_s.arg(
                QString::fromLocal8Bit(f)));
        }
        o.fields.append(
            {QString::fromLocal8Bit(f.left(eq)), QString::fromLocal8Bit(f.mid(eq + 1))});
    }
    if (o.fields.isEmpty()) {
        return std::nullopt;
    }
    if (o.format == replay::Format::Auto) {
        o.format = replay::Format::Json;
    } else if (o.format != replay::Format::Json) {
        return m_context.usage(u"--field maps the keys of JSON lines: it needs --format json"_s);
    }
    if (auto p = replay::LineParser::json(o.fields); !p) {
        return m_context.usage(p.error().message);
    }
    return std::nullopt;
}

// --candidate: the limits to try beside the rules' own.
Stop ReplayCommand::candidates()
{
    for (const QByteArray &c : std::as_const(m_candidateFlags)) {
        for (const QByteArray &part : c.split(',')) {
            bool ok = false;
            const qint64 v = part.trimmed().toLongLong(&ok);
            if (!ok || v < 1 || v > 4'000'000'000LL) {
                return m_context.usage(u"--candidate '%1': expected limits, whole numbers from 1, "
                                       "e.g. --candidate 50,100"_s.arg(QString::fromLocal8Bit(c)));
            }
            m_options.candidates << v;
        }
    }
    return std::nullopt;
}

// --trust-proxies (the client address behind proxies) and --reorder-window.
Stop ReplayCommand::trust()
{
    const Args &args = m_context.args();
    replay::Options &o = m_options;
    if (args.has("trust-proxies")) {
        const QString t = args.text("trust-proxies");
        bool ok = false;
        const int n = t.toInt(&ok);
        if (ok && (n < 0 || n > 30)) {
            return m_context.usage(u"--trust-proxies %1: expected 0 to 30 proxies, or networks "
                                   "(10.0.0.0/8,fd00::/8)"_s.arg(t));
        }
        if (ok) {
            o.trustProxies = n;
        } else {
            o.trustedCidrs = t.split(u',', Qt::SkipEmptyParts);
        }
    }
    if (args.has("reorder-window")) {
        // 0 with any unit is no window (parseUs takes positive durations only).
        static const QRegularExpression zero(u"^\\s*0+\\s*(us|ms|s|m|h|d)?\\s*$"_s);
        const QString text = args.text("reorder-window");
        const auto w = zero.match(text).hasMatch() ? Result<qint64>(0) : duration::parseUs(text);
        if (!w || *w < 0 || *w > 3'600'000'000LL) {
            return m_context.usage(
                u"--reorder-window '%1': expected a duration from 0s to 1h, e.g. 5s"_s.arg(text));
        }
        o.reorderWindowUs = *w;
    }
    return std::nullopt;
}

// --max-subjects and --batch.
Stop ReplayCommand::sizes()
{
    const Args &args = m_context.args();
    replay::Options &o = m_options;
    if (args.has("max-subjects")) {
        auto m = integerFlag(args, "max-subjects", 1, 2'000'000'000);
        if (!m) {
            return m_context.usage(m.error().message);
        }
        o.maxSubjects = *m;
    }
    if (args.has("batch")) {
        auto b = integerFlag(args, "batch", 1, 100'000);
        if (!b) {
            return m_context.usage(b.error().message);
        }
        o.batch = int(*b);
    }
    return std::nullopt;
}

// --backend: the in-process twins (local), or the scripts in Redis at --url (redis, the
// default with --url).
Stop ReplayCommand::backend()
{
    const Args &args = m_context.args();
    m_backend = args.has("url") ? u"redis"_s : u"local"_s;
    if (args.has("backend")) {
        m_backend = args.text("backend");
        if (m_backend != u"local"_s && m_backend != u"redis"_s) {
            return m_context.usage(u"--backend '%1': expected local or redis"_s.arg(m_backend));
        }
    }
    if (m_backend == u"redis"_s && !args.has("url")) {
        return m_context.usage(u"--backend redis needs --url URL"_s);
    }
    if (args.has("read-only") && m_backend == u"redis"_s) {
        return m_context.usage(u"--read-only: a replay on Redis writes (under a run prefix it "
                               "removes); replay with --backend local instead"_s);
    }
    return std::nullopt;
}

// The rules replayed, and the rule file of --against beside them.
Stop ReplayCommand::rules()
{
    LoadedRules loaded;
    if (const Stop s = m_context.loadRules(&loaded)) {
        return s;
    }
    m_options.rules = loaded.set;
    if (!m_context.args().has("against")) {
        return std::nullopt;
    }
    const QString path = m_context.args().text("against");
    const rules::Loaded a = rules::loadFile(path);
    if (!a.ok()) {
        for (const Diagnostic &d : a.errors) {
            err(d.toString());
        }
        return m_context.fail(
            u"--against %1 is not a valid rule file (%2 error(s)); nothing was done"_s.arg(path)
                .arg(a.errors.size()),
            exitUsage);
    }
    m_options.against = a.set;
    return std::nullopt;
}

// The replay, SIGINT and SIGTERM ending it early (without SA_RESTART: a read waiting on a
// pipe returns, and the reader sees the flag).
Stop ReplayCommand::replayLogs()
{
    interrupted.store(false);
    struct sigaction onSignal
    {};
    onSignal.sa_handler = onReplayInterrupt;
    sigemptyset(&onSignal.sa_mask);
    struct sigaction oldIntAction
    {
    }, oldTermAction{};
    sigaction(SIGINT, &onSignal, &oldIntAction);
    sigaction(SIGTERM, &onSignal, &oldTermAction);
    const auto restore = [&] {
        sigaction(SIGINT, &oldIntAction, nullptr);
        sigaction(SIGTERM, &oldTermAction, nullptr);
    };
    m_options.cancel = &interrupted;
    Result<replay::Report> report = Error::make(Error::Kind::Internal, QString());
    if (m_backend == u"redis"_s) {
        const Result<Endpoint> &endpoint = m_context.endpoint();
        if (!endpoint) {
            restore();
            return m_context.usage(endpoint.error().message);
        }
        report = replay::runOnRedis(m_options, *endpoint);
    } else {
        report = replay::run(m_options);
    }
    restore();
    if (!report) {
        return m_context.fail(report.error().message, report.error().kind == Error::Kind::Invalid
                                                          ? exitUsage
                                                          : exitRuntime);
    }
    m_report = std::move(*report);
    return std::nullopt;
}

// --csv, the report (--json or text), and the exit code: 1 when interrupted, failed or when
// no request matched a rule.
int ReplayCommand::report()
{
    const Args &args = m_context.args();
    const replay::Report &r = *m_report;
    if (args.has("csv")) {
        QSaveFile f(args.text("csv"));
        const QByteArray csv = replay::deniedCsv(r);
        if (!f.open(QIODevice::WriteOnly) || f.write(csv) != csv.size() || !f.commit()) {
            return m_context.fail(
                u"--csv: cannot write %1: %2"_s.arg(args.text("csv"), f.errorString()),
                exitRuntime);
        }
    }
    if (args.has("json")) {
        const QByteArray j = replay::toJson(r);
        std::fwrite(j.constData(), 1, size_t(j.size()), stdout);
    } else {
        out(humanReport(r));
    }
    std::fflush(stdout);
    if (!r.warning.isEmpty()) {
        err(u"sluice-cli replay: warning: "_s + r.warning);
    }
    if (r.cancelled) {
        return m_context.fail(u"interrupted: the report covers the lines read until then"_s,
                              exitRuntime);
    }
    if (!r.error.isEmpty()) {
        return m_context.fail(r.error, exitRuntime);
    }
    qint64 matched = 0;
    for (const auto *list : {&r.rules, &r.against}) {
        for (const replay::RuleReport &x : *list) {
            matched += x.matched;
        }
    }
    if (matched == 0) {
        return m_context.fail(u"no request of the log matches a rule's route (%1 parsed lines); "
                              "check the routes (\"GET /path\" matches that method and every "
                              "path starting so)"_s.arg(grouped(r.parsed)),
                              exitRuntime);
    }
    return exitOk;
}

} // namespace

int replay(const QList<QByteArray> &argv)
{
    ReplayCommand c(argv);
    return runSteps(c,
                    {&ReplayCommand::options, &ReplayCommand::logFormat, &ReplayCommand::candidates,
                     &ReplayCommand::trust, &ReplayCommand::backend, &ReplayCommand::sizes,
                     &ReplayCommand::rules, &ReplayCommand::replayLogs},
                    &ReplayCommand::report);
}

} // namespace sluice::cli
