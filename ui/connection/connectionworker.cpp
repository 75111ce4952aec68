#include "connectionworker.h"

#include <QTimer>

namespace sluice::ui {

namespace {

constexpr int tickMs = 1000; // ping period while connected, countdown step while lost
const QByteArray sessionName = QByteArrayLiteral("sluice-console");
const QByteArray probeName = QByteArrayLiteral("sluice-console-test");

// Errors that end a handshake. The rest (an ACL user without CLIENT or INFO: NOPERM, an old
// server without CLIENT SETNAME) only cost us the version or the connection's name.
bool endsHandshake(const Error &e)
{
    return e.isConnectionLoss() ||
           (e.kind == Error::Kind::Auth && !e.message.startsWith(QStringLiteral("NOPERM")));
}

QString parseVersion(const QByteArray &info)
{
    for (const QByteArray &line : info.split('\n')) {
        if (line.startsWith("redis_version:")) {
            return QString::fromUtf8(line.mid(int(sizeof "redis_version:") - 1).trimmed());
        }
    }
    return {};
}

constexpr int nodesEveryTicks = 2; // the node list of a cluster, every 2 s

// A profile of one address that turned out to be a Redis Cluster node: the whole cluster, with
// that address as its seed (Cluster::open asks it for the slot map). Not through SSH: the
// cluster client has no tunnel per node.
bool becomesCluster(const Endpoint &e)
{
    return e.kind == Endpoint::Kind::Tcp && !e.isCluster() && !e.singleNode && !e.ssh.isSet();
}

} // namespace

ConnectionWorker::ConnectionWorker(Connection::Options options, QObject *parent)
    : QObject(parent)
    , m_options(options)
{}

ConnectionWorker::~ConnectionWorker() = default;

int ConnectionWorker::backoffSeconds(int attempt)
{
    return attempt >= 5 ? 30 : 1 << attempt;
}

void ConnectionWorker::open(const ConnectionRequest &request)
{
    m_request = request;
    m_connection.reset();
    m_attempt = 0;
    m_state = ConnectionState{};
    m_state.state = ConnectionState::State::Connecting;
    m_state.request = request.id;
    m_state.label = request.label;
    m_state.endpoint = request.endpoint.display();
    m_state.readOnly = request.endpoint.readOnly;
    Q_EMIT stateChanged(m_state);
    attempt();
}

void ConnectionWorker::close()
{
    m_connection.reset();
    if (m_timer) {
        m_timer->stop();
    }
    m_state.state = ConnectionState::State::Idle;
    m_state.error.clear();
    m_state.hint.clear();
    m_state.detail.clear();
    m_state.retryInSeconds = 0;
    Q_EMIT stateChanged(m_state);
}

void ConnectionWorker::retryNow()
{
    if (m_state.state == ConnectionState::State::Lost ||
        m_state.state == ConnectionState::State::Failed) {
        m_state.retryInSeconds = 0;
        Q_EMIT stateChanged(m_state);
        attempt();
    }
}

void ConnectionWorker::checkNow()
{
    if (m_state.state == ConnectionState::State::Connected) {
        tick();
    } else {
        retryNow();
    }
}

void ConnectionWorker::attempt()
{
    ConnectionState s = m_state;
    Endpoint endpoint = m_request.endpoint;
    if (m_request.trustHostKeyOnce) {
        endpoint.ssh.acceptNew = true; // once: known_hosts has the key afterwards
        m_request.trustHostKeyOnce = false;
    }
    // A new connection each attempt (the endpoint may have changed: a host key trusted, a
    // cluster's seeds); once up, the back-off above decides when a lost one is made again.
    auto c = m_connection.emplace(endpoint, m_options).get();
    Result<void> hs = c ? handshake(**c, s, sessionName) : Result<void>(c.error());
    if (hs && s.cluster && becomesCluster(endpoint)) {
        endpoint.seeds = {HostPort{endpoint.host, endpoint.port}};
        m_request.endpoint.seeds = endpoint.seeds;
        c = m_connection.emplace(endpoint, m_options).get();
        hs = c ? handshake(**c, s, sessionName) : Result<void>(c.error());
    }
    if (!hs) {
        if (hs.error().isConnectionLoss()) {
            becomeLost(hs.error());
        } else {
            m_connection.reset();
            m_state.state = ConnectionState::State::Failed;
            m_state.retryInSeconds = 0;
            describe(hs.error(), m_request.endpoint, m_state);
            Q_EMIT stateChanged(m_state);
        }
        return;
    }
    m_attempt = 0;
    s.state = ConnectionState::State::Connected;
    s.endpoint = (*c)->endpoint().display(); // a Sentinel's: the master found
    s.readOnly = (*c)->endpoint().readOnly;
    s.unknownHostKey = false;
    s.error.clear();
    s.hint.clear();
    s.detail.clear();
    s.retryInSeconds = 0;
    m_state = s;
    m_ticks = 0;
    if (m_state.cluster) {
        readNodes();
    }
    Q_EMIT stateChanged(m_state);
    ensureTimer();
}

bool ConnectionWorker::readNodes()
{
    auto nodes = readClusterNodes(*m_connection->current());
    if (nodes) {
        m_state.nodes = *nodes;
        m_state.nodesError.clear();
    } else {
        m_state.nodesError = nodes.error().message;
    }
    return true;
}

void ConnectionWorker::becomeLost(const Error &error)
{
    m_connection.reset();
    m_state.state = ConnectionState::State::Lost;
    describe(error, m_request.endpoint, m_state);
    m_retryLeft = backoffSeconds(m_attempt++);
    m_state.retryInSeconds = m_retryLeft;
    Q_EMIT stateChanged(m_state);
    ensureTimer();
}

void ConnectionWorker::tick()
{
    switch (m_state.state) {
    case ConnectionState::State::Connected: {
        auto rtt = ping(*m_connection->current());
        if (rtt) {
            m_state.rttMs = *rtt;
            if (m_state.cluster && ++m_ticks % nodesEveryTicks == 0) {
                readNodes(); // this thread's: the GUI gets the list with the state
            }
            m_state.error.clear();
            m_state.hint.clear();
            m_state.detail.clear();
            Q_EMIT stateChanged(m_state);
        } else if (rtt.error().isConnectionLoss()) {
            becomeLost(rtt.error());
        } else if (rtt.error().kind == Error::Kind::Auth) {
            // The server came back with a password (or this user was disabled).
            m_connection.reset();
            m_state.state = ConnectionState::State::Failed;
            describe(rtt.error(), m_request.endpoint, m_state);
            Q_EMIT stateChanged(m_state);
        } else {
            // BUSY (a long script), LOADING (a restart reading its data): up, but not serving.
            describe(rtt.error(), m_request.endpoint, m_state);
            Q_EMIT stateChanged(m_state);
        }
        break;
    }
    case ConnectionState::State::Lost:
        if (m_retryLeft > 1) {
            m_state.retryInSeconds = --m_retryLeft;
            Q_EMIT stateChanged(m_state);
        } else {
            m_state.retryInSeconds = 0;
            Q_EMIT stateChanged(m_state);
            attempt();
        }
        break;
    default:
        break;
    }
}

void ConnectionWorker::probe(const ConnectionRequest &request)
{
    ConnectionState s;
    s.request = request.id;
    s.label = request.label;
    s.endpoint = request.endpoint.display();
    s.readOnly = request.endpoint.readOnly;
    Endpoint endpoint = request.endpoint;
    endpoint.ssh.acceptNew = endpoint.ssh.acceptNew || request.trustHostKeyOnce;
    LazyConnection once(endpoint, m_options); // one attempt: the user asked for this one
    auto c = once.get();
    Result<void> hs = c ? handshake(**c, s, probeName) : Result<void>(c.error());
    if (!hs) {
        s.state = ConnectionState::State::Failed;
        describe(hs.error(), request.endpoint, s);
    } else {
        s.state = ConnectionState::State::Connected;
        s.endpoint = (*c)->endpoint().display();
        s.readOnly = (*c)->endpoint().readOnly;
        if (s.cluster) {
            if (auto nodes = readClusterNodes(**c)) {
                s.nodes = *nodes;
            } else {
                s.nodesError = nodes.error().message;
            }
        }
    }
    Q_EMIT probed(s);
}

Result<void> ConnectionWorker::handshake(Connection &c, ConnectionState &s,
                                         const QByteArray &clientName) const
{
    // Named, so that CLIENT LIST tells the console's connection from the application's.
    if (auto r = c.command({QByteArrayLiteral("CLIENT"), QByteArrayLiteral("SETNAME"), clientName});
        !r && endsHandshake(r.error())) {
        return r.error();
    }
    if (auto r = c.command({QByteArrayLiteral("INFO"), QByteArrayLiteral("server")}); r) {
        s.redisVersion = parseVersion(r->str);
    } else if (endsHandshake(r.error())) {
        return r.error();
    }
    if (auto r = c.command({QByteArrayLiteral("INFO"), QByteArrayLiteral("cluster")}); r) {
        s.cluster = r->str.contains("cluster_enabled:1");
    } else if (endsHandshake(r.error())) {
        return r.error();
    }
    // What it offers, by name (unknown, with why, when refused; a lost connection shows in
    // the PING below).
    s.server = redis::detectFeatures(c);
    auto rtt = ping(c);
    if (!rtt) {
        return rtt.error();
    }
    s.rttMs = *rtt;
    return {};
}

Result<double> ConnectionWorker::ping(Connection &c) const
{
    const auto start = std::chrono::steady_clock::now();
    auto r = c.command({QByteArrayLiteral("PING")});
    const auto end = std::chrono::steady_clock::now();
    if (!r) {
        return r.error();
    }
    return std::chrono::duration<double, std::milli>(end - start).count();
}

void ConnectionWorker::describe(const Error &error, const Endpoint &endpoint,
                                ConnectionState &s) const
{
    s.detail = error.message;
    s.unknownHostKey = false;
    // The transports' own failures first: their kinds (Auth, Invalid, Io) would read as a
    // password or a database problem below. Core's message, which names the file, the host or
    // the fingerprint, is the detail.
    const QString &m = error.message;
    if (m.startsWith(QStringLiteral("ssh "))) {
        if (m.contains(QStringLiteral("unknown host key"))) {
            s.error = tr("unknown SSH host key");
            s.hint = tr("%1 is not in known_hosts yet. Check its fingerprint (below) with the "
                        "bastion's administrator, then press Trust this host key.")
                         .arg(endpoint.ssh.display());
            s.unknownHostKey = true;
        } else if (m.contains(QStringLiteral("HOST KEY HAS CHANGED")) ||
                   m.contains(QStringLiteral("key of another type"))) {
            s.error = tr("the SSH host key has changed");
            s.hint = tr("Someone may be intercepting the connection, or the bastion was "
                        "reinstalled. Sluice refuses it; see the details.");
        } else if (error.kind == Error::Kind::Auth || error.kind == Error::Kind::Invalid ||
                   m.contains(QStringLiteral("authentication failed"))) {
            s.error = tr("the SSH login was refused");
            s.hint = tr("Check the SSH user, key file, passphrase or password of the profile.");
        } else {
            s.error = tr("cannot reach the SSH bastion");
            s.hint = tr("Check the SSH host and port, and the network.");
        }
        return;
    }
    if (m.startsWith(QStringLiteral("--tls-"))) {
        s.error = tr("a TLS file cannot be used");
        s.hint = tr("Check the CA file, client certificate and client key of the profile.");
        return;
    }
    if (m.startsWith(QStringLiteral("TLS to Redis"))) {
        s.error = tr("TLS refused");
        s.hint = tr("The server's certificate did not pass the check: check the CA file and the "
                    "server name of the profile.");
        return;
    }
    if (endpoint.kind == Endpoint::Kind::Sentinel &&
        (m.contains(QStringLiteral("sentinel")) || m.contains(QStringLiteral("master '")))) {
        s.error = m.contains(QStringLiteral("no sentinel knows"))
                      ? tr("no sentinel knows the master '%1'").arg(endpoint.masterName)
                      : tr("the sentinels did not give the master '%1'").arg(endpoint.masterName);
        s.hint = tr("Check the master name and the sentinels' addresses.");
        return;
    }
    switch (error.kind) {
    case Error::Kind::Io:
        if (error.message.contains(QStringLiteral("refused"), Qt::CaseInsensitive)) {
            s.error = tr("connection refused");
            s.hint = tr("Nothing listens on %1: is redis-server running there, and is the port "
                        "right?")
                         .arg(endpoint.display());
        } else {
            s.error = tr("cannot reach the server");
            s.hint = tr("Check the host name, the port and the network.");
        }
        break;
    case Error::Kind::Timeout:
        s.error =
            tr("no answer within %1 s")
                .arg(std::max(m_options.connectTimeout, m_options.commandTimeout).count() / 1000.0);
        s.hint = tr("Something at %1 accepts connections but does not answer: is it a Redis "
                    "server, and is it paused or overloaded? Check the address and the port.")
                     .arg(endpoint.display());
        break;
    case Error::Kind::Closed:
        s.error = tr("the server closed the connection");
        s.hint = tr("It may have restarted, reached its client limit, or killed this client.");
        break;
    case Error::Kind::Protocol:
        s.error = tr("not a Redis server");
        s.hint = tr("What answers at %1 does not speak the Redis protocol: check the port.")
                     .arg(endpoint.display());
        break;
    case Error::Kind::Auth:
        if (error.message.contains(QStringLiteral("NOAUTH"))) {
            s.error = tr("a password is required");
            s.hint = tr("This server wants a password: enter it in the profile (and the user "
                        "name, for an ACL user).");
        } else {
            s.error = tr("wrong user name or password");
            s.hint = tr("Redis refused the credentials: check the user name and the password "
                        "in the profile.");
        }
        break;
    case Error::Kind::Invalid:
        s.error = tr("database %1 cannot be selected").arg(endpoint.db);
        s.hint = tr("The server has fewer databases (its 'databases' setting), or it is a "
                    "cluster, which has database 0 only.");
        break;
    default:
        s.error = tr("the server answered with an error");
        s.hint.clear();
        break;
    }
}

void ConnectionWorker::ensureTimer()
{
    if (!m_timer) {
        m_timer = new QTimer(this);
        m_timer->setInterval(tickMs);
        connect(m_timer, &QTimer::timeout, this, &ConnectionWorker::tick);
    }
    if (!m_timer->isActive()) {
        m_timer->start();
    }
}

} // namespace sluice::ui
