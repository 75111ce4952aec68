#include "rulestore_p.h"

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

namespace sluice::rules::storestep {

namespace {

// Read step: version, the whole hash, the server's time and the stage, in one atomic script.
// KEYS[1] rules hash, KEYS[2] version, KEYS[3] the staged change. Reply: {version ('0' when
// absent), {field, value, ...}, {seconds, microseconds}, staged ('' when nothing is staged),
// {key, what it should be, ...}}: a key of the wrong type is read as absent and named in the
// fifth element (by its WRONGTYPE error: no TYPE, which a reader's ACL need not grant).
const char *const readLua = R"lua(
local wrong = {}
local function read(cmd, k, absent)
  local r = redis.pcall(cmd, k)
  if type(r) == 'table' and r.err then
    if string.sub(r.err, 1, 9) ~= 'WRONGTYPE' then error(r) end
    wrong[#wrong + 1] = k
    wrong[#wrong + 1] = cmd == 'HGETALL' and 'hash' or 'string'
    return absent
  end
  return r or absent
end
local version = read('GET', KEYS[2], '0')
local hash = read('HGETALL', KEYS[1], {})
local staged = read('GET', KEYS[3], '')
return {version, hash, redis.call('TIME'), staged, wrong}
)lua";

// History step: version, the whole hash and the whole history, in one atomic script (a
// version is rebuilt from the three, so they must be of one moment).
// KEYS[1] rules hash, KEYS[2] version, KEYS[3] history list.
const char *const historyLua = R"lua(
return {redis.call('GET', KEYS[2]) or '0', redis.call('HGETALL', KEYS[1]),
  redis.call('LRANGE', KEYS[3], 0, -1)}
)lua";

// Write step (a compare-and-set on the version; the caller diffed against that version):
// KEYS[1] rules hash, KEYS[2] version, KEYS[3] history list, KEYS[4] the staged change.
// ARGV[1] the version the caller read, ARGV[2] history entry (JSON), ARGV[3] channel,
// ARGV[4] history length, ARGV[5] pairs per HSET, ARGV[6] 'replace' (the rules become the
// pairs) or 'keep', ARGV[7] 'keep', 'set' (the stage becomes ARGV[8]) or 'del' (the stage
// ends), ARGV[8] the stage's JSON (or ''), ARGV[9..] id, rule JSON, id, rule JSON, ...
// Reply: {1, new version} after the write, or {0, stored version} when the store moved since
// the caller read it (nothing written). Every check happens before the first write: Redis
// does not roll a script back, so a script that could fail half-way could leave the store
// half-updated.
const char *const writeLua = R"lua(
local want = {'hash', 'string', 'list', 'string'}
for i = 1, 4 do
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
local replace = ARGV[6] == 'replace'
local staged = ARGV[7]
-- The user's ACL too (Redis >= 7): a command refused half-way would leave the rules written
-- without their version, history or notice. Only what this step runs is checked.
if redis.acl_check_cmd then
  local needs = {{'incr', KEYS[2], 'key'}, {'lpush', KEYS[3], 'key'},
    {'ltrim', KEYS[3], 'key'}, {'publish', ARGV[3], 'channel'}}
  if replace then
    table.insert(needs, {'del', KEYS[1], 'key'})
    table.insert(needs, {'hset', KEYS[1], 'key'})
  end
  if staged == 'set' then
    table.insert(needs, {'set', KEYS[4], 'key'})
  elseif staged == 'del' then
    table.insert(needs, {'del', KEYS[4], 'key'})
  end
  for _, n in ipairs(needs) do
    local ok
    if n[1] == 'hset' or n[1] == 'lpush' or n[1] == 'publish' or n[1] == 'set' then
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
if replace then
  redis.call('DEL', KEYS[1])
  local per = tonumber(ARGV[5]) * 2
  local i = 9
  while i <= #ARGV do
    local last = math.min(i + per - 1, #ARGV)
    redis.call('HSET', KEYS[1], unpack(ARGV, i, last))
    i = last + 1
  end
end
if staged == 'set' then
  redis.call('SET', KEYS[4], ARGV[8])
elseif staged == 'del' then
  redis.call('DEL', KEYS[4])
end
local v = redis.call('INCR', KEYS[2])
redis.call('LPUSH', KEYS[3], ARGV[2])
redis.call('LTRIM', KEYS[3], 0, tonumber(ARGV[4]) - 1)
redis.call('PUBLISH', ARGV[3], tostring(v))
return {1, v}
)lua";

} // namespace

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
    return bytes::printable(key);
}

Result<Raw> readRaw(Connection &c, const QByteArray &hash, const QByteArray &version,
                    const QByteArray &staged, QStringList *skipped)
{
    // The whole rule set: up to the codec's 64 MiB file of 100,000 rules, as stored JSON, and
    // a staged candidate of the same size (its rules JSON-escaped once more).
    static constexpr ReplyBound wholeSet{qint64(320) << 20, qint64(1) << 20,
                                         2 * rules::maxFileBytes + (qint64(1) << 20),
                                         "the rule store read"};
    auto r = ScriptRegistry::evalReadOnly(c, *scripts().find(QStringLiteral("rulestore_read")),
                                          {hash, version, staged}, {}, wholeSet);
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
    if (!reply.isArray() || reply.elements.size() != 5 || !reply.elements[1].isArray() ||
        reply.elements[1].elements.size() % 2 != 0 || !reply.elements[2].isArray() ||
        reply.elements[2].elements.size() != 2 || !reply.elements[4].isArray()) {
        return malformed();
    }
    const auto &wrong = reply.elements[4].elements;
    for (size_t i = 0; i + 1 < wrong.size(); i += 2) {
        const QString why =
            QStringLiteral("the key %1 in Redis at %2 is not a %3 (WRONGTYPE), as the rule store "
                           "keeps it; remove it (DEL %1) and push the rules again")
                .arg(keyText(wrong[i].str), c.endpoint().display(),
                     bytes::quoted(wrong[i + 1].str));
        if (skipped == nullptr) {
            return Error::make(Error::Kind::Reply, why);
        }
        *skipped << why;
    }
    Raw raw;
    raw.staged = reply.elements[3].str;
    bool ok = false;
    raw.version = reply.elements[0].str.toLongLong(&ok);
    if (!ok || raw.version < 0) {
        const QString why =
            QStringLiteral("the key %1 in Redis at %2 holds \"%3\", not a version number; push "
                           "with --force to reset the rule store")
                .arg(keyText(version), c.endpoint().display(),
                     bytes::quoted(reply.elements[0].str));
        if (skipped == nullptr) {
            return invalid(why);
        }
        *skipped << why;
        raw.version = 0;
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

Result<Rule> decode(const QByteArray &id, const QByteArray &json, const QByteArray &hash)
{
    const QString where = QStringLiteral("%1[%2]").arg(keyText(hash), bytes::quoted(id));
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
                           .arg(where, bytes::shortened(l.set.rules.front().id)));
    }
    return std::move(l.set.rules.front());
}

QString list(const QStringList &ids)
{
    return ids.join(QStringLiteral(", "));
}

QString changesText(const QStringList &added, const QStringList &changed,
                    const QStringList &removed, bool past)
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

QString oneLine(const QString &text)
{
    QString t = text.simplified();
    if (t.size() > 200) {
        t = t.left(199) + QChar(0x2026);
    }
    return t;
}

Keys keysOf(const RuleStore &store)
{
    return {store.hashKey(), store.versionKey(), store.historyKey(), store.stagedKey(),
            store.channel()};
}

Changes changesAgainst(const QMap<QByteArray, QByteArray> &fields, const RuleSet &set,
                       const QByteArray &hash)
{
    Changes out;
    QSet<QByteArray> ids;
    for (const Rule &r : set.rules) {
        const QByteArray id = r.id.toUtf8();
        QByteArray json = ruleToJson(r);
        ids.insert(id);
        auto stored = fields.constFind(id);
        if (stored == fields.cend()) {
            out.added << r.id;
        } else if (stored.value() != json) {
            // Bytes differ: equal rules written by another codec version are no change.
            auto old = decode(id, stored.value(), hash);
            if (!old || !(*old == r)) {
                out.changed << r.id;
            }
        }
        out.encoded.append({id, std::move(json)});
    }
    for (auto it = fields.cbegin(); it != fields.cend(); ++it) {
        if (!ids.contains(it.key())) {
            out.removed << QString::fromUtf8(it.key());
        }
    }
    return out;
}

std::optional<Error> invalidSet(const RuleSet &set)
{
    const QList<Diagnostic> errors = validate(set);
    if (errors.isEmpty()) {
        return std::nullopt;
    }
    QStringList lines{QStringLiteral("the rule set is not valid; nothing was written to Redis:")};
    for (const Diagnostic &d : errors) {
        lines << QStringLiteral("  ") + d.toString();
    }
    return invalid(lines.join(QLatin1Char('\n')));
}

std::optional<Error> basedOnConflict(Connection &c, const Keys &k, const Raw &raw,
                                     const RuleSet &set, const Changes &ch, bool force,
                                     const QString &doing, bool *forced)
{
    const bool clean = raw.version == 0 || (set.basedOn && *set.basedOn == raw.version);
    *forced = force && !clean;
    if (clean || force) {
        return std::nullopt;
    }
    QString why;
    QStringList history;
    if (!set.basedOn) {
        why = QStringLiteral("this rule set was not pulled from Redis (it has no based-on "
                             "version)");
        history = historyLines(c, k.history, std::max<qint64>(1, raw.version - 9), raw.version);
    } else if (*set.basedOn < raw.version) {
        why = QStringLiteral("this rule set is based on version %1").arg(*set.basedOn);
        history = historyLines(c, k.history, *set.basedOn + 1, raw.version);
    } else {
        why = QStringLiteral("this rule set is based on version %1, which this store never had "
                             "(it was reset, or the set was pulled from another store)")
                  .arg(*set.basedOn);
    }
    QString message = QStringLiteral("conflict: the rules in Redis at %1 are at version %2 but %3")
                          .arg(c.endpoint().display())
                          .arg(raw.version)
                          .arg(why);
    if (!history.isEmpty()) {
        message += QStringLiteral(": ") + history.join(QStringLiteral(", "));
    }
    message += QStringLiteral(". %1 would %2. Pull, merge and try again, or use --force to "
                              "overwrite. Nothing was written.")
                   .arg(doing, changesText(ch.added, ch.changed, ch.removed, false));
    return Error::make(Error::Kind::Conflict, message);
}

QJsonObject entryHead(qint64 next, const Raw &raw, const RuleStore::PushOptions &options)
{
    QJsonObject entry{{QStringLiteral("version"), next}, {QStringLiteral("time"), raw.time}};
    entry.insert(QStringLiteral("author"),
                 oneLine(options.author.isEmpty() ? defaultAuthor() : options.author));
    if (const QString m = oneLine(options.message); !m.isEmpty()) {
        entry.insert(QStringLiteral("message"), m);
    }
    return entry;
}

void putChanges(QJsonObject &o, const QStringList &added, const QStringList &changed,
                const QStringList &removed)
{
    o.insert(QStringLiteral("added"), QJsonArray::fromStringList(added));
    o.insert(QStringLiteral("changed"), QJsonArray::fromStringList(changed));
    o.insert(QStringLiteral("removed"), QJsonArray::fromStringList(removed));
}

void putUndo(QJsonObject &entry, const Raw &raw, const Changes &ch)
{
    QJsonObject undo;
    qsizetype undoBytes = 0;
    for (const QStringList *ids : {&ch.changed, &ch.removed}) {
        for (const QString &id : *ids) {
            const QByteArray old = raw.fields.value(id.toUtf8());
            undoBytes += old.size();
            undo.insert(id, QString::fromUtf8(old));
        }
    }
    if (undoBytes <= RuleStore::undoBytesLimit) {
        entry.insert(QStringLiteral("undo"), undo);
    }
}

Result<std::optional<RuleStore::PushResult>> casWrite(Connection &c, const Keys &k, const Raw &raw,
                                                      const QJsonObject &entry, const Write &w,
                                                      RuleStore::PushResult result)
{
    static const ScriptRegistry::Script &script =
        *scripts().find(QStringLiteral("rulestore_write"));
    const char *stagedOp = w.staged == Write::Staged::Set   ? "set"
                           : w.staged == Write::Staged::Del ? "del"
                                                            : "keep";
    QList<QByteArray> args{QByteArray::number(raw.version),
                           QJsonDocument(entry).toJson(QJsonDocument::Compact),
                           k.channel,
                           QByteArray::number(historyLength),
                           QByteArray::number(pairsPerHset),
                           w.rules != nullptr ? QByteArrayLiteral("replace")
                                              : QByteArrayLiteral("keep"),
                           QByteArray(stagedOp),
                           w.stagedJson};
    if (w.rules != nullptr) {
        for (const auto &[id, json] : w.rules->encoded) {
            args << id << json;
        }
    }
    auto r = ScriptRegistry::eval(c, script, {k.hash, k.version, k.history, k.staged}, args);
    if (!r) {
        Error e = r.error();
        if (e.kind == Error::Kind::Reply) {
            e.message = QStringLiteral("cannot write the rules to Redis at %1: %2")
                            .arg(c.endpoint().display(), e.message);
        }
        return e;
    }
    if (!r->isArray() || r->elements.size() != 2) {
        return Error::make(Error::Kind::Protocol,
                           QStringLiteral("Redis at %1 answered the rule store write with an "
                                          "unexpected reply")
                               .arg(c.endpoint().display()));
    }
    if (r->elements[0].integer == 1) {
        result.version = r->elements[1].integer;
        return std::optional<RuleStore::PushResult>(std::move(result));
    }
    return std::optional<RuleStore::PushResult>();
}

RuleStore::PushResult resultOf(const Changes &ch)
{
    RuleStore::PushResult r;
    r.added = ch.added;
    r.changed = ch.changed;
    r.removed = ch.removed;
    return r;
}

Error keptChanging(Connection &c)
{
    return Error::make(Error::Kind::Reply,
                       QStringLiteral("the rules in Redis at %1 kept changing while writing (%2 "
                                      "attempts); nothing was written, try again")
                           .arg(c.endpoint().display())
                           .arg(maxAttempts));
}

} // namespace sluice::rules::storestep
