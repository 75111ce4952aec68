#pragma once

// The rule store's shared steps (rulestore.h): the read and write scripts, decoding, the
// compare-and-set write and its retry loop. rulestore.cpp pulls and pushes with them,
// rulehistory.cpp reads the history and rolls back, rulestage.cpp stages and promotes.

#include "rulestore.h"

#include "core/common/bytes.h"
#include "core/redis/scriptregistry.h"

#include <QJsonObject>
#include <QMap>

#include <optional>

namespace sluice::rules::storestep {

constexpr int historyLength = 100; // rulestore.h: "the last 100 changes"
constexpr int maxAttempts = 5;     // optimistic retries when another push lands in between
constexpr int pairsPerHset = 100;

const ScriptRegistry &scripts();

Error invalid(const QString &message);

QString keyText(const QByteArray &key);

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
                    const QByteArray &staged, QStringList *skipped = nullptr);

// One stored field back into a rule, or the reason it cannot be.
Result<Rule> decode(const QByteArray &id, const QByteArray &json, const QByteArray &hash);

QString list(const QStringList &ids);

// "added a, b; changed c; removed d", or in the infinitive ("add a, b; ...") for what a push
// would do.
QString changesText(const QStringList &added, const QStringList &changed,
                    const QStringList &removed, bool past = true);

QStringList strings(const QJsonValue &v);

// What a history entry and a stage record share, read from their JSON: when, who, why, and
// the rule ids added, changed and removed.
template <typename Record> void readChangeFields(const QJsonObject &o, Record &r)
{
    r.time = o.value(QLatin1String("time")).toString();
    r.author = o.value(QLatin1String("author")).toString();
    r.message = o.value(QLatin1String("message")).toString();
    r.added = strings(o.value(QLatin1String("added")));
    r.changed = strings(o.value(QLatin1String("changed")));
    r.removed = strings(o.value(QLatin1String("removed")));
}

// "v6 changed api-global (2025-06-01T12:00:03Z)" per history entry in [from, to], oldest
// first; entries no longer kept are counted, not invented.
QStringList historyLines(Connection &c, const QByteArray &historyKey, qint64 from, qint64 to);

// The history's entries as stored (JSON), parsed; the undo record of each kept aside.
struct ParsedEntry
{
    RuleStore::Entry entry;
    QMap<QByteArray, QByteArray> undo; // id -> the rule's JSON before this change
};

ParsedEntry parseEntry(const QByteArray &json);

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
                              const QByteArray &history);

// The versions a timeline can rebuild, newest first: the stored one, then one more for each
// entry (from the newest) that keeps its undo record.
QList<qint64> restorableVersions(const Timeline &t);

QString versionList(const QList<qint64> &versions);

QString defaultAuthor();

// One line, at most 200 characters: the history is for reading, not for documents.
QString oneLine(const QString &text);

// The keys one store's steps touch.
struct Keys
{
    QByteArray hash, version, history, staged, channel;
};

Keys keysOf(const RuleStore &store);

// What a candidate set changes against the stored rules (fields as read), and the candidate
// encoded as it would be stored, in the set's order.
struct Changes
{
    QStringList added, changed, removed;
    QList<QPair<QByteArray, QByteArray>> encoded; // id, JSON
    bool unchanged() const { return added.isEmpty() && changed.isEmpty() && removed.isEmpty(); }
};

Changes changesAgainst(const QMap<QByteArray, QByteArray> &fields, const RuleSet &set,
                       const QByteArray &hash);

// Nothing reaches Redis from an invalid set.
std::optional<Error> invalidSet(const RuleSet &set);

// The conflict of a set based on another version than the stored one, or std::nullopt when
// it is clean (or forced). `doing` says what writing it would do ("push it would add a").
std::optional<Error> basedOnConflict(Connection &c, const Keys &k, const Raw &raw,
                                     const RuleSet &set, const Changes &ch, bool force,
                                     const QString &doing, bool *forced);

// The history entry's common part: version, time, who and why.
QJsonObject entryHead(qint64 next, const Raw &raw, const RuleStore::PushOptions &options);

void putChanges(QJsonObject &o, const QStringList &added, const QStringList &changed,
                const QStringList &removed);

// What a change replaces, as stored, so that the version before it can be rebuilt; a change
// of very many large rules keeps none (that version cannot be rolled back to).
void putUndo(QJsonObject &entry, const Raw &raw, const Changes &ch);

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
                                                      RuleStore::PushResult result);

// What a write of `ch` reports, before its version is known.
RuleStore::PushResult resultOf(const Changes &ch);

Error keptChanging(Connection &c);

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
Result<RuleStore::Stage> parseStage(const QByteArray &json, const QByteArray &key);

} // namespace sluice::rules::storestep
