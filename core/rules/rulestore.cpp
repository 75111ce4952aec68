#include "rulestore_p.h"

#include "codec.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace sluice::rules {

using namespace storestep;

RuleStore::RuleStore(QByteArray ns)
    : m_ns(std::move(ns))
{}

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

} // namespace sluice::rules
