#include "overridestore.h"

#include "codec.h"

#include "core/common/bytes.h"
#include "core/redis/scriptregistry.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>

#include <algorithm>

#include <pwd.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sluice::rules {

namespace {

// Add step. KEYS[1] the override's key. ARGV[1] the value (JSON), ARGV[2] its end in unix ms
// (0: none, a permanent override), ARGV[3] '1' to replace an existing one, ARGV[4] the channel.
// Reply: {1} stored, or {0, the stored value} when the key exists and ARGV[3] is not '1'. SET
// and PEXPIREAT in one script: the key is never seen without its TTL.
const char *const addLua = R"lua(
local t = redis.call('TYPE', KEYS[1])['ok']
if t ~= 'none' and t ~= 'string' then
  return redis.error_reply('the key ' .. KEYS[1] .. ' holds a ' .. t ..
    ', not an override; nothing was written')
end
if t == 'string' and ARGV[3] ~= '1' then
  return {0, redis.call('GET', KEYS[1])}
end
redis.call('SET', KEYS[1], ARGV[1])
if ARGV[2] ~= '0' then
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
end
redis.call('PUBLISH', ARGV[4], 'overrides')
return {1}
)lua";

// Remove step. KEYS[1] the override's key, ARGV[1] the channel. Reply: keys deleted (0 or 1).
const char *const removeLua = R"lua(
local n = redis.call('DEL', KEYS[1])
if n > 0 then
  redis.call('PUBLISH', ARGV[1], 'overrides')
end
return n
)lua";

const ScriptRegistry &scripts()
{
    static const ScriptRegistry registry = [] {
        ScriptRegistry r;
        r.add(u"overridestore_add"_s, QByteArray(addLua));
        r.add(u"overridestore_remove"_s, QByteArray(removeLua));
        return r;
    }();
    return registry;
}

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

QString osUser()
{
    if (const passwd *pw = getpwuid(geteuid()); pw && pw->pw_name && *pw->pw_name) {
        return QString::fromLocal8Bit(pw->pw_name);
    }
    return u"uid %1"_s.arg(geteuid());
}

QByteArray globEscaped(const QByteArray &text)
{
    QByteArray out;
    for (const char c : text) {
        if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') {
            out += '\\';
        }
        out += c;
    }
    return out;
}

Result<qint64> serverNowUs(Connection &c)
{
    auto t = c.command({"TIME"}, ReplyBound::integers(2, "TIME"));
    if (!t) {
        return t.error();
    }
    if (!t->isArray() || t->elements.size() != 2) {
        return Error::make(Error::Kind::Protocol, u"TIME did not answer two numbers"_s);
    }
    return t->elements[0].str.toLongLong() * 1'000'000 + t->elements[1].str.toLongLong();
}

} // namespace

OverrideStore::OverrideStore(QByteArray ns)
    : m_ns(std::move(ns))
{}

QByteArray OverrideStore::keyFor(const QString &ruleId, Override::Kind kind,
                                 const QString &pattern) const
{
    return m_ns + "rules:override:" + ruleId.toUtf8() + ':' + Override::kindField(kind).toUtf8() +
           ':' + pattern.toUtf8();
}

QByteArray OverrideStore::keyPattern(const QString &ruleId) const
{
    QByteArray p = globEscaped(m_ns + "rules:override:");
    if (!ruleId.isEmpty()) {
        p += globEscaped(ruleId.toUtf8()) + ':';
    }
    return p + '*';
}

Result<OverrideStore::Stored> OverrideStore::add(Connection &c, const Rule &rule, Override o,
                                                 const AddOptions &options) const
{
    auto now = serverNowUs(c);
    if (!now) {
        return now.error();
    }
    if (o.ttlUs != 0) {
        // Whole milliseconds, as PEXPIREAT has it: the key and the matcher end together.
        o.expiresUs = (*now + o.ttlUs + 999) / 1000 * 1000;
        o.ttlUs = 0;
    }
    if (o.expiresUs == 0 && !options.permanent) {
        return invalid(u"an override in the store needs an end (--ttl or --expires), or "
                       "--permanent for one that lasts until it is removed"_s);
    }
    if (o.expiresUs != 0 && o.expiresUs <= *now) {
        return invalid(u"the override would end at %1, which has passed (the server's clock says "
                       "%2)"_s.arg(formatTimestampUs(o.expiresUs),
                                   formatTimestampUs(*now - *now % 1'000'000)));
    }
    Rule alone = rule;
    alone.overrides = {o};
    const QList<Diagnostic> errors = validateOverrides(alone, {}, {});
    if (!errors.isEmpty()) {
        QStringList why;
        for (const Diagnostic &d : errors) {
            why << d.toString();
        }
        return invalid(why.join(u"; "_s));
    }
    Stored s;
    s.ruleId = rule.id;
    s.override = o;
    s.author = options.author.isEmpty() ? osUser() : options.author.left(200);
    s.added = formatTimestampUs(*now - *now % 1'000'000);
    s.key = keyFor(rule.id, o.kind, o.pattern);
    s.pttlMs = o.expiresUs != 0 ? (o.expiresUs - *now) / 1000 : -1;
    const QJsonObject value{
        {u"rule"_s, rule.id},
        {u"override"_s, QJsonDocument::fromJson(overrideToJson(rule, o)).object()},
        {u"author"_s, s.author},
        {u"added"_s, s.added}};
    const qint64 endMs = o.expiresUs != 0 ? (o.expiresUs + 999) / 1000 : 0;
    auto r =
        ScriptRegistry::eval(c, *scripts().find(u"overridestore_add"_s), {s.key},
                             {QJsonDocument(value).toJson(QJsonDocument::Compact),
                              QByteArray::number(endMs), options.replace ? "1" : "0", channel()});
    if (!r) {
        return ScriptRegistry::explainScriptAcl(r.error(), *scripts().find(u"overridestore_add"_s));
    }
    if (r->isArray() && !r->elements.empty() && r->elements[0].integer == 0) {
        const QJsonObject old =
            QJsonDocument::fromJson(r->elements.size() > 1 ? r->elements[1].str : QByteArray())
                .object();
        const QJsonObject oldOverride = old.value(u"override"_s).toObject();
        QString what = u"allow"_s;
        if (oldOverride.contains(u"deny"_s)) {
            what = u"deny"_s;
        } else if (oldOverride.contains(u"limit"_s)) {
            what = u"a limit"_s;
        }
        return Error::make(Error::Kind::Conflict,
                           u"rule '%1' already has an override for %2 (%3, added %4 by %5); "
                           "remove it first or add with --replace"_s.arg(
                               rule.id, o.describeMatch(), what, old.value(u"added"_s).toString(),
                               bytes::shortened(old.value(u"author"_s).toString())));
    }
    return s;
}

Result<bool> OverrideStore::remove(Connection &c, const QString &ruleId, Override::Kind kind,
                                   const QString &pattern) const
{
    auto r = ScriptRegistry::eval(c, *scripts().find(u"overridestore_remove"_s),
                                  {keyFor(ruleId, kind, pattern)}, {channel()});
    if (!r) {
        return ScriptRegistry::explainScriptAcl(r.error(),
                                                *scripts().find(u"overridestore_remove"_s));
    }
    return r->integer > 0;
}

Result<QList<OverrideStore::Stored>> OverrideStore::list(Connection &c, const RuleSet &rules,
                                                         const QString &ruleId,
                                                         QStringList *stale) const
{
    QList<QByteArray> keys;
    QByteArray cursor = "0";
    const QByteArray match = keyPattern(ruleId);
    do {
        auto r = c.command({"SCAN", cursor, "MATCH", match, "COUNT", "1000"});
        if (!r) {
            return r.error();
        }
        if (!r->isArray() || r->elements.size() != 2) {
            return Error::make(Error::Kind::Protocol, u"SCAN did not answer a cursor and keys"_s);
        }
        cursor = r->elements[0].str;
        for (const Reply &k : r->elements[1].elements) {
            keys << k.str;
        }
        if (keys.size() > maxStored) {
            return invalid(u"more than %1 overrides are stored under %2; remove some (sluice-cli "
                           "overrides remove)"_s.arg(maxStored)
                               .arg(QString::fromUtf8(match)));
        }
    } while (cursor != "0");
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end()); // SCAN may repeat a key
    QList<Stored> out;
    constexpr qsizetype chunk = 256;
    for (qsizetype from = 0; from < keys.size(); from += chunk) {
        QList<QList<QByteArray>> commands;
        const qsizetype to = std::min(keys.size(), from + chunk);
        for (qsizetype i = from; i < to; ++i) {
            commands << QList<QByteArray>{"GET", keys[i]} << QList<QByteArray>{"PTTL", keys[i]};
        }
        auto replies = c.pipeline(commands);
        if (!replies) {
            return replies.error();
        }
        for (qsizetype i = from; i < to; ++i) {
            const auto &value = (*replies)[size_t(2 * (i - from))];
            const auto &ttl = (*replies)[size_t(2 * (i - from) + 1)];
            const QString where = QString::fromUtf8(keys[i]);
            if (!value || value->isNil()) {
                continue; // expired or removed between SCAN and GET
            }
            const QJsonObject o = QJsonDocument::fromJson(value->str).object();
            Stored s;
            s.key = keys[i];
            s.ruleId = o.value(u"rule"_s).toString();
            s.author = o.value(u"author"_s).toString();
            s.added = o.value(u"added"_s).toString();
            s.pttlMs = ttl ? ttl->integer : -1;
            const Rule *rule = rules.find(s.ruleId);
            if (rule == nullptr) {
                if (stale != nullptr) {
                    *stale << u"%1: rule '%2' is not in the store; the override matches "
                              "nothing"_s.arg(where, bytes::shortened(s.ruleId));
                }
                continue;
            }
            auto parsed = overrideFromJson(
                *rule, QJsonDocument(o.value(u"override"_s).toObject()).toJson(), where);
            if (!parsed) {
                if (stale != nullptr) {
                    *stale << u"%1: not an override of rule '%2' as it is now: %3"_s.arg(
                        where, s.ruleId, parsed.error().message);
                }
                continue;
            }
            s.override = *parsed;
            if (keyFor(s.ruleId, s.override.kind, s.override.pattern) != s.key) {
                if (stale != nullptr) {
                    *stale << u"%1: holds an override of %2, not of its own name"_s.arg(
                        where, s.override.describeMatch());
                }
                continue;
            }
            out << std::move(s);
        }
    }
    std::stable_sort(out.begin(), out.end(), [](const Stored &a, const Stored &b) {
        if (a.ruleId != b.ruleId) {
            return a.ruleId < b.ruleId;
        }
        return specificity(a.override) < specificity(b.override);
    });
    return out;
}

void OverrideStore::merge(RuleSet &set, const QList<Stored> &stored)
{
    QMap<QString, std::vector<Override>> byRule;
    for (const Stored &s : stored) {
        byRule[s.ruleId].push_back(s.override);
    }
    for (Rule &r : set.rules) {
        const auto it = byRule.constFind(r.id);
        if (it == byRule.constEnd()) {
            continue;
        }
        std::vector<Override> all = *it;
        all.insert(all.end(), r.overrides.begin(), r.overrides.end());
        r.overrides = std::move(all);
    }
}

} // namespace sluice::rules
