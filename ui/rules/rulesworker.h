#pragma once

#include "core/keys/changepreview.h"
#include "core/redis/connection.h"
#include "core/redis/lazyconnection.h"
#include "core/rules/overridestore.h"
#include "core/rules/rule.h"
#include "core/rules/rulestore.h"

#include <QMetaType>
#include <QObject>
#include <QStringList>

#include <optional>

namespace sluice::rules {
class RuleWatcher;
}

namespace sluice::ui {

// The answer to one pull or push of the Rules page, as a value.
struct StoreReply
{
    // Stage, Promote, Discard: the staging steps (RuleStore::stage, promote, discard);
    // StageState: what is staged now, read after every store version the watcher sees.
    enum class Op { Pull, Push, History, Version, Rollback, Stage, Promote, Discard, StageState };
    Op op = Op::Pull;
    quint64 request = 0; // the page's request id, echoed
    bool ok = false;
    bool conflict = false;       // push refused: the store moved past set.basedOn
    bool connectionLoss = false; // Redis could not be reached (the page disables push)
    QString error;               // what went wrong, in words (the core's message)
    qint64 version = 0;          // pull: the store's version; push: the version now stored
    RuleSet set; // pull: the store's rules (basedOn = version); promote, discard: those after
    QStringList added, changed, removed; // push: what it did
    bool forced = false;
    // History: the store's versions. Version: `set` is version `version` rebuilt, `current`
    // the stored rules read with it. Rollback: `set` is what was stored as `version`.
    rules::RuleStore::History history;
    RuleSet current;
    qint64 rollbackOf = 0;
    // Pull for a push preview: what the candidate does to the subjects limited now (the
    // live keys read within a budget), or why that could not be worked out.
    QList<keys::RulePreview> preview;
    QString previewError;
    // StageState (and Pull): the staged change, if any. Discard: discardedStage its version.
    std::optional<rules::RuleStore::Stage> stage;
    qint64 discardedStage = 0;
};

// The overrides stored in Redis for one rule (OverrideStore), read or changed for the Rules
// page's list of that rule's overrides, as a value.
struct OverridesReply
{
    quint64 request = 0;
    QString ruleId;
    bool ok = false;
    QString error; // what went wrong, in words
    QList<rules::OverrideStore::Stored> stored;
    QStringList stale; // stored for this rule but not readable as its overrides, with why
    // A remove: what it removed ("subject 10.1.2.3"), and whether it was still there.
    QString removedMatch;
    bool removed = false;
    // An add: what it stored ("subject 10.1.2.3"), and whether it did.
    QString addedMatch;
    bool added = false;
};

// The Rules page's Redis side, on a thread of its own (ARCHITECTURE.md "Threads"): create it,
// move it to its QThread, call its slots only through queued calls. It has its own Connection
// to the session's endpoint (opened on first use, reopened after a loss) for pulls and pushes
// through the core RuleStore, and a RuleWatcher (living in this thread; it runs its own
// subscriber thread) that reports every new store version. Nothing here touches widgets.
class RulesWorker : public QObject
{
    Q_OBJECT
public:
    explicit RulesWorker(QObject *parent = nullptr);
    ~RulesWorker() override;

public Q_SLOTS:
    // A new session (or none): closes the connection, restarts the watcher on `endpoint`.
    // `ns` is the RuleStore namespace ("{sluice}:" unless a test says otherwise).
    void setEndpoint(const std::optional<sluice::Endpoint> &endpoint, const QByteArray &ns);
    // With `candidate`: also what pushing it would do to the subjects limited now.
    void pull(quint64 request, const std::optional<sluice::RuleSet> &candidate = std::nullopt);
    void push(quint64 request, const sluice::RuleSet &set, bool force, const QString &message = {});
    void history(quint64 request);
    void pullVersion(quint64 request, qint64 version);
    void rollback(quint64 request, qint64 version, const QString &message);
    // Stages `set` beside the stored rules (in shadow until promoted or discarded).
    void stage(quint64 request, const sluice::RuleSet &set, const QString &message);
    // Promotes (true) or discards (false) the staged change.
    void finishStage(quint64 request, bool promote, const QString &message);
    // The overrides stored for `rule` (OverrideStore::list), read against it.
    void listOverrides(quint64 request, const sluice::Rule &rule);
    // Removes the stored override of `rule` matching kind + pattern, then lists again.
    void removeOverride(quint64 request, const sluice::Rule &rule, sluice::Override::Kind kind,
                        const QString &pattern);
    // Stores `o` for `rule` (replacing one with the same match), then lists again
    // (addoverridedialog.cpp).
    void addOverride(quint64 request, const sluice::Rule &rule, const sluice::Override &o);

Q_SIGNALS:
    void answered(const sluice::ui::StoreReply &reply);
    void overridesAnswered(const sluice::ui::OverridesReply &reply);
    // The watcher saw a store version (once after every start, then on every change).
    void storeChanged(const sluice::RuleSet &set, qint64 version);
    // The watcher lost Redis (once per failure streak); it keeps retrying by itself.
    void watchError(const QString &message);
    // The watcher is back after watchError() (the version may not have moved meanwhile).
    void watchRecovered();

private:
    void listOverridesInto(Connection &c, const Rule &rule, OverridesReply &reply) const;
    // The connection for an overrides request; nullptr when there is none, after answering
    // `reply` with why.
    Connection *connectionFor(OverridesReply &reply);
    // The connection, opened if needed; nullptr and `error` set when Redis cannot be reached.
    Connection *connection(Error *error);
    // Whether the store's version is no longer `version` (read now; false when unreadable).
    bool isStale(qint64 version);
    void fail(StoreReply &reply, const Error &error);
    template <typename Work> void answer(StoreReply reply, Work &&work);

private Q_SLOTS:
    // The watcher saw a version: passes it on unless the store has moved since (isStale), then
    // says what is staged (Op::StageState).
    void onWatched(const sluice::RuleSet &set, qint64 version);

private:
    std::optional<Endpoint> m_endpoint;
    std::optional<LazyConnection> m_connection; // of m_endpoint
    rules::RuleStore m_store;
    QByteArray m_ns = "{sluice}:";           // the rule store's, and so the statistics'
    rules::RuleWatcher *m_watcher = nullptr; // owned (child)
};

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::StoreReply)
Q_DECLARE_METATYPE(sluice::ui::OverridesReply)
