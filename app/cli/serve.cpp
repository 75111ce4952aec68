#include "serve.h"

#include "app/cli/sdnotify.h"

#include "args.h"
#include "connectflags.h"
#include "rules.h"
#include "statsflags.h"

#include "app/serve/checkservice.h"

#include "core/redis/connection.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QSocketNotifier>
#include <QTimer>

#include <csignal>
#include <cstdio>
#include <functional>

#include <fcntl.h>
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
                                     {"no-stats", false}});
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
    const qsizetype colon = listen.lastIndexOf(QLatin1Char(':'));
    QString host = colon < 0 ? QString() : listen.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']'))) {
        host = host.mid(1, host.size() - 2); // [::1]:8080
    }
    bool portOk = false;
    const uint port = colon < 0 ? 0 : listen.mid(colon + 1).toUInt(&portOk);
    QHostAddress address;
    if (host == QLatin1String("localhost")) {
        address = QHostAddress(QHostAddress::LocalHost);
    } else if (host == QLatin1String("*") || host.isEmpty()) {
        address = QHostAddress(QHostAddress::Any);
    } else {
        address = QHostAddress(host);
    }
    if (colon < 0 || !portOk || port > 65535 || address.isNull()) {
        return usage(QStringLiteral("--listen '%1': expected HOST:PORT with an IP address (or "
                                    "localhost, or * for every interface) and a port 0-65535")
                         .arg(listen));
    }
    serve::CheckService::Options options;
    options.endpoint = *endpoint;
    options.legacyHeaders = args.has("legacy-headers");
    options.denyCache = !args.has("no-deny-cache");
    options.healthDetail = args.has("healthz-detail");
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
    options.pool.log = [](const QString &line) {
        std::fprintf(stderr, "sluice-cli serve: %s\n", qPrintable(line));
    };

    // Refused credentials make a silent fail-open service: refuse to start instead. (Redis
    // merely unreachable is not fatal: every rule answers by its on_redis_error meanwhile.) A
    // server that wants a password and was given none accepts the connection and refuses its
    // first command (NOAUTH): a PING asks.
    if (auto c = Connection::open(*endpoint, options.pool.connection);
        !c && c.error().kind == Error::Kind::Auth) {
        return fail(command, c.error().message, exitRuntime);
    } else if (c) {
        if (auto pong = c->command({QByteArrayLiteral("PING")});
            !pong && pong.error().message.startsWith(QLatin1String("NOAUTH"))) {
            return fail(command,
                        QStringLiteral("Redis at %1 refused the connection without credentials: "
                                       "%2; give the password with --password-file FILE or "
                                       "REDISCLI_AUTH, and a user in the URL as "
                                       "redis://USER:@HOST:PORT")
                            .arg(endpoint->display(), pong.error().message),
                        exitRuntime);
        }
    }

    // The rules: a file, or the RuleStore (pulled once now so that a store that cannot be read
    // fails at start, then followed live).
    int code = exitOk;
    auto loaded = loadRulesForCommand(args, command, &code);
    if (!loaded) {
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

    serve::CheckService service(options);
    service.setRules(loaded->set, loaded->set.basedOn.value_or(0), loaded->origin);
    if (args.has("from-redis")) {
        QObject::connect(
            &service, &serve::CheckService::ruleWatchError, &service, [](const QString &m) {
                fail(command, QStringLiteral("rule store: %1 (retrying)").arg(m), exitOk);
            });
        QObject::connect(
            &service, &serve::CheckService::rulesChanged, &service, [](qint64 version, int count) {
                std::fprintf(stderr, "sluice-cli serve: rules version %lld (%d rules)\n",
                             static_cast<long long>(version), count);
            });
        service.watchRuleStore();
    }
    auto listening = service.listen(address, quint16(port));
    if (!listening) {
        return fail(command, listening.error().message, exitRuntime);
    }
    StatsReporter reporter(command);
    QTimer statsWatch;
    if (withStats) {
        flusher.start();
        QObject::connect(&statsWatch, &QTimer::timeout, &statsWatch,
                         [&] { reporter.update(flusher.status()); });
        statsWatch.start(1000);
    }

    if (::pipe2(signalPipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        return fail(command, QStringLiteral("cannot create the signal pipe"), exitRuntime);
    }
    // SIGHUP: --rules FILE is read again; a file that does not load keeps the rules served
    // (its errors are printed). --from-redis follows every push by itself: the HTTP thread
    // never waits on Redis, so SIGHUP only says so.
    auto reload = [&] {
        sdNotify("RELOADING=1\nSTATUS=reloading the rules");
        if (args.has("rules")) {
            int reloadCode = exitOk;
            auto again = loadRulesForCommand(args, command, &reloadCode);
            if (again) {
                service.setRules(again->set, again->set.basedOn.value_or(0), again->origin);
                std::fprintf(stderr, "sluice-cli serve: SIGHUP: reloaded %lld rules from %s\n",
                             static_cast<long long>(again->set.rules.size()),
                             qPrintable(again->origin));
            } else {
                std::fprintf(stderr,
                             "sluice-cli serve: SIGHUP: %s was not reloaded (see above); "
                             "still serving the rules loaded before\n",
                             qPrintable(args.text("rules")));
            }
        } else {
            std::fprintf(stderr, "sluice-cli serve: SIGHUP: --from-redis follows the rule store "
                                 "live; nothing to reload\n");
        }
        std::fflush(stderr);
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
    std::printf("listening on http://%s:%u\n", qPrintable(shownHost), unsigned(*listening));
    std::fflush(stdout);
    sdNotify(
        QStringLiteral("READY=1\nSTATUS=serving on %1:%2").arg(shownHost).arg(*listening).toUtf8());
    QCoreApplication::exec();
    flusher.stop();
    return exitOk;
}

} // namespace sluice::cli
