#include "rulestore.h"

#include "codec.h"

#include "core/common/bytes.h"
#include "core/redis/scriptregistry.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QSet>

#include <algorithm>

#include <pwd.h>
#include <unistd.h>

namespace sluice::rules {

namespace {

constexpr int historyLength = 100; // rulestore.h: "the last 100 changes"
constexpr int maxAttempts = 5;     // optimistic retries when another push lands in between
constexpr int pairsPerHset = 100;

// Read step: version, the whole hash and the server's time, in one atomic script.
// KEYS[1] rules hash, KEYS[2] version. Reply: {version ('0' when absent), {field, value, ...},
// {seconds, microseconds}}. A key of the wrong type is an error reply (WRONGTYPE).
const char *const readLua = R"lua(
return {redis.call('GET', KEYS[2]) or '0', redis.call('HGETALL', KEYS[1]), redis.call('TIME')}
)lua";

// History step: version, the whole hash and the whole history, in one atomic script (a
// version is rebuilt from the three, so they must be of one moment).
// KEYS[1] rules hash, KEYS[2] version, KEYS[3] history list.
const char *const historyLua = R"lua(
return {redis.call('GET', KEYS[2]) or '0', redis.call('HGETALL', KEYS[1]),
  redis.call('LRANGE', KEYS[3], 0, -1)}
)lua";

// Write step (a compare-and-set on the version; the caller diffed against that version):
// KEYS[1] rules hash, KEYS[2] version, KEYS[3] history list.
// ARGV[1] the version the caller read, ARGV[2] history entry (JSON), ARGV[3] channel,
// ARGV[4] history length, ARGV[5] pairs per HSET, ARGV[6..] id, rule JSON, id, rule JSON, ...
// Reply: {1, new version} after the write, or {0, stored version} when the store moved since
// the caller read it (nothing written). Every check happens before the first write: Redis
// does not roll a script back, so a script that could fail half-way could leave the store
// half-updated.
const char *const writeLua = R"lua(
local want = {'hash', 'string', 'list'}
for i = 1, 3 do
  local t = redis.call('TYPE', KEYS[i])['ok']
  if t ~= 'none' and t ~= want[i] then
    return redis.error_reply('the key ' .. KEYS[i] .. ' holds a ' .. t .. ', not a ' ..
      want[i] .. '; nothing was written')
  end
end
local cur = redis.call('GET', KEYS[2])
if cur and not string.match(cur, '^%d+$') then
  return redis.error_reply('the key ' .. KEYS[2] .. ' holds "' .. cur ..
    '", not a version number; nothing was written')
end
cur = tonumber(cur or '0')
if cur ~= tonumber(ARGV[1]) then
  return {0, cur}
end
-- The user's ACL too (Redis >= 7): a command refused half-way would leave the rules written
-- without their version, history or notice.
if redis.acl_check_cmd then
  local needs = {{'del', KEYS[1], 'key'}, {'hset', KEYS[1], 'key'}, {'incr', KEYS[2], 'key'},
    {'lpush', KEYS[3], 'key'}, {'ltrim', KEYS[3], 'key'}, {'publish', ARGV[3], 'channel'}}
  for _, n in ipairs(needs) do
    local ok
    if n[1] == 'hset' or n[1] == 'lpush' or n[1] == 'publish' then
      ok = redis.acl_check_cmd(n[1], n[2], 'x', 'x')
    elseif n[1] == 'ltrim' then
      ok = redis.acl_check_cmd(n[1], n[2], '0', '1')
    else
      ok = redis.acl_check_cmd(n[1], n[2])
    end
    if not ok then
      local grant = n[3] == 'key' and ('~' .. n[2]) or ('&' .. n[2])
      return redis.error_reply('NOPERM this user may not ' .. string.upper(n[1]) .. ' the ' ..
        n[3] .. ' ' .. n[2] .. ', which a push needs; nothing was written; grant it: ' ..
        'ACL SETUSER <user> +' .. n[1] .. ' ' .. grant)
    end
  end
end
redis.call('DEL', KEYS[1])
local per = tonumber(ARGV[5]) * 2
local i = 6
while i <= #ARGV do
  local last = math.min(i + per - 1, #ARGV)
  redis.call('HSET', KEYS[1], unpack(ARGV, i, last))
  i = last + 1
end
local v = redis.call('INCR', KEYS[2])
redis.call('LPUSH', KEYS[3], ARGV[2])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[4]) - 1)
redis.call('PUBLISH', ARGV[3], tostring(v))
return {1, v}
)lua";

const ScriptRegistry &scripts()
{
    static const ScriptRegistry registry = [] {
        ScriptRegistry r;
        r.add(QStringLiteral("rulestore_read"), QByteArray(readLua));
        r.add(QStringLiteral("rulestore_write"), QByteArray(writeLua));
        r.add(QStringLiteral("rulestore_history"), QByteArray(historyLua));
        return r;
    }();
    return registry;
}

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

QString keyText(const QByteArray &key)
{
    return QString::fromUtf8(key);
}

// What the read step returns, undecoded: field -> JSON exactly as stored.
struct Raw
{
    qint64 version = 0;
    QMap<QByteArray, QByteArray> fields; // sorted by id
    QString time;                        // the server's clock, ISO 8601 UTC
};

Result<Raw> readRaw(Connection &c, const QByteArray &hash, const QByteArray &version)
{
    // The whole rule set: up to the codec's 64 MiB file of 100,000 rules, as stored JSON.
    static constexpr ReplyBound wholeSet{qint64(160) << 20, qint64(1) << 20, rules::maxFileBytes,
                                         "the rule store read"};
    auto r = ScriptRegistry::evalReadOnly(c, *scripts().find(QStringLiteral("rulestore_read")),
                                          {hash, version}, {}, wholeSet);
    if (!r) {
        Error e = r.error();
        if (e.kind == Error::Kind::Reply) {
            e.message =
                QStringLiteral("cannot read the rules from Redis at %1 (%2, %3): %4")
                    .arg(c.endpoint().display(), keyText(hash), keyText(version), e.message);
        }
        return e;
    }
    const Reply &reply = *r;
    auto malformed = [&] {
        return Error::make(Error::Kind::Protocol,
                           QStringLiteral("Redis at %1 answered the rule store read with an "
                                          "unexpected reply")
                               .arg(c.endpoint().display()));
    };
    if (!reply.isArray() || reply.elements.size() != 3 || !reply.elements[1].isArray() ||
        reply.elements[1].elements.size() % 2 != 0 || !reply.elements[2].isArray() ||
        reply.elements[2].elements.size() != 2) {
        return malformed();
    }
    Raw raw;
    bool ok = false;
    raw.version = reply.elements[0].str.toLongLong(&ok);
    if (!ok || raw.version < 0) {
        return invalid(QStringLiteral("the key %1 in Redis at %2 holds \"%3\", not a version "
                                      "number; push with --force to reset the rule store")
                           .arg(keyText(version), c.endpoint().display(),
                                bytes::quoted(reply.elements[0].str)));
    }
    const auto &kv = reply.elements[1].elements;
    for (size_t i = 0; i + 1 < kv.size(); i += 2) {
        raw.fields.insert(kv[i].str, kv[i + 1].str);
    }
    const qint64 secs = reply.elements[2].elements[0].str.toLongLong();
    const qint64 micros = reply.elements[2].elements[1].str.toLongLong();
    raw.time =
        QDateTime::fromMSecsSinceEpoch(secs * 1000 + micros / 1000, Qt::UTC).toString(Qt::ISODate);
    return raw;
}

// One stored field back into a rule, or the reason it cannot be.
Result<Rule> decode(const QByteArray &id, const QByteArray &json, const QByteArray &hash)
{
    const QString where = QStringLiteral("%1[%2]").arg(keyText(hash), QString::fromUtf8(id));
    Loaded l = ruleFromJson(json, where);
    if (!l.ok() || l.set.rules.size() != 1) {
        QStringList why;
        for (const Diagnostic &d : l.errors) {
            why << d.toString();
        }
        return invalid(QStringLiteral("the rule stored as %1 is not valid: %2")
                           .arg(where, why.isEmpty() ? QStringLiteral("not one rule")
                                                     : why.join(QStringLiteral("; "))));
    }
    if (l.set.rules.front().id.toUtf8() != id) {
        return invalid(QStringLiteral("the rule stored as %1 has the id '%2'")
                           .arg(where, l.set.rules.front().id));
    }
    return std::move(l.set.rules.front());
}

QString list(const QStringList &ids)
{
    return ids.join(QStringLiteral(", "));
}

// "added a, b; changed c; removed d", or in the infinitive ("add a, b; ...") for what a push
// would do.
QString changesText(const QStringList &added, const QStringList &changed,
                    const QStringList &removed, bool past = true)
{
    QStringList parts;
    if (!added.isEmpty()) {
        parts << (past ? QStringLiteral("added ") : QStringLiteral("add ")) + list(added);
    }
    if (!changed.isEmpty()) {
        parts << (past ? QStringLiteral("changed ") : QStringLiteral("change ")) + list(changed);
    }
    if (!removed.isEmpty()) {
        parts << (past ? QStringLiteral("removed ") : QStringLiteral("remove ")) + list(removed);
    }
    return parts.isEmpty() ? QStringLiteral("no changes") : parts.join(QStringLiteral("; "));
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    const QJsonArray a = v.toArray();
    for (const QJsonValue &s : a) {
        out << s.toString();
    }
    return out;
}

// "v6 changed api-global (2025-06-01T12:00:03Z)" per history entry in [from, to], oldest
// first; entries no longer kept are counted, not invented.
QStringList historyLines(Connection &c, const QByteArray &historyKey, qint64 from, qint64 to)
{
    QStringList out;
    if (to < from) {
        return out;
    }
    const qint64 wanted = std::min<qint64>(to - from + 1, historyLength);
    auto r = c.command({"LRANGE", historyKey, "0", QByteArray::number(wanted - 1)});
    QMap<qint64, QString> byVersion;
    if (r && r->isArray()) {
        for (const Reply &e : r->elements) {
            const QJsonObject o = QJsonDocument::fromJson(e.str).object();
            const qint64 v = o.value(QLatin1String("version")).toInteger();
            if (v < from || v > to) {
                continue;
            }
            QString line = QStringLiteral("v%1 %2").arg(v).arg(
                changesText(strings(o.value(QLatin1String("added"))),
                            strings(o.value(QLatin1String("changed"))),
                            strings(o.value(QLatin1String("removed")))));
            QStringList notes;
            if (const QString t = o.value(QLatin1String("time")).toString(); !t.isEmpty()) {
                notes << t;
            }
            if (o.value(QLatin1String("forced")).toBool()) {
                notes << QStringLiteral("forced");
            }
            if (!notes.isEmpty()) {
                line += QStringLiteral(" (%1)").arg(notes.join(QStringLiteral(", ")));
            }
            byVersion.insert(v, line);
        }
    }
    const qint64 missing = (to - from + 1) - byVersion.size();
    if (missing > 0) {
        out << QStringLiteral("%1 earlier change%2 no longer in the history")
                   .arg(missing)
                   .arg(missing == 1 ? QString() : QStringLiteral("s"));
    }
    out << byVersion.values();
    return out;
}

// The history's entries as stored (JSON), parsed; the undo record of each kept aside.
struct ParsedEntry
{
    RuleStore::Entry entry;
    QMap<QByteArray, QByteArray> undo; // id -> the rule's JSON before this change
};

std::optional<qint64> optionalInt(const QJsonObject &o, const char *name)
{
    const QJsonValue v = o.value(QLatin1String(name));
    if (!v.isDouble()) {
        return std::nullopt;
    }
    return v.toInteger();
}

ParsedEntry parseEntry(const QByteArray &json)
{
    ParsedEntry p;
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    RuleStore::Entry &e = p.entry;
    e.version = o.value(QLatin1String("version")).toInteger();
    e.time = o.value(QLatin1String("time")).toString();
    e.author = o.value(QLatin1String("author")).toString();
    e.message = o.value(QLatin1String("message")).toString();
    e.added = strings(o.value(QLatin1String("added")));
    e.changed = strings(o.value(QLatin1String("changed")));
    e.removed = strings(o.value(QLatin1String("removed")));
    e.forced = o.value(QLatin1String("forced")).toBool();
    e.basedOn = optionalInt(o, "based_on");
    e.rollbackOf = optionalInt(o, "rollback_of");
    const QJsonValue undo = o.value(QLatin1String("undo"));
    if (undo.isObject()) {
        const QJsonObject u = undo.toObject();
        e.undoable = true;
        for (auto it = u.begin(); it != u.end(); ++it) {
            p.undo.insert(it.key().toUtf8(), it.value().toString().toUtf8());
        }
        // Every rule the change replaced or removed must be there to walk back over it.
        for (const QStringList *ids : {&e.changed, &e.removed}) {
            for (const QString &id : *ids) {
                e.undoable = e.undoable && p.undo.contains(id.toUtf8());
            }
        }
    }
    return p;
}

// Version, rules and history of one moment, as the history script reads them. The history
// is cut at its first entry that does not follow the one before (versions cur, cur-1, ...):
// entries left over from a store that was reset describe other rules.
struct Timeline
{
    qint64 version = 0;
    QMap<QByteArray, QByteArray> fields;
    QList<ParsedEntry> entries; // newest first
};

Result<Timeline> readTimeline(Connection &c, const QByteArray &hash, const QByteArray &version,
                              const QByteArray &history)
{
    auto r = ScriptRegistry::evalReadOnly(c, *scripts().find(QStringLiteral("rulestore_history")),
                                          {hash, version, history}, {});
    if (!r) {
        Error e = r.error();
        if (e.kind == Error::Kind::Reply) {
            e.message = QStringLiteral("cannot read the rule history from Redis at %1 (%2, %3, "
                                       "%4): %5")
                            .arg(c.endpoint().display(), keyText(hash), keyText(version),
                                 keyText(history), e.message);
        }
        return e;
    }
    const Reply &reply = *r;
    if (!reply.isArray() || reply.elements.size() != 3 || !reply.elements[1].isArray() ||
        reply.elements[1].elements.size() % 2 != 0 || !reply.elements[2].isArray()) {
        return Error::make(Error::Kind::Protocol,
                           QStringLiteral("Redis at %1 answered the rule history read with an "
                                          "unexpected reply")
                               .arg(c.endpoint().display()));
    }
    Timeline t;
    bool ok = false;
    t.version = reply.elements[0].str.toLongLong(&ok);
    if (!ok || t.version < 0) {
        return invalid(QStringLiteral("the key %1 in Redis at %2 does not hold a version number; "
                                      "push with --force to reset the rule store")
                           .arg(keyText(version), c.endpoint().display()));
    }
    const auto &kv = reply.elements[1].elements;
    for (size_t i = 0; i + 1 < kv.size(); i += 2) {
        t.fields.insert(kv[i].str, kv[i + 1].str);
    }
    qint64 expected = t.version;
    for (const Reply &e : reply.elements[2].elements) {
        ParsedEntry p = parseEntry(e.str);
        if (p.entry.version != expected || expected < 1) {
            break;
        }
        t.entries.append(std::move(p));
        --expected;
    }
    return t;
}

// The versions a timeline can rebuild, newest first: the stored one, then one more for each
// entry (from the newest) that keeps its undo record.
QList<qint64> restorableVersions(const Timeline &t)
{
    QList<qint64> out;
    if (t.version < 1) {
        return out;
    }
    out << t.version;
    for (const ParsedEntry &p : t.entries) {
        if (!p.entry.undoable || p.entry.version - 1 < 1) {
            break;
        }
        out << p.entry.version - 1;
    }
    return out;
}

QString versionList(const QList<qint64> &versions)
{
    if (versions.isEmpty()) {
        return QStringLiteral("none");
    }
    // Contiguous, newest first: "12 down to 3", or the one.
    if (versions.size() == 1) {
        return QString::number(versions.front());
    }
    return QStringLiteral("%1 down to %2").arg(versions.front()).arg(versions.back());
}

QString defaultAuthor()
{
    for (const char *name : {"SLUICE_AUTHOR", "USER", "LOGNAME", "USERNAME"}) {
        const QString v = qEnvironmentVariable(name);
        if (!v.isEmpty()) {
            return v;
        }
    }
    // A service without a login environment: the user the process runs as.
    if (const passwd *pw = getpwuid(geteuid()); pw && pw->pw_name && *pw->pw_name) {
        return QString::fromLocal8Bit(pw->pw_name);
    }
    return QStringLiteral("uid %1").arg(geteuid());
}

// One line, at most 200 characters: the history is for reading, not for documents.
QString oneLine(const QString &text)
{
    QString t = text.simplified();
    if (t.size() > 200) {
        t = t.left(199) + QChar(0x2026);
    }
    return t;
}

} // namespace

RuleStore::RuleStore(QByteArray ns)
    : m_ns(std::move(ns))
{}

Result<RuleStore::Snapshot> RuleStore::pull(Connection &c) const
{
    auto raw = readRaw(c, hashKey(), versionKey());
    if (!raw) {
        return raw.error();
    }
    Snapshot s;
    s.version = raw->version;
    s.set.basedOn = raw->version;
    // The hash has no order: rules come back sorted by id (QMap order), the same every time.
    for (auto it = raw->fields.cbegin(); it != raw->fields.cend(); ++it) {
        auto rule = decode(it.key(), it.value(), hashKey());
        if (!rule) {
            return invalid(QStringLiteral("Redis at %1, rule store version %2: %3; push a valid "
                                          "rule set with --force to replace it")
                               .arg(c.endpoint().display())
                               .arg(raw->version)
                               .arg(rule.error().message));
        }
        s.set.rules.push_back(std::move(*rule));
    }
    return s;
}

Result<RuleStore::PushResult> RuleStore::push(Connection &c, const RuleSet &set, bool force) const
{
    PushOptions options;
    options.force = force;
    return push(c, set, options);
}

Result<RuleStore::PushResult> RuleStore::push(Connection &c, const RuleSet &set,
                                              const PushOptions &options) const
{
    const bool force = options.force;
    // Nothing reaches Redis from an invalid set.
    if (const QList<Diagnostic> errors = validate(set); !errors.isEmpty()) {
        QStringList lines{QStringLiteral("the rule set is not valid; nothing was written to "
                                         "Redis:")};
        for (const Diagnostic &d : errors) {
            lines << QStringLiteral("  ") + d.toString();
        }
        return invalid(lines.join(QLatin1Char('\n')));
    }
    QList<QPair<QByteArray, QByteArray>> encoded; // id, JSON, in the set's order
    for (const Rule &r : set.rules) {
        encoded.append({r.id.toUtf8(), ruleToJson(r)});
    }

    for (int attempt = 0; attempt < maxAttempts; ++attempt) {
        auto raw = readRaw(c, hashKey(), versionKey());
        if (!raw) {
            return raw.error();
        }
        PushResult result;
        result.version = raw->version;
        QSet<QByteArray> ids;
        for (qsizetype i = 0; i < encoded.size(); ++i) {
            const auto &[id, json] = encoded[i];
            ids.insert(id);
            auto stored = raw->fields.constFind(id);
            if (stored == raw->fields.cend()) {
                result.added << QString::fromUtf8(id);
            } else if (stored.value() != json) {
                // Bytes differ: equal rules written by another codec version are no change.
                auto old = decode(id, stored.value(), hashKey());
                if (!old || !(*old == set.rules[size_t(i)])) {
                    result.changed << QString::fromUtf8(id);
                }
            }
        }
        for (auto it = raw->fields.cbegin(); it != raw->fields.cend(); ++it) {
            if (!ids.contains(it.key())) {
                result.removed << QString::fromUtf8(it.key());
            }
        }
        if (result.unchanged()) {
            return result; // nothing to overwrite, so no conflict either; the version stays
        }

        const bool clean = raw->version == 0 || (set.basedOn && *set.basedOn == raw->version);
        if (!clean && !force) {
            QString why;
            QStringList history;
            if (!set.basedOn) {
                why = QStringLiteral("this rule set was not pulled from Redis (it has no "
                                     "based-on version)");
                history = historyLines(c, historyKey(), std::max<qint64>(1, raw->version - 9),
                                       raw->version);
            } else if (*set.basedOn < raw->version) {
                why = QStringLiteral("this rule set is based on version %1").arg(*set.basedOn);
                history = historyLines(c, historyKey(), *set.basedOn + 1, raw->version);
            } else {
                why = QStringLiteral("this rule set is based on version %1, which this store "
                                     "never had (it was reset, or the set was pulled from "
                                     "another store)")
                          .arg(*set.basedOn);
            }
            QString message =
                QStringLiteral("conflict: the rules in Redis at %1 are at version %2 but %3")
                    .arg(c.endpoint().display())
                    .arg(raw->version)
                    .arg(why);
            if (!history.isEmpty()) {
                message += QStringLiteral(": ") + history.join(QStringLiteral(", "));
            }
            message += QStringLiteral(". Pushing it would %1. Pull, merge and push again, or "
                                      "push with --force to overwrite. Nothing was written.")
                           .arg(changesText(result.added, result.changed, result.removed, false));
            return Error::make(Error::Kind::Conflict, message);
        }

        const qint64 next = raw->version + 1; // the CAS below guarantees it
        QJsonObject entry{
            {QStringLiteral("version"), next},
            {QStringLiteral("time"), raw->time},
            {QStringLiteral("added"), QJsonArray::fromStringList(result.added)},
            {QStringLiteral("changed"), QJsonArray::fromStringList(result.changed)},
            {QStringLiteral("removed"), QJsonArray::fromStringList(result.removed)},
            {QStringLiteral("forced"), force && !clean},
        };
        if (set.basedOn) {
            entry.insert(QStringLiteral("based_on"), *set.basedOn);
        }
        entry.insert(QStringLiteral("author"),
                     oneLine(options.author.isEmpty() ? defaultAuthor() : options.author));
        if (const QString m = oneLine(options.message); !m.isEmpty()) {
            entry.insert(QStringLiteral("message"), m);
        }
        if (options.rollbackOf) {
            entry.insert(QStringLiteral("rollback_of"), *options.rollbackOf);
        }
        // What this change replaces, as stored, so that the version before it can be rebuilt;
        // a change of very many large rules keeps none (that version cannot be rolled back to).
        QJsonObject undo;
        qsizetype undoBytes = 0;
        for (const QStringList *ids : {&result.changed, &result.removed}) {
            for (const QString &id : *ids) {
                const QByteArray old = raw->fields.value(id.toUtf8());
                undoBytes += old.size();
                undo.insert(id, QString::fromUtf8(old));
            }
        }
        if (undoBytes <= undoBytesLimit) {
            entry.insert(QStringLiteral("undo"), undo);
        }
        QList<QByteArray> args{QByteArray::number(raw->version),
                               QJsonDocument(entry).toJson(QJsonDocument::Compact), channel(),
                               QByteArray::number(historyLength), QByteArray::number(pairsPerHset)};
        for (const auto &[id, json] : encoded) {
            args << id << json;
        }
        auto w = ScriptRegistry::eval(c, *scripts().find(QStringLiteral("rulestore_write")),
                                      {hashKey(), versionKey(), historyKey()}, args);
        if (!w) {
            Error e = w.error();
            if (e.kind == Error::Kind::Reply) {
                e.message = QStringLiteral("cannot push the rules to Redis at %1: %2")
                                .arg(c.endpoint().display(), e.message);
            }
            return e;
        }
        if (!w->isArray() || w->elements.size() != 2) {
            return Error::make(Error::Kind::Protocol,
                               QStringLiteral("Redis at %1 answered the rule store write with an "
                                              "unexpected reply")
                                   .arg(c.endpoint().display()));
        }
        if (w->elements[0].integer == 1) {
            result.version = w->elements[1].integer;
            return result;
        }
        // Another push landed between our read and our write: nothing was written. Read again;
        // unless forced, the new version now makes this push a conflict with the right message.
    }
    return Error::make(Error::Kind::Reply,
                       QStringLiteral("the rules in Redis at %1 kept changing while pushing (%2 "
                                      "attempts); nothing was written, try again")
                           .arg(c.endpoint().display())
                           .arg(maxAttempts));
}

Result<RuleStore::History> RuleStore::history(Connection &c) const
{
    auto t = readTimeline(c, hashKey(), versionKey(), historyKey());
    if (!t) {
        return t.error();
    }
    History h;
    h.version = t->version;
    for (const ParsedEntry &p : t->entries) {
        h.entries << p.entry;
    }
    h.restorable = restorableVersions(*t);
    return h;
}

Result<RuleStore::Snapshot> RuleStore::pullVersion(Connection &c, qint64 n) const
{
    auto t = readTimeline(c, hashKey(), versionKey(), historyKey());
    if (!t) {
        return t.error();
    }
    const QList<qint64> restorable = restorableVersions(*t);
    if (!restorable.contains(n)) {
        QString why;
        if (t->version == 0) {
            why = QStringLiteral("nothing was ever pushed");
        } else if (n > t->version || n < 1) {
            why = QStringLiteral("the store is at version %1").arg(t->version);
        } else {
            why = QStringLiteral("the history keeps the last %1 changes, and changes pushed by an "
                                 "older Sluice keep no record to walk back over")
                      .arg(historyLength);
        }
        return invalid(QStringLiteral("version %1 of the rules in Redis at %2 cannot be rebuilt "
                                      "(%3); versions that can: %4")
                           .arg(n)
                           .arg(c.endpoint().display(), why, versionList(restorable)));
    }
    QMap<QByteArray, QByteArray> fields = t->fields;
    for (const ParsedEntry &p : t->entries) {
        if (p.entry.version <= n) {
            break;
        }
        for (const QString &id : p.entry.added) {
            fields.remove(id.toUtf8());
        }
        for (auto it = p.undo.cbegin(); it != p.undo.cend(); ++it) {
            fields.insert(it.key(), it.value());
        }
    }
    Snapshot s;
    s.version = n;
    s.set.basedOn = t->version; // what a push of these rules would be based on
    for (auto it = fields.cbegin(); it != fields.cend(); ++it) {
        auto rule = decode(it.key(), it.value(), hashKey());
        if (!rule) {
            return invalid(QStringLiteral("version %1 of the rules in Redis at %2 cannot be "
                                          "rebuilt: %3")
                               .arg(n)
                               .arg(c.endpoint().display(), rule.error().message));
        }
        s.set.rules.push_back(std::move(*rule));
    }
    return s;
}

Result<RuleStore::PushResult> RuleStore::rollback(Connection &c, qint64 n,
                                                  PushOptions options) const
{
    auto snap = pullVersion(c, n);
    if (!snap) {
        return snap.error();
    }
    options.rollbackOf = n;
    if (options.message.isEmpty()) {
        options.message = QStringLiteral("rollback to version %1").arg(n);
    }
    // Based on the version read with it: a push landing before this one is a conflict.
    return push(c, snap->set, options);
}

} // namespace sluice::rules
