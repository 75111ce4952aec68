// The rule store's stage: one change staged beside the served rules, promoted or discarded
// (rulestore.h).
#include "rulestore_p.h"

#include "codec.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sluice::rules {

namespace storestep {

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
    readChangeFields(o, st);
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

} // namespace storestep

using namespace storestep;

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

Result<std::optional<RuleStore::Stage>> RuleStore::staged(Connection &c) const
{
    auto snap = pull(c);
    if (!snap) {
        return snap.error();
    }
    return std::move(snap->stage);
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

} // namespace sluice::rules
