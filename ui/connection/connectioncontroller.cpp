#include "connectioncontroller.h"

#include "connectionworker.h"
#include "profilestore.h"
#include "sandbox.h"

#include "ui/common/workerthread.h"

#include <QScopedValueRollback>

namespace sluice::ui {

ConnectionController::ConnectionController(ProfileStore *store, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_sandbox(new Sandbox(this))
    // A ping that takes longer than 3 s is a lost connection for the console.
    , m_session(QStringLiteral("sluice-session"), workerConnectionOptions(std::chrono::seconds(3)))
    , m_probe(QStringLiteral("sluice-probe"), workerConnectionOptions(std::chrono::seconds(3)))
{
    qRegisterMetaType<ConnectionState>();
    qRegisterMetaType<ConnectionRequest>();

    connect(m_session.get(), &ConnectionWorker::stateChanged, this,
            &ConnectionController::onWorkerState);
    connect(m_probe.get(), &ConnectionWorker::probed, this, &ConnectionController::tested);

    connect(m_sandbox, &Sandbox::statusChanged, this, &ConnectionController::onSandboxStatus);
}

ConnectionController::~ConnectionController()
{
    m_sandbox->disconnect(this);
    // Then m_probe and m_session (WorkerThread) quit and wait: a worker in the middle of a
    // call finishes it first, at most the command timeout.
}

double ConnectionController::scanBudget() const
{
    const auto p = m_currentId.isEmpty() || m_currentId == ProfileStore::sandboxId()
                       ? std::nullopt
                       : m_store->profile(m_currentId);
    return p ? double(p->scanBudget) : keys::defaultScanBudget;
}

int ConnectionController::keysRescanSeconds() const
{
    const auto p = m_currentId.isEmpty() || m_currentId == ProfileStore::sandboxId()
                       ? std::nullopt
                       : m_store->profile(m_currentId);
    return p ? p->keysRescanSeconds : ConnectionProfile::defaultKeysRescanSeconds;
}

void ConnectionController::connectAtStart()
{
    const QString last = m_store->lastUsed();
    if (m_store->isEmpty() || last == ProfileStore::sandboxId()) {
        connectToSandbox();
    } else if (m_store->profile(last)) {
        connectTo(last);
    }
}

void ConnectionController::begin(const QString &id, const QString &label, const QString &endpoint)
{
    ++m_request;
    m_currentId = id;
    m_endpoint.reset();
    m_sandboxPending = false;
    m_store->setLastUsed(id);
    // The previous server is left at once, even if the new one waits for a password.
    m_session.post([](ConnectionWorker *w) { w->close(); });
    ConnectionState s;
    s.state = ConnectionState::State::Connecting;
    s.label = label;
    s.endpoint = endpoint;
    if (const auto p = m_store->profile(id)) {
        s.readOnly = p->readOnly; // the write actions stay off while it connects
    }
    publish(s);
    Q_EMIT sessionChanged();
}

void ConnectionController::connectTo(const QString &id)
{
    connectTo(id, ProfileSecrets{});
}

void ConnectionController::connectTo(const QString &id, const QString &password)
{
    ProfileSecrets typed;
    typed.password = password;
    connectTo(id, typed);
}

void ConnectionController::connectTo(const QString &id, const ProfileSecrets &typed,
                                     bool trustHostKeyOnce)
{
    if (m_switchGuard && !m_switching && !m_currentId.isEmpty() && id != m_currentId) {
        m_switchGuard(id, [this, id, typed, trustHostKeyOnce] {
            const QScopedValueRollback switching(m_switching, true);
            connectTo(id, typed, trustHostKeyOnce);
        });
        return;
    }
    const auto p = m_store->profile(id);
    if (!p) {
        return;
    }
    // What the user typed is remembered for the session.
    const std::pair<ProfileStore::Secret, bool> kept[] = {
        {ProfileStore::Secret::Password, p->hasPassword},
        {ProfileStore::Secret::SshPassword, p->hasSshPassword},
        {ProfileStore::Secret::SshPassphrase, p->hasSshPassphrase}};
    for (const auto &[secret, has] : kept) {
        ProfileSecrets copy = typed;
        const QString value = ProfileStore::secretOf(copy, secret);
        if (has && !value.isEmpty()) {
            m_store->rememberForSession(id, secret, value);
        }
    }
    begin(id, p->name, p->endpoint().display());
    const quint64 request = m_request;
    m_store->lookupSecrets(
        *p, typed, this, [this, request, id, trustHostKeyOnce](ProfileStore::SecretsLookup l) {
            const auto p = m_store->profile(id);
            if (request != m_request || !p) {
                return; // the user moved on meanwhile
            }
            if (l.secrets) {
                open(*p, *l.secrets, trustHostKeyOnce);
                return;
            }
            m_neededSecret = l.missing;
            switch (l.missing) {
            case ProfileStore::Secret::SshPassword:
                fail(tr("SSH password needed"),
                     tr("Enter the SSH password of '%1' on the Connection page: %2.")
                         .arg(p->name, l.why));
                break;
            case ProfileStore::Secret::SshPassphrase:
                fail(tr("SSH key passphrase needed"),
                     tr("Enter the passphrase of the SSH key of '%1' on the Connection page: %2.")
                         .arg(p->name, l.why));
                break;
            default:
                fail(tr("password needed"),
                     tr("Enter the password of '%1' on the Connection page: %2.")
                         .arg(p->name, l.why));
                break;
            }
            Q_EMIT passwordNeeded(id, l.why);
        });
}

void ConnectionController::connectToSandbox()
{
    if (m_switchGuard && !m_switching && !m_currentId.isEmpty() &&
        m_currentId != ProfileStore::sandboxId()) {
        m_switchGuard(ProfileStore::sandboxId(), [this] {
            const QScopedValueRollback switching(m_switching, true);
            connectToSandbox();
        });
        return;
    }
    begin(ProfileStore::sandboxId(), tr("sandbox"),
          m_sandbox->status() == Sandbox::Status::Running
              ? QStringLiteral("127.0.0.1:%1").arg(m_sandbox->port())
              : tr("starting redis-server"));
    if (m_sandbox->status() == Sandbox::Status::Running) {
        openSandbox();
        return;
    }
    if (m_sandbox->status() == Sandbox::Status::Failed) {
        m_sandbox->stop(); // forget the last failure; nothing pending yet, so no report
    }
    m_sandboxPending = true;
    m_sandbox->start(); // may fail at once (not installed): onSandboxStatus reports it
}

void ConnectionController::open(const ConnectionProfile &profile, const ProfileSecrets &secrets,
                                bool trustHostKeyOnce)
{
    ConnectionRequest r{m_request, profile.name, profile.endpoint(secrets), trustHostKeyOnce};
    m_endpoint = r.endpoint;
    m_session.post([r](ConnectionWorker *w) { w->open(r); });
    // The endpoint is known only now (after a password lookup, or once the sandbox runs): the
    // pages that open their own connections learn it from this second sessionChanged().
    Q_EMIT sessionChanged();
}

void ConnectionController::openSandbox()
{
    m_sandboxPending = false;
    ConnectionProfile p;
    p.name = tr("sandbox");
    p.host = QStringLiteral("127.0.0.1");
    p.port = m_sandbox->port();
    open(p, {}, false);
}

void ConnectionController::onSandboxStatus()
{
    if (m_currentId != ProfileStore::sandboxId()) {
        return;
    }
    switch (m_sandbox->status()) {
    case Sandbox::Status::Running:
        if (m_sandboxPending) {
            openSandbox();
        }
        break;
    case Sandbox::Status::Failed:
    case Sandbox::Status::Stopped:
        if (m_sandboxPending || m_endpoint) {
            // Nothing to reconnect to: stop the worker's retries and say what happened.
            const bool starting = m_sandboxPending;
            ++m_request;
            m_sandboxPending = false;
            m_session.post([](ConnectionWorker *w) { w->close(); });
            fail(starting ? tr("the sandbox could not start") : tr("the sandbox stopped"),
                 m_sandbox->error().isEmpty() ? tr("Connect to the sandbox to start it again.")
                                              : m_sandbox->error());
        }
        break;
    default:
        break;
    }
}

void ConnectionController::retryNow()
{
    if (m_currentId == ProfileStore::sandboxId() &&
        m_sandbox->status() != Sandbox::Status::Running) {
        connectToSandbox();
    } else if (m_state.state == ConnectionState::State::Failed && !m_endpoint &&
               !m_currentId.isEmpty()) {
        connectTo(m_currentId); // e.g. the password is still needed
    } else {
        m_session.post([](ConnectionWorker *w) { w->retryNow(); });
    }
}

void ConnectionController::reportReachable()
{
    if (m_endpoint && m_state.state == ConnectionState::State::Lost && !m_checking) {
        m_checking = true; // once per streak: the worker's next state says how it went
        m_session.post([](ConnectionWorker *w) { w->checkNow(); });
    }
}

void ConnectionController::reportLost()
{
    if (m_endpoint && m_state.state == ConnectionState::State::Connected && !m_checking) {
        m_checking = true;
        m_session.post([](ConnectionWorker *w) { w->checkNow(); });
    }
}

void ConnectionController::disconnectNow()
{
    ++m_request;
    m_currentId.clear();
    m_endpoint.reset();
    m_sandboxPending = false;
    m_session.post([](ConnectionWorker *w) { w->close(); });
    publish(ConnectionState{});
    Q_EMIT sessionChanged();
}

void ConnectionController::onWorkerState(const ConnectionState &state)
{
    if (state.request != m_request) {
        return; // an answer to a request the user has moved on from
    }
    // A check a page asked for is answered: connected, or lost with the next retry counted.
    if (state.state != ConnectionState::State::Lost || state.retryInSeconds != 0) {
        m_checking = false;
    }
    if (state.cluster && m_endpoint && m_endpoint->kind == Endpoint::Kind::Tcp &&
        !m_endpoint->isCluster() && !m_endpoint->ssh.isSet()) {
        // The profile's one address is a Redis Cluster node: the worker went on to the whole
        // cluster with it as the seed, and so do the pages, which reload for it.
        m_endpoint->seeds = {HostPort{m_endpoint->host, m_endpoint->port}};
        publish(state);
        Q_EMIT sessionChanged();
        return;
    }
    publish(state);
}

void ConnectionController::publish(ConnectionState state)
{
    state.request = m_request;
    m_state = state;
    Q_EMIT stateChanged(m_state);
}

void ConnectionController::fail(const QString &error, const QString &hint)
{
    ConnectionState s = m_state;
    s.state = ConnectionState::State::Failed;
    s.error = error;
    s.hint = hint;
    s.detail.clear();
    s.retryInSeconds = 0;
    publish(s);
}

quint64 ConnectionController::test(const ConnectionProfile &profile, const QString &password)
{
    ProfileSecrets typed;
    typed.password = password;
    return test(profile, typed);
}

quint64 ConnectionController::test(const ConnectionProfile &profile, const ProfileSecrets &typed,
                                   bool trustHostKeyOnce)
{
    const quint64 id = ++m_testId;
    if (profile.id.isEmpty()) {
        probe(id, profile, typed, trustHostKeyOnce);
        return id;
    }
    m_store->lookupSecrets(
        profile, typed, this, [this, id, profile, trustHostKeyOnce](ProfileStore::SecretsLookup l) {
            if (l.secrets) {
                probe(id, profile, *l.secrets, trustHostKeyOnce);
                return;
            }
            ConnectionState s;
            s.request = id;
            s.state = ConnectionState::State::Failed;
            s.label = profile.name;
            s.endpoint = profile.endpoint().display();
            s.readOnly = profile.readOnly;
            switch (l.missing) {
            case ProfileStore::Secret::SshPassword:
                s.error = tr("SSH password needed");
                s.hint = tr("Enter the SSH password to test the connection: %1.").arg(l.why);
                break;
            case ProfileStore::Secret::SshPassphrase:
                s.error = tr("SSH key passphrase needed");
                s.hint = tr("Enter the SSH key passphrase to test the connection: %1.").arg(l.why);
                break;
            default:
                s.error = tr("password needed");
                s.hint = tr("Enter the password to test the connection: %1.").arg(l.why);
                break;
            }
            Q_EMIT tested(s);
        });
    return id;
}

void ConnectionController::probe(quint64 id, const ConnectionProfile &profile,
                                 const ProfileSecrets &secrets, bool trustHostKeyOnce)
{
    ConnectionRequest r{id, profile.name, profile.endpoint(secrets), trustHostKeyOnce};
    m_probe.post([r](ConnectionWorker *w) { w->probe(r); });
}

} // namespace sluice::ui
