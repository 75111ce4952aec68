#pragma once

#include "rule.h"

#include "core/redis/connection.h"

#include <QByteArray>
#include <QString>

namespace sluice::rules {

// Rules kept in Redis, versioned (FORMATS.md `rules push/pull`):
//   <ns>rules          hash: rule id -> the rule as compact JSON (codec ruleToJson)
//   <ns>rules:version  integer, incremented by every change
//   <ns>rules:history  list of the last 100 changes (JSON: version, time, author, message,
//                      added, changed, removed, and "undo": the rules each change replaced
//                      or removed, as they were stored), newest first: conflict messages,
//                      `rules history`, and any of those versions rebuilt by walking back
//                      from the stored rules (`rules diff redis@N`, `rules rollback N`)
//   <ns>rules:staged   string, present while a change is staged: JSON {version, based_on,
//                      time, author, message, added, changed, removed, rules: {id: rule JSON}}
//                      (the candidate set, whole; FORMATS.md "Staged rollout")
//   <ns>rules:changed  pub/sub channel: the new version is published after every change
// The default namespace <ns> is "{sluice}:": a Cluster hash tag, so the three keys share one
// slot and the atomic scripts that touch them all work on Redis Cluster. A push is one atomic step:
// the store is never seen half-updated, and an invalid set is never written.
class RuleStore
{
public:
    explicit RuleStore(QByteArray ns = "{sluice}:");

    // A staged change: a candidate rule set that runs in shadow beside the enforced one until
    // it is promoted (it becomes the rules) or discarded. Staging, promoting and discarding
    // are each a version of the store, in its history, with push's concurrency check.
    struct Stage
    {
        qint64 version = 0; // the store version that recorded the stage
        qint64 basedOn = 0; // the enforced version it was staged against (version - 1)
        QString time;       // the server's clock, ISO 8601 UTC
        QString author;
        QString message;
        QStringList added, changed, removed; // against the rules at basedOn
        RuleSet set;                         // the candidate, whole
    };

    struct Snapshot
    {
        qint64 version = 0; // 0: nothing was ever pushed
        // set.basedOn = version; set.staged = the stage's shadow candidates (shadowCandidates)
        RuleSet set;
        std::optional<Stage> stage;
        // Reading::SkipUnreadable: what was left out, one line each (a key of the wrong type,
        // a version that is not a number, a rule or a stage that does not decode), naming the
        // key and how to repair it.
        QStringList skipped;
    };
    // Strict: anything unreadable is an error (a writer, a user who asked for the rules).
    // SkipUnreadable: what can be read, the rest in Snapshot::skipped (serve: a corrupt store
    // never stops a restart).
    enum class Reading { Strict, SkipUnreadable };
    Result<Snapshot> pull(Connection &c, Reading reading = Reading::Strict) const;

    struct PushResult
    {
        qint64 version = 0; // the version now stored
        QStringList added, changed, removed;
        std::optional<qint64> discardedStage; // a forced push ended the stage recorded there
        bool unchanged() const { return added.isEmpty() && changed.isEmpty() && removed.isEmpty(); }
    };
    // Replaces the stored rules with `set`. Unless `force`, fails with a conflict error when the
    // store's version is newer than set.basedOn (a set without basedOn conflicts with any
    // non-empty store), or while a change is staged (promote or discard it first); the error
    // (kind Conflict) says which versions changed what since then. Forced, a push ends a stage
    // (PushResult::discardedStage).
    Result<PushResult> push(Connection &c, const RuleSet &set, bool force) const;

    // Who pushed and why, kept in the history entry; `rollbackOf` marks a rollback.
    struct PushOptions
    {
        bool force = false;
        QString author;  // empty: the OS user
        QString message; // one line; newlines become spaces, at most 200 characters kept
        std::optional<qint64> rollbackOf;
    };
    Result<PushResult> push(Connection &c, const RuleSet &set, const PushOptions &options) const;

    // One stored version, as `rules history` lists it.
    struct Entry
    {
        qint64 version = 0;
        QString time; // the server's clock, ISO 8601 UTC
        QString author;
        QString message;
        QStringList added, changed, removed;
        bool forced = false;
        std::optional<qint64> basedOn;
        std::optional<qint64> rollbackOf;
        // "stage", "promote" or "discard" for the staging steps (stageOf: the version that
        // staged what was promoted or discarded; staged*: what a stage would change).
        QString stageOp;
        std::optional<qint64> stageOf;
        QStringList stagedAdded, stagedChanged, stagedRemoved;
        // The version before this one can be rebuilt from this entry (older Sluice wrote none,
        // and a change whose replaced rules exceed undoBytesLimit keeps none).
        bool undoable = false;
    };
    struct History
    {
        qint64 version = 0;       // the stored version
        QList<Entry> entries;     // newest first, at most 100
        QList<qint64> restorable; // versions that can be rebuilt, newest first (incl. current)
        QString cut; // why the entries stop before the history's end, naming the entry and
                     // the repair; empty when they do not
    };
    Result<History> history(Connection &c) const;

    // The rules as they were at version `n`, rebuilt from the stored rules and the history's
    // undo records, read in one atomic step. A version that cannot be rebuilt (older than the
    // kept history, never stored, or before a change that kept no undo) is an error (kind
    // Invalid) listing the versions that can.
    Result<Snapshot> pullVersion(Connection &c, qint64 n) const;

    // Stores version n's rules as a new version (history is never rewritten), with push's
    // concurrency check: a push landing meanwhile makes it a conflict, nothing written.
    Result<PushResult> rollback(Connection &c, qint64 n, PushOptions options) const;

    // Stages `set` beside the stored rules: nothing enforced changes; `serve` runs the
    // candidate's added and changed rules in shadow (shadowCandidates). The set must be valid
    // and based on the stored version (as a push, unless options.force), and differ from the
    // stored rules; a change already staged is a conflict (promote or discard it first).
    // PushResult: the new version and what the candidate changes.
    Result<PushResult> stage(Connection &c, const RuleSet &set, const PushOptions &options) const;
    // The stage, if any (std::nullopt: nothing staged).
    Result<std::optional<Stage>> staged(Connection &c) const;
    // Promote: the staged candidate becomes the stored rules (a new version; the stage ends).
    // A change pushed since the stage (only possible with --force, which ends it) or nothing
    // staged is an error naming what is there. Discard: the stage ends, the rules stay.
    Result<PushResult> promote(Connection &c, PushOptions options) const;
    Result<PushResult> discard(Connection &c, PushOptions options) const;

    // The stage's candidates as serve runs them: every added or changed rule of the staged set,
    // renamed stagedId(id), shadow on. Removed rules have none (the enforced rule runs on).
    static std::vector<Rule> shadowCandidates(const Stage &stage);
    static QString stagedId(const QString &id) { return id + QStringLiteral("@staged"); }
    // The rule id a stagedId() was made from, or empty when `id` is no staged id.
    static QString stagedOf(const QString &id);

    static constexpr qsizetype undoBytesLimit = 4 << 20;

    QByteArray hashKey() const { return m_ns + "rules"; }
    QByteArray versionKey() const { return m_ns + "rules:version"; }
    QByteArray historyKey() const { return m_ns + "rules:history"; }
    QByteArray stagedKey() const { return m_ns + "rules:staged"; }
    QByteArray channel() const { return m_ns + "rules:changed"; }
    const QByteArray &ns() const { return m_ns; }

private:
    QByteArray m_ns;
};

} // namespace sluice::rules
