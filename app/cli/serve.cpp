#include "serve.h"

#include "app/cli/sdnotify.h"

#include "args.h"
#include "connectflags.h"
#include "rules.h"
#include "servetls.h"
#include "statsflags.h"

#include "app/serve/checkservice.h"
#include "app/serve/envoyconfig.h"
#include "app/serve/grpcsession.h" // its limits only: no gRPC header
#ifdef SLUICE_WITH_GRPC
#include "app/serve/grpcservice.h"
#endif
#include "app/version/version.h"

#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QJsonObject>
#include <QSocketNotifier>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <tuple>
#include <utility>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

namespace sluice::cli {

namespace {

const QString command = QStringLiteral("serve");

int usage(const QString &message)
{
    return fail(command, message + usageOf(command), exitUsage);
}

int signalPipe[2] = {-1, -1};

// SIGHUP writes 'h' (reload the rules), SIGINT and SIGTERM 'q' (stop).
void onSignal(int sig)
{
    const char byte = sig == SIGHUP ? 'h' : 'q';
    [[maybe_unused]] const auto n = ::write(signalPipe[1], &byte, 1);
}

// HOST:PORT as --listen and --metrics-listen take it: an IP address, localhost, * or nothing
// (every interface), [v6]; false if it is not one.
bool parseHostPort(const QString &listen, QHostAddress *address, quint16 *port)
{
    const qsizetype colon = listen.lastIndexOf(QLatin1Char(':'));
    QString host = colon < 0 ? QString() : listen.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
        host = host.mid(1, host.size() - 2); // [::1]:8080
    }
    bool portOk = false;
    const uint p = colon < 0 ? 0 : listen.mid(colon + 1).toUInt(&portOk);
    if (host == QLatin1String("localhost")) {
        *address = QHostAddress(QHostAddress::LocalHost);
    } else if (host == QLatin1String("*") || host.isEmpty()) {
        *address = QHostAddress(QHostAddress::Any);
    } else {
        *address = QHostAddress(host);
    }
    *port = quint16(p);
    return colon >= 0 && portOk && p <= 65535 && !address->isNull();
}

// The descriptors the service may open (RLIMIT_NOFILE: its soft limit raised to the hard
// one), said in the log at start, and the connection limits lowered to fit in them beside
// what the service needs for itself (the workers' Redis connections, the listeners, the log,
// gRPC's own): a connection past the limit is refused with an answer, where one past the
// descriptors would be refused by the kernel with none.
void fitDescriptors(serve::ServeLog &log, serve::CheckService::Options &options, int *grpc)
{
    rlimit rl{};
    ::getrlimit(RLIMIT_NOFILE, &rl);
    const rlim_t before = rl.rlim_cur;
    if (rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = std::min<rlim_t>(rl.rlim_max, rlim_t(1) << 20);
        if (::setrlimit(RLIMIT_NOFILE, &rl) != 0) {
            rl.rlim_cur = before;
        }
    }
    const qint64 own = 64 + 4 * qint64(options.pool.workers);
    const qint64 budget = std::max<qint64>(2, qint64(rl.rlim_cur) - own);
    int &http = options.limits.maxConnections;
    const int wanted = http + (grpc != nullptr ? *grpc : 0);
    QString fitted;
    if (wanted > budget) {
        http = int(std::max<qint64>(1, budget * http / wanted));
        if (grpc != nullptr) {
            *grpc = int(std::max<qint64>(1, budget - http));
        }
        fitted = QStringLiteral(" (lowered from %1 in all to fit; raise LimitNOFILE= for more)")
                     .arg(wanted);
    }
    QJsonObject fields{{QStringLiteral("nofile"), qint64(rl.rlim_cur)},
                       {QStringLiteral("nofile_before"), qint64(before)},
                       {QStringLiteral("max_connections"), http}};
    if (grpc != nullptr) {
        fields.insert(QStringLiteral("grpc_max_connections"), *grpc);
    }
    log.write(fitted.isEmpty() ? serve::ServeLog::Level::Info : serve::ServeLog::Level::Warning,
              "descriptors",
              QStringLiteral("file descriptors: %1 (the soft limit was %2); connections: HTTP "
                             "%3%4%5")
                  .arg(qint64(rl.rlim_cur))
                  .arg(qint64(before))
                  .arg(http)
                  .arg(grpc != nullptr ? QStringLiteral(", gRPC %1").arg(*grpc) : QString())
                  .arg(fitted),
              {}, fields);
}

} // namespace

int serve(const QList<QByteArray> &argv)
{
    auto parsed = Args::parse(argv, {{"url", true},
                                     {"rules", true},
                                     {"from-redis", false},
                                     {"listen", true},
                                     {"legacy-headers", false},
                                     {"workers", true},
                                     {"timeout-ms", true},
                                     {"max-connections", true},
                                     {"max-body-bytes", true},
                                     {"max-header-bytes", true},
                                     {"header-timeout-ms", true},
                                     {"idle-timeout-ms", true},
                                     {"max-in-flight", true},
                                     {"http-threads", true},
                                     {"max-connections-per-peer", true},
                                     {"healthz-detail", false},
                                     {"no-deny-cache", false},
                                     {"no-stats", false},
                                     {"metrics-listen", true},
                                     {"metrics-compat", true},
                                     {"log-format", true},
                                     {"envoy-config", true},
                                     {"grpc", true},
                                     {"grpc-unknown-domain", true},
                                     {"grpc-response-headers", false},
                                     {"grpc-max-connections", true},
                                     {"grpc-max-connections-per-peer", true},
                                     {"grpc-max-streams", true},
                                     {"grpc-max-resets-per-second", true},
                                     {"listen-tls-cert", true},
                                     {"listen-tls-key", true},
                                     {"listen-tls-client-ca", true},
                                     {"grpc-dynamic-metadata", false}});
    if (!parsed) {
        return usage(parsed.error().message);
    }
    const Args &args = *parsed;
    if (!args.positional().isEmpty()) {
        return usage(QStringLiteral("unexpected argument '%1'")
                         .arg(bytes::printable(args.positional().first())));
    }
    if (!args.has("url")) {
        return usage(QStringLiteral("--url is required (redis://host:port)"));
    }
    auto endpoint = endpointFromArgs(args, command);
    if (!endpoint) {
        return usage(endpoint.error().message);
    }
    if (!args.has("listen")) {
        return usage(QStringLiteral("--listen HOST:PORT is required (e.g. 127.0.0.1:8080; port "
                                    "0 picks a free one)"));
    }
    const QString listen = args.text("listen");
    QHostAddress address;
    quint16 port = 0;
    if (!parseHostPort(listen, &address, &port)) {
        return usage(QStringLiteral("--listen '%1': expected HOST:PORT with an IP address (or "
                                    "localhost, or * for every interface) and a port 0-65535")
                         .arg(listen));
    }
    QHostAddress metricsAddress;
    quint16 metricsPort = 0;
    if (args.has("metrics-listen") &&
        !parseHostPort(args.text("metrics-listen"), &metricsAddress, &metricsPort)) {
        return usage(QStringLiteral("--metrics-listen '%1': expected HOST:PORT as --listen takes "
                                    "it (GET /metrics then answers there, not on --listen)")
                         .arg(args.text("metrics-listen")));
    }
    // --grpc [ADDR:]PORT: a bare port is every interface, as envoy ratelimit's GRPC_HOST.
    QHostAddress grpcAddress(QHostAddress::Any);
    quint16 grpcPort = 0;
    if (args.has("grpc")) {
#ifndef SLUICE_WITH_GRPC
        return fail(command,
                    QStringLiteral("--grpc: this sluice-cli was built without gRPC support "
                                   "(install libgrpc++-dev and protobuf-compiler-grpc and "
                                   "rebuild)"),
                    exitUsage);
#endif
        QString g = args.text("grpc");
        if (!g.contains(QLatin1Char(':'))) {
            g.prepend(QStringLiteral("*:"));
        }
        if (!parseHostPort(g, &grpcAddress, &grpcPort)) {
            return usage(QStringLiteral("--grpc '%1': expected [ADDR:]PORT (e.g. 8081, "
                                        "127.0.0.1:8081, [::1]:8081; port 0 picks a free one)")
                             .arg(args.text("grpc")));
        }
    } else {
        for (const char *flag :
             {"grpc-unknown-domain", "grpc-response-headers", "grpc-max-connections",
              "grpc-max-connections-per-peer", "grpc-max-streams", "grpc-max-resets-per-second",
              "grpc-dynamic-metadata"}) {
            if (args.has(flag)) {
                return usage(
                    QStringLiteral("--%1 goes with --grpc [ADDR:]PORT").arg(QLatin1String(flag)));
            }
        }
    }
    // The gRPC port's limits; parsed whether or not gRPC is built in.
    serve::GrpcLimits grpcLimits;
    for (const auto &[flag, min, max, to] :
         {std::tuple{"grpc-max-connections", 1, 1'000'000, &grpcLimits.maxConnections},
          {"grpc-max-connections-per-peer", 1, 1'000'000, &grpcLimits.maxConnectionsPerPeer},
          {"grpc-max-streams", 1, 10'000, &grpcLimits.maxStreams},
          {"grpc-max-resets-per-second", 1, 1'000'000, &grpcLimits.maxResetsPerSecond}}) {
        if (args.has(flag)) {
            auto v = integerFlag(args, flag, min, max);
            if (!v) {
                return usage(v.error().message);
            }
            *to = int(*v);
        }
    }
#ifdef SLUICE_WITH_GRPC
    serve::GrpcService::Options grpcOptions;
    grpcOptions.responseHeaders = args.has("grpc-response-headers");
    grpcOptions.dynamicMetadata = args.has("grpc-dynamic-metadata");
    if (args.has("grpc-unknown-domain")) {
        const QString p = args.text("grpc-unknown-domain");
        if (p == QLatin1String("ok")) {
            grpcOptions.unknownDomain = serve::GrpcService::UnknownDomain::Ok;
        } else if (p == QLatin1String("over_limit")) {
            grpcOptions.unknownDomain = serve::GrpcService::UnknownDomain::OverLimit;
        } else if (p == QLatin1String("error")) {
            grpcOptions.unknownDomain = serve::GrpcService::UnknownDomain::Error;
        } else {
            return usage(QStringLiteral("--grpc-unknown-domain '%1' is unknown; expected ok (the "
                                        "default, as envoy ratelimit), over_limit or error "
                                        "(INVALID_ARGUMENT)")
                             .arg(p));
        }
    }
#endif
    serve::CheckService::Options options;
    options.endpoint = *endpoint;
    options.legacyHeaders = args.has("legacy-headers");
    options.denyCache = !args.has("no-deny-cache");
    options.healthDetail = args.has("healthz-detail");
    options.metrics.version = version::number().toUtf8();
    options.metrics.commit = version::revision().toUtf8();
    if (args.has("metrics-compat")) {
        if (args.text("metrics-compat") != QLatin1String("envoy-ratelimit")) {
            return usage(QStringLiteral("--metrics-compat '%1' is unknown; expected "
                                        "envoy-ratelimit (its metric names beside Sluice's)")
                             .arg(args.text("metrics-compat")));
        }
        options.metrics.envoyCompat = true;
    }
    if (args.has("http-threads")) {
        auto t = integerFlag(args, "http-threads", 1, 16);
        if (!t) {
            return usage(t.error().message);
        }
        options.httpThreads = int(*t);
    }
    if (args.has("workers")) {
        auto w = integerFlag(args, "workers", 1, 64);
        if (!w) {
            return usage(w.error().message);
        }
        options.pool.workers = int(*w);
    }
    if (args.has("timeout-ms")) {
        auto t = integerFlag(args, "timeout-ms", 10, 60000);
        if (!t) {
            return usage(t.error().message);
        }
        options.pool.setTimeout(std::chrono::milliseconds(*t));
    }
    struct Limit
    {
        const char *flag;
        qint64 min, max;
        std::function<void(qint64)> set;
    };
    serve::HttpLimits &limits = options.limits;
    const Limit limitFlags[] = {
        {"max-connections", 1, 1'000'000, [&](qint64 v) { limits.maxConnections = int(v); }},
        {"max-connections-per-peer", 1, 1'000'000,
         [&](qint64 v) { limits.maxConnectionsPerPeer = int(v); }},
        {"max-body-bytes", 0, 1 << 24, [&](qint64 v) { limits.maxBodyBytes = v; }},
        {"max-header-bytes", 1024, 1 << 20, [&](qint64 v) { limits.maxHeaderBytes = v; }},
        {"header-timeout-ms", 100, 600'000, [&](qint64 v) { limits.headerTimeoutMs = int(v); }},
        {"idle-timeout-ms", 100, 3'600'000, [&](qint64 v) { limits.idleTimeoutMs = int(v); }},
        {"max-in-flight", 1, 100'000, [&](qint64 v) { limits.maxInFlight = int(v); }},
    };
    for (const Limit &l : limitFlags) {
        if (args.has(l.flag)) {
            auto v = integerFlag(args, l.flag, l.min, l.max);
            if (!v) {
                return usage(v.error().message);
            }
            l.set(*v);
        }
    }
    serve::ServeLog::Format logFormat = serve::ServeLog::Format::Text;
    if (args.has("log-format")) {
        const QString f = args.text("log-format");
        if (f == QLatin1String("json")) {
            logFormat = serve::ServeLog::Format::Json;
        } else if (f != QLatin1String("text")) {
            return usage(QStringLiteral("--log-format '%1' is unknown; expected text (the "
                                        "default) or json (one JSON object per line)")
                             .arg(f));
        }
    }
    serve::ServeLog log(logFormat);
    using Level = serve::ServeLog::Level;
    options.log = &log;
    fitDescriptors(log, options, args.has("grpc") ? &grpcLimits.maxConnections : nullptr);
#ifdef SLUICE_WITH_GRPC
    grpcOptions.log = &log;
    grpcOptions.limits = grpcLimits;
#endif
    // A failure once the log is set up: a JSON line under --log-format json, as the rest.
    auto die = [&log](const QString &message) {
        if (log.format() == serve::ServeLog::Format::Json) {
            log.write(Level::Error, "fatal", message);
            return exitRuntime;
        }
        return fail(command, message, exitRuntime);
    };
    // HTTPS and gRPC over TLS: the certificate is read now (a key we may not read fails here,
    // naming it), and again on SIGHUP and when its files change.
    auto listenTls = listenTlsFromArgs(args);
    if (!listenTls) {
        return listenTls.error().kind == Error::Kind::Invalid ? usage(listenTls.error().message)
                                                              : die(listenTls.error().message);
    }
    options.tls = *listenTls;
#ifdef SLUICE_WITH_GRPC
    grpcOptions.tls = *listenTls;
    grpcOptions.handshakeTimeoutMs = limits.headerTimeoutMs;
#endif
    std::unique_ptr<TlsReloader> tlsReloader;
    if (*listenTls) {
        tlsReloader = std::make_unique<TlsReloader>(*listenTls, log);
    }
    options.pool.log = [&log](const QString &line) {
        Level level = Level::Info;
        const char *event = serve::ServeLog::poolEvent(line, &level);
        log.writeState(level, event, line);
    };

    // Refused credentials make a silent fail-open service: refuse to start instead. (Redis
    // merely unreachable is not fatal: every rule answers by its on_redis_error meanwhile.) A
    // server that wants a password and was given none accepts the connection and refuses its
    // first command (NOAUTH): a PING asks.
    if (auto c = Connection::open(*endpoint, options.pool.connection);
        !c && c.error().kind == Error::Kind::Auth) {
        return die(c.error().message);
    } else if (c) {
        if (auto pong = c->command({QByteArrayLiteral("PING")});
            !pong && pong.error().message.startsWith(QLatin1String("NOAUTH"))) {
            return die(QStringLiteral("Redis at %1 refused the connection without credentials: "
                                      "%2; give the password with --password-file FILE or "
                                      "REDISCLI_AUTH, and a user in the URL as "
                                      "redis://USER:@HOST:PORT")
                           .arg(endpoint->display(), pong.error().message));
        }
    }

    // Every error (or note) of a rule file, as events with their place.
    auto logDiagnostics = [&log](const QList<Diagnostic> &list, Level level, const char *event) {
        for (const Diagnostic &d : list) {
            log.write(level, event, d.toString(), {},
                      QJsonObject{{QStringLiteral("file"), d.file},
                                  {QStringLiteral("line"), d.line},
                                  {QStringLiteral("column"), d.column},
                                  {QStringLiteral("path"), d.path},
                                  {QStringLiteral("error"), d.message}});
        }
    };

    // The rules: a file, the RuleStore (pulled once now so that a store that cannot be read
    // fails at start, then followed live), or envoy ratelimit's configuration.
    int code = exitOk;
    const bool envoyConfig = args.has("envoy-config");
    std::optional<LoadedRules> loaded;
    qint64 envoyVersion = 1; // counts the envoy configurations served
    if (envoyConfig) {
        if (args.has("rules") || args.has("from-redis")) {
            return usage(QStringLiteral("--envoy-config DIR gives the rules; it does not go with "
                                        "--rules or --from-redis"));
        }
        const serve::envoy::Config c = serve::envoy::load(args.text("envoy-config"));
        if (!c.ok()) {
            logDiagnostics(c.errors, Level::Error, "rules_error");
            return fail(command,
                        QStringLiteral("%1 is not a valid envoy ratelimit configuration (%2 "
                                       "error(s))")
                            .arg(args.text("envoy-config"))
                            .arg(c.errors.size()),
                        exitUsage);
        }
        logDiagnostics(c.notes, Level::Warning, "rules_not_expressed");
        loaded = LoadedRules{c.set,
                             QStringLiteral("the envoy ratelimit configuration in %1")
                                 .arg(args.text("envoy-config")),
                             {}};
        loaded->set.basedOn = envoyVersion;
    } else if (auto l = loadRulesForCommand(args, command, &code,
                                            rules::RuleStore::Reading::SkipUnreadable)) {
        loaded = *l;
    } else {
        return code;
    }

    // Statistics of every decision, flushed to Redis once a second (core/stats).
    // --no-stats: none are recorded or written.
    const bool withStats = !args.has("no-stats");
    stats::StatsRecorder recorder;
    stats::StatsFlusher flusher(*endpoint, &recorder);
    if (withStats) {
        options.record = [&recorder](const QString &ruleId, const QByteArray &subject,
                                     const Decision &d,
                                     bool shadow) { recorder.record(ruleId, subject, d, shadow); };
    }
    options.statsHealth = [&flusher, withStats] { return statsHealthJson(flusher, withStats); };

#ifdef SLUICE_WITH_GRPC
    // POST /json on the HTTP port whether or not --grpc listens; the service is made below.
    serve::GrpcService *grpcService = nullptr;
    options.json = [&grpcService](const QByteArray &body,
                                  serve::CheckService::Options::JsonReply reply) {
        grpcService->handleJson(body, reply);
    };
#endif
    serve::CheckService service(options);
#ifdef SLUICE_WITH_GRPC
    serve::GrpcService grpc(service, grpcOptions); // destroyed first: its calls end before
    grpcService = &grpc;
#endif
    service.setRules(loaded->set, loaded->set.basedOn.value_or(0), loaded->origin);
    if (args.has("from-redis")) {
        QObject::connect(&service, &serve::CheckService::ruleWatchError, &service,
                         [&log](const QString &m) {
                             log.write(Level::Warning, "rule_store_error",
                                       QStringLiteral("rule store: %1 (retrying)").arg(m));
                         });
        QObject::connect(
            &service, &serve::CheckService::rulesChanged, &service,
            [&log](qint64 version, int count) {
                log.write(Level::Info, "rules_loaded",
                          QStringLiteral("rules version %1 (%2 rules)").arg(version).arg(count), {},
                          QJsonObject{{QStringLiteral("version"), version},
                                      {QStringLiteral("count"), count}});
            });
        // What the store holds but cannot be served: one line each, when it changes (at most
        // 21: RuleStore and OverrideStore cap what they say), and /healthz says degraded.
        QObject::connect(&service, &serve::CheckService::skippedChanged, &service,
                         [&log](const QStringList &why) {
                             if (why.isEmpty()) {
                                 log.write(Level::Info, "rule_store_readable",
                                           QStringLiteral("rule store: everything stored is "
                                                          "read again"));
                             }
                             for (const QString &w : why) {
                                 log.write(Level::Warning, "rule_store_skipped",
                                           QStringLiteral("rule store: skipped: %1").arg(w));
                             }
                         });
        service.setSkipped(loaded->skipped);
        service.watchRuleStore();
    }
    std::optional<quint16> metricsListening;
    if (args.has("metrics-listen")) {
        auto m = service.listenMetrics(metricsAddress, metricsPort);
        if (!m) {
            return die(QStringLiteral("--metrics-listen: %1").arg(m.error().message));
        }
        metricsListening = *m;
    }
    auto listening = service.listen(address, port);
    if (!listening) {
        return die(listening.error().message);
    }

    std::optional<quint16> grpcListening;
#ifdef SLUICE_WITH_GRPC
    if (args.has("grpc")) {
        auto g = grpc.listen(grpcAddress, grpcPort);
        if (!g) {
            return die(g.error().message);
        }
        grpcListening = *g;
    }
#endif

    StatsReporter reporter(command);
    reporter.setSink([&log](bool failing, const QString &message) {
        log.write(failing ? Level::Warning : Level::Info, failing ? "stats_failing" : "stats_ok",
                  message);
    });
    // A change of Redis's state held back by the log's bound is written within seconds.
    QTimer heldStates;
    QObject::connect(&heldStates, &QTimer::timeout, &heldStates, [&log] { log.flushHeld(); });
    heldStates.start(1000);
    QTimer statsWatch;
    if (withStats) {
        flusher.start();
        QObject::connect(&statsWatch, &QTimer::timeout, &statsWatch,
                         [&] { reporter.update(flusher.status()); });
        statsWatch.start(1000);
    }

    if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        return die(QStringLiteral("cannot create the signal pipe"));
    }
    // envoy ratelimit's configuration, read again (on a change of its files, and on SIGHUP):
    // one that does not load keeps the rules served. It is read in a thread of its own and
    // swapped in whole when read, so that no answer waits on it (the first HTTP loop runs in
    // this thread); one read at a time, and a change during it is read again after it.
    auto applyEnvoy = [&](const serve::envoy::Config &c, const char *why) {
        const QString dir = args.text("envoy-config");
        service.metrics().countReload(c.ok());
        if (!c.ok()) {
            logDiagnostics(c.errors, Level::Error, "rules_error");
            log.write(Level::Error, "rules_reload_failed",
                      QStringLiteral("%1: %2 was not reloaded (%3 error(s)); still serving the "
                                     "rules loaded before")
                          .arg(QLatin1String(why), dir)
                          .arg(c.errors.size()),
                      {},
                      QJsonObject{{QStringLiteral("file"), dir},
                                  {QStringLiteral("errors"), qint64(c.errors.size())}});
            return;
        }
        logDiagnostics(c.notes, Level::Warning, "rules_not_expressed");
        service.setRules(c.set, ++envoyVersion,
                         QStringLiteral("the envoy ratelimit configuration in %1").arg(dir));
        log.write(Level::Info, "rules_reloaded",
                  QStringLiteral("%1: reloaded %2 rules from %3")
                      .arg(QLatin1String(why))
                      .arg(c.set.rules.size())
                      .arg(dir),
                  {},
                  QJsonObject{{QStringLiteral("file"), dir},
                              {QStringLiteral("count"), qint64(c.set.rules.size())},
                              {QStringLiteral("version"), envoyVersion}});
    };
    std::unique_ptr<QThread> envoyReading;
    const char *envoyAgain = nullptr; // a reload asked for while one was reading
    std::function<void(const char *)> reloadEnvoy = [&](const char *why) {
        if (envoyReading) {
            envoyAgain = why;
            return;
        }
        auto read = std::make_shared<serve::envoy::Config>();
        envoyReading.reset(QThread::create(
            [read, dir = args.text("envoy-config")] { *read = serve::envoy::load(dir); }));
        QObject::connect(envoyReading.get(), &QThread::finished, &service, [&, read, why] {
            envoyReading->wait(); // finished is said just before the thread ends
            envoyReading.reset();
            applyEnvoy(*read, why);
            if (const char *again = std::exchange(envoyAgain, nullptr)) {
                reloadEnvoy(again);
            }
        });
        envoyReading->start();
    };
    std::unique_ptr<serve::envoy::ConfigWatcher> envoyWatch;
    if (envoyConfig) {
        envoyWatch = std::make_unique<serve::envoy::ConfigWatcher>(args.text("envoy-config"));
        QObject::connect(envoyWatch.get(), &serve::envoy::ConfigWatcher::changed, envoyWatch.get(),
                         [&] { reloadEnvoy("changed"); });
    }
    // SIGHUP: --rules FILE is read again; a file that does not load keeps the rules served
    // (its errors are printed). --from-redis follows every push by itself: the HTTP thread
    // never waits on Redis, so SIGHUP only says so.
    auto reload = [&] {
        sdNotify("RELOADING=1\nSTATUS=reloading the rules");
        if (tlsReloader) {
            tlsReloader->reload("SIGHUP");
        }
        if (envoyConfig) {
            reloadEnvoy("SIGHUP");
        } else if (args.has("rules")) {
            const QString path = args.text("rules");
            const rules::Loaded again = rules::loadFile(path);
            service.metrics().countReload(again.ok());
            if (again.ok()) {
                service.setRules(again.set, again.set.basedOn.value_or(0), path);
                log.write(Level::Info, "rules_reloaded",
                          QStringLiteral("SIGHUP: reloaded %1 rules from %2")
                              .arg(again.set.rules.size())
                              .arg(path),
                          {},
                          QJsonObject{{QStringLiteral("file"), path},
                                      {QStringLiteral("count"), qint64(again.set.rules.size())}});
            } else {
                logDiagnostics(again.errors, Level::Error, "rules_error");
                log.write(Level::Error, "rules_reload_failed",
                          QStringLiteral("SIGHUP: %1 was not reloaded (%2 error(s)); still serving "
                                         "the rules loaded before")
                              .arg(path)
                              .arg(again.errors.size()),
                          {},
                          QJsonObject{{QStringLiteral("file"), path},
                                      {QStringLiteral("errors"), qint64(again.errors.size())}});
            }
        } else {
            log.write(Level::Info, "reload_ignored",
                      QStringLiteral("SIGHUP: --from-redis follows the rule store live; nothing "
                                     "to reload"));
        }
        sdNotify("READY=1\nSTATUS=serving");
    };
    QSocketNotifier notifier(signalPipe[0], QSocketNotifier::Read);
    QObject::connect(&notifier, &QSocketNotifier::activated, &notifier, [&] {
        char bytes[64];
        const ssize_t n = ::read(signalPipe[0], bytes, sizeof bytes);
        bool quit = false, hup = false;
        for (ssize_t i = 0; i < n; ++i) {
            quit = quit || bytes[i] == 'q';
            hup = hup || bytes[i] == 'h';
        }
        if (quit) {
            sdNotify("STOPPING=1");
            QCoreApplication::quit();
        } else if (hup) {
            reload();
        }
    });
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGHUP, onSignal);
    std::signal(SIGPIPE, SIG_IGN);

    const QString shownHost =
        address.protocol() == QAbstractSocket::IPv6Protocol && address != QHostAddress::Any
            ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
            : address.toString();
    std::printf("listening on %s://%s:%u\n", options.tls ? "https" : "http", qPrintable(shownHost),
                unsigned(*listening));
    if (metricsListening) {
        const QString metricsHost =
            metricsAddress.protocol() == QAbstractSocket::IPv6Protocol &&
                    metricsAddress != QHostAddress::Any
                ? QLatin1Char('[') + metricsAddress.toString() + QLatin1Char(']')
                : metricsAddress.toString();
        std::printf("metrics on http://%s:%u/metrics\n", qPrintable(metricsHost),
                    unsigned(*metricsListening));
    }
    if (grpcListening) {
        const QString grpcHost = grpcAddress.protocol() == QAbstractSocket::IPv6Protocol &&
                                         grpcAddress != QHostAddress::Any
                                     ? QLatin1Char('[') + grpcAddress.toString() + QLatin1Char(']')
                                     : grpcAddress.toString();
        std::printf("grpc on %s:%u\n", qPrintable(grpcHost), unsigned(*grpcListening));
    }
    std::fflush(stdout);
    sdNotify(
        QStringLiteral("READY=1\nSTATUS=serving on %1:%2").arg(shownHost).arg(*listening).toUtf8());
    QCoreApplication::exec();
    if (envoyReading) {
        envoyReading->wait();
    }
    flusher.stop();
    return exitOk;
}

} // namespace sluice::cli
