// sluice-cli: argument dispatch only; every command lives in cli/.
#include "app/help/help.h"
#include "app/version/version.h"
#include "cli/args.h"
#include "cli/bench.h"
#include "cli/check.h"
#include "cli/connectflags.h"
#include "cli/keys.h"
#include "cli/load.h"
#include "cli/overrides.h"
#include "cli/replay.h"
#include "cli/rules.h"
#include "cli/serve.h"
#include "cli/simulate.h"

#include <QCoreApplication>

#include <cstdio>
#include <optional>

namespace {

void print(const QString &text, FILE *to)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), to);
}

bool asksForHelp(const QByteArray &arg)
{
    return arg == "--help" || arg == "-h";
}

// --version, --help, help [COMMAND], COMMAND --help (the text of app/help, as the man page);
// nullopt when the arguments ask for none of them.
std::optional<int> helpOrVersion(int argc, char **argv)
{
    using namespace sluice::help;
    const QByteArray cmd = argc > 1 ? QByteArray(argv[1]) : QByteArray();
    if (cmd == "--version" || cmd == "-v" || cmd == "version") {
        print(sluice::version::line(QStringLiteral("sluice-cli")) + u'\n', stdout);
        return sluice::cli::exitOk;
    }
    if (asksForHelp(cmd) || (cmd == "help" && argc == 2)) {
        print(overview(cliPage()), stdout);
        return sluice::cli::exitOk;
    }
    if (cmd == "help") {
        const Command *c = findCommand(cliPage(), QString::fromLocal8Bit(argv[2]));
        if (c == nullptr) {
            print(overview(cliPage()), stderr);
            return sluice::cli::fail(
                QStringLiteral("help"),
                QStringLiteral("unknown command '%1'").arg(QString::fromLocal8Bit(argv[2])),
                sluice::cli::exitUsage);
        }
        print(commandHelp(cliPage(), *c), stdout);
        return sluice::cli::exitOk;
    }
    const Command *c = findCommand(cliPage(), QString::fromLocal8Bit(cmd));
    for (int i = 2; c != nullptr && i < argc; ++i) {
        if (asksForHelp(QByteArray(argv[i]))) {
            print(commandHelp(cliPage(), *c), stdout);
            return sluice::cli::exitOk;
        }
    }
    return std::nullopt;
}

} // namespace

int main(int argc, char **argv)
{
    if (const auto code = helpOrVersion(argc, argv)) {
        return *code;
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
    if (cmd == "overrides") {
        return sluice::cli::overrides(args);
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
    if (cmd == "replay") {
        return sluice::cli::replay(args);
    }
    print(sluice::help::overview(sluice::help::cliPage()), stderr);
    return cmd.isEmpty()
               ? sluice::cli::exitUsage
               : sluice::cli::fail(QString::fromUtf8(cmd), QStringLiteral("unknown command"),
                                   sluice::cli::exitUsage);
}
