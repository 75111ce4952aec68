#include "command.h"

#include "connectflags.h"

#include "app/serve/servelog.h"

#include "core/redis/connection.h"
#include "core/rules/overridestore.h"

namespace sluice::cli {

CommandContext::CommandContext(QString command, QString helpEntry)
    : m_command(std::move(command))
    , m_helpEntry(helpEntry.isEmpty() ? m_command : std::move(helpEntry))
{}

CommandContext::CommandContext(QString command, Args args, QString helpEntry)
    : CommandContext(std::move(command), std::move(helpEntry))
{
    m_args = std::move(args);
}

Stop CommandContext::parse(const QList<QByteArray> &argv, std::initializer_list<Flag> flags,
                           Positionals positionals)
{
    auto parsed = Args::parse(argv, flags);
    if (!parsed) {
        return usage(parsed.error().message);
    }
    m_args = std::move(*parsed);
    if (positionals == Positionals::None && !m_args.positional().isEmpty()) {
        return usage(QStringLiteral("unexpected argument '%1'")
                         .arg(bytes::printable(m_args.positional().first())));
    }
    return std::nullopt;
}

int CommandContext::usage(const QString &message) const
{
    return cli::fail(m_command, message + usageOf(m_helpEntry), exitUsage);
}

int CommandContext::fail(const QString &message, int code) const
{
    return cli::fail(m_command, message, code);
}

int CommandContext::die(const QString &message) const
{
    if (m_log != nullptr && m_log->format() == serve::ServeLog::Format::Json) {
        m_log->write(serve::ServeLog::Level::Error, "fatal", message);
        return exitRuntime;
    }
    return fail(message, exitRuntime);
}

Stop CommandContext::requireEndpoint(const QString &hint)
{
    if (!m_args.has("url")) {
        return usage(QStringLiteral("--url is required") +
                     (hint.isEmpty() ? QString() : QLatin1Char(' ') + hint));
    }
    const Result<Endpoint> &e = endpoint();
    if (!e && e.error().kind == Error::Kind::Timeout) {
        return fail(e.error().message, exitRuntime);
    }
    if (!e) {
        return usage(e.error().message);
    }
    return std::nullopt;
}

Result<Connection> CommandContext::connect(int *exitCode, const QString &hint)
{
    if (const Stop s = requireEndpoint(hint)) {
        *exitCode = *s;
        return Error::make(Error::Kind::Invalid, QString());
    }
    auto c = open();
    if (!c) {
        *exitCode = fail(c.error().message, exitRuntime);
    }
    return c;
}

Result<Connection> CommandContext::open(const Connection::Options &options) const
{
    return Connection::open(*endpoint(), options);
}

const Result<Endpoint> &CommandContext::endpoint() const
{
    if (!m_endpoint) {
        m_endpoint = endpointFromArgs(m_args, m_command);
    }
    return *m_endpoint;
}

Stop CommandContext::loadRules(LoadedRules *out, rules::RuleStore::Reading reading)
{
    if (m_args.has("rules") == m_args.has("from-redis")) {
        return fail(QStringLiteral("give the rules with either --rules FILE or --from-redis"),
                    exitUsage);
    }
    if (m_args.has("rules")) {
        const QString path = m_args.text("rules");
        const auto set = loadFileReporting(m_command, path);
        if (!set) {
            return exitUsage;
        }
        *out = LoadedRules{*set, path, {}};
        return std::nullopt;
    }
    int code = exitOk;
    auto c = connect(&code);
    if (!c) {
        return code;
    }
    auto snap = rules::RuleStore().pull(*c, reading);
    if (!snap) {
        return fail(snap.error().message, exitRuntime);
    }
    // The stored overrides with them (OverrideStore), as serve follows them.
    QStringList skipped = snap->skipped;
    auto stored = rules::OverrideStore().list(
        *c, snap->set, {}, reading == rules::RuleStore::Reading::Strict ? nullptr : &skipped);
    if (!stored && stored.error().kind == Error::Kind::Auth) {
        // A user without SCAN / GET on the overrides' keys (an older ACL): the rules alone,
        // said once.
        fail(QStringLiteral("note: the stored overrides are not read (%1); deciding by the rules "
                            "alone")
                 .arg(stored.error().message),
             exitOk);
        stored = QList<rules::OverrideStore::Stored>();
    }
    if (!stored) {
        return fail(
            QStringLiteral("cannot read the stored overrides: %1").arg(stored.error().message),
            exitRuntime);
    }
    rules::OverrideStore::merge(snap->set, *stored);
    *out = LoadedRules{snap->set,
                       QStringLiteral("the rules in Redis at %1 (version %2)")
                           .arg(c->endpoint().display())
                           .arg(snap->version),
                       skipped};
    return std::nullopt;
}

CommandStats::CommandStats(const Endpoint &endpoint, const QString &command, bool enabled)
    : m_enabled(enabled)
    , m_flusher(endpoint, &m_recorder)
    , m_reporter(command)
{}

void CommandStats::start()
{
    if (m_enabled) {
        m_flusher.start();
    }
}

void CommandStats::report()
{
    if (m_enabled) {
        m_reporter.update(m_flusher.status());
    }
}

stats::StatsFlusher::Status CommandStats::finish()
{
    m_flusher.stop();
    report();
    return m_flusher.status();
}

QString ruleNotFound(const QString &shownId, const QString &origin, const RuleSet &set)
{
    QStringList ids;
    for (const Rule &r : set.rules) {
        ids << r.id;
    }
    return QStringLiteral("--rule '%1' is not in %2 (it has: %3)")
        .arg(shownId, origin,
             ids.isEmpty() ? QStringLiteral("no rules") : ids.join(QStringLiteral(", ")));
}

} // namespace sluice::cli
