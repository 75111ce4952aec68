// sluice-cli: argument dispatch only; every command lives in cli/.
#include "cli/args.h"
#include "cli/bench.h"
#include "cli/check.h"
#include "cli/connectflags.h"
#include "cli/keys.h"
#include "cli/load.h"
#include "cli/rules.h"
#include "cli/serve.h"
#include "cli/simulate.h"

#include <QCoreApplication>

#include <cstdio>

namespace {

const char *usageText =
    "usage: sluice-cli <command> [options]\n"
    "\n"
    "commands:\n"
    "  check   make real rate-limit decisions through the scripts in Redis\n"
    "  rules   validate, export (json, yaml, nginx, nginx-auth, envoy, kong), push to and pull\n"
    "          from Redis\n"
    "  bench   decisions/s per algorithm beside redis-benchmark running the same script\n"
    "  simulate every rule of a scenario on the same traffic, in process or on Redis\n"
    "  keys    list limiter keys with decoded state and health; keys fix sets TTLs from rules\n"
    "  load    real decisions in real time from N threads following a traffic pattern\n"
    "  serve   HTTP check service: GET /v1/check, /v1/auth (nginx auth_request), /healthz\n"
    "\n"
    "Exit status: 0 success (a denial is a result), 1 runtime failure, 2 bad usage.\n"
    "See README.md and docs/FORMATS.md for every option.\n";

} // namespace

int main(int argc, char **argv)
{
    // simulate --png/--svg draw Qt Charts: they need a QApplication instead (cli/simulate.h).
    if (sluice::cli::simulateDrawsCharts(argc, argv)) {
        return sluice::cli::simulateWithCharts(argc, argv);
    }
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("sluice-cli"));
    // Raw bytes, not QString: a subject may be any bytes the shell can pass.
    QList<QByteArray> args;
    for (int i = 2; i < argc; ++i) {
        args << QByteArray(argv[i]);
    }
    // Copied: from now on ps shows redis://user:****@host, not the password.
    sluice::cli::hidePasswordsInArgv(argc, argv);
    const QByteArray cmd = argc > 1 ? QByteArray(argv[1]) : QByteArray();
    if (cmd == "check") {
        return sluice::cli::check(args);
    }
    if (cmd == "bench") {
        return sluice::cli::bench(args);
    }
    if (cmd == "rules") {
        return sluice::cli::rules(args);
    }
    if (cmd == "simulate") {
        return sluice::cli::simulate(args);
    }
    if (cmd == "keys") {
        return sluice::cli::keys(args);
    }
    if (cmd == "serve") {
        return sluice::cli::serve(args);
    }
    if (cmd == "load") {
        return sluice::cli::load(args);
    }
    if (cmd == "help" || cmd == "--help" || cmd == "-h") {
        std::fputs(usageText, stdout);
        return sluice::cli::exitOk;
    }
    std::fputs(usageText, stderr);
    return cmd.isEmpty()
               ? sluice::cli::exitUsage
               : sluice::cli::fail(QString::fromUtf8(cmd), QStringLiteral("unknown command"),
                                   sluice::cli::exitUsage);
}
