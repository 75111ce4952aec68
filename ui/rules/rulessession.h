#pragma once

#include "rulediff.h"
#include "rulesfile.h"
#include "rulesworker.h"

#include "core/rules/exporter.h"
#include "core/rules/rule.h"
#include "ui/common/pagemessage.h"
#include "ui/common/workerthread.h"

#include <QObject>
#include <QStringList>

#include <optional>

namespace sluice::ui {

class ConnectionController;
class RulesModel;
struct ConnectionState;

// The Rules page without its widgets (CONSOLE.md "Rules"): the working set (in a RulesModel),
// where it came from, whether it has unsaved changes, the last store version seen, and the
// push / pull / conflict machine against the Redis rule store. The page binds it to a table,
// an editor and a banner; tests drive it directly.
//
// The working set is the session's own: import, pull and apply change it; Redis changes only
// on a confirmed push (one compare-and-set on the store version), files only on export.
// Unsaved changes are never dropped silently: a pull with unsaved changes asks for a review.
//
// Threading: GUI thread. Redis I/O happens in a RulesWorker on the session's own thread
// (WorkerThread) with its own connection to ConnectionController::endpoint(); a RuleWatcher
// there reports every new store version. Nothing here waits on the network: every answer
// comes back as a signal.
class RulesSession : public QObject
{
    Q_OBJECT
public:
    // What a message offers to do next; the page turns each into a button.
    enum class Offer {
        Pull,                // pull (with a review when there are unsaved changes)
        PullAndReview,       // pull, then review the differences
        ForcePush,           // push over whatever Redis has
        ReloadFile,          // read the rule file again (the edits here are dropped)
        KeepEdits,           // keep the rules here over a file changed on disk
        OverwriteFile,       // save over a file changed on disk
        SaveWithoutComments, // save over a YAML file whose comments the reader drops
        SaveAs,              // save under another name (File > Save as…)
    };
    // A list of import errors or export warnings, one a line; no lines: nothing to show.
    struct Problems
    {
        QString title;
        QStringList lines;
        Tone tone = Tone::Bad;
    };
    // The store's rules against the working set, for the push preview or the review.
    struct DiffPrompt
    {
        RuleDiff diff;
        QString headline;
        QString note;
        qint64 version = 0; // the store's version
        int unchanged = 0;  // rules of the working set the diff does not list
        RuleSet store;      // the store's rules at `version`
        // Push: what it does to the subjects limited now (rules that change only).
        QList<keys::RulePreview> preview;
        QString previewError;
    };

    explicit RulesSession(ConnectionController *connection, QObject *parent = nullptr);
    ~RulesSession() override;

    RulesModel *model() const { return m_model; }
    const RuleSet &rules() const;
    bool hasUnsavedChanges() const { return m_unsaved; }
    // "file rules.yaml", "Redis v7", "" (nothing loaded yet).
    QString origin() const { return m_origin; }
    // The last store version seen (pull, push or the watcher); nullopt: unknown.
    std::optional<qint64> storeVersion() const { return m_storeVersion; }
    // Push and pull are possible now (connected, nothing under way).
    bool canTalkToRedis() const;
    // Why push and pull are off (empty: they are not).
    QString redisDown() const { return m_redisDown; }
    // The watcher's last failure, until it sees a version again.
    QString watchError() const { return m_watchError; }
    bool isBusy() const { return m_pullRequest != 0 || m_pushRequest != 0; }

    // The RuleStore namespace (default "{sluice}:"); tests give their own. Takes effect at
    // once (the worker reconnects).
    void setStoreNamespace(const QByteArray &ns);

    // --- the working set (rows are the model's) ---
    // `base`, or base-2, base-3... whichever no rule has.
    QString uniqueId(const QString &base) const;
    // The rule Add starts from: an id no rule has, 10 per second per IP.
    Rule newRule() const;
    // Inserts a copy of `row` after it; the copy's row, or -1.
    int duplicate(int row);
    void remove(int row);
    // Puts an edited rule at `row` (-1 or past the end: appended); its row.
    int apply(const Rule &rule, int row);

    // Reads a JSON or YAML rule file (by extension) and makes it the working set. An invalid
    // file changes nothing: every error is listed (file:line:col path message) in problems()
    // and `error` gets a one-line summary.
    bool importFile(const QString &path, QString *error);
    // Writes the working set as json, yaml, nginx, nginx-auth (with `nginxAuth`), envoy or
    // kong. `warnings` gets one line per rule the format cannot express ("id: why"); problems()
    // lists them too.
    bool exportFile(const QString &path, const QString &format, QStringList *warnings,
                    const rules::NginxAuthOptions &nginxAuth = {});
    // `set` in `format` (as exportFile writes it); nullopt with `error` for an unknown format or
    // nginx-auth options that are not valid.
    static std::optional<rules::Export> render(const RuleSet &set, const QString &format,
                                               const rules::NginxAuthOptions &nginxAuth,
                                               QString *error);
    // Opens `path` as the start's rule set: as importFile, and the first rules Redis offers
    // after it do not replace it silently (the message offers to review them).
    bool reopenFile(const QString &path, QString *error);

    // --- the rule file (File > Save and Save as…; rulesfile.cpp) ---
    enum class SaveResult { Saved, Invalid, Gone, ReadOnly, ChangedOnDisk, Comments, Failed };
    struct SaveOptions // {} : neither
    {
        bool overwriteChanged; // the file changed on disk: overwrite it anyway
        bool dropComments;     // a YAML file with comments: write it without them
    };
    RulesFile *file() const { return m_file; }
    // The rule file the working set came from or was saved to; empty: none (from Redis).
    QString filePath() const;
    // Validates the working set, then writes it to `path` in the format its name says (.yaml or
    // .yml: YAML, else JSON) through QSaveFile (a whole new file or none). Saving over the file
    // the rules came from first checks it: gone, changed on disk, read-only, or YAML with
    // comments each write nothing and say so in a message (with what to do next); the rules
    // here are kept in every case.
    SaveResult saveFile(const QString &path, SaveOptions options = {});
    void reloadFile(); // the file as it is on disk replaces the working set
    void keepEdits();  // the file changed on disk: the rules here stay, a Save overwrites it
    // "Discard" for a question about unsaved changes: the file is read again (rules from Redis
    // are marked clean, so that the next server's rules may replace them).
    void discardChanges();

    // --- Redis ---
    void pull();          // adopts the store's rules, or reviews first when unsaved
    void pullForReview(); // reads the store, then reviewReady()
    void push();          // validates, reads the store, then pushPreviewReady()
    void confirmPush(const QString &message = {}); // the preview was accepted (why: history)
    void forcePush();                              // after a conflict: overwrite
    void useRedis(const DiffPrompt &prompt);
    void keepMine(qint64 version);

    // --- the store's history (the History panel) ---
    void loadHistory();               // then historyReady() or a message
    void loadVersion(qint64 version); // then versionReady()
    // Stores `version`'s rules as a new version; with no unsaved changes the working set
    // follows (a rollback is a push of other rules), else it is kept and the message says so.
    void rollback(qint64 version);
    bool isHistoryBusy() const { return m_historyRequest != 0; }

    // --- a staged rollout (FORMATS.md "Staged rollout") ---
    // The change staged in Redis, as last read (after every store version); nullopt: none.
    const std::optional<rules::RuleStore::Stage> &stage() const { return m_stage; }
    // The store's enforced rules at storeVersion(), as last read or written.
    const RuleSet &storeSet() const { return m_storeSet; }
    // Stages the working set (validated, based on the store version it was read at) instead of
    // pushing it: it runs in shadow beside the enforced rules until promoted or discarded.
    void confirmStage(const QString &message = {});
    // The staged change becomes the rules (with no unsaved changes the working set follows),
    // or is dropped. Each is a version in the history.
    void promote();
    void discard();
    // The working set with the stage's candidates (RuleSet::staged), as serve runs them (a rule
    // the stage changes as stored, not as edited): what rulesChanged() carries to the Monitor
    // and the Keys page.
    RuleSet servedSet() const;

    // --- a rule's overrides (the list under the table) ---
    // Reads the overrides stored in Redis for `ruleId` (a rule of the working set); then
    // overridesChanged(). Without Redis the list has the rule file's overrides only and
    // overridesError() says why.
    void loadOverrides(const QString &ruleId);
    // Removes a stored override of `ruleId` (the view asks first); then overridesChanged() and a
    // message.
    void removeStoredOverride(const QString &ruleId, Override::Kind kind, const QString &pattern);
    // Stores an override of `ruleId` in Redis (the view asked for it: AddOverrideDialog); then
    // overridesChanged() and a message. Defined in addoverridedialog.cpp.
    void addStoredOverride(const QString &ruleId, const Override &o);
    // The rule the stored overrides below are of (empty: none asked yet).
    QString overridesRule() const { return m_overridesRule; }
    const QList<rules::OverrideStore::Stored> &storedOverrides() const { return m_stored; }
    // Why the stored overrides are not known (empty: they are, or are being read).
    QString overridesError() const { return m_overridesError; }
    bool isReadingOverrides() const { return m_overridesRequest != 0; }

Q_SIGNALS:
    void message(const sluice::ui::PageMessage &message,
                 const QList<sluice::ui::RulesSession::Offer> &offers);
    void problems(const sluice::ui::RulesSession::Problems &problems);
    // The whole working set was replaced (import, pull): whatever was being edited is gone.
    void replaced();
    // The working set changed (always valid); follows every change.
    void rulesChanged(const sluice::RuleSet &rules);
    // Where the rules stand changed: origin, unsaved, store version, Redis up or down, busy.
    void stateChanged();
    void pushPreviewReady(const sluice::ui::RulesSession::DiffPrompt &prompt);
    void reviewReady(const sluice::ui::RulesSession::DiffPrompt &prompt);
    void historyReady(const sluice::rules::RuleStore::History &history);
    // Version `version` rebuilt, and what it changes against the stored rules (stored -> it:
    // what a rollback to it would do).
    void versionReady(qint64 version, const sluice::rules::RuleDiff &diff, int unchanged);
    void historyFailed(const QString &error);
    void rolledBack(qint64 version, qint64 newVersion);
    // A stage, promote or discard was stored (op: "stage", "promote" or "discard").
    void stageStored(const QString &op, qint64 version);

    // storedOverrides(), overridesError() or isReadingOverrides() changed.
    void overridesChanged();

private:
    enum class PullPurpose { None, Adopt, PushPreview, Review };

    // A validator's or a reader's diagnostics, one a line.
    static QStringList lines(const QList<Diagnostic> &diagnostics);

    void say(Tone tone, const QString &headline, const QString &detail = {},
             const QList<Offer> &offers = {});
    void showProblems(const QString &title, const QStringList &lines, Tone tone);
    void hideProblems();
    void setUnsaved(bool unsaved);
    void changed();

    void syncEndpoint();
    void onConnectionState(const ConnectionState &state);
    void onStoreChanged(const RuleSet &set, qint64 version);
    void onAnswered(const StoreReply &reply);
    void onPulled(const StoreReply &reply, PullPurpose purpose);
    void onPushed(const StoreReply &reply);
    void requestPull(PullPurpose purpose);
    void sendPush(bool force, const QString &message = {});
    void onHistoryAnswer(const StoreReply &reply);
    void onOverrides(const OverridesReply &reply);
    void adopt(const RuleSet &set, qint64 version);
    // After the page's own write (promote, discard, rollback) stored `store` as `version`: the
    // working set is based on it when it was based on the version before (no conflict with
    // yourself on the next push or stage), and clean when it has the same rules.
    void rebase(const RuleSet &store, qint64 version);
    // A store error in the console's words: no command-line flag or command.
    static QString forTheConsole(QString error);
    DiffPrompt pushPrompt(const StoreReply &reply) const;
    void review(const StoreReply &reply);
    void onStageAnswer(const StoreReply &reply);
    void onFileChanged(RulesFile::Disk now);

    ConnectionController *m_connection;
    RulesModel *m_model;
    RulesFile *m_file;
    WorkerThread<RulesWorker> m_worker{QStringLiteral("sluice-rules")};

    QByteArray m_ns = "{sluice}:";
    QString m_endpointKey; // the endpoint the worker has (URL + password), to see changes
    bool m_redisUp = false;
    QString m_redisDown;
    QString m_watchError;

    bool m_unsaved = false;
    QString m_origin;
    std::optional<qint64> m_storeVersion;
    RuleSet m_storeSet; // the store's rules at m_storeVersion
    std::optional<rules::RuleStore::Stage> m_stage;
    bool m_autoPullPending = false; // the session's first store version is adopted if clean
    bool m_keepReopened = false;    // reopenFile(): Redis's first rules are offered, not adopted
    bool m_rollingBack = false;     // a rollback of ours is under way

    quint64 m_nextRequest = 0;
    quint64 m_pullRequest = 0;
    PullPurpose m_pullPurpose = PullPurpose::None;
    quint64 m_pushRequest = 0;
    quint64 m_historyRequest = 0; // history, version or rollback
    quint64 m_overridesRequest = 0;
    QString m_overridesRule;
    QList<rules::OverrideStore::Stored> m_stored;
    QString m_overridesError;
};

} // namespace sluice::ui
