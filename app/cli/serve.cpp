#include "serve.h"

#include "app/cli/sdnotify.h"

#include "args.h"
#include "command.h"
#include "servetls.h"

#include "app/serve/checkservice.h"
#include "app/serve/envoywatcher.h"
#include "app/serve/grpcsession.h" // its limits only: no gRPC header
#ifdef SLUICE_WITH_GRPC
#include "app/serve/grpcservice.h"
#endif
#include "app/version/version.h"

#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "core/rules/envoyformat.h"
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

// HOST:PORT as the lines "listening on ..." show it: [v6] in brackets, * as 0.0.0.0.
QString shownHost(const QHostAddress &address)
{
    return address.protocol() == QAbstractSocket::IPv6Protocol && address != QHostAddress::Any
               ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
               : address.toString();
}

using Level = serve::ServeLog::Level;

// sluice-cli serve: options (the addresses, gRPC's, the service's), the log and TLS, the
// credentials, the rule source (a file, the RuleStore, envoy ratelimit's configuration), the
// service, its listeners, then signals and reload until SIGINT or SIGTERM.
class ServeCommand
{
public:
    explicit ServeCommand(const QList<QByteArray> &argv)
        : m_argv(argv)
    {}
    Stop options();
    Stop addresses();
    Stop grpcOptions();
    Stop serviceOptions();
    Stop logAndTls();
    Stop credentials();
    Stop ruleSource();
    Stop service();
    Stop listeners();
    Stop signals();
    int serveUntilStopped();

private:
    Stop envoyRuleSource();
    void followRuleStore();
    void onSignalBytes();
    void reload();
    void reloadRulesFile();
    void reloadEnvoy(const char *why);
    void applyEnvoy(rules::envoy::Config c, const char *why);
    void followEnvoyCounting(RuleSet &set);
    void logDiagnostics(const QList<Diagnostic> &list, Level level, const char *event);
    void announce();

    const QList<QByteArray> m_argv;
    CommandContext m_context{command};
    QHostAddress m_address;
    quint16 m_port = 0;
    QHostAddress m_metricsAddress;
    quint16 m_metricsPort = 0;
    // --grpc [ADDR:]PORT: a bare port is every interface, as envoy ratelimit's GRPC_HOST.
    QHostAddress m_grpcAddress{QHostAddress::Any};
    quint16 m_grpcPort = 0;
    serve::GrpcLimits m_grpcLimits; // parsed whether or not gRPC is built in
#ifdef SLUICE_WITH_GRPC
    serve::GrpcService::Options m_grpcOptions;
#endif
    serve::CheckService::Options m_options;
    std::optional<serve::ServeLog> m_log;
    std::unique_ptr<TlsReloader> m_tlsReloader;
    bool m_envoyConfig = false;
    std::optional<LoadedRules> m_loaded;
    qint64 m_envoyVersion = 1; // counts the envoy configurations served
    bool m_envoyCountingSaid = false;
    std::optional<CommandStats> m_stats;
    std::optional<serve::CheckService> m_service;
#ifdef SLUICE_WITH_GRPC
    std::optional<serve::GrpcService> m_grpc; // destroyed first: its calls end before
#endif
    quint16 m_listening = 0;
    std::optional<quint16> m_metricsListening;
    std::optional<quint16> m_grpcListening;
    QTimer m_heldStates;
    QTimer m_statsWatch;
    std::unique_ptr<QThread> m_envoyReading;
    const char *m_envoyAgain = nullptr; // a reload asked for while one was reading
    std::unique_ptr<serve::envoy::ConfigWatcher> m_envoyWatch;
    std::unique_ptr<QSocketNotifier> m_notifier;
};

// Serves until SIGINT or SIGTERM.
int ServeCommand::serveUntilStopped()
{
    announce();
    QCoreApplication::exec();
    if (m_envoyReading) {
        m_envoyReading->wait();
    }
    m_stats->stop();
    return exitOk;
}

Stop ServeCommand::options()
{
    if (const Stop s = m_context.parse(m_argv, {{"url", true},
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
                                                {"stop-cache-key-increment-when-overlimit", false},
                                                {"grpc", true},
                                                {"grpc-unknown-domain", true},
                                                {"grpc-response-headers", false},
                                                {"grpc-max-connections", true},
                                                {"grpc-max-connections-per-peer", true},
                                                {"grpc-max-streams", true},
                                                {"grpc-max-resets-per-second", true},
                                                {"grpc-idle-timeout-ms", true},
                                                {"listen-tls-cert", true},
                                                {"listen-tls-key", true},
                                                {"listen-tls-client-ca", true},
                                                {"grpc-dynamic-metadata", false}})) {
        return s;
    }
    return m_context.requireEndpoint();
}

// --listen, --metrics-listen and --grpc.
Stop ServeCommand::addresses()
{
    const Args &args = m_context.args();
    if (!args.has("listen")) {
        return m_context.usage(QStringLiteral("--listen HOST:PORT is required (e.g. "
                                              "127.0.0.1:8080; port 0 picks a free one)"));
    }
    const QString listen = args.text("listen");
    if (!parseHostPort(listen, &m_address, &m_port)) {
        return m_context.usage(QStringLiteral("--listen '%1': expected HOST:PORT with an IP "
                                              "address (or localhost, or * for every "
                                              "interface) and a port 0-65535")
                                   .arg(listen));
    }
    if (args.has("metrics-listen") &&
        !parseHostPort(args.text("metrics-listen"), &m_metricsAddress, &m_metricsPort)) {
        return m_context.usage(QStringLiteral("--metrics-listen '%1': expected HOST:PORT as "
                                              "--listen takes it (GET /metrics then answers "
                                              "there, not on --listen)")
                                   .arg(args.text("metrics-listen")));
    }
    if (!args.has("grpc")) {
        return std::nullopt;
    }
#ifndef SLUICE_WITH_GRPC
    return m_context.fail(QStringLiteral("--grpc: this sluice-cli was built without gRPC support "
                                         "(install libgrpc++-dev and protobuf-compiler-grpc and "
                                         "rebuild)"),
                          exitUsage);
#endif
    QString g = args.text("grpc");
    if (!g.contains(QLatin1Char(':'))) {
        g.prepend(QStringLiteral("*:"));
    }
    if (!parseHostPort(g, &m_grpcAddress, &m_grpcPort)) {
        return m_context.usage(QStringLiteral("--grpc '%1': expected [ADDR:]PORT (e.g. 8081, "
                                              "127.0.0.1:8081, [::1]:8081; port 0 picks a free "
                                              "one)")
                                   .arg(args.text("grpc")));
    }
    return std::nullopt;
}

// The gRPC port's flags: only with --grpc; its limits parsed whether or not gRPC is built in.
Stop ServeCommand::grpcOptions()
{
    const Args &args = m_context.args();
    if (!args.has("grpc")) {
        for (const char *flag :
             {"grpc-unknown-domain", "grpc-response-headers", "grpc-max-connections",
              "grpc-max-connections-per-peer", "grpc-max-streams", "grpc-max-resets-per-second",
              "grpc-idle-timeout-ms", "grpc-dynamic-metadata"}) {
            if (args.has(flag)) {
                return m_context.usage(
                    QStringLiteral("--%1 goes with --grpc [ADDR:]PORT").arg(QLatin1String(flag)));
            }
        }
    }
    for (const auto &[flag, min, max, to] :
         {std::tuple{"grpc-max-connections", 1, 1'000'000, &m_grpcLimits.maxConnections},
          {"grpc-max-connections-per-peer", 1, 1'000'000, &m_grpcLimits.maxConnectionsPerPeer},
          {"grpc-max-streams", 1, 10'000, &m_grpcLimits.maxStreams},
          {"grpc-max-resets-per-second", 1, 1'000'000, &m_grpcLimits.maxResetsPerSecond},
          {"grpc-idle-timeout-ms", 100, 86'400'000, &m_grpcLimits.idleTimeoutMs}}) {
        if (args.has(flag)) {
            auto v = integerFlag(args, flag, min, max);
            if (!v) {
                return m_context.usage(v.error().message);
            }
            *to = int(*v);
        }
    }
#ifdef SLUICE_WITH_GRPC
    m_grpcOptions.responseHeaders = args.has("grpc-response-headers");
    m_grpcOptions.dynamicMetadata = args.has("grpc-dynamic-metadata");
    if (args.has("grpc-unknown-domain")) {
        using UnknownDomain = serve::GrpcService::UnknownDomain;
        const QString p = args.text("grpc-unknown-domain");
        if (p == QLatin1String("ok")) {
            m_grpcOptions.unknownDomain = UnknownDomain::Ok;
        } else if (p == QLatin1String("over_limit")) {
            m_grpcOptions.unknownDomain = UnknownDomain::OverLimit;
        } else if (p == QLatin1String("error")) {
            m_grpcOptions.unknownDomain = UnknownDomain::Error;
        } else {
            return m_context.usage(QStringLiteral("--grpc-unknown-domain '%1' is unknown; "
                                                  "expected ok (the default, as envoy "
                                                  "ratelimit), over_limit or error "
                                                  "(INVALID_ARGUMENT)")
                                       .arg(p));
        }
    }
#endif
    return std::nullopt;
}

// The service's own flags: headers, the deny cache, /healthz, the metrics, threads, workers
// and the HTTP limits.
Stop ServeCommand::serviceOptions()
{
    const Args &args = m_context.args();
    serve::CheckService::Options &options = m_options;
    options.endpoint = *m_context.endpoint();
    options.legacyHeaders = args.has("legacy-headers");
    options.denyCache = !args.has("no-deny-cache");
    options.healthDetail = args.has("healthz-detail");
    options.metrics.version = version::number().toUtf8();
    options.metrics.commit = version::revision().toUtf8();
    if (args.has("metrics-compat")) {
        if (args.text("metrics-compat") != QLatin1String("envoy-ratelimit")) {
            return m_context.usage(QStringLiteral("--metrics-compat '%1' is unknown; expected "
                                                  "envoy-ratelimit (its metric names beside "
                                                  "Sluice's)")
                                       .arg(args.text("metrics-compat")));
        }
        options.metrics.envoyCompat = true;
    }
    struct Limit
    {
        const char *flag;
        qint64 min, max;
        std::function<void(qint64)> set;
    };
    serve::HttpLimits &limits = options.limits;
    const Limit limitFlags[] = {
        {"http-threads", 1, 16, [&](qint64 v) { options.httpThreads = int(v); }},
        {"workers", 1, 64, [&](qint64 v) { options.pool.workers = int(v); }},
        {"timeout-ms", 10, 60000,
         [&](qint64 v) { options.pool.setTimeout(std::chrono::milliseconds(v)); }},
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
                return m_context.usage(v.error().message);
            }
            l.set(*v);
        }
    }
    return std::nullopt;
}

// The log (--log-format), the descriptors, and the certificate of HTTPS and gRPC over TLS:
// read now (a key we may not read fails here, naming it), and again on SIGHUP and when its
// files change.
Stop ServeCommand::logAndTls()
{
    const Args &args = m_context.args();
    serve::ServeLog::Format logFormat = serve::ServeLog::Format::Text;
    if (args.has("log-format")) {
        const QString f = args.text("log-format");
        if (f == QLatin1String("json")) {
            logFormat = serve::ServeLog::Format::Json;
        } else if (f != QLatin1String("text")) {
            return m_context.usage(QStringLiteral("--log-format '%1' is unknown; expected text "
                                                  "(the default) or json (one JSON object per "
                                                  "line)")
                                       .arg(f));
        }
    }
    serve::ServeLog &log = m_log.emplace(logFormat);
    m_options.log = &log;
    fitDescriptors(log, m_options, args.has("grpc") ? &m_grpcLimits.maxConnections : nullptr);
    // A failure from now on: a JSON line under --log-format json, as the rest.
    m_context.setLog(&log);
    auto listenTls = listenTlsFromArgs(args);
    if (!listenTls) {
        return listenTls.error().kind == Error::Kind::Invalid
                   ? m_context.usage(listenTls.error().message)
                   : m_context.die(listenTls.error().message);
    }
    m_options.tls = *listenTls;
#ifdef SLUICE_WITH_GRPC
    m_grpcOptions.log = &log;
    m_grpcOptions.limits = m_grpcLimits;
    m_grpcOptions.tls = *listenTls;
    m_grpcOptions.handshakeTimeoutMs = m_options.limits.headerTimeoutMs;
#endif
    if (*listenTls) {
        m_tlsReloader = std::make_unique<TlsReloader>(*listenTls, log);
    }
    m_options.pool.log = [&log](const QString &line) {
        Level level = Level::Info;
        const char *event = serve::ServeLog::poolEvent(line, &level);
        log.writeState(level, event, line);
    };
    return std::nullopt;
}

// Refused credentials make a silent fail-open service: refuse to start instead. (Redis merely
// unreachable is not fatal: every rule answers by its on_redis_error meanwhile.) A server that
// wants a password and was given none accepts the connection and refuses its first command
// (NOAUTH): a PING asks.
Stop ServeCommand::credentials()
{
    auto c = m_context.open(m_options.pool.connection);
    if (!c && c.error().kind == Error::Kind::Auth) {
        return m_context.die(c.error().message);
    }
    if (!c) {
        return std::nullopt;
    }
    if (auto pong = c->command({QByteArrayLiteral("PING")});
        !pong && pong.error().message.startsWith(QLatin1String("NOAUTH"))) {
        return m_context.die(QStringLiteral("Redis at %1 refused the connection without "
                                            "credentials: %2; give the password with "
                                            "--password-file FILE or REDISCLI_AUTH, and a user "
                                            "in the URL as redis://USER:@HOST:PORT")
                                 .arg(m_context.endpoint()->display(), pong.error().message));
    }
    return std::nullopt;
}

// The rules: a file, the RuleStore (pulled once now so that a store that cannot be read fails
// at start, then followed live), or envoy ratelimit's configuration.
Stop ServeCommand::ruleSource()
{
    m_envoyConfig = m_context.args().has("envoy-config");
    if (m_envoyConfig) {
        return envoyRuleSource();
    }
    if (m_context.args().has("stop-cache-key-increment-when-overlimit")) {
        return m_context.usage(QStringLiteral(
            "--stop-cache-key-increment-when-overlimit goes with --envoy-config (a rule file "
            "says count_rejected per rule)"));
    }
    LoadedRules loaded;
    if (const Stop s = m_context.loadRules(&loaded, rules::RuleStore::Reading::SkipUnreadable)) {
        return s;
    }
    m_loaded = loaded;
    return std::nullopt;
}

Stop ServeCommand::envoyRuleSource()
{
    const Args &args = m_context.args();
    if (args.has("rules") || args.has("from-redis")) {
        return m_context.usage(QStringLiteral("--envoy-config DIR gives the rules; it does not "
                                              "go with --rules or --from-redis"));
    }
    rules::envoy::Config c = rules::envoy::load(args.text("envoy-config"));
    if (!c.ok()) {
        logDiagnostics(c.errors, Level::Error, "rules_error");
        return m_context.fail(QStringLiteral("%1 is not a valid envoy ratelimit configuration "
                                             "(%2 error(s))")
                                  .arg(args.text("envoy-config"))
                                  .arg(c.errors.size()),
                              exitUsage);
    }
    logDiagnostics(c.notes, Level::Warning, "rules_not_expressed");
    followEnvoyCounting(c.set);
    m_loaded = LoadedRules{
        c.set,
        QStringLiteral("the envoy ratelimit configuration in %1").arg(args.text("envoy-config")),
        {}};
    m_loaded->set.basedOn = m_envoyVersion;
    return std::nullopt;
}

// Statistics of every decision, flushed to Redis once a second (core/stats; --no-stats: none
// are recorded or written), the service and its rules.
Stop ServeCommand::service()
{
    m_stats.emplace(*m_context.endpoint(), command, !m_context.args().has("no-stats"));
    if (m_stats->enabled()) {
        stats::StatsRecorder &recorder = m_stats->recorder();
        m_options.record = [&recorder](const QString &ruleId, const QByteArray &subject,
                                       const Decision &d, bool shadow) {
            recorder.record(ruleId, subject, d, shadow);
        };
    }
    m_options.statsHealth = [this] {
        return statsHealthJson(m_stats->flusher(), m_stats->enabled());
    };
#ifdef SLUICE_WITH_GRPC
    // POST /json on the HTTP port whether or not --grpc listens.
    m_options.json = [this](const QByteArray &body, serve::CheckService::Options::JsonReply reply) {
        m_grpc->handleJson(body, reply);
    };
#endif
    serve::CheckService &service = m_service.emplace(m_options);
#ifdef SLUICE_WITH_GRPC
    m_grpc.emplace(service, m_grpcOptions);
#endif
    service.setRules(m_loaded->set, m_loaded->set.basedOn.value_or(0), m_loaded->origin);
    if (m_context.args().has("from-redis")) {
        followRuleStore();
    }
    return std::nullopt;
}

// --from-redis: every push is followed, and said in the log.
void ServeCommand::followRuleStore()
{
    serve::CheckService &service = *m_service;
    serve::ServeLog &log = *m_log;
    QObject::connect(&service, &serve::CheckService::ruleWatchError, &service,
                     [&log](const QString &m) {
                         log.write(Level::Warning, "rule_store_error",
                                   QStringLiteral("rule store: %1 (retrying)").arg(m));
                     });
    QObject::connect(
        &service, &serve::CheckService::rulesChanged, &service, [&log](qint64 version, int count) {
            log.write(Level::Info, "rules_loaded",
                      QStringLiteral("rules version %1 (%2 rules)").arg(version).arg(count), {},
                      QJsonObject{{QStringLiteral("version"), version},
                                  {QStringLiteral("count"), count}});
        });
    // What the store holds but cannot be served: one line each, when it changes (at most 21:
    // RuleStore and OverrideStore cap what they say), and /healthz says degraded.
    QObject::connect(&service, &serve::CheckService::skippedChanged, &service,
                     [&log](const QStringList &why) {
                         if (why.isEmpty()) {
                             log.write(Level::Info, "rule_store_readable",
                                       QStringLiteral("rule store: everything stored is read "
                                                      "again"));
                         }
                         for (const QString &w : why) {
                             log.write(Level::Warning, "rule_store_skipped",
                                       QStringLiteral("rule store: skipped: %1").arg(w));
                         }
                     });
    service.setSkipped(m_loaded->skipped);
    service.watchRuleStore();
}

// The metrics port, the service's port and the gRPC port.
Stop ServeCommand::listeners()
{
    if (m_context.args().has("metrics-listen")) {
        auto m = m_service->listenMetrics(m_metricsAddress, m_metricsPort);
        if (!m) {
            return m_context.die(QStringLiteral("--metrics-listen: %1").arg(m.error().message));
        }
        m_metricsListening = *m;
    }
    auto listening = m_service->listen(m_address, m_port);
    if (!listening) {
        return m_context.die(listening.error().message);
    }
    m_listening = *listening;
#ifdef SLUICE_WITH_GRPC
    if (m_context.args().has("grpc")) {
        auto g = m_grpc->listen(m_grpcAddress, m_grpcPort);
        if (!g) {
            return m_context.die(g.error().message);
        }
        m_grpcListening = *g;
    }
#endif
    return std::nullopt;
}

// The log's held lines and the statistics' state once a second; SIGHUP (reload), SIGINT and
// SIGTERM (stop) through a pipe into the event loop; envoy ratelimit's files watched.
Stop ServeCommand::signals()
{
    serve::ServeLog &log = *m_log;
    m_stats->reporter().setSink([&log](bool failing, const QString &message) {
        log.write(failing ? Level::Warning : Level::Info, failing ? "stats_failing" : "stats_ok",
                  message);
    });
    // A change of Redis's state held back by the log's bound is written within seconds.
    QObject::connect(&m_heldStates, &QTimer::timeout, &m_heldStates, [&log] { log.flushHeld(); });
    m_heldStates.start(1000);
    if (m_stats->enabled()) {
        m_stats->start();
        QObject::connect(&m_statsWatch, &QTimer::timeout, &m_statsWatch,
                         [this] { m_stats->report(); });
        m_statsWatch.start(1000);
    }
    if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        return m_context.die(QStringLiteral("cannot create the signal pipe"));
    }
    if (m_envoyConfig) {
        m_envoyWatch =
            std::make_unique<serve::envoy::ConfigWatcher>(m_context.args().text("envoy-config"));
        QObject::connect(m_envoyWatch.get(), &serve::envoy::ConfigWatcher::changed,
                         m_envoyWatch.get(), [this] { reloadEnvoy("changed"); });
    }
    m_notifier = std::make_unique<QSocketNotifier>(signalPipe[0], QSocketNotifier::Read);
    QObject::connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(),
                     [this] { onSignalBytes(); });
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGHUP, onSignal);
    std::signal(SIGPIPE, SIG_IGN);
    return std::nullopt;
}

void ServeCommand::onSignalBytes()
{
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
}

// SIGHUP: the certificate and --rules FILE or envoy ratelimit's configuration are read again;
// rules that do not load keep the rules served (their errors are logged). --from-redis follows
// every push by itself: the HTTP thread never waits on Redis, so SIGHUP only says so.
void ServeCommand::reload()
{
    sdNotify("RELOADING=1\nSTATUS=reloading the rules");
    if (m_tlsReloader) {
        m_tlsReloader->reload("SIGHUP");
    }
    if (m_envoyConfig) {
        reloadEnvoy("SIGHUP");
    } else if (m_context.args().has("rules")) {
        reloadRulesFile();
    } else {
        m_log->write(Level::Info, "reload_ignored",
                     QStringLiteral("SIGHUP: --from-redis follows the rule store live; nothing "
                                    "to reload"));
    }
    sdNotify("READY=1\nSTATUS=serving");
}

void ServeCommand::reloadRulesFile()
{
    const QString path = m_context.args().text("rules");
    const rules::Loaded again = rules::loadFile(path);
    m_service->metrics().countReload(again.ok());
    if (again.ok()) {
        m_service->setRules(again.set, again.set.basedOn.value_or(0), path);
        m_log->write(Level::Info, "rules_reloaded",
                     QStringLiteral("SIGHUP: reloaded %1 rules from %2")
                         .arg(again.set.rules.size())
                         .arg(path),
                     {},
                     QJsonObject{{QStringLiteral("file"), path},
                                 {QStringLiteral("count"), qint64(again.set.rules.size())}});
        return;
    }
    logDiagnostics(again.errors, Level::Error, "rules_error");
    m_log->write(Level::Error, "rules_reload_failed",
                 QStringLiteral("SIGHUP: %1 was not reloaded (%2 error(s)); still serving the "
                                "rules loaded before")
                     .arg(path)
                     .arg(again.errors.size()),
                 {},
                 QJsonObject{{QStringLiteral("file"), path},
                             {QStringLiteral("errors"), qint64(again.errors.size())}});
}

// envoy ratelimit's configuration, read again (on a change of its files, and on SIGHUP): one
// that does not load keeps the rules served. It is read in a thread of its own and swapped in
// whole when read, so that no answer waits on it (the first HTTP loop runs in this thread);
// one read at a time, and a change during it is read again after it.
void ServeCommand::reloadEnvoy(const char *why)
{
    if (m_envoyReading) {
        m_envoyAgain = why;
        return;
    }
    auto read = std::make_shared<rules::envoy::Config>();
    m_envoyReading.reset(QThread::create(
        [read, dir = m_context.args().text("envoy-config")] { *read = rules::envoy::load(dir); }));
    QObject::connect(m_envoyReading.get(), &QThread::finished, &*m_service, [this, read, why] {
        m_envoyReading->wait(); // finished is said just before the thread ends
        m_envoyReading.reset();
        applyEnvoy(*read, why);
        if (const char *again = std::exchange(m_envoyAgain, nullptr)) {
            reloadEnvoy(again);
        }
    });
    m_envoyReading->start();
}

// envoy ratelimit's default for denied requests (counted), or, with
// --stop-cache-key-increment-when-overlimit, its STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true;
// said in the log once, at start.
void ServeCommand::followEnvoyCounting(RuleSet &set)
{
    const bool stop = m_context.args().has("stop-cache-key-increment-when-overlimit");
    const qsizetype cannot = rules::envoy::followEnvoyCounting(set, stop);
    if (m_envoyCountingSaid) {
        return;
    }
    m_envoyCountingSaid = true;
    m_log->write(Level::Info, "envoy_counting",
                 stop ? QStringLiteral("denied requests are not counted, as envoy ratelimit with "
                                       "STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true")
                      : QStringLiteral("denied requests count on the window algorithms, as in "
                                       "envoy ratelimit by default (count_rejected; "
                                       "--stop-cache-key-increment-when-overlimit: not)%1")
                            .arg(cannot == 0 ? QString()
                                             : QStringLiteral(", except on %1 rule(s) of a "
                                                              "bucket algorithm or GCRA")
                                                   .arg(cannot)));
}

void ServeCommand::applyEnvoy(rules::envoy::Config c, const char *why)
{
    const QString dir = m_context.args().text("envoy-config");
    m_service->metrics().countReload(c.ok());
    if (!c.ok()) {
        logDiagnostics(c.errors, Level::Error, "rules_error");
        m_log->write(Level::Error, "rules_reload_failed",
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
    followEnvoyCounting(c.set);
    m_service->setRules(c.set, ++m_envoyVersion,
                        QStringLiteral("the envoy ratelimit configuration in %1").arg(dir));
    m_log->write(Level::Info, "rules_reloaded",
                 QStringLiteral("%1: reloaded %2 rules from %3")
                     .arg(QLatin1String(why))
                     .arg(c.set.rules.size())
                     .arg(dir),
                 {},
                 QJsonObject{{QStringLiteral("file"), dir},
                             {QStringLiteral("count"), qint64(c.set.rules.size())},
                             {QStringLiteral("version"), m_envoyVersion}});
}

// Every error (or note) of a rule file, as events with their place.
void ServeCommand::logDiagnostics(const QList<Diagnostic> &list, Level level, const char *event)
{
    for (const Diagnostic &d : list) {
        m_log->write(level, event, d.toString(), {},
                     QJsonObject{{QStringLiteral("file"), d.file},
                                 {QStringLiteral("line"), d.line},
                                 {QStringLiteral("column"), d.column},
                                 {QStringLiteral("path"), d.path},
                                 {QStringLiteral("error"), d.message}});
    }
}

// The ports on stdout (a script reads them), and ready to systemd.
void ServeCommand::announce()
{
    const QString host = shownHost(m_address);
    std::printf("listening on %s://%s:%u\n", m_options.tls ? "https" : "http", qPrintable(host),
                unsigned(m_listening));
    if (m_metricsListening) {
        std::printf("metrics on http://%s:%u/metrics\n", qPrintable(shownHost(m_metricsAddress)),
                    unsigned(*m_metricsListening));
    }
    if (m_grpcListening) {
        std::printf("grpc on %s:%u\n", qPrintable(shownHost(m_grpcAddress)),
                    unsigned(*m_grpcListening));
    }
    std::fflush(stdout);
    sdNotify(
        QStringLiteral("READY=1\nSTATUS=serving on %1:%2").arg(host).arg(m_listening).toUtf8());
}

} // namespace

int serve(const QList<QByteArray> &argv)
{
    ServeCommand c(argv);
    return runSteps(c,
                    {&ServeCommand::options, &ServeCommand::addresses, &ServeCommand::grpcOptions,
                     &ServeCommand::serviceOptions, &ServeCommand::logAndTls,
                     &ServeCommand::credentials, &ServeCommand::ruleSource, &ServeCommand::service,
                     &ServeCommand::listeners, &ServeCommand::signals},
                    &ServeCommand::serveUntilStopped);
}

} // namespace sluice::cli
