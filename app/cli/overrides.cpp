#include "overrides.h"
#include "args.h"
#include "command.h"

#include "core/common/clock.h"
#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "core/rules/overridestore.h"
#include "core/rules/rulestore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <array>
#include <cstdio>

namespace sluice::cli {

namespace {

void out(const QByteArray &bytes)
{
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stdout);
}

int usage(const QString &command, const QString &message)
{
    return fail(command, message + usageOf(QStringLiteral("overrides")), exitUsage);
}

// The match flags: exactly one of --subject, --cidr, --match.
struct MatchFlags
{
    Override::Kind kind = Override::Kind::Subject;
    QString pattern;
};

Result<MatchFlags> matchFromArgs(const Args &args)
{
    QList<const char *> given;
    for (const char *f : {"subject", "cidr", "match"}) {
        if (args.has(f)) {
            given << f;
        }
    }
    if (given.size() != 1) {
        return Error::make(Error::Kind::Invalid,
                           given.isEmpty()
                               ? QStringLiteral("give what the override matches: --subject S, "
                                                "--cidr C or --match GLOB")
                               : QStringLiteral("give one of --subject, --cidr, --match, not "
                                                "--%1 and --%2")
                                     .arg(QLatin1String(given[0]), QLatin1String(given[1])));
    }
    MatchFlags m;
    const QByteArray f = given[0];
    m.kind = f == "subject" ? Override::Kind::Subject
             : f == "cidr"  ? Override::Kind::Cidr
                            : Override::Kind::Glob;
    m.pattern = QString::fromUtf8(args.raw(given[0]));
    return m;
}

QString flagOf(const QString &path)
{
    // validateOverrides' paths ("overrides[0].cidr", "overrides[0].limit.limit") -> the flag.
    static const QList<std::pair<QString, QString>> map = {
        {QStringLiteral(".subject"), QStringLiteral("--subject")},
        {QStringLiteral(".cidr"), QStringLiteral("--cidr")},
        {QStringLiteral(".match"), QStringLiteral("--match")},
        {QStringLiteral(".limit.limit"), QStringLiteral("--limit")},
        {QStringLiteral(".limit.window"), QStringLiteral("--window")},
        {QStringLiteral(".limit.rate"), QStringLiteral("--rate")},
        {QStringLiteral(".limit.burst"), QStringLiteral("--burst")},
        {QStringLiteral(".note"), QStringLiteral("--note")},
    };
    for (const auto &[suffix, flag] : map) {
        if (path.endsWith(suffix)) {
            return flag;
        }
    }
    return {};
}

struct Store
{
    Connection connection;
    rules::RuleStore::Snapshot rules;
};

Result<Store> openStore(const Args &args, const QString &command, int *code)
{
    auto c = CommandContext(command, args, QStringLiteral("overrides"))
                 .connect(code, QStringLiteral("(the Redis of the rule store)"));
    if (!c) {
        return c.error();
    }
    auto snap = rules::RuleStore().pull(*c);
    if (!snap) {
        *code = fail(command, snap.error().message, exitRuntime);
        return snap.error();
    }
    return Store{std::move(*c), std::move(*snap)};
}

// The rule --rule names, or the error (exit 2) listing the stored ones.
const Rule *ruleFromArgs(const Args &args, const Store &store, const QString &command, int *code)
{
    if (!args.has("rule")) {
        *code = usage(command, QStringLiteral("--rule ID is required: the stored rule the "
                                              "override belongs to"));
        return nullptr;
    }
    const Rule *rule = store.rules.set.find(args.text("rule"));
    if (rule == nullptr) {
        QStringList ids;
        for (const Rule &r : store.rules.set.rules) {
            ids << r.id;
        }
        *code = fail(
            command,
            QStringLiteral("--rule '%1' names no rule of the store at %2 (version %3; it "
                           "has: %4)")
                .arg(bytes::printable(args.raw("rule")), store.connection.endpoint().display())
                .arg(store.rules.version)
                .arg(ids.isEmpty() ? QStringLiteral("no rules") : ids.join(QStringLiteral(", "))),
            exitUsage);
    }
    return rule;
}

QJsonObject storedJson(const rules::OverrideStore::Stored &s, const Rule *rule)
{
    QJsonObject o{
        {QStringLiteral("rule"), s.ruleId},   {QStringLiteral("key"), QString::fromUtf8(s.key)},
        {QStringLiteral("author"), s.author}, {QStringLiteral("added"), s.added},
        {QStringLiteral("ttl_ms"), s.pttlMs}, {QStringLiteral("permanent"), s.pttlMs < 0}};
    if (rule != nullptr) {
        o.insert(QStringLiteral("override"),
                 QJsonDocument::fromJson(rules::overrideToJson(*rule, s.override)).object());
    }
    return o;
}

QString storedText(const rules::OverrideStore::Stored &s, const Rule *rule)
{
    QString line = QStringLiteral("%1  %2  %3")
                       .arg(bytes::printable(s.ruleId), s.override.describeMatch(),
                            rule != nullptr ? s.override.describeAction(*rule) : QString());
    if (s.override.expiresUs != 0) {
        line += QStringLiteral("  until %1").arg(rules::formatTimestampUs(s.override.expiresUs));
    } else {
        line += QStringLiteral("  permanent (no TTL)");
    }
    if (!s.override.note.isEmpty()) {
        line += QStringLiteral("  \"%1\"").arg(bytes::shortened(s.override.note));
    }
    return line + QStringLiteral("  (%1, %2)")
                      .arg(bytes::quoted(s.author.toUtf8()), bytes::quoted(s.added.toUtf8()));
}

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

// The override of add's flags before its rule is known: the match, one action, one end.
Result<Override> overrideFromFlags(const Args &args)
{
    auto match = matchFromArgs(args);
    if (!match) {
        return match.error();
    }
    const bool limit =
        args.has("limit") || args.has("window") || args.has("rate") || args.has("burst");
    const int chosen = int(args.has("allow")) + int(args.has("deny")) + int(limit);
    if (chosen != 1) {
        return invalid(chosen == 0
                           ? QStringLiteral("give what the subjects get: --allow, --deny, or a "
                                            "limit of their own (--limit N --window W, or --rate "
                                            "R --burst B, as the rule's algorithm takes)")
                           : QStringLiteral("give one of --allow, --deny or a limit"));
    }
    int ttlFlags = int(args.has("ttl")) + int(args.has("expires")) + int(args.has("permanent"));
    if (ttlFlags != 1) {
        return invalid(ttlFlags == 0
                           ? QStringLiteral("give when the override ends: --ttl D (e.g. 1h), "
                                            "--expires T (ISO 8601, e.g. 2027-01-01T00:00:00Z), "
                                            "or --permanent (its key then has no TTL: it lasts "
                                            "until `overrides remove`)")
                           : QStringLiteral("give one of --ttl, --expires, --permanent"));
    }
    Override o;
    o.kind = match->kind;
    o.pattern = match->pattern;
    o.note = args.text("note");
    if (args.has("ttl")) {
        auto ttl = duration::parseUs(args.text("ttl"));
        if (!ttl) {
            return invalid(QStringLiteral("--ttl: %1; an override ends at most 36500d (100 "
                                          "years) from now, or use --permanent")
                               .arg(ttl.error().message));
        }
        o.ttlUs = *ttl;
    }
    if (args.has("expires")) {
        auto at = rules::parseTimestampUs(args.text("expires"));
        if (!at) {
            return invalid(QStringLiteral("--expires: '%1' is not a time; expected ISO 8601 "
                                          "with its zone, e.g. 2027-01-01T00:00:00Z")
                               .arg(bytes::printable(args.raw("expires"))));
        }
        o.expiresUs = *at;
    }
    return o;
}

// --limit N --window W for a window rule, --rate R --burst B for a bucket.
Result<void> limitOfRule(const Args &args, const Rule &rule, Override &o)
{
    const bool window = algorithm::isWindow(rule.algorithm);
    const QString name = algorithm::name(rule.algorithm);
    const std::array<const char *, 2> others = window
                                                   ? std::array<const char *, 2>{"rate", "burst"}
                                                   : std::array<const char *, 2>{"limit", "window"};
    for (const char *wrong : others) {
        if (args.has(wrong)) {
            return invalid(QStringLiteral("--%1 does not apply: rule '%2' is %3, whose limit is %4")
                               .arg(QLatin1String(wrong), rule.id, name,
                                    window ? QStringLiteral("--limit N --window W")
                                           : QStringLiteral("--rate R --burst B")));
        }
    }
    if (window && (!args.has("limit") || !args.has("window"))) {
        return invalid(QStringLiteral("rule '%1' is %2: its override limit needs --limit N and "
                                      "--window W")
                           .arg(rule.id, name));
    }
    if (!window && (!args.has("rate") || !args.has("burst"))) {
        return invalid(QStringLiteral("rule '%1' is %2: its override limit needs --rate R and "
                                      "--burst B")
                           .arg(rule.id, name));
    }
    auto v = limitValues(args, window);
    if (!v) {
        return v.error();
    }
    v->applyTo(o);
    return {};
}

// What the file's validation says of the override, in flags.
Result<void> validAsFlags(const Rule &rule, const Override &o)
{
    Rule alone = rule;
    alone.overrides = {o};
    const QList<Diagnostic> errors = rules::validateOverrides(alone, {}, {});
    if (errors.isEmpty()) {
        return {};
    }
    QStringList why;
    for (const Diagnostic &d : errors) {
        const QString flag = flagOf(d.path);
        why << (flag.isEmpty() ? d.message : flag + QStringLiteral(": ") + d.message);
    }
    return invalid(why.join(QStringLiteral("; ")));
}

int add(const Args &args)
{
    const QString command = QStringLiteral("overrides add");
    auto o = overrideFromFlags(args);
    if (!o) {
        return usage(command, o.error().message);
    }
    int code = exitOk;
    auto store = openStore(args, command, &code);
    if (!store) {
        return code;
    }
    const Rule *rule = ruleFromArgs(args, *store, command, &code);
    if (rule == nullptr) {
        return code;
    }
    o->action = args.has("allow")  ? Override::Action::Allow
                : args.has("deny") ? Override::Action::Deny
                                   : Override::Action::Limit;
    if (o->action == Override::Action::Limit) {
        if (auto r = limitOfRule(args, *rule, *o); !r) {
            return usage(command, r.error().message);
        }
    }
    if (auto r = validAsFlags(*rule, *o); !r) {
        return usage(command, r.error().message);
    }
    rules::OverrideStore::AddOptions options;
    options.replace = args.has("replace");
    options.permanent = args.has("permanent");
    options.author = args.text("author");
    auto stored = rules::OverrideStore().add(store->connection, *rule, *o, options);
    if (!stored) {
        const Error &e = stored.error();
        return fail(command, e.message,
                    e.kind == Error::Kind::Invalid || e.kind == Error::Kind::Conflict
                        ? exitUsage
                        : exitRuntime);
    }
    if (args.has("json")) {
        out(QJsonDocument(storedJson(*stored, rule)).toJson(QJsonDocument::Compact) + '\n');
        return exitOk;
    }
    out((QStringLiteral("stored: ") + storedText(*stored, rule) + QLatin1Char('\n')).toUtf8());
    if (stored->pttlMs < 0) {
        fail(command,
             QStringLiteral("note: the override is permanent: its key %1 has no TTL and stays "
                            "until `sluice-cli overrides remove`")
                 .arg(bytes::printable(stored->key)),
             exitOk);
    }
    return exitOk;
}

int remove(const Args &args)
{
    const QString command = QStringLiteral("overrides remove");
    auto match = matchFromArgs(args);
    if (!match) {
        return usage(command, match.error().message);
    }
    int code = exitOk;
    auto store = openStore(args, command, &code);
    if (!store) {
        return code;
    }
    // An override of a rule since removed may still be removed: the id is taken as given.
    if (!args.has("rule")) {
        return usage(command, QStringLiteral("--rule ID is required"));
    }
    auto removed = rules::OverrideStore().remove(store->connection, args.text("rule"), match->kind,
                                                 match->pattern);
    if (!removed) {
        return fail(command, removed.error().message, exitRuntime);
    }
    const QString what = QStringLiteral("rule '%1', %2 %3")
                             .arg(args.text("rule"), Override::kindField(match->kind),
                                  bytes::shortened(match->pattern));
    if (!*removed) {
        return fail(command,
                    QStringLiteral("no stored override for %1 (see overrides list)").arg(what),
                    exitUsage);
    }
    if (args.has("json")) {
        out(QJsonDocument(QJsonObject{{QStringLiteral("removed"), true}})
                .toJson(QJsonDocument::Compact) +
            '\n');
    } else {
        out((QStringLiteral("removed: ") + what + QLatin1Char('\n')).toUtf8());
    }
    return exitOk;
}

int list(const Args &args)
{
    const QString command = QStringLiteral("overrides list");
    int code = exitOk;
    auto store = openStore(args, command, &code);
    if (!store) {
        return code;
    }
    QString ruleId;
    if (args.has("rule")) {
        if (ruleFromArgs(args, *store, command, &code) == nullptr) {
            return code;
        }
        ruleId = args.text("rule");
    }
    QStringList stale;
    auto stored = rules::OverrideStore().list(store->connection, store->rules.set, ruleId, &stale);
    if (!stored) {
        return fail(command, stored.error().message, exitRuntime);
    }
    for (const QString &s : stale) {
        fail(command, QStringLiteral("warning: %1").arg(s), exitOk);
    }
    if (args.has("json")) {
        QJsonArray a;
        for (const auto &s : *stored) {
            a.append(storedJson(s, store->rules.set.find(s.ruleId)));
        }
        out(QJsonDocument(a).toJson(QJsonDocument::Compact) + '\n');
        return exitOk;
    }
    for (const auto &s : *stored) {
        out((storedText(s, store->rules.set.find(s.ruleId)) + QLatin1Char('\n')).toUtf8());
    }
    if (stored->isEmpty()) {
        fail(command, QStringLiteral("no overrides are stored"), exitOk);
    }
    return exitOk;
}

} // namespace

int overrides(const QList<QByteArray> &argv)
{
    const QString command = QStringLiteral("overrides");
    const QByteArray sub = argv.value(0);
    const QList<QByteArray> rest = argv.mid(1);
    auto parsed = Args::parse(rest, {{"url", true},
                                     {"rule", true},
                                     {"subject", true},
                                     {"cidr", true},
                                     {"match", true},
                                     {"allow", false},
                                     {"deny", false},
                                     {"limit", true},
                                     {"window", true},
                                     {"rate", true},
                                     {"burst", true},
                                     {"ttl", true},
                                     {"expires", true},
                                     {"permanent", false},
                                     {"replace", false},
                                     {"note", true},
                                     {"author", true},
                                     {"json", false}});
    if (!parsed) {
        return usage(command, parsed.error().message);
    }
    if (!parsed->positional().isEmpty()) {
        return usage(command, QStringLiteral("unexpected argument '%1'")
                                  .arg(bytes::printable(parsed->positional().first())));
    }
    if (sub == "add") {
        return add(*parsed);
    }
    if (sub == "remove") {
        return remove(*parsed);
    }
    if (sub == "list") {
        return list(*parsed);
    }
    return usage(command,
                 sub.isEmpty()
                     ? QStringLiteral("a subcommand is required: add, remove "
                                      "or list")
                     : QStringLiteral("unknown subcommand '%1'").arg(bytes::printable(sub)));
}

} // namespace sluice::cli
