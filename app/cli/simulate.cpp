#include "simulate.h"

#include "args.h"
#include "command.h"
#include "connectflags.h"

#include "core/common/plural.h"
#include "core/sim/redisrun.h"
#include "core/sim/resultfile.h"
#include "core/sim/simulator.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSaveFile>
#include <QTemporaryDir>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstdio>
#include <optional>

using namespace Qt::StringLiterals;

namespace sluice::cli {

namespace {

const QString command = u"simulate"_s;
const QString usageText = usageOf(command);

std::atomic<bool> interrupted{false};

// C linkage makes the name global despite the unnamed namespace: it must be unique.
extern "C" void onSimulateInterrupt(int)
{
    interrupted.store(true);
}

// Ctrl+C and TERM cancel the run (between two batches), which then removes its Redis keys.
class InterruptGuard
{
public:
    InterruptGuard()
    {
        interrupted.store(false);
        m_int = std::signal(SIGINT, onSimulateInterrupt);
        m_term = std::signal(SIGTERM, onSimulateInterrupt);
    }
    ~InterruptGuard()
    {
        std::signal(SIGINT, m_int);
        std::signal(SIGTERM, m_term);
    }
    InterruptGuard(const InterruptGuard &) = delete;
    InterruptGuard &operator=(const InterruptGuard &) = delete;

private:
    void (*m_int)(int) = SIG_DFL;
    void (*m_term)(int) = SIG_DFL;
};

void writeOut(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
    std::fflush(stdout);
}

void writeErr(const QString &line)
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

QString humanTable(const sim::Scenario &s, const sim::SimResult &r, qint64 subjects)
{
    const QString w = duration::formatUs(s.measureWindowUs);
    const QString bin = duration::formatUs(s.binUs);
    QString out =
        u"%1 on %2: %3 over %4, %5, %6; measure window %7, bin %8; %9 s\n"_s
            .arg(s.name,
                 r.backend == u"redis"_s ? u"the scripts in Redis"_s : u"the in-process models"_s,
                 counted(r.processed, u"request", u"requests", grouped(r.processed)),
                 duration::formatUs(s.durationUs), counted(subjects, u"subject", u"subjects"),
                 counted(qint64(r.rules.size()), u"rule", u"rules"), w, bin)
            .arg(r.wallSeconds, 0, 'f', 3);
    if (!s.description.isEmpty()) {
        out += s.description + u'\n';
    }
    const QStringList head = {
        u"rule"_s,          u"algorithm"_s,   u"offered"_s,           u"admitted"_s,
        u"rejected"_s,      u"max/"_s + w,    u"released max/"_s + w, u"peak/"_s + bin,
        u"delay mean ms"_s, u"delay max ms"_s};
    QList<QStringList> rows{head};
    for (const sim::RuleResult &x : r.rules) {
        rows.append({x.rule, x.adopted ? x.adopted->layout : algorithm::name(x.algorithm),
                     grouped(x.offered), grouped(x.admitted), grouped(x.rejected),
                     grouped(x.maxAdmittedInWindow), grouped(x.maxReleasedInWindow),
                     grouped(x.peakAdmittedPerBin), QString::number(x.meanDelayMs, 'f', 1),
                     grouped(x.maxDelayMs)});
    }
    QList<qsizetype> widths(head.size(), 0);
    for (const QStringList &row : rows) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            widths[i] = std::max(widths[i], row[i].size());
        }
    }
    out += u'\n';
    for (const QStringList &row : rows) {
        QString line;
        for (qsizetype i = 0; i < row.size(); ++i) {
            // Names left-aligned, figures right-aligned.
            line += i < 2 ? row[i].leftJustified(widths[i]) : row[i].rightJustified(widths[i]);
            line += u"  "_s;
        }
        out += line.trimmed() + u'\n';
    }
    // The adopted limiters, said in words: what they are and what went wrong.
    for (const sim::RuleResult &x : r.rules) {
        if (const auto &a = x.adopted) {
            out += u"%1: the limiter rule %2 adopts (%3, script %4, %5 per %6), its twin in "
                   "process"_s.arg(x.rule, a->rule, a->layout, a->script, grouped(a->limit),
                                   duration::formatUs(a->windowUs));
            if (a->lostTtlAtUs >= 0) {
                out += u"; lost its TTL at %1 (an INCR after the key expired): from then on it "
                       "never resets"_s.arg(duration::formatUs(a->lostTtlAtUs));
            }
            out += u'\n';
        }
    }
    return out;
}

Result<void> saveAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        return Error::make(Error::Kind::Io, u"cannot write %1: %2"_s.arg(path, f.errorString()));
    }
    return {};
}

// --url, parsed; nullopt with an exit code when it is missing or wrong.
std::optional<Endpoint> endpointFrom(const Args &args, int *code)
{
    CommandContext context(command, args);
    if (const Stop s = context.requireEndpoint({})) {
        *code = *s;
        return std::nullopt;
    }
    return *context.endpoint();
}

// ---------------------------------------------------------------------------------------------
// --bench

// 1,000,000 requests (by default) from 10,000 clients through six per-IP rules, one per
// algorithm, tight enough that every algorithm both admits and rejects.
sim::Scenario benchScenario(qint64 requests)
{
    sim::Scenario s;
    s.name = u"bench"_s;
    s.description =
        u"%1 requests from 10,000 clients through six per-IP rules"_s.arg(grouped(requests));
    s.durationUs = (requests + 9'999) / 10'000 * duration::usPerSecond;
    s.seed = 42;
    s.binUs = duration::usPerSecond;
    s.measureWindowUs = 10 * duration::usPerSecond;
    s.subjects = 10'000;
    sim::TrafficPattern p;
    p.kind = sim::TrafficPattern::Kind::Constant;
    p.rate = Rate{10'000, duration::usPerSecond};
    p.toUs = requests * 100; // 10,000/s: exactly `requests` of them
    s.traffic.push_back(p);
    const auto rule = [](const char *id, Algorithm a) {
        Rule r;
        r.id = QString::fromLatin1(id);
        r.scope = Scope{Scope::Kind::Ip, {}};
        r.algorithm = a;
        if (algorithm::isWindow(a)) {
            r.limit = 10;
            r.windowUs = 10 * duration::usPerSecond;
        } else {
            r.rate = Rate{1, duration::usPerSecond};
            r.burst = a == Algorithm::Gcra ? 4 : 5;
        }
        return r;
    };
    s.rules = {rule("fixed-window", Algorithm::FixedWindow),
               rule("sliding-log", Algorithm::SlidingLog),
               rule("sliding-counter", Algorithm::SlidingCounter),
               rule("token-bucket", Algorithm::TokenBucket),
               rule("leaky-bucket", Algorithm::LeakyBucket),
               rule("gcra", Algorithm::Gcra)};
    return s;
}

// The engine benchmark's pipelined figures (sluice-cli bench --json), one per algorithm.
// The password goes to the child in its environment (REDISCLI_AUTH), never on its command line.
Result<QHash<QString, double>> enginePipelined(const Args &args, const Endpoint &endpoint)
{
    QStringList argv{u"bench"_s};
    // --url once per line: a Redis Cluster's seeds given as several --url (Args).
    for (const QString &url : args.text("url").split(QLatin1Char('\n'))) {
        argv << u"--url"_s << urlWithoutPassword(url);
    }
    argv << u"--json"_s << u"--rounds"_s << u"1"_s << u"--seconds"_s << u"1"_s;
    for (const Flag &f : connectionFlags()) {
        if (args.has(f.name) && qstrcmp(f.name, "password-file") != 0) {
            argv << u"--"_s + QLatin1String(f.name);
            if (f.takesValue) {
                argv << args.text(f.name);
            }
        }
    }
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    if (!endpoint.password.isEmpty()) {
        env.insert(u"REDISCLI_AUTH"_s, endpoint.password);
    }
    p.setProcessEnvironment(env);
    p.start(QCoreApplication::applicationFilePath(), argv);
    if (!p.waitForFinished(600'000) || p.exitStatus() != QProcess::NormalExit ||
        p.exitCode() != 0) {
        const QString why = QString::fromLocal8Bit(p.readAllStandardError()).trimmed();
        return Error::make(Error::Kind::Io, u"sluice-cli bench failed: %1"_s.arg(
                                                why.isEmpty() ? p.errorString() : why));
    }
    QHash<QString, double> out;
    const QJsonArray rows =
        QJsonDocument::fromJson(p.readAllStandardOutput()).object()[u"results"_s].toArray();
    for (const QJsonValue &v : rows) {
        const QJsonObject o = v.toObject();
        if (o[u"mode"_s].toString() == u"pipelined"_s) {
            out.insert(o[u"algorithm"_s].toString(), o[u"decisions_per_s"_s].toDouble());
        }
    }
    if (out.isEmpty()) {
        return Error::make(Error::Kind::Protocol, u"sluice-cli bench printed no figures"_s);
    }
    return out;
}

int bench(const Args &args)
{
    qint64 requests = 1'000'000;
    if (args.has("requests")) {
        auto n = integerFlag(args, "requests", 1'000, sim::maxOffered);
        if (!n) {
            return fail(command, n.error().message, exitUsage);
        }
        requests = *n;
    }
    // Each run is repeated `rounds` times and the median reported: one run of a second is at
    // the mercy of whatever else the machine does meanwhile.
    int rounds = 3;
    if (args.has("rounds")) {
        auto n = integerFlag(args, "rounds", 1, 101);
        if (!n) {
            return fail(command, n.error().message, exitUsage);
        }
        rounds = int(*n);
    }
    std::optional<Endpoint> endpoint;
    int code = exitOk;
    if (args.has("url")) {
        endpoint = endpointFrom(args, &code);
        if (!endpoint) {
            return code;
        }
    }
    const bool json = args.has("json");
    const auto say = [&](const QString &s) {
        if (!json) {
            writeOut(s.toLocal8Bit());
        }
    };
    QElapsedTimer t;
    t.start();
    auto simulator = sim::Simulator::create(benchScenario(requests));
    if (!simulator) {
        return fail(command, simulator.error().message, exitRuntime);
    }
    const double generateSeconds = double(t.nsecsElapsed()) / 1e9;
    const qint64 offered = qint64(simulator->traffic().arrivals.size());
    const qint64 decisions = offered * qint64(simulator->scenario().rules.size());
    say(u"Simulator benchmark: %1 offered requests from 10,000 subjects through six rules (one "
        "per algorithm) = %2 decisions\n"_s.arg(grouped(offered), grouped(decisions)));
    say(u"  traffic generated in %1 s\n"_s.arg(generateSeconds, 0, 'f', 3));

    InterruptGuard guard;
    sim::RunOptions options;
    options.cancel = &interrupted;
    const auto median = [](std::vector<double> v) {
        std::sort(v.begin(), v.end());
        const size_t n = v.size();
        return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
    };
    const auto seconds = [](const std::vector<double> &v) {
        QStringList parts;
        for (const double x : v) {
            parts << QString::number(x, 'f', 3);
        }
        return parts.join(u", "_s);
    };
    std::optional<sim::SimResult> local;
    std::vector<double> localSeconds;
    for (int round = 0; round < rounds; ++round) {
        auto run = simulator->runLocal(options);
        if (!run) {
            return fail(command, run.error().message, exitRuntime);
        }
        if (run->cancelled) {
            return fail(command, u"cancelled"_s, exitRuntime);
        }
        localSeconds.push_back(run->wallSeconds);
        local = std::move(*run);
    }
    const double localMedian = median(localSeconds);
    const double localRate = double(decisions) / localMedian;
    say(u"  in-process twins: median %1 s of %2 (%3; %4 decisions/s); goal under 1 s: "
        "%5\n"_s.arg(localMedian, 0, 'f', 3)
            .arg(counted(rounds, u"run", u"runs"))
            .arg(seconds(localSeconds), grouped(qRound64(localRate)),
                 localMedian < 1 ? u"met"_s : u"missed"_s));
    QJsonObject doc{{u"offered"_s, offered},
                    {u"rules"_s, 6},
                    {u"decisions"_s, decisions},
                    {u"generate_seconds"_s, generateSeconds},
                    {u"rounds"_s, rounds},
                    {u"local_seconds"_s, localMedian},
                    {u"local_decisions_per_s"_s, qRound64(localRate)}};
    if (endpoint) {
        say(u"  Redis at %1, pipelined (%2 decisions per round trip) ...\n"_s
                .arg(endpoint->display())
                .arg(options.batch));
        std::vector<double> redisSeconds;
        bool identical = true;
        for (int round = 0; round < rounds; ++round) {
            auto redis = sim::runOnRedis(*simulator, *endpoint, options);
            if (!redis) {
                return fail(command, redis.error().message, exitRuntime);
            }
            if (redis->cancelled) {
                return fail(command, u"cancelled; the run's keys were removed"_s, exitRuntime);
            }
            redisSeconds.push_back(redis->wallSeconds);
            identical = identical && redis->sameOutcome(*local);
        }
        const double redisMedian = median(redisSeconds);
        const double redisRate = double(decisions) / redisMedian;
        say(u"  Redis: median %1 s of %2 (%3; %4 decisions/s); results identical to the "
            "twins: %5\n"_s.arg(redisMedian, 0, 'f', 3)
                .arg(counted(rounds, u"run", u"runs"))
                .arg(seconds(redisSeconds), grouped(qRound64(redisRate)),
                     identical ? u"yes"_s : u"NO"_s));
        doc.insert(u"redis_seconds"_s, redisMedian);
        doc.insert(u"redis_decisions_per_s"_s, qRound64(redisRate));
        doc.insert(u"identical"_s, identical);
        say(u"  engine benchmark (sluice-cli bench, pipelined, batch 64) ...\n"_s);
        auto engine = enginePipelined(args, *endpoint);
        if (!engine) {
            writeErr(u"sluice-cli simulate: no engine figure: "_s + engine.error().message);
        } else {
            // The six rules make equally many decisions: the engine's rate over the same mix is
            // the harmonic mean of its per-algorithm rates.
            double inverse = 0;
            QStringList parts;
            for (const Rule &r : simulator->scenario().rules) {
                const double v = engine->value(algorithm::name(r.algorithm));
                inverse += v > 0 ? 1 / v : 0;
                parts << u"%1 %2"_s.arg(algorithm::name(r.algorithm), grouped(qRound64(v)));
            }
            const double mix = inverse > 0 ? 6 / inverse : 0;
            const double ratio = mix > 0 ? redisRate / mix : 0;
            say(u"  engine pipelined: %1 (harmonic mean over the six: %2 decisions/s)\n"_s.arg(
                parts.join(u", "_s), grouped(qRound64(mix))));
            say(u"  simulator on Redis / engine pipelined = %1\n"_s.arg(ratio, 0, 'f', 2));
            doc.insert(u"engine_pipelined_per_s"_s, qRound64(mix));
            doc.insert(u"ratio"_s, qRound(ratio * 1000) / 1000.0);
        }
        if (!identical) {
            return fail(command, u"the Redis run disagrees with the in-process twins"_s,
                        exitRuntime);
        }
    }
    if (json) {
        writeOut(QJsonDocument(doc).toJson(QJsonDocument::Compact) + '\n');
    }
    return exitOk;
}

// sluice-cli simulate: options (or --bench), the renderer when a figure is asked for, the
// backend, the scenario, the run, then the report (--csv, --png/--svg, --json or the table).
class SimulateCommand
{
public:
    explicit SimulateCommand(const QList<QByteArray> &argv)
        : m_argv(argv)
    {}
    Stop options();
    Stop rendererFound();
    Stop backend();
    Stop scenario();
    Stop runScenario();
    int report();

private:
    Stop render();
    int usage(const QString &message) const
    {
        return fail(command, message + usageText, exitUsage);
    }

    const QList<QByteArray> m_argv;
    CommandContext m_context{command};
    // The figure is drawn by sluice-render, beside this program.
    const QString m_renderer = QCoreApplication::applicationDirPath() + u"/sluice-render"_s;
    std::optional<Endpoint> m_endpoint;
    sim::RunOptions m_options;
    QString m_spec;
    std::optional<sim::Simulator> m_simulator;
    std::optional<sim::SimResult> m_result;
};

Stop SimulateCommand::options()
{
    if (const Stop s = m_context.parse(m_argv,
                                       {{"backend", true},
                                        {"url", true},
                                        {"json", false},
                                        {"csv", true},
                                        {"png", true},
                                        {"svg", true},
                                        {"bench", false},
                                        {"requests", true},
                                        {"rounds", true},
                                        {"batch", true}},
                                       CommandContext::Positionals::Any)) {
        return s;
    }
    const Args &args = m_context.args();
    if (args.has("bench")) {
        if (!args.positional().isEmpty() || args.has("backend") || args.has("csv") ||
            args.has("png") || args.has("svg")) {
            return usage(u"--bench takes no scenario, --backend, --csv, --png or --svg"_s);
        }
        return bench(args); // the whole command
    }
    if (args.has("requests") || args.has("rounds")) {
        return usage(u"--requests and --rounds are for --bench"_s);
    }
    if (args.positional().size() != 1) {
        return usage(args.positional().isEmpty()
                         ? u"give a scenario file or preset:<name> (the presets are %1)"_s.arg(
                               sim::scenario::presetNames().join(u", "_s))
                         : u"give exactly one scenario"_s);
    }
    return std::nullopt;
}

// Found before the run, so a missing renderer costs no simulation.
Stop SimulateCommand::rendererFound()
{
    const Args &args = m_context.args();
    if ((args.has("png") || args.has("svg")) && !QFileInfo(m_renderer).isExecutable()) {
        return fail(
            command,
            u"--png and --svg are drawn by sluice-render, the chart renderer, which is "
            "not beside sluice-cli (%1 is missing); it is installed with the sluice "
            "package, or run without --png/--svg (--csv writes the series)"_s.arg(m_renderer),
            exitRuntime);
    }
    return std::nullopt;
}

// --backend local (the twins) or redis (the scripts at --url, the default with --url), and
// --batch.
Stop SimulateCommand::backend()
{
    const Args &args = m_context.args();
    QString backend = args.has("url") ? u"redis"_s : u"local"_s;
    if (args.has("backend")) {
        backend = args.text("backend");
        if (backend != u"local"_s && backend != u"redis"_s) {
            return fail(command,
                        u"--backend '%1' is unknown; expected local or redis"_s.arg(
                            bytes::printable(args.raw("backend"))),
                        exitUsage);
        }
    }
    if (backend == u"redis"_s && !args.has("url")) {
        return usage(u"--backend redis needs --url redis://host:port"_s);
    }
    if (backend == u"local"_s && args.has("url")) {
        return fail(command, u"--url is only used with --backend redis"_s, exitUsage);
    }
    if (backend == u"redis"_s) {
        int code = exitOk;
        m_endpoint = endpointFrom(args, &code);
        if (!m_endpoint) {
            return code;
        }
    }
    if (args.has("batch")) {
        auto b = integerFlag(args, "batch", 1, 100'000);
        if (!b) {
            return fail(command, b.error().message, exitUsage);
        }
        m_options.batch = int(*b);
    }
    return std::nullopt;
}

Stop SimulateCommand::scenario()
{
    m_spec = QString::fromLocal8Bit(m_context.args().positional().first());
    const sim::scenario::Loaded loaded = sim::scenario::load(m_spec);
    if (!loaded.ok()) {
        for (const Diagnostic &d : loaded.errors) {
            writeErr(d.toString());
        }
        return fail(command,
                    u"%1 is not a valid scenario (%2); nothing was run"_s.arg(
                        m_spec, counted(loaded.errors.size(), u"error", u"errors")),
                    exitUsage);
    }
    auto simulator = sim::Simulator::create(loaded.scenario);
    if (!simulator) {
        return fail(command, u"%1: %2"_s.arg(m_spec, simulator.error().message), exitUsage);
    }
    m_simulator.emplace(std::move(*simulator));
    return std::nullopt;
}

// The run, SIGINT and SIGTERM cancelling it.
Stop SimulateCommand::runScenario()
{
    InterruptGuard guard;
    m_options.cancel = &interrupted;
    auto result = m_endpoint ? sim::runOnRedis(*m_simulator, *m_endpoint, m_options)
                             : m_simulator->runLocal(m_options);
    if (!result) {
        return fail(command, result.error().message,
                    result.error().kind == Error::Kind::Invalid ? exitUsage : exitRuntime);
    }
    if (!result->warning.isEmpty()) {
        writeErr(u"sluice-cli simulate: warning: "_s + result->warning);
    }
    if (result->cancelled) {
        return fail(command,
                    u"cancelled after %1 of %2 requests%3"_s.arg(
                        grouped(result->processed), grouped(result->total),
                        m_endpoint && result->warning.isEmpty() ? u"; the run's keys were "
                                                                  "removed from Redis"_s
                                                                : QString()),
                    exitRuntime);
    }
    m_result = std::move(*result);
    return std::nullopt;
}

int SimulateCommand::report()
{
    const Args &args = m_context.args();
    if (args.has("csv")) {
        if (auto saved = saveAtomically(args.text("csv"), sim::report::csv(*m_result)); !saved) {
            return fail(command, saved.error().message, exitRuntime);
        }
    }
    if (args.has("png") || args.has("svg")) {
        if (const Stop s = render()) {
            return *s;
        }
    }
    if (args.has("json")) {
        writeOut(sim::report::json(*m_result) + '\n');
    } else {
        writeOut(
            humanTable(m_simulator->scenario(), *m_result, m_simulator->traffic().subjects.size())
                .toLocal8Bit());
    }
    return exitOk;
}

// The console's figure, drawn headless by sluice-render from the run's outcome.
Stop SimulateCommand::render()
{
    QTemporaryDir dir;
    const QString file = dir.filePath(u"result.bin"_s);
    if (auto saved = saveAtomically(file, sim::encodeResult(*m_result)); !dir.isValid() || !saved) {
        return fail(command,
                    u"cannot hand the run to sluice-render: %1"_s.arg(
                        saved ? dir.errorString() : saved.error().message),
                    exitRuntime);
    }
    QStringList renderArgs{u"--scenario"_s, m_spec, u"--result"_s, file};
    for (const char *flag : {"png", "svg"}) {
        if (m_context.args().has(flag)) {
            renderArgs << u"--"_s + QLatin1String(flag) << m_context.args().text(flag);
        }
    }
    QProcess render;
    render.setProcessChannelMode(QProcess::ForwardedOutputChannel);
    render.start(m_renderer, renderArgs);
    const bool finished = render.waitForStarted(10'000) && render.waitForFinished(300'000);
    if (!finished || render.exitStatus() != QProcess::NormalExit || render.exitCode() != 0) {
        const QString said = QString::fromLocal8Bit(render.readAllStandardError()).trimmed();
        render.kill();
        return fail(command,
                    u"%1 failed: %2"_s.arg(m_renderer, !said.isEmpty() ? said
                                                       : finished      ? u"it crashed"_s
                                                                       : render.errorString()),
                    exitRuntime);
    }
    return std::nullopt;
}

} // namespace

int simulate(const QList<QByteArray> &argv)
{
    SimulateCommand c(argv);
    return runSteps(c,
                    {&SimulateCommand::options, &SimulateCommand::rendererFound,
                     &SimulateCommand::backend, &SimulateCommand::scenario,
                     &SimulateCommand::runScenario},
                    &SimulateCommand::report);
}

} // namespace sluice::cli
