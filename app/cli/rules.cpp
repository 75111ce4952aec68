#include "rules.h"
#include "rulesimport.h"

#include "args.h"
#include "command.h"
#include "connectflags.h"
#include "ruleshistory.h"

#include "core/common/plural.h"
#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/rules/codec.h"
#include "core/rules/exporter.h"
#include "core/rules/rulestore.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>

#include <cstdio>

namespace sluice::cli {

namespace {

const QString usageText = usageOf(QStringLiteral("rules"));

void writeOut(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

void writeErr(const QString &line)
{
    const QByteArray b = (line + QLatin1Char('\n')).toLocal8Bit();
    std::fwrite(b.constData(), 1, size_t(b.size()), stderr);
}

QJsonObject toJson(const Diagnostic &d)
{
    return QJsonObject{{QStringLiteral("file"), d.file},
                       {QStringLiteral("line"), d.line},
                       {QStringLiteral("column"), d.column},
                       {QStringLiteral("path"), d.path},
                       {QStringLiteral("message"), d.message}};
}

// Writes all of `bytes` to `path` or nothing: a failed write never leaves a half file.
Result<void> saveAtomically(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        return Error::make(Error::Kind::Io,
                           QStringLiteral("cannot write %1: %2").arg(path, f.errorString()));
    }
    return {};
}

// A file given on the command line, loaded and validated; every diagnostic goes to stderr.
int validate(const Args &args)
{
    const QString command = QStringLiteral("rules validate");
    if (args.positional().size() != 1) {
        return fail(command, QStringLiteral("give exactly one rule file") + usageText, exitUsage);
    }
    const QString path = QString::fromLocal8Bit(args.positional().first());
    const rules::Loaded loaded = rules::loadFile(path);
    if (args.has("json")) {
        QJsonArray errors;
        for (const Diagnostic &d : loaded.errors) {
            errors.append(toJson(d));
        }
        const QJsonObject o{{QStringLiteral("file"), path},
                            {QStringLiteral("valid"), loaded.ok()},
                            {QStringLiteral("rules"), qint64(loaded.set.rules.size())},
                            {QStringLiteral("errors"), errors}};
        writeOut(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
    } else if (loaded.ok()) {
        writeOut(QStringLiteral("%1: %2, valid\n")
                     .arg(path, counted(qint64(loaded.set.rules.size()), u"rule", u"rules"))
                     .toLocal8Bit());
    } else {
        for (const Diagnostic &d : loaded.errors) {
            writeErr(d.toString());
        }
        writeErr(
            QStringLiteral("%1: %2").arg(path, counted(loaded.errors.size(), u"error", u"errors")));
    }
    return loaded.ok() ? exitOk : exitUsage;
}

int exportCommand(const Args &args)
{
    const QString command = QStringLiteral("rules export");
    if (args.positional().size() != 1) {
        return fail(command, QStringLiteral("give exactly one rule file") + usageText, exitUsage);
    }
    if (!args.has("format")) {
        return fail(command,
                    QStringLiteral("--format is required: json, yaml, nginx, nginx-auth, envoy "
                                   "or kong"),
                    exitUsage);
    }
    const bool nginxAuth = args.text("format").trimmed().toLower() == QLatin1String("nginx-auth");
    for (const char *flag : {"service", "upstream", "listen"}) {
        if (!nginxAuth && args.has(flag)) {
            return fail(
                command,
                QStringLiteral("--%1 applies to --format nginx-auth only").arg(QLatin1String(flag)),
                exitUsage);
        }
    }
    rules::NginxAuthOptions authOptions;
    if (nginxAuth) {
        if (!args.has("service") || !args.has("upstream")) {
            return fail(
                command,
                QStringLiteral("--format nginx-auth needs --service http://HOST:PORT (where "
                               "sluice-cli serve listens) and --upstream URL (the "
                               "application nginx fronts)") +
                    usageText,
                exitUsage);
        }
        authOptions.service = args.text("service");
        authOptions.upstream = args.text("upstream");
        if (args.has("listen")) {
            authOptions.listen = args.text("listen");
        }
        if (auto v = rules::validateNginxAuthOptions(authOptions); !v) {
            return fail(command, v.error().message, exitUsage);
        }
    }
    const auto format = nginxAuth ? std::optional<rules::ExportFormat>(rules::ExportFormat::Nginx)
                                  : rules::exportFormatFromName(args.text("format"));
    if (!format) {
        return fail(command,
                    QStringLiteral("--format '%1' is unknown; expected json, yaml, nginx, "
                                   "nginx-auth, envoy or kong")
                        .arg(bytes::printable(args.raw("format"))),
                    exitUsage);
    }
    const auto set = loadFileReporting(command, QString::fromLocal8Bit(args.positional().first()));
    if (!set) {
        return exitUsage;
    }
    const rules::Export out =
        nginxAuth ? rules::exportNginxAuth(*set, authOptions) : rules::exportRules(*set, *format);
    for (const auto &s : out.skipped) {
        writeErr(QStringLiteral("sluice-cli %1: skipped rule '%2': %3")
                     .arg(command, s.ruleId, s.reason));
    }
    if (args.has("out")) {
        if (auto saved = saveAtomically(args.text("out"), out.text); !saved) {
            return fail(command, saved.error().message, exitRuntime);
        }
    } else {
        writeOut(out.text);
    }
    return exitOk;
}

int push(const Args &args)
{
    const QString command = QStringLiteral("rules push");
    if (args.positional().size() != 1) {
        return fail(command, QStringLiteral("give exactly one rule file") + usageText, exitUsage);
    }
    // Validate before connecting: an invalid file never reaches Redis.
    const auto set = loadFileReporting(command, QString::fromLocal8Bit(args.positional().first()));
    if (!set) {
        return exitUsage;
    }
    int code = exitOk;
    auto c = connectFromArgs(args, command, &code);
    if (!c) {
        return code;
    }
    if (args.has("preview")) {
        return rulesPushPreview(args, *c, *set);
    }
    if (args.has("stage")) {
        return rulesStagePush(args, *c, *set);
    }
    const rules::RuleStore store;
    auto pushed = store.push(*c, *set, pushOptionsFromArgs(args));
    if (!pushed) {
        // A conflict (someone changed the rules since this file was pulled) is a runtime
        // failure: the file is fine, the store moved on.
        return fail(command, pushed.error().message,
                    pushed.error().kind == Error::Kind::Invalid ? exitUsage : exitRuntime);
    }
    if (args.has("json")) {
        const QJsonObject o{
            {QStringLiteral("version"), pushed->version},
            {QStringLiteral("added"), QJsonArray::fromStringList(pushed->added)},
            {QStringLiteral("changed"), QJsonArray::fromStringList(pushed->changed)},
            {QStringLiteral("removed"), QJsonArray::fromStringList(pushed->removed)}};
        writeOut(QJsonDocument(o).toJson(QJsonDocument::Compact) + '\n');
    } else if (pushed->unchanged()) {
        writeOut(QStringLiteral("no change: Redis at %1 already holds these rules (version %2)\n")
                     .arg(c->endpoint().display())
                     .arg(pushed->version)
                     .toLocal8Bit());
    } else {
        QStringList parts;
        auto part = [&](const char *what, const QStringList &ids) {
            if (!ids.isEmpty()) {
                parts << QStringLiteral("%1 %2").arg(QLatin1String(what),
                                                     ids.join(QStringLiteral(", ")));
            }
        };
        part("added", pushed->added);
        part("changed", pushed->changed);
        part("removed", pushed->removed);
        writeOut(QStringLiteral("pushed version %1 to Redis at %2: %3\n")
                     .arg(pushed->version)
                     .arg(c->endpoint().display(), parts.join(QStringLiteral("; ")))
                     .toLocal8Bit());
    }
    return exitOk;
}

int pull(const Args &args)
{
    const QString command = QStringLiteral("rules pull");
    if (!args.positional().isEmpty()) {
        return fail(command, QStringLiteral("pull takes no file argument; use --out F") + usageText,
                    exitUsage);
    }
    const QString out = args.text("out");
    const bool yaml = out.endsWith(QLatin1String(".yaml")) || out.endsWith(QLatin1String(".yml"));
    if (!out.isEmpty() && !yaml && !out.endsWith(QLatin1String(".json"))) {
        return fail(
            command,
            QStringLiteral("--out %1: the file name must end in .json, .yaml or .yml").arg(out),
            exitUsage);
    }
    int code = exitOk;
    auto c = connectFromArgs(args, command, &code);
    if (!c) {
        return code;
    }
    auto snap = rules::RuleStore().pull(*c);
    if (!snap) {
        return fail(command, snap.error().message, exitRuntime);
    }
    const QByteArray bytes = yaml ? rules::toYaml(snap->set) : rules::toJson(snap->set);
    if (out.isEmpty()) {
        writeOut(bytes);
        return exitOk;
    }
    if (auto saved = saveAtomically(out, bytes); !saved) {
        return fail(command, saved.error().message, exitRuntime);
    }
    writeErr(QStringLiteral("pulled version %1 (%2) from Redis at %3 into %4")
                 .arg(snap->version)
                 .arg(counted(qint64(snap->set.rules.size()), u"rule", u"rules"),
                      c->endpoint().display(), out));
    return exitOk;
}

} // namespace

std::optional<RuleSet> loadFileReporting(const QString &command, const QString &path)
{
    const rules::Loaded loaded = rules::loadFile(path);
    if (!loaded.ok()) {
        for (const Diagnostic &d : loaded.errors) {
            writeErr(d.toString());
        }
        fail(command,
             QStringLiteral("%1 is not a valid rule file (%2); nothing was done")
                 .arg(path, counted(loaded.errors.size(), u"error", u"errors")),
             exitUsage);
        return std::nullopt;
    }
    return loaded.set;
}

int rules(const QList<QByteArray> &argv)
{
    const QByteArray sub = argv.isEmpty() ? QByteArray() : argv.first();
    const QList<QByteArray> rest = argv.mid(1);
    auto parsed = Args::parse(rest, {{"json", false},
                                     {"format", true},
                                     {"out", true},
                                     {"url", true},
                                     {"force", false},
                                     {"author", true},
                                     {"message", true},
                                     {"preview", false},
                                     {"stage", false},
                                     {"scan-budget", true},
                                     {"service", true},
                                     {"upstream", true},
                                     {"listen", true},
                                     {"stop-cache-key-increment-when-overlimit", false}});
    const QString command = QStringLiteral("rules ") + QString::fromUtf8(sub);
    if (!parsed) {
        return fail(command.trimmed(), parsed.error().message + usageText, exitUsage);
    }
    // Each subcommand accepts only its own options.
    auto only = [&](std::initializer_list<const char *> allowed) -> int {
        for (const char *flag :
             {"json", "format", "out", "url", "force", "author", "message", "service", "upstream",
              "listen", "stage", "preview", "stop-cache-key-increment-when-overlimit"}) {
            bool ok = false;
            for (const char *a : allowed) {
                ok = ok || qstrcmp(a, flag) == 0;
            }
            if (!ok && parsed->has(flag)) {
                return fail(command,
                            QStringLiteral("--%1 does not apply here").arg(QLatin1String(flag)) +
                                usageText,
                            exitUsage);
            }
        }
        bool takesUrl = false;
        for (const char *a : allowed) {
            takesUrl = takesUrl || qstrcmp(a, "url") == 0;
        }
        for (const Flag &f : connectionFlags()) {
            if (!takesUrl && parsed->has(f.name)) {
                return fail(command,
                            QStringLiteral("--%1 does not apply here").arg(QLatin1String(f.name)) +
                                usageText,
                            exitUsage);
            }
        }
        return exitOk;
    };
    if (sub == "validate") {
        if (int r = only({"json"})) {
            return r;
        }
        return validate(*parsed);
    }
    if (sub == "export") {
        if (int r = only({"format", "out", "service", "upstream", "listen"})) {
            return r;
        }
        return exportCommand(*parsed);
    }
    if (sub == "import") {
        if (int r = only({"format", "out", "stop-cache-key-increment-when-overlimit"})) {
            return r;
        }
        return rulesImport(*parsed);
    }
    if (sub == "push") {
        if (int r = only(
                {"url", "force", "author", "message", "preview", "scan-budget", "json", "stage"})) {
            return r;
        }
        if (parsed->has("stage") && parsed->has("preview")) {
            return fail(command,
                        QStringLiteral("--stage and --preview do not go together: --preview "
                                       "writes nothing, --stage writes the candidate"),
                        exitUsage);
        }
        if (parsed->has("scan-budget") && !parsed->has("preview")) {
            return fail(command, QStringLiteral("--scan-budget applies to --preview only"),
                        exitUsage);
        }
        return push(*parsed);
    }
    if (sub == "history") {
        if (int r = only({"url", "json"})) {
            return r;
        }
        return rulesHistory(*parsed);
    }
    if (sub == "diff") {
        if (int r = only({"url", "json"})) {
            return r;
        }
        return rulesDiff(*parsed);
    }
    if (sub == "rollback") {
        if (int r = only({"url", "force", "author", "message", "json"})) {
            return r;
        }
        return rulesRollback(*parsed);
    }
    if (sub == "promote" || sub == "discard") {
        if (int r = only({"url", "force", "author", "message", "json"})) {
            return r;
        }
        return rulesPromote(*parsed, sub == "promote");
    }
    if (sub == "staged") {
        if (int r = only({"url", "json"})) {
            return r;
        }
        return rulesStaged(*parsed);
    }
    if (sub == "pull") {
        if (int r = only({"url", "out", "json"})) {
            return r;
        }
        return pull(*parsed);
    }
    return fail(QStringLiteral("rules"),
                (sub.isEmpty()
                     ? QStringLiteral("a subcommand is required")
                     : QStringLiteral("unknown subcommand '%1'").arg(bytes::printable(sub))) +
                    usageText,
                exitUsage);
}

Result<Connection> connectFromArgs(const Args &args, const QString &command, int *exitCode)
{
    return CommandContext(command, args, QStringLiteral("rules")).connect(exitCode);
}

Result<LoadedRules> loadRulesForCommand(const Args &args, const QString &command, int *exitCode,
                                        rules::RuleStore::Reading reading)
{
    CommandContext context(command, args, QStringLiteral("rules"));
    LoadedRules loaded;
    if (const Stop stop = context.loadRules(&loaded, reading)) {
        *exitCode = *stop;
        return Error::make(Error::Kind::Invalid, QString());
    }
    return loaded;
}

} // namespace sluice::cli
