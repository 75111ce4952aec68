#pragma once

#include "args.h"
#include "rules.h"
#include "statsflags.h"

#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <initializer_list>
#include <optional>

namespace sluice::serve {
class ServeLog;
}

namespace sluice::cli {

// A step of a command either lets it go on (nullopt) or ends it with this exit code, its
// message already printed: `if (const Stop s = step()) return *s;`.
using Stop = std::optional<int>;

// What every sluice-cli command starts from, made once: its name, its flags and positionals,
// the endpoint of --url with the connection flags (connectflags.h), the rule source (--rules
// FILE or --from-redis), and where its failures are said (stderr, or serve's log). A command
// is a few named steps over it; each flag is read in one place, and the endpoint is made once
// per run however many steps reach Redis.
class CommandContext
{
public:
    // `command` names it in every message ("check", "rules push"); `helpEntry` is the help
    // command its usage is taken from (app/help/clipage.cpp), the command itself by default.
    explicit CommandContext(QString command, QString helpEntry = {});
    // Over flags parsed already (a command with subcommands parses once for all of them).
    CommandContext(QString command, Args args, QString helpEntry = {});

    // How many positionals the command takes: none ("unexpected argument '...'"), or any (the
    // command checks them).
    enum class Positionals { None, Any };
    // Args::parse; a usage error (unknown flag, missing value, ...) or a positional where
    // none is taken stops with exit 2.
    Stop parse(const QList<QByteArray> &argv, std::initializer_list<Flag> flags,
               Positionals positionals = Positionals::None);
    const Args &args() const { return m_args; }
    const QString &command() const { return m_command; }

    // "sluice-cli <command>: <message>" and the command's usage; returns exit 2.
    int usage(const QString &message) const;
    // "sluice-cli <command>: <message>"; returns `code`.
    int fail(const QString &message, int code) const;
    // A failure once the command runs: a JSON line of the log under serve --log-format json,
    // else as fail(); exit 1.
    int die(const QString &message) const;
    void setLog(serve::ServeLog *log) { m_log = log; }

    // --url and the connection flags, required: "--url is required <hint>" otherwise. A
    // malformed one is a usage error; a cluster probe that timed out (check) exit 1.
    Stop requireEndpoint(const QString &hint = QStringLiteral("(redis://host:port)"));
    // requireEndpoint, then a connection to it (exit 1 when Redis cannot be reached); the
    // exit code in *exitCode on failure.
    Result<Connection> connect(int *exitCode, const QString &hint = {});
    // A connection to endpoint() (made already): where every command connects, once at its
    // start. Long-lived connections after that are LazyConnection's (core/redis).
    Result<Connection> open(const Connection::Options &options = {}) const;
    // The endpoint of --url, made on the first call (its warnings said once); requireEndpoint
    // or a failed Result before that says why not.
    const Result<Endpoint> &endpoint() const;

    // The rule set of --rules FILE or of the RuleStore at --url (--from-redis), with the
    // stored overrides; every diagnostic of an invalid file printed. Stops with 2 for usage
    // and an invalid file, 1 when Redis fails.
    Stop loadRules(LoadedRules *out,
                   rules::RuleStore::Reading reading = rules::RuleStore::Reading::Strict);

private:
    QString m_command;
    QString m_helpEntry;
    Args m_args;
    mutable std::optional<Result<Endpoint>> m_endpoint; // made on the first call
    serve::ServeLog *m_log = nullptr;
};

// The statistics of a command's decisions (core/stats): recorded here, flushed to Redis once
// a second by the flusher's thread, a failure said once (StatsReporter). --no-stats: nothing
// is recorded or written.
class CommandStats
{
public:
    CommandStats(const Endpoint &endpoint, const QString &command, bool enabled);
    bool enabled() const { return m_enabled; }
    stats::StatsRecorder &recorder() { return m_recorder; }
    const stats::StatsFlusher &flusher() const { return m_flusher; }
    StatsReporter &reporter() { return m_reporter; }
    // Starts the flusher when enabled.
    void start();
    // Says a change of the flusher's state (failing, written again), when enabled.
    void report();
    // The last write, nothing said (the command fails for another reason).
    void stop() { m_flusher.stop(); }
    // The last write (bounded by the flusher's timeouts), then report(); the flusher's status.
    stats::StatsFlusher::Status finish();

private:
    bool m_enabled;
    stats::StatsRecorder m_recorder;
    stats::StatsFlusher m_flusher;
    StatsReporter m_reporter;
};

// A command object's steps in order, the first that stops ending the run with its code, then
// its last step, which says the exit code: the shape every command with steps has.
template <class Command>
int runSteps(Command &command, std::initializer_list<Stop (Command::*)()> steps,
             int (Command::*last)())
{
    for (Stop (Command::*step)() : steps) {
        if (const Stop s = (command.*step)()) {
            return *s;
        }
    }
    return (command.*last)();
}

// "--rule 'ID' is not in ORIGIN (it has: a, b)": a rule id the set does not hold.
QString ruleNotFound(const QString &shownId, const QString &origin, const RuleSet &set);

} // namespace sluice::cli
