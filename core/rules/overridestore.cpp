#include "overridestore.h"

#include "rulestore.h"

#include "codec.h"

#include "core/common/bytes.h"
#include "core/redis/scriptregistry.h"
#include "core/redis/servertime.h"

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

// The index of the stored overrides (KEYS[2]): a sorted set of their keys by end (unix ms;
// 'inf' for a permanent one), so that listing them never scans the keyspace. Its own TTL is
// the latest end of its members (none only while a permanent override is in it); ended
// members are dropped by every write, and a reader skips members whose key has gone.
//
// Add step. KEYS[1] the override's key, KEYS[2] the index. ARGV[1] the value (JSON), ARGV[2]
// its end in unix ms (0: none, a permanent override), ARGV[3] '1' to replace an existing one,
// ARGV[4] the channel, ARGV[5] the cap (OverrideStore::maxStored). Reply: {1} stored, {0, the
// stored value} when the key exists and ARGV[3] is not '1', or {2, how many are stored} when a
// new one would pass the cap. SET and PEXPIREAT in one script: the key is never seen without its
// TTL.
const char *const addLua = R"lua(
for i = 1, 2 do
  local t = redis.call('TYPE', KEYS[i])['ok']
  local want = i == 1 and 'string' or 'zset'
  if t ~= 'none' and t ~= want then
    return redis.error_reply('the key ' .. KEYS[i] .. ' holds a ' .. t .. ', not a ' .. want ..
      '; nothing was written')
  end
end
-- The user's ACL (Redis >= 7), before the first write: a PEXPIREAT refused after the SET would
-- leave the override without its end.
if redis.acl_check_cmd then
  local needs = {{'set', KEYS[1], 'x'}, {'pexpireat', KEYS[1], '1'}, {'exists', KEYS[1]},
    {'zadd', KEYS[2], '1', 'x'}, {'zremrangebyscore', KEYS[2], '0', '1'},
    {'zrange', KEYS[2], '0', '1'}, {'persist', KEYS[2]}, {'pexpireat', KEYS[2], '1'},
    {'zcard', KEYS[2]}, {'publish', ARGV[4], 'x'}}
  for _, n in ipairs(needs) do
    if not redis.acl_check_cmd(unpack(n)) then
      return redis.error_reply('NOPERM this user may not ' .. string.upper(n[1]) .. ' ' ..
        n[2] .. ', which adding an override needs; nothing was written; grant it: ' ..
        'ACL SETUSER <user> +' .. n[1])
    end
  end
end
local exists = redis.call('EXISTS', KEYS[1]) == 1
if exists and ARGV[3] ~= '1' then
  return {0, redis.call('GET', KEYS[1])}
end
local t = redis.call('TIME')
local nowMs = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', '(' .. nowMs)
if not exists then
  local n = redis.call('ZCARD', KEYS[2])
  if n >= tonumber(ARGV[5]) then
    return {2, n}
  end
end
redis.call('SET', KEYS[1], ARGV[1])
local score = 'inf'
if ARGV[2] ~= '0' then
  redis.call('PEXPIREAT', KEYS[1], ARGV[2])
  score = ARGV[2]
end
redis.call('ZADD', KEYS[2], score, KEYS[1])
local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
if last[2] == 'inf' then
  redis.call('PERSIST', KEYS[2])
else
  redis.call('PEXPIREAT', KEYS[2], last[2])
end
redis.call('PUBLISH', ARGV[4], 'overrides')
return {1}
)lua";

// Remove step. KEYS[1] the override's key, KEYS[2] the index, ARGV[1] the channel. Reply:
// keys deleted (0 or 1).
const char *const removeLua = R"lua(
if redis.acl_check_cmd then
  local needs = {{'del', KEYS[1]}, {'zrem', KEYS[2], 'x'}, {'zcard', KEYS[2]},
    {'zrange', KEYS[2], '0', '1'}, {'del', KEYS[2]}, {'pexpireat', KEYS[2], '1'},
    {'publish', ARGV[1], 'x'}}
  for _, n in ipairs(needs) do
    if not redis.acl_check_cmd(unpack(n)) then
      return redis.error_reply('NOPERM this user may not ' .. string.upper(n[1]) .. ' ' ..
        n[2] .. ', which removing an override needs; nothing was removed; grant it: ' ..
        'ACL SETUSER <user> +' .. n[1])
    end
  end
end
local n = redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], KEYS[1])
if redis.call('ZCARD', KEYS[2]) == 0 then
  redis.call('DEL', KEYS[2])
else
  local last = redis.call('ZRANGE', KEYS[2], -1, -1, 'WITHSCORES')
  if last[2] ~= 'inf' then
    redis.call('PEXPIREAT', KEYS[2], last[2])
  end
end
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

Result<OverrideStore::Stored> OverrideStore::add(Connection &c, const Rule &rule, Override o,
                                                 const AddOptions &options) const
{
    auto now = redis::serverTimeUs(c);
    if (!now) {
        return now.error();
    }
    if (o.ttlUs > maxAheadUs) {
        return invalid(u"the ttl %1 is longer than 100 years (36500d), the latest end the store "
                       "takes; for one that lasts until it is removed, --permanent"_s.arg(
                           duration::formatUs(o.ttlUs)));
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
    if (o.expiresUs != 0 && o.expiresUs - *now > maxAheadUs) {
        return invalid(u"the override would end at %1, more than 100 years (36500d) from now, "
                       "the latest end the store takes; for one that lasts until it is removed, "
                       "--permanent"_s.arg(formatTimestampUs(o.expiresUs)));
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
    auto r = ScriptRegistry::eval(c, *scripts().find(u"overridestore_add"_s), {s.key, indexKey()},
                                  {QJsonDocument(value).toJson(QJsonDocument::Compact),
                                   QByteArray::number(endMs), options.replace ? "1" : "0",
                                   channel(), QByteArray::number(maxStored)});
    if (!r) {
        return ScriptRegistry::explainScriptAcl(r.error(), *scripts().find(u"overridestore_add"_s));
    }
    if (r->isArray() && !r->elements.empty() && r->elements[0].integer == 2) {
        return invalid(u"%1 overrides are stored in %2, the most the store keeps (%3); nothing "
                       "was written; remove some first (sluice-cli overrides list, overrides "
                       "remove)"_s.arg(r->elements.size() > 1 ? r->elements[1].integer : 0)
                           .arg(bytes::printable(indexKey()))
                           .arg(maxStored));
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
                                  {keyFor(ruleId, kind, pattern), indexKey()}, {channel()});
    if (!r) {
        return ScriptRegistry::explainScriptAcl(r.error(),
                                                *scripts().find(u"overridestore_remove"_s));
    }
    return r->integer > 0;
}

Result<QList<QByteArray>> OverrideStore::readIndex(Connection &c, QStringList *said) const
{
    // In pages (ZRANGE by rank: only what a reader's ACL grants), so that a reply stays well
    // inside the client's bound on elements; the cap's own rank tells whether there are more.
    const QByteArray index = indexKey();
    constexpr qint64 page = 10'000;
    QList<QByteArray> keys;
    for (qint64 from = 0; from <= maxStored; from += page) {
        const qint64 to = std::min<qint64>(maxStored, from + page - 1);
        auto r = c.command({"ZRANGE", index, QByteArray::number(from), QByteArray::number(to)});
        if (!r && r.error().message.contains(u"WRONGTYPE"_s)) {
            *said << u"the key %1 is not the sorted set that indexes the stored overrides "
                     "(WRONGTYPE): no stored override is applied; remove it (DEL %1) and add "
                     "the overrides again"_s.arg(bytes::printable(index));
            return QList<QByteArray>();
        }
        if (!r) {
            return r.error();
        }
        if (!r->isArray()) {
            return Error::make(Error::Kind::Protocol, u"ZRANGE did not answer a list"_s);
        }
        for (const Reply &k : r->elements) {
            keys << k.str;
        }
        if (qint64(r->elements.size()) < to - from + 1) {
            break;
        }
    }
    if (keys.size() > maxStored) {
        keys.resize(maxStored);
        *said << u"more than %1 overrides are indexed in %2, more than the store keeps: the %1 "
                 "that end first are applied, the rest skipped; remove some (sluice-cli overrides "
                 "remove)"_s.arg(maxStored)
                     .arg(bytes::printable(index));
    }
    return keys;
}

Result<QList<OverrideStore::Stored>> OverrideStore::list(Connection &c, const RuleSet &rules,
                                                         const QString &ruleId,
                                                         QStringList *stale) const
{
    QStringList said; // what is skipped, with why (capped below)
    auto index = readIndex(c, &said);
    if (!index) {
        return index.error();
    }
    const QByteArray head =
        m_ns + "rules:override:" + (ruleId.isEmpty() ? QByteArray() : ruleId.toUtf8() + ':');
    QList<QByteArray> keys;
    for (const QByteArray &k : *index) {
        if (k.startsWith(head)) {
            keys << k;
        }
    }
    std::sort(keys.begin(), keys.end());
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
            const QString where = bytes::printable(keys[i]);
            if (value && value->isNil()) {
                continue; // ended (the index keeps it until the next write) or just removed
            }
            const QJsonDocument doc = value && value->type == Reply::Type::String
                                          ? QJsonDocument::fromJson(value->str)
                                          : QJsonDocument();
            if (!doc.isObject()) {
                said << u"%1: %2; it is skipped; remove it (DEL %1) or add it again with "
                        "--replace"_s.arg(bytes::printable(keys[i]),
                                          value ? u"not a stored override (JSON object)"_s
                                                : value.error().message);
                continue;
            }
            const QJsonObject o = doc.object();
            Stored s;
            s.key = keys[i];
            s.ruleId = o.value(u"rule"_s).toString();
            s.author = o.value(u"author"_s).toString();
            s.added = o.value(u"added"_s).toString();
            s.pttlMs = ttl ? ttl->integer : -1;
            const Rule *rule = rules.find(s.ruleId);
            if (rule == nullptr) {
                said << u"%1: rule '%2' is not in the store; the override matches "
                        "nothing"_s.arg(where, bytes::shortened(s.ruleId));
                continue;
            }
            auto parsed = overrideFromJson(
                *rule, QJsonDocument(o.value(u"override"_s).toObject()).toJson(), where);
            if (!parsed) {
                said << u"%1: not an override of rule '%2' as it is now: %3"_s.arg(
                    where, bytes::shortened(s.ruleId), parsed.error().message);
                continue;
            }
            s.override = *parsed;
            if (keyFor(s.ruleId, s.override.kind, s.override.pattern) != s.key) {
                said << u"%1: holds an override of %2, not of its own name"_s.arg(
                    where, s.override.describeMatch());
                continue;
            }
            out << std::move(s);
        }
    }
    if (stale != nullptr) {
        if (constexpr qsizetype shown = 20; said.size() > shown) {
            const qsizetype more = said.size() - shown;
            said.resize(shown);
            said << u"... and %1 more stored overrides skipped"_s.arg(more);
        }
        *stale << said;
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
    auto apply = [&byRule](Rule &r, const QString &id) {
        const auto it = byRule.constFind(id);
        if (it == byRule.constEnd()) {
            return;
        }
        std::vector<Override> all = *it;
        all.insert(all.end(), r.overrides.begin(), r.overrides.end());
        r.overrides = std::move(all);
    };
    for (Rule &r : set.rules) {
        apply(r, r.id);
    }
    // A staged candidate meets the subjects its rule's stored overrides name, as the rule does.
    for (Rule &r : set.staged) {
        apply(r, RuleStore::stagedOf(r.id));
    }
}

} // namespace sluice::rules
