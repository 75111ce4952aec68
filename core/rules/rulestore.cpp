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

// What the read step returns, undecoded: field -> JSON exactly as stored.
struct Raw
{
    qint64 version = 0;
    QMap<QByteArray, QByteArray> fields; // sorted by id
    QString time;                        // the server's clock, ISO 8601 UTC
    QByteArray staged;                   // the stage's JSON; empty: nothing staged
};

// `skipped` null: a key of the wrong type or a version that is not a number is an error (a
// writer must not build on it). Otherwise each is said there and read as absent (a reader
// serves what it can).
Result<Raw> readRaw(Connection &c, const QByteArray &hash, const QByteArray &version,
                    const QByteArray &staged, QStringList *skipped = nullptr)
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

// One stored field back into a rule, or the reason it cannot be.
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
            QString what = changesText(strings(o.value(QLatin1String("added"))),
                                       strings(o.value(QLatin1String("changed"))),
                                       strings(o.value(QLatin1String("removed"))));
            const QJsonObject st = o.value(QLatin1String("stage")).toObject();
            const QString op = st.value(QLatin1String("op")).toString();
            const qint64 of = st.value(QLatin1String("of")).toInteger();
            if (op == QLatin1String("stage")) {
                what = QStringLiteral("staged a change (%1)")
                           .arg(changesText(strings(st.value(QLatin1String("added"))),
                                            strings(st.value(QLatin1String("changed"))),
                                            strings(st.value(QLatin1String("removed"))), false));
            } else if (op == QLatin1String("promote")) {
                what = QStringLiteral("promoted the change staged at v%1: %2").arg(of).arg(what);
            } else if (op == QLatin1String("discard")) {
                what = what == QLatin1String("no changes")
                           ? QStringLiteral("discarded the change staged at v%1").arg(of)
                           : QStringLiteral("%1, discarding the change staged at v%2")
                                 .arg(what)
                                 .arg(of);
            }
            QString line = QStringLiteral("v%1 %2").arg(v).arg(what);
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
    if (const QJsonObject st = o.value(QLatin1String("stage")).toObject(); !st.isEmpty()) {
        e.stageOp = st.value(QLatin1String("op")).toString();
        e.stageOf = optionalInt(st, "of");
        e.stagedAdded = strings(st.value(QLatin1String("added")));
        e.stagedChanged = strings(st.value(QLatin1String("changed")));
        e.stagedRemoved = strings(st.value(QLatin1String("removed")));
    }
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
    QString cut;                // why the entries stop early (an entry that is not the next)
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
    const auto &entries = reply.elements[2].elements;
    for (size_t i = 0; i < entries.size(); ++i) {
        ParsedEntry p = parseEntry(entries[i].str);
        if (p.entry.version != expected || expected < 1) {
            if (expected >= 1) {
                t.cut = QStringLiteral("entry %1 of %2 is not the record of version %3 (it holds "
                                       "%4); the older ones are not read; remove it (LREM %2 1 "
                                       "<that entry>) or push with --force")
                            .arg(i)
                            .arg(keyText(history))
                            .arg(expected)
                            .arg(bytes::quoted(entries[i].str, 80));
            }
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

// The keys one store's steps touch.
struct Keys
{
    QByteArray hash, version, history, staged, channel;
};

Keys keysOf(const RuleStore &store)
{
    return {store.hashKey(), store.versionKey(), store.historyKey(), store.stagedKey(),
            store.channel()};
}

// What a candidate set changes against the stored rules (fields as read), and the candidate
// encoded as it would be stored, in the set's order.
struct Changes
{
    QStringList added, changed, removed;
    QList<QPair<QByteArray, QByteArray>> encoded; // id, JSON
    bool unchanged() const { return added.isEmpty() && changed.isEmpty() && removed.isEmpty(); }
};

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

// Nothing reaches Redis from an invalid set.
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

// The conflict of a set based on another version than the stored one, or std::nullopt when
// it is clean (or forced). `doing` says what writing it would do ("push it would add a").
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

// The history entry's common part: version, time, who and why.
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

// What a change replaces, as stored, so that the version before it can be rebuilt; a change
// of very many large rules keeps none (that version cannot be rolled back to).
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

// One compare-and-set write: `result` with the new version, or std::nullopt when another
// writer landed since `raw` was read (nothing written).
struct Write
{
    const Changes *rules = nullptr; // replace the stored rules with these; nullptr: keep
    enum class Staged { Keep, Set, Del } staged = Staged::Keep;
    QByteArray stagedJson;
};

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

// What a write of `ch` reports, before its version is known.
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

// The four writes (push, stage, promote, discard) share their loop: read the store, let `step`
// turn what was read into a compare-and-set write (casWrite's result: an error, the result, or
// none when another writer landed between the read and the write, so nothing was written), and
// read again while others keep changing it.
template <typename Step>
Result<RuleStore::PushResult> readAndWrite(Connection &c, const Keys &k, Step &&step)
{
    for (int attempt = 0; attempt < maxAttempts; ++attempt) {
        auto raw = readRaw(c, k.hash, k.version, k.staged);
        if (!raw) {
            return raw.error();
        }
        Result<std::optional<RuleStore::PushResult>> done = step(*raw);
        if (!done) {
            return done.error();
        }
        if (*done) {
            return std::move(**done);
        }
    }
    return keptChanging(c);
}

// The stage as stored (Raw::staged), decoded.
Result<RuleStore::Stage> parseStage(const QByteArray &json, const QByteArray &key)
{
    auto bad = [&](const QString &why) {
        return invalid(QStringLiteral("the staged change in %1 is not valid (%2); discard it "
                                      "with sluice-cli rules discard")
                           .arg(keyText(key), why));
    };
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &pe);
    if (!doc.isObject()) {
        return bad(pe.error != QJsonParseError::NoError ? pe.errorString()
                                                        : QStringLiteral("not a JSON object"));
    }
    const QJsonObject o = doc.object();
    RuleStore::Stage st;
    st.version = o.value(QLatin1String("version")).toInteger();
    st.basedOn = o.value(QLatin1String("based_on")).toInteger();
    st.time = o.value(QLatin1String("time")).toString();
    st.author = o.value(QLatin1String("author")).toString();
    st.message = o.value(QLatin1String("message")).toString();
    st.added = strings(o.value(QLatin1String("added")));
    st.changed = strings(o.value(QLatin1String("changed")));
    st.removed = strings(o.value(QLatin1String("removed")));
    if (st.version < 1 || !o.value(QLatin1String("rules")).isObject()) {
        return bad(QStringLiteral("no version or no rules"));
    }
    const QJsonObject rules = o.value(QLatin1String("rules")).toObject();
    const QByteArray where = key + ".rules";
    for (auto it = rules.begin(); it != rules.end(); ++it) {
        auto rule = decode(it.key().toUtf8(), it.value().toString().toUtf8(), where);
        if (!rule) {
            return bad(rule.error().message);
        }
        st.set.rules.push_back(std::move(*rule));
    }
    st.set.basedOn = st.basedOn;
    return st;
}

} // namespace

RuleStore::RuleStore(QByteArray ns)
    : m_ns(std::move(ns))
{}

QString RuleStore::stagedOf(const QString &id)
{
    static const QString suffix = QStringLiteral("@staged");
    return id.endsWith(suffix) ? id.chopped(suffix.size()) : QString();
}

std::vector<Rule> RuleStore::shadowCandidates(const Stage &stage)
{
    std::vector<Rule> out;
    for (const Rule &r : stage.set.rules) {
        if (!stage.added.contains(r.id) && !stage.changed.contains(r.id)) {
            continue;
        }
        Rule c = r;
        c.id = stagedId(r.id);
        c.shadow = true;
        out.push_back(std::move(c));
    }
    return out;
}

Result<RuleStore::Snapshot> RuleStore::pull(Connection &c, Reading reading) const
{
    Snapshot s;
    QStringList *skipped = reading == Reading::SkipUnreadable ? &s.skipped : nullptr;
    auto raw = readRaw(c, hashKey(), versionKey(), stagedKey(), skipped);
    if (!raw) {
        return raw.error();
    }
    s.version = raw->version;
    s.set.basedOn = raw->version;
    // The hash has no order: rules come back sorted by id (QMap order), the same every time.
    for (auto it = raw->fields.cbegin(); it != raw->fields.cend(); ++it) {
        auto rule = decode(it.key(), it.value(), hashKey());
        if (!rule) {
            const QString why = QStringLiteral("Redis at %1, rule store version %2: %3; push a "
                                               "valid rule set with --force to replace it")
                                    .arg(c.endpoint().display())
                                    .arg(raw->version)
                                    .arg(rule.error().message);
            if (skipped == nullptr) {
                return invalid(why);
            }
            *skipped << why;
            continue;
        }
        s.set.rules.push_back(std::move(*rule));
    }
    if (!raw->staged.isEmpty()) {
        auto st = parseStage(raw->staged, stagedKey());
        if (!st && skipped == nullptr) {
            return st.error();
        }
        if (!st) {
            *skipped << st.error().message;
        } else {
            s.set.staged = shadowCandidates(*st);
            s.stage = std::move(*st);
        }
    }
    if (constexpr qsizetype shown = 20; s.skipped.size() > shown) {
        const qsizetype more = s.skipped.size() - shown;
        s.skipped.resize(shown);
        s.skipped << QStringLiteral("... and %1 more not read").arg(more);
    }
    return s;
}

Result<std::optional<RuleStore::Stage>> RuleStore::staged(Connection &c) const
{
    auto snap = pull(c);
    if (!snap) {
        return snap.error();
    }
    return std::move(snap->stage);
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
    if (auto e = invalidSet(set)) {
        return *e;
    }
    const Keys k = keysOf(*this);
    // Another writer landing between the read and the write: read again; unless forced, the
    // new version then makes this a conflict with the right message.
    return readAndWrite(c, k, [&](const Raw &raw) -> Result<std::optional<PushResult>> {
        const Changes ch = changesAgainst(raw.fields, set, k.hash);
        PushResult result = resultOf(ch);
        result.version = raw.version;
        if (result.unchanged()) {
            return std::optional<PushResult>(
                result); // nothing to overwrite, so no conflict either; the version stays
        }
        bool forced = false;
        if (auto e = basedOnConflict(c, k, raw, set, ch, options.force,
                                     QStringLiteral("Pushing it"), &forced)) {
            return *e;
        }
        std::optional<Stage> stage;
        if (!raw.staged.isEmpty()) {
            auto st = parseStage(raw.staged, k.staged);
            if (st) {
                stage = std::move(*st);
            }
            if (!options.force) {
                const QString what =
                    stage ? QStringLiteral("a change is staged (version %1%2)")
                                .arg(stage->version)
                                .arg(stage->message.isEmpty()
                                         ? QString()
                                         : QStringLiteral(": \"%1\"").arg(stage->message))
                          : QStringLiteral("a staged change is stored but cannot be read");
                return Error::make(
                    Error::Kind::Conflict,
                    QStringLiteral("conflict: %1 in Redis at %2; promote or discard it first "
                                   "(sluice-cli rules promote | rules discard), or push with "
                                   "--force, which discards it. Nothing was written.")
                        .arg(what, c.endpoint().display()));
            }
        }
        const qint64 next = raw.version + 1; // the CAS below guarantees it
        QJsonObject entry = entryHead(next, raw, options);
        putChanges(entry, ch.added, ch.changed, ch.removed);
        entry.insert(QStringLiteral("forced"), forced);
        if (set.basedOn) {
            entry.insert(QStringLiteral("based_on"), *set.basedOn);
        }
        if (options.rollbackOf) {
            entry.insert(QStringLiteral("rollback_of"), *options.rollbackOf);
        }
        Write w;
        w.rules = &ch;
        if (!raw.staged.isEmpty()) {
            // Forced over a stage: it ends with this push, said in the entry.
            w.staged = Write::Staged::Del;
            const qint64 of = stage ? stage->version : 0;
            entry.insert(QStringLiteral("stage"),
                         QJsonObject{{QStringLiteral("op"), QStringLiteral("discard")},
                                     {QStringLiteral("of"), of}});
            result.discardedStage = of;
        }
        putUndo(entry, raw, ch);
        return casWrite(c, k, raw, entry, w, result);
    });
}

Result<RuleStore::PushResult> RuleStore::stage(Connection &c, const RuleSet &set,
                                               const PushOptions &options) const
{
    if (auto e = invalidSet(set)) {
        return *e;
    }
    const Keys k = keysOf(*this);
    return readAndWrite(c, k, [&](const Raw &raw) -> Result<std::optional<PushResult>> {
        if (raw.version == 0) {
            return invalid(QStringLiteral("nothing is stored in Redis at %1 yet: a first rule set "
                                          "has nothing to be staged beside; push it")
                               .arg(c.endpoint().display()));
        }
        if (!raw.staged.isEmpty()) {
            auto st = parseStage(raw.staged, k.staged);
            return Error::make(Error::Kind::Conflict,
                               QStringLiteral("conflict: a change is already staged in Redis at "
                                              "%1 (version %2); promote or discard it first. "
                                              "Nothing was written.")
                                   .arg(c.endpoint().display())
                                   .arg(st ? QString::number(st->version) : QStringLiteral("?")));
        }
        const Changes ch = changesAgainst(raw.fields, set, k.hash);
        if (ch.unchanged()) {
            return invalid(QStringLiteral("this rule set is what Redis at %1 enforces (version "
                                          "%2): nothing to stage")
                               .arg(c.endpoint().display())
                               .arg(raw.version));
        }
        bool forced = false;
        if (auto e = basedOnConflict(c, k, raw, set, ch, options.force,
                                     QStringLiteral("Staging it"), &forced)) {
            return *e;
        }
        const qint64 next = raw.version + 1;
        QJsonObject entry = entryHead(next, raw, options);
        putChanges(entry, {}, {}, {});
        entry.insert(QStringLiteral("forced"), forced);
        if (set.basedOn) {
            entry.insert(QStringLiteral("based_on"), *set.basedOn);
        }
        QJsonObject op{{QStringLiteral("op"), QStringLiteral("stage")}};
        putChanges(op, ch.added, ch.changed, ch.removed);
        entry.insert(QStringLiteral("stage"), op);
        entry.insert(QStringLiteral("undo"), QJsonObject()); // no rule changes: walked over

        QJsonObject rulesJson;
        for (const auto &[id, json] : ch.encoded) {
            rulesJson.insert(QString::fromUtf8(id), QString::fromUtf8(json));
        }
        QJsonObject stageJson = entryHead(next, raw, options);
        stageJson.insert(QStringLiteral("based_on"), raw.version);
        putChanges(stageJson, ch.added, ch.changed, ch.removed);
        stageJson.insert(QStringLiteral("rules"), rulesJson);
        Write w;
        w.staged = Write::Staged::Set;
        w.stagedJson = QJsonDocument(stageJson).toJson(QJsonDocument::Compact);
        return casWrite(c, k, raw, entry, w, resultOf(ch));
    });
}

namespace {

// Promote and discard on a store where nothing is staged.
Error nothingStaged(Connection &c, qint64 version)
{
    return invalid(QStringLiteral("nothing is staged in Redis at %1 (the rules are at version %2); "
                                  "stage a change with sluice-cli rules push FILE --stage")
                       .arg(c.endpoint().display())
                       .arg(version));
}

} // namespace

Result<RuleStore::PushResult> RuleStore::promote(Connection &c, PushOptions options) const
{
    const Keys k = keysOf(*this);
    return readAndWrite(c, k, [&](const Raw &raw) -> Result<std::optional<PushResult>> {
        if (raw.staged.isEmpty()) {
            return nothingStaged(c, raw.version);
        }
        auto st = parseStage(raw.staged, k.staged);
        if (!st) {
            return st.error();
        }
        if (st->version != raw.version && !options.force) {
            return Error::make(
                Error::Kind::Conflict,
                QStringLiteral("conflict: the rules in Redis at %1 changed since the change "
                               "staged at version %2 (they are at version %3): promoting it "
                               "would undo those changes; discard it and stage again, or "
                               "promote with --force. Nothing was written.")
                    .arg(c.endpoint().display())
                    .arg(st->version)
                    .arg(raw.version));
        }
        const Changes ch = changesAgainst(raw.fields, st->set, k.hash);
        PushOptions o = options;
        if (o.message.isEmpty()) {
            o.message =
                st->message.isEmpty()
                    ? QStringLiteral("promote the change staged at version %1").arg(st->version)
                    : QStringLiteral("promote: %1").arg(st->message);
        }
        QJsonObject entry = entryHead(raw.version + 1, raw, o);
        putChanges(entry, ch.added, ch.changed, ch.removed);
        entry.insert(QStringLiteral("forced"), st->version != raw.version);
        entry.insert(QStringLiteral("based_on"), st->version);
        entry.insert(QStringLiteral("stage"),
                     QJsonObject{{QStringLiteral("op"), QStringLiteral("promote")},
                                 {QStringLiteral("of"), st->version}});
        putUndo(entry, raw, ch);
        Write w;
        w.rules = &ch;
        w.staged = Write::Staged::Del;
        return casWrite(c, k, raw, entry, w, resultOf(ch));
    });
}

Result<RuleStore::PushResult> RuleStore::discard(Connection &c, PushOptions options) const
{
    const Keys k = keysOf(*this);
    return readAndWrite(c, k, [&](const Raw &raw) -> Result<std::optional<PushResult>> {
        if (raw.staged.isEmpty()) {
            return nothingStaged(c, raw.version);
        }
        // A stage that cannot be read can still be discarded: that is how it is mended.
        auto st = parseStage(raw.staged, k.staged);
        const qint64 of = st ? st->version : 0;
        PushOptions o = options;
        if (o.message.isEmpty()) {
            o.message = QStringLiteral("discard the change staged at version %1").arg(of);
        }
        QJsonObject entry = entryHead(raw.version + 1, raw, o);
        putChanges(entry, {}, {}, {});
        entry.insert(QStringLiteral("forced"), false);
        entry.insert(QStringLiteral("stage"),
                     QJsonObject{{QStringLiteral("op"), QStringLiteral("discard")},
                                 {QStringLiteral("of"), of}});
        entry.insert(QStringLiteral("undo"), QJsonObject());
        Write w;
        w.staged = Write::Staged::Del;
        PushResult result;
        result.discardedStage = of;
        return casWrite(c, k, raw, entry, w, result);
    });
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
    h.cut = t->cut;
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
