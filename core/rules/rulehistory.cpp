// The rule store's history: the lines of its entries, a version rebuilt from them, and the
// rollback to it (rulestore.h).
#include "rulestore_p.h"

#include "codec.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sluice::rules {

namespace storestep {

namespace {

std::optional<qint64> optionalInt(const QJsonObject &o, const char *name)
{
    const QJsonValue v = o.value(QLatin1String(name));
    if (!v.isDouble()) {
        return std::nullopt;
    }
    return v.toInteger();
}

} // namespace

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

ParsedEntry parseEntry(const QByteArray &json)
{
    ParsedEntry p;
    const QJsonObject o = QJsonDocument::fromJson(json).object();
    RuleStore::Entry &e = p.entry;
    e.version = o.value(QLatin1String("version")).toInteger();
    readChangeFields(o, e);
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

} // namespace storestep

using namespace storestep;

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
