#include "grpcgate.h"

#include "listener.h"
#include "metrics.h"

#include <grpcpp/server_builder.h>
#include <grpcpp/support/server_interceptor.h>

#include <QHostAddress>
#include <QSocketNotifier>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>
#include <unordered_map>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sluice::serve {

namespace {

using Closed = Metrics::GrpcClosed;
using Refused = Metrics::GrpcRefused;

qint64 nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// A connection's client as a key: its address (peerAddress()) and port, from the accepted
// socket's address, or from the name gRPC gives a call's peer (ServerContext::peer():
// ipv4:A.B.C.D:PORT, ipv6:[A::B]:PORT, the brackets maybe percent-encoded), so that the calls
// the interceptor sees find their connection whatever the spelling.
quint16 portOf(const sockaddr_storage &ss)
{
    return ntohs(ss.ss_family == AF_INET ? reinterpret_cast<const sockaddr_in *>(&ss)->sin_port
                                         : reinterpret_cast<const sockaddr_in6 *>(&ss)->sin6_port);
}

std::string keyOf(const sockaddr_storage &ss)
{
    const quint16 port = portOf(ss);
    return peerAddress(ss) + char(port >> 8) + char(port & 0xff);
}

std::string keyOfPeer(std::string_view peer)
{
    const size_t scheme = peer.find(':');
    const size_t colon = peer.rfind(':');
    if (scheme == std::string_view::npos || colon <= scheme) {
        return {};
    }
    std::string host(peer.substr(scheme + 1, colon - scheme - 1));
    for (const char *bracket : {"%5B", "%5b", "%5D", "%5d", "[", "]"}) {
        for (size_t at = host.find(bracket); at != std::string::npos; at = host.find(bracket)) {
            host.erase(at, std::strlen(bracket));
        }
    }
    sockaddr_storage ss{};
    const int port = std::atoi(std::string(peer.substr(colon + 1)).c_str());
    if (auto *sin = reinterpret_cast<sockaddr_in *>(&ss);
        ::inet_pton(AF_INET, host.c_str(), &sin->sin_addr) == 1) {
        ss.ss_family = AF_INET;
        sin->sin_port = htons(quint16(port));
    } else if (auto *sin6 = reinterpret_cast<sockaddr_in6 *>(&ss);
               ::inet_pton(AF_INET6, host.c_str(), &sin6->sin6_addr) == 1) {
        ss.ss_family = AF_INET6;
        sin6->sin6_port = htons(quint16(port));
    } else {
        return {};
    }
    return keyOf(ss);
}

ino_t inodeOf(int fd)
{
    struct stat st
    {};
    return ::fstat(fd, &st) == 0 && S_ISSOCK(st.st_mode) ? st.st_ino : 0;
}

// An HTTP/2 frame header: 24-bit length, type, flags, stream 0.
void putFrame(std::string &out, size_t length, char type)
{
    out += char(length >> 16);
    out += char(length >> 8);
    out += char(length);
    out += type;
    out.append(5, '\0');
}

} // namespace

int GrpcGate::Limits::perPeerLimit() const
{
    return maxConnectionsPerPeer > 0 ? maxConnectionsPerPeer : std::max(1, maxConnections / 2);
}

// The connections of the gate and the calls on them, shared with gRPC's threads.
struct GrpcGate::State
{
    struct Conn
    {
        ino_t inode = 0;
        std::string peer; // the client's address (per-peer limit)
        std::string key;  // and port: keyOf()
        QString name;     // ADDRESS:PORT, for the log
        int inFlight = 0; // calls begun and not ended
        qint64 windowMs = 0;
        int cancelled = 0, answered = 0; // calls ended in the second from windowMs
        bool closing = false;
    };

    Limits limits;
    Metrics *metrics = nullptr;
    std::function<void(const QString &)> log;
    std::mutex mutex;
    std::unordered_map<int, Conn> byFd;
    std::unordered_map<std::string, int> byKey;
    std::unordered_map<std::string, int> perPeer;
    std::atomic<qint64> lastLogMs{0};

    void removeLocked(std::unordered_map<int, Conn>::iterator it)
    {
        if (const auto u = byKey.find(it->second.key); u != byKey.end() && u->second == it->first) {
            byKey.erase(u);
        }
        if (const auto p = perPeer.find(it->second.peer); p != perPeer.end() && --p->second <= 0) {
            perPeer.erase(p);
        }
        byFd.erase(it);
        metrics->setGrpcConnections(int(byFd.size()));
    }

    // Drops the connections gRPC closed: their descriptor is gone or is another socket now.
    void sweepLocked()
    {
        for (auto it = byFd.begin(); it != byFd.end();) {
            auto next = std::next(it);
            if (inodeOf(it->first) != it->second.inode) {
                removeLocked(it);
            }
            it = next;
        }
    }

    Conn *findLocked(const std::string &peer)
    {
        const auto u = byKey.find(keyOfPeer(peer));
        if (u == byKey.end()) {
            return nullptr;
        }
        const auto it = byFd.find(u->second);
        return it == byFd.end() ? nullptr : &it->second;
    }

    // Shuts the connection's socket down (still ours: the same inode): gRPC sees it end and
    // frees its streams.
    void closeLocked(Conn &c, Closed reason, const QString &why)
    {
        if (c.closing) {
            return;
        }
        c.closing = true;
        const int fd = byKey.at(c.key);
        if (inodeOf(fd) == c.inode) {
            ::shutdown(fd, SHUT_RDWR);
        }
        metrics->countGrpcClosed(reason);
        // One line a second at most: a client reconnecting to be closed again must not fill
        // the log (the metric counts them all).
        const qint64 now = nowMs();
        qint64 last = lastLogMs.load();
        if (log && now - last >= 1000 && lastLogMs.compare_exchange_strong(last, now)) {
            log(QStringLiteral("gRPC: closed a connection of %1: %2").arg(c.name, why));
        }
    }

    void begun(const std::string &peer)
    {
        std::lock_guard l(mutex);
        Conn *c = findLocked(peer);
        if (c == nullptr) {
            return;
        }
        if (++c->inFlight > 2 * limits.maxStreams) {
            closeLocked(*c, Closed::Streams,
                        QStringLiteral("%1 calls unfinished, above twice --grpc-max-streams "
                                       "(its client does not read its answers)")
                            .arg(c->inFlight));
        }
    }

    void ended(const std::string &peer, bool cancelled)
    {
        std::lock_guard l(mutex);
        Conn *c = findLocked(peer);
        if (c == nullptr) {
            return;
        }
        --c->inFlight;
        const qint64 now = nowMs();
        if (now - c->windowMs >= 1000) {
            c->windowMs = now;
            c->cancelled = 0;
            c->answered = 0;
        }
        if (!cancelled) {
            ++c->answered;
        } else if (++c->cancelled > limits.maxResetsPerSecond && c->cancelled > c->answered) {
            closeLocked(*c, Closed::Resets,
                        QStringLiteral("%1 calls ended unanswered (reset or cancelled) within a "
                                       "second, above --grpc-max-resets-per-second")
                            .arg(c->cancelled));
        }
    }
};

namespace {

// Counts a call of its connection from its start to its end (its destruction, after the
// answer was written or the call cancelled), and whether it was cancelled (reset by the
// client, or ended before its answer was written), which gRPC knows once the call's close is
// received (POST_RECV_CLOSE), whatever the method.
class CallCounter final : public grpc::experimental::Interceptor
{
public:
    CallCounter(std::shared_ptr<GrpcGate::State> state, grpc::experimental::ServerRpcInfo *info)
        : m_state(std::move(state))
        , m_info(info)
        , m_peer(info->server_context()->peer())
    {
        m_state->begun(m_peer);
    }
    ~CallCounter() override { m_state->ended(m_peer, m_cancelled); }
    void Intercept(grpc::experimental::InterceptorBatchMethods *methods) override
    {
        if (methods->QueryInterceptionHookPoint(
                grpc::experimental::InterceptionHookPoints::POST_RECV_CLOSE)) {
            m_cancelled = m_info->server_context()->IsCancelled();
        }
        methods->Proceed();
    }

private:
    std::shared_ptr<GrpcGate::State> m_state;
    grpc::experimental::ServerRpcInfo *m_info;
    std::string m_peer;
    bool m_cancelled = false;
};

class CallCounterFactory final : public grpc::experimental::ServerInterceptorFactoryInterface
{
public:
    explicit CallCounterFactory(std::shared_ptr<GrpcGate::State> state)
        : m_state(std::move(state))
    {}
    grpc::experimental::Interceptor *
    CreateServerInterceptor(grpc::experimental::ServerRpcInfo *info) override
    {
        return new CallCounter(m_state, info);
    }

private:
    std::shared_ptr<GrpcGate::State> m_state;
};

} // namespace

GrpcGate::GrpcGate(Limits limits, Metrics &metrics, std::function<void(const QString &)> log,
                   std::function<void(const QString &)> problem, QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_metrics(metrics)
    , m_log(std::move(log))
    , m_problem(std::move(problem))
    , m_state(std::make_shared<State>())
{
    m_state->limits = limits;
    m_state->metrics = &metrics;
    m_state->log = m_log;
    m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
}

GrpcGate::~GrpcGate()
{
    if (m_listenFd >= 0) {
        ::close(m_listenFd);
    }
    if (m_reserveFd >= 0) {
        ::close(m_reserveFd);
    }
}

Result<quint16> GrpcGate::listen(const QHostAddress &address, quint16 port)
{
    return openListener(address, port, &m_listenFd);
}

void GrpcGate::start(std::unique_ptr<grpc::experimental::ExternalConnectionAcceptor> acceptor)
{
    m_acceptor = std::move(acceptor);
    m_notifier = new QSocketNotifier(m_listenFd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &GrpcGate::onReadable);
    m_sweep = new QTimer(this);
    connect(m_sweep, &QTimer::timeout, this, [this] {
        std::lock_guard l(m_state->mutex);
        m_state->sweepLocked();
    });
    m_sweep->start(250);
}

std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> GrpcGate::callCounter()
{
    return std::make_unique<CallCounterFactory>(m_state);
}

int GrpcGate::connections() const
{
    std::lock_guard l(m_state->mutex);
    return int(m_state->byFd.size());
}

void GrpcGate::onReadable()
{
    acceptWaiting(
        m_listenFd, &m_fdExhausted, [this](int error) { outOfDescriptors(error); },
        [this] {
            m_log(QStringLiteral("gRPC: file descriptors are available again: accepting "
                                 "connections"));
            m_problem({});
        },
        [this](int fd, const sockaddr_storage &ss) { take(fd, ss); });
}

// A connection accepted: kept and handed to gRPC within the limits, else refused.
void GrpcGate::take(int fd, const sockaddr_storage &ss)
{
    State::Conn c;
    c.inode = inodeOf(fd);
    c.peer = peerAddress(ss);
    c.key = keyOf(ss);
    c.name = QStringLiteral("%1:%2")
                 .arg(QHostAddress(reinterpret_cast<const sockaddr *>(&ss)).toString())
                 .arg(portOf(ss));
    int open = 0, ofPeer = 0;
    {
        std::lock_guard l(m_state->mutex);
        if (int(m_state->byFd.size()) >= m_limits.maxConnections ||
            m_state->perPeer[c.peer] >= m_limits.perPeerLimit()) {
            m_state->sweepLocked(); // some may have closed since the last sweep
        }
        open = int(m_state->byFd.size());
        ofPeer = m_state->perPeer[c.peer];
        if (open < m_limits.maxConnections && ofPeer < m_limits.perPeerLimit()) {
            // A descriptor number gRPC closed and the kernel gave again.
            if (const auto stale = m_state->byFd.find(fd); stale != m_state->byFd.end()) {
                m_state->removeLocked(stale);
            }
            ++m_state->perPeer[c.peer];
            m_state->byKey[c.key] = fd;
            m_state->byFd.emplace(fd, std::move(c));
            m_metrics.setGrpcConnections(int(m_state->byFd.size()));
            open = -1;
        } else if (ofPeer == 0) {
            m_state->perPeer.erase(c.peer);
        }
    }
    if (open < 0) {
        grpc::experimental::ExternalConnectionAcceptor::NewConnectionParameters p;
        p.listener_fd = m_listenFd;
        p.fd = fd;
        m_acceptor->HandleNewConnection(&p);
    } else if (open >= m_limits.maxConnections) {
        refuse(fd, Refused::MaxConnections,
               QStringLiteral("the service has %1 gRPC connections open, its limit "
                              "(--grpc-max-connections); retry later")
                   .arg(open));
    } else {
        refuse(fd, Refused::MaxConnectionsPerPeer,
               QStringLiteral("this client address has %1 gRPC connections open, the limit "
                              "of one address (--grpc-max-connections-per-peer); retry "
                              "later")
                   .arg(ofPeer));
    }
}

// A connection refused: on a plaintext port the server's HTTP/2 preface (empty SETTINGS) and a
// GOAWAY (ENHANCE_YOUR_CALM, the reason as its debug data), which a gRPC client reports as
// UNAVAILABLE with the reason; then close.
void GrpcGate::refuse(int fd, Refused reason, const QString &why)
{
    m_metrics.countGrpcRefused(reason);
    if (m_limits.plaintext) {
        const std::string debug = why.toStdString();
        std::string out;
        putFrame(out, 0, '\x04'); // SETTINGS
        putFrame(out, 8 + debug.size(), '\x07');
        out.append(4, '\0');                    // last stream id: none
        out.append({'\0', '\0', '\0', '\x0b'}); // ENHANCE_YOUR_CALM
        out += debug;
        [[maybe_unused]] const ssize_t sent = ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
    }
    // What the client sent already is read and dropped, so the close is not a reset that
    // could destroy the GOAWAY before the client reads it.
    char drop[4096];
    for (int i = 0; i < 16 && ::recv(fd, drop, sizeof drop, 0) > 0; ++i) {
    }
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
}

void GrpcGate::outOfDescriptors(int error)
{
    if (!m_fdExhausted) {
        m_fdExhausted = true;
        const QString why =
            QStringLiteral("out of file descriptors (%1) with %2 gRPC connections open: new "
                           "connections are refused until some close; raise the limit "
                           "(LimitNOFILE=) or lower --grpc-max-connections")
                .arg(QString::fromLocal8Bit(std::strerror(error)))
                .arg(connections());
        m_log(QStringLiteral("gRPC: ") + why);
        m_problem(why);
    }
    // The descriptor kept in reserve takes one waiting connection at a time: it is refused
    // instead of waiting in the backlog for a place.
    for (int i = 0; i < 256 && m_reserveFd >= 0; ++i) {
        ::close(m_reserveFd);
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            refuse(fd, Refused::OutOfDescriptors,
                   QStringLiteral("the service is out of file descriptors; retry later"));
        }
        m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            break;
        }
    }
    // Stop accepting for a moment (the listening socket would wake the loop again at once).
    m_notifier->setEnabled(false);
    QTimer::singleShot(100, this, [this] {
        {
            std::lock_guard l(m_state->mutex);
            m_state->sweepLocked();
        }
        m_notifier->setEnabled(true);
    });
}

} // namespace sluice::serve
