#pragma once

#include "connectionprofile.h"
#include "connectionstate.h"
#include "connectionworker.h"
#include "profilestore.h"

#include "ui/common/workerthread.h"

#include <QObject>

#include <functional>

#include <optional>

namespace sluice::ui {

class Sandbox;

// The console's one Redis session: which profile it is connected to, through a
// ConnectionWorker on its own thread, and the state of that connection. Also runs "Test
// connection" on a second worker, so that a test never waits behind a reconnect, and owns the
// sandbox. GUI thread; nothing here blocks on the network.
//
// Pages that read Redis open their own worker connections to endpoint(). sessionChanged() says
// when that endpoint changes (another profile): the pages reload then. A new session emits it
// twice: when it begins (endpoint() empty, the last server is left) and when its endpoint is
// known (after the password lookup, or once the sandbox runs). A lost connection and
// its recovery do not change the session: the pages keep showing their last data meanwhile.
// A profile whose one address turns out to be a Redis Cluster node becomes the whole cluster
// (that address its seed): endpoint() then isCluster(), and sessionChanged() is emitted once
// more.
class ConnectionController : public QObject
{
    Q_OBJECT
public:
    explicit ConnectionController(ProfileStore *store, QObject *parent = nullptr);
    ~ConnectionController() override;

    ProfileStore *store() const { return m_store; }
    Sandbox *sandbox() const { return m_sandbox; }
    const ConnectionState &state() const { return m_state; }
    // The session's profile id (ProfileStore::sandboxId() for the sandbox); empty: none.
    QString currentId() const { return m_currentId; }
    // Where the session connects, password included; empty without a session.
    std::optional<Endpoint> endpoint() const { return m_endpoint; }
    // Keys a second the session's scans walk at most: its profile's scan budget (the sandbox,
    // and no session: keys::defaultScanBudget); 0: no budget.
    double scanBudget() const;
    // How often the Keys page rescans, seconds: its profile's (the sandbox, and no session:
    // ConnectionProfile::defaultKeysRescanSeconds); 0: only when asked.
    int keysRescanSeconds() const;

    // A start: the profile used last, or the sandbox when there is no profile yet.
    void connectAtStart();
    // A saved profile. Its password comes from the session or the keyring; if neither has it,
    // passwordNeeded() asks the page for it and the state turns Failed until then.
    void connectTo(const QString &id);
    // A saved profile with a password the user typed (remembered for the session).
    void connectTo(const QString &id, const QString &password);
    // The same with any secrets typed (the empty ones come from the session or the keyring).
    // trustHostKeyOnce: an unknown SSH host key is accepted (and written to known_hosts) on the
    // first attempt only, as after "Trust this host key".
    void connectTo(const QString &id, const ProfileSecrets &typed, bool trustHostKeyOnce = false);
    void connectToSandbox();
    // Asked before the session moves to another server (`id`, not the current one): runs
    // `go` to go ahead, or never to stay (the window asks about unsaved rules this way).
    using SwitchGuard = std::function<void(const QString &id, std::function<void()> go)>;
    void setSwitchGuard(SwitchGuard guard) { m_switchGuard = std::move(guard); }
    // F5: retry at once instead of waiting for the back-off.
    void retryNow();
    // The console has one connection state, changed by whichever worker sees a change first: a
    // page's worker that got an answer from the session's server reports it (while Lost, the
    // session reconnects at once instead of counting down), and one that lost it reports that
    // (while Connected, the session checks at once and turns Lost if its PING fails too).
    void reportReachable();
    void reportLost();
    void disconnectNow();

    // Test connection: one connect + INFO + PING with the form's values, in the second worker.
    // An empty password on a profile that has one uses the stored one. The answer comes in
    // tested() with the returned id as its request.
    quint64 test(const ConnectionProfile &profile, const QString &password);
    quint64 test(const ConnectionProfile &profile, const ProfileSecrets &typed,
                 bool trustHostKeyOnce = false);
    // After passwordNeeded(): which secret of the profile it is.
    ProfileStore::Secret neededSecret() const { return m_neededSecret; }

Q_SIGNALS:
    void stateChanged(const sluice::ui::ConnectionState &state);
    void sessionChanged();
    void passwordNeeded(const QString &id, const QString &why);
    void tested(const sluice::ui::ConnectionState &result);

private:
    void begin(const QString &id, const QString &label, const QString &endpoint);
    void open(const ConnectionProfile &profile, const ProfileSecrets &secrets,
              bool trustHostKeyOnce);
    void openSandbox();
    void onSandboxStatus();
    void onWorkerState(const ConnectionState &state);
    void publish(ConnectionState state);
    void fail(const QString &error, const QString &hint);
    void probe(quint64 id, const ConnectionProfile &profile, const ProfileSecrets &secrets,
               bool trustHostKeyOnce);

    ProfileStore *m_store;
    Sandbox *m_sandbox;
    WorkerThread<ConnectionWorker> m_session; // the session's connection
    WorkerThread<ConnectionWorker> m_probe;   // Test connection

    ConnectionState m_state;
    QString m_currentId;
    std::optional<Endpoint> m_endpoint;
    quint64 m_request = 0; // the session request whose states count; older ones are dropped
    quint64 m_testId = 0;
    bool m_sandboxPending = false; // connect when the sandbox is ready
    SwitchGuard m_switchGuard;
    bool m_switching = false; // the guard said go
    bool m_checking = false;  // a page's report is being checked (until the worker's next state)
    ProfileStore::Secret m_neededSecret = ProfileStore::Secret::Password;
};

} // namespace sluice::ui
