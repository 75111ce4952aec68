#include "httpserver.h"

#include "httpreply.h"
#include "listener.h"

#include <QSocketNotifier>

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <string>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sluice::serve {

namespace {

constexpr qint64 lingerMs = 2000;
// Answers not yet taken by the kernel above this: the client does not read; stop reading it.
constexpr size_t maxUnsentBytes = 64 * 1024;
// The kernel's send buffer of a connection: small answers, so a client that does not read is
// noticed after a few hundred of them, not tens of thousands.
constexpr int sendBufferBytes = 64 * 1024;
constexpr int maxEvents = 256;

qint64 nowMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

} // namespace

struct HttpServer::Conn
{
    Conn(quint64 i, int f, const HttpLimits &limits)
        : id(i)
        , fd(f)
        , scanner(limits)
    {}
    ~Conn() { SSL_free(ssl); }
    quint64 id;
    int fd;
    SSL *ssl = nullptr;          // HTTPS: its TLS session
    bool handshaking = false;    // HTTPS: the handshake is not done; nothing is read or written
    bool readWantsWrite = false; // HTTPS: SSL_read must send first (wait for EPOLLOUT)
    HeadScanner scanner;         // runs ahead of the parser over every byte read
    std::string in;              // bytes read and not yet parsed, from inPos
    size_t inPos = 0;
    quint64 parsed = 0; // heads parsed and handed on (<= scanner.heads())
    Rejection pending;  // the scanner's verdict on a later head: answered after those before
    bool done = false;  // no more requests are read (a close was asked for, or a rejection)
    bool lingering = false;
    bool counted = true;              // holds a place of maxConnections (and one of its peer's)
    std::shared_ptr<PeerTable> peers; // where its peer's place is counted; none: not counted
    std::string peer;
    bool dirty = false;
    quint64 nextSeq = 0;                                  // of the next request
    quint64 writeSeq = 0;                                 // of the next answer to write
    std::map<quint64, std::pair<QByteArray, bool>> ready; // answers decided out of order
    std::string out;                                      // answers to write, from outPos
    size_t outPos = 0;
    bool closeAfterOut = false;
    bool blocked = false; // the last write did not take everything: wait for EPOLLOUT
    uint32_t events = 0;  // the epoll interest set
    std::shared_ptr<std::atomic<bool>> gone = std::make_shared<std::atomic<bool>>(false);
    qint64 headDeadline = 0; // ms (steady clock); 0: none
    qint64 idleDeadline = 0;
    qint64 lingerDeadline = 0;
    std::unique_ptr<ConnSession> session; // another protocol than HTTP/1.1 (setSessions)

    size_t unsent() const { return out.size() - outPos; }
};

HttpServer::HttpServer(const HttpLimits &limits, Handler handler, int index,
                       std::shared_ptr<std::atomic<int>> open, QObject *parent)
    : QObject(parent)
    , m_limits(limits)
    , m_handler(std::move(handler))
    , m_index(index)
    , m_open(open ? std::move(open) : std::make_shared<std::atomic<int>>(0))
{
    m_epollFd = ::epoll_create1(EPOLL_CLOEXEC);
    m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
    // Children: they move with the server to its thread.
    m_sweep = new QTimer(this);
    const int shortest = std::min(m_limits.headerTimeoutMs, m_limits.idleTimeoutMs);
    m_sweep->setInterval(std::clamp(shortest / 8, 10, 250));
    connect(m_sweep, &QTimer::timeout, this, &HttpServer::sweep);
}

HttpServer::~HttpServer()
{
    for (auto &[id, c] : m_conns) {
        c->gone->store(true);
        uncount(*c);
        ::close(c->fd);
    }
    m_conns.clear();
    if (m_reserveFd >= 0) {
        ::close(m_reserveFd);
    }
    if (m_listenFd >= 0) {
        ::close(m_listenFd);
    }
    if (m_epollFd >= 0) {
        ::close(m_epollFd);
    }
}

Result<quint16> HttpServer::listen(const QHostAddress &address, quint16 port)
{
    if (m_listenFd >= 0) {
        return Error::make(Error::Kind::Internal, QStringLiteral("the service listens already"));
    }
    if (m_epollFd < 0) {
        return Error::make(Error::Kind::Io, QStringLiteral("cannot listen on %1:%2: %3 "
                                                           "(epoll_create1)")
                                                .arg(address.toString())
                                                .arg(port)
                                                .arg(QString::fromLocal8Bit(std::strerror(errno))));
    }
    auto bound = openListener(address, port, &m_listenFd);
    if (!bound) {
        return bound;
    }
    epoll_event ev{};
    ev.events = EPOLLIN;
    ev.data.u64 = 0; // the listening socket; connections count from 1
    ::epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_listenFd, &ev);
    return bound;
}

void HttpServer::start()
{
    if (m_notifier != nullptr || m_epollFd < 0) {
        return;
    }
    m_notifier = new QSocketNotifier(m_epollFd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &HttpServer::onEvents);
    m_sweep->start();
}

HttpServer::Conn *HttpServer::find(quint64 id)
{
    const auto it = m_conns.find(id);
    return it == m_conns.end() ? nullptr : it->second.get();
}

void HttpServer::onEvents()
{
    epoll_event events[maxEvents];
    for (int round = 0; round < 4; ++round) {
        const int n = ::epoll_wait(m_epollFd, events, maxEvents, 0);
        for (int i = 0; i < n; ++i) {
            const quint64 id = events[i].data.u64;
            if (id == 0) {
                accept();
                continue;
            }
            Conn *c = find(id);
            if (c == nullptr) {
                continue;
            }
            const uint32_t e = events[i].events;
            if ((e & EPOLLERR) != 0) {
                close(*c);
                continue;
            }
            if ((e & EPOLLOUT) != 0) {
                writeOut(*c);
                if ((c = find(id)) == nullptr) {
                    continue;
                }
                if (c->readWantsWrite) {
                    c->readWantsWrite = false;
                    onReadable(*c);
                    continue;
                }
            }
            if ((e & (EPOLLHUP | EPOLLRDHUP)) != 0 && (c->events & EPOLLIN) == 0) {
                close(*c); // gone while it was not read (paused): it will not read its answers
                continue;
            }
            if ((e & (EPOLLIN | EPOLLHUP | EPOLLRDHUP)) != 0) {
                onReadable(*c);
            }
        }
        if (n < maxEvents) {
            break;
        }
    }
    flush();
}

void HttpServer::accept()
{
    acceptWaiting(
        m_listenFd, &m_fdExhausted, [this](int error) { outOfDescriptors(error); },
        [this] {
            if (m_log) {
                m_log(QStringLiteral("file descriptors are available again: accepting "
                                     "connections"));
            }
            if (m_problem) {
                m_problem({});
            }
        },
        [this](int fd, const sockaddr_storage &ss) { take(fd, ss); });
}

// A connection accepted: counted and served here or by a peer server within the limits, else
// answered 503 and closed.
void HttpServer::take(int fd, const sockaddr_storage &ss)
{
    ::setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sendBufferBytes, sizeof sendBufferBytes);
    std::string peer = peerAddress(ss);
    if (m_open->fetch_add(1) >= m_limits.maxConnections) {
        --*m_open;
        refuse(fd, Refusal::MaxConnections,
               QStringLiteral("the service has %1 connections open, its limit "
                              "(--%2max-connections); retry later")
                   .arg(m_open->load())
                   .arg(m_flags));
        return;
    }
    int ofPeer = 0;
    {
        std::lock_guard l(m_peerTable->mutex);
        ofPeer = ++m_peerTable->open[peer];
        if (ofPeer > m_limits.perPeerLimit()) {
            if (--m_peerTable->open[peer] == 0) {
                m_peerTable->open.erase(peer);
            }
        }
    }
    if (ofPeer > m_limits.perPeerLimit()) {
        --*m_open;
        refuse(fd, Refusal::MaxConnectionsPerPeer,
               QStringLiteral("this client address has %1 connections open, the limit of one "
                              "address (--%2max-connections-per-peer); retry later")
                   .arg(ofPeer - 1)
                   .arg(m_flags));
        return;
    }
    HttpServer *to = m_peers.empty() ? this : m_peers[m_nextPeer++ % m_peers.size()];
    if (to == this) {
        adopt(fd, m_peerTable, std::move(peer));
    } else {
        // Its thread takes it from here (a server that is gone takes nothing: the
        // process is stopping).
        QMetaObject::invokeMethod(
            to,
            [to, fd, table = m_peerTable, peer = std::move(peer)]() mutable {
                to->adopt(fd, std::move(table), std::move(peer));
                to->flush();
            },
            Qt::QueuedConnection);
    }
}

// Refused at once, before it costs more than its descriptor: HTTP's 503 is written after the
// TLS handshake (a connection of its own, lingering); another protocol's refusal (setSessions)
// is written now, or on a TLS port the connection is closed bare.
void HttpServer::refuse(int fd, Refusal why, const QString &message)
{
    if (m_refusal) {
        const QByteArray bytes = m_refusal(why, message); // (counts it)
        refuseAndClose(fd, m_tls ? QByteArray() : bytes);
        return;
    }
    Conn &c = add(fd);
    c.counted = false;
    reject(c, Rejection{503, QStringLiteral("too_many_connections"), message});
}

void HttpServer::outOfDescriptors(int error)
{
    if (!m_fdExhausted) {
        m_fdExhausted = true;
        const QString why =
            QStringLiteral("out of file descriptors (%1) with %2 connections open: new "
                           "connections are refused until some close; raise the limit (ulimit "
                           "-n, LimitNOFILE=) or lower --%3max-connections")
                .arg(QString::fromLocal8Bit(std::strerror(error)))
                .arg(m_open->load())
                .arg(m_flags);
        if (m_log) {
            m_log(why);
        }
        if (m_problem) {
            m_problem(why);
        }
    }
    // The descriptor kept in reserve takes one waiting connection at a time: it gets its 503
    // (best effort: a non-blocking write, the request it sent read and dropped so the close is
    // not a reset) instead of waiting in the backlog for a place.
    for (int i = 0; i < 256 && m_reserveFd >= 0; ++i) {
        ::close(m_reserveFd);
        const int fd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0) {
            const QString message =
                QStringLiteral("the service is out of file descriptors; retry later");
            QByteArray bytes;
            if (m_refusal) {
                bytes = m_refusal(Refusal::OutOfDescriptors, message); // (counts it)
                bytes = m_tls ? QByteArray() : bytes;
            } else {
                bytes = formatResponse(
                    503, {}, errorBody(503, QStringLiteral("too_many_connections"), message), true);
            }
            refuseAndClose(fd, bytes);
        }
        m_reserveFd = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            break;
        }
    }
    // Stop accepting for a moment (level-triggered, the listening socket would wake the loop
    // again at once).
    ::epoll_ctl(m_epollFd, EPOLL_CTL_DEL, m_listenFd, nullptr);
    QTimer::singleShot(100, this, [this] {
        epoll_event ev{};
        ev.events = EPOLLIN;
        ev.data.u64 = 0;
        ::epoll_ctl(m_epollFd, EPOLL_CTL_ADD, m_listenFd, &ev);
    });
}

void HttpServer::uncount(Conn &c)
{
    if (!c.counted) {
        return;
    }
    c.counted = false;
    --*m_open;
    if (c.peers) {
        std::lock_guard l(c.peers->mutex);
        if (const auto it = c.peers->open.find(c.peer);
            it != c.peers->open.end() && --it->second <= 0) {
            c.peers->open.erase(it);
        }
    }
}

HttpServer::Conn &HttpServer::add(int fd)
{
    const quint64 id = m_nextId++;
    auto owned = std::make_unique<Conn>(id, fd, m_limits);
    Conn &c = *owned;
    m_conns.emplace(id, std::move(owned));
    c.events = EPOLLIN | EPOLLRDHUP;
    epoll_event ev{};
    ev.events = c.events;
    ev.data.u64 = id;
    ::epoll_ctl(m_epollFd, EPOLL_CTL_ADD, fd, &ev);
    if (m_tls) {
        // The handshake, whatever the connection is answered, within the header timeout (a
        // client that never finishes it is cut then). No SSL (out of memory): it fails at once.
        c.ssl = SSL_new(m_tls->context().get());
        if (c.ssl != nullptr) {
            SSL_set_fd(c.ssl, fd);
            SSL_set_accept_state(c.ssl);
            if (m_sessions) {
                markHttp2(c.ssl);
            }
        }
        c.handshaking = true;
        c.headDeadline = nowMs() + m_limits.headerTimeoutMs;
    }
    return c;
}

void HttpServer::adopt(int fd, std::shared_ptr<PeerTable> peers, std::string peer)
{
    Conn &c = add(fd);
    c.peers = std::move(peers);
    c.peer = std::move(peer);
    if (m_sessions) {
        c.session = m_sessions(c.id);
    }
    // The first request must come within the header timeout (a connection that sends
    // nothing is a slowloris too).
    c.headDeadline = nowMs() + m_limits.headerTimeoutMs;
}

bool HttpServer::handshake(Conn &c)
{
    if (!c.handshaking) {
        return true;
    }
    ERR_clear_error();
    const int r = c.ssl != nullptr ? SSL_do_handshake(c.ssl) : -1;
    if (r == 1) {
        c.handshaking = false;
        c.blocked = false;
        if (c.unsent() > 0) {
            // An answer queued meanwhile (503 past the connection limits) goes out now, and
            // the client has all the time it takes to read it, as over plain HTTP.
            c.headDeadline = 0;
            if (!c.dirty) {
                c.dirty = true;
                m_dirty.push_back(c.id);
            }
        }
        return true;
    }
    const int e = c.ssl != nullptr ? SSL_get_error(c.ssl, r) : SSL_ERROR_SSL;
    if (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) {
        c.blocked = e == SSL_ERROR_WANT_WRITE;
        updateInterest(c);
        return false;
    }
    const bool plainHttp = ERR_GET_REASON(ERR_peek_error()) == SSL_R_HTTP_REQUEST;
    ERR_clear_error();
    if (!plainHttp || c.done) {
        close(c); // not TLS, a failed client certificate, a protocol below TLS 1.2
        return false;
    }
    // Plain HTTP on the HTTPS port: answered so, in plain HTTP, as nginx does.
    SSL_free(c.ssl);
    c.ssl = nullptr;
    c.handshaking = false;
    c.blocked = false;
    reject(c, Rejection{400, QStringLiteral("tls_required"),
                        QStringLiteral("this port speaks HTTPS (TLS); use https://")});
    return false;
}

ssize_t HttpServer::receive(Conn &c, char *buffer, size_t size)
{
    if (c.ssl == nullptr || c.lingering) {
        return ::recv(c.fd, buffer, size, 0); // lingering: the bytes are dropped unread
    }
    ERR_clear_error();
    const int n = SSL_read(c.ssl, buffer, int(std::min(size, size_t(INT_MAX))));
    if (n > 0) {
        return n;
    }
    switch (SSL_get_error(c.ssl, n)) {
    case SSL_ERROR_ZERO_RETURN:
        return 0; // close_notify
    case SSL_ERROR_WANT_WRITE:
        c.readWantsWrite = true;
        c.blocked = true;
        [[fallthrough]];
    case SSL_ERROR_WANT_READ:
        errno = EAGAIN;
        return -1;
    default:
        ERR_clear_error();
        errno = ECONNRESET; // a broken record, or the peer went without close_notify
        return -1;
    }
}

ssize_t HttpServer::transmit(Conn &c, const char *data, size_t size)
{
    if (c.ssl == nullptr) {
        return ::send(c.fd, data, size, MSG_NOSIGNAL);
    }
    // Partial writes are on (servertls.cpp): a record at a time; after a WANT_WRITE the same
    // bytes are offered again, from where the buffer then is.
    ERR_clear_error();
    const int n = SSL_write(c.ssl, data, int(std::min(size, size_t(INT_MAX))));
    if (n > 0) {
        return n;
    }
    const int e = SSL_get_error(c.ssl, n);
    ERR_clear_error();
    errno = e == SSL_ERROR_WANT_WRITE || e == SSL_ERROR_WANT_READ ? EAGAIN : EPIPE;
    return -1;
}

void HttpServer::onReadable(Conn &c)
{
    if (!handshake(c)) {
        return;
    }
    if (c.session) {
        readSession(c);
        return;
    }
    // Unparsed bytes held at most: a whole request (head + body) always fits.
    const size_t cap = size_t(2 * (m_limits.maxHeaderBytes + m_limits.maxBodyBytes) + 65536);
    const bool open = readInto(
        c, [&] { return c.in.size() - c.inPos >= cap; },
        [&](const char *data, size_t n) {
            c.in.append(data, n);
            if (Rejection r = c.scanner.feed(QByteArrayView(data, qsizetype(n)))) {
                c.pending = std::move(r);
            }
        });
    if (!open) {
        return;
    }
    process(c);
}

bool HttpServer::readInto(Conn &c, const std::function<bool()> &full,
                          const std::function<void(const char *, size_t)> &take)
{
    char buffer[65536];
    for (;;) {
        const bool drop = c.done || c.lingering || c.pending;
        if (!drop && full()) {
            break; // read again once some of it is taken
        }
        const ssize_t n = receive(c, buffer, sizeof buffer);
        if (n == 0) {
            close(c); // the client has gone (or, lingering, has read the answer)
            return false;
        }
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno != EAGAIN && errno != EWOULDBLOCK) {
                close(c);
                return false;
            }
            break;
        }
        if (!drop) {
            take(buffer, size_t(n)); // (after a close or a rejection: read and dropped)
        }
        if (size_t(n) < sizeof buffer && c.ssl == nullptr) {
            break; // (TLS returns a record at a time: read on until it has no more)
        }
    }
    return true;
}

// Another protocol's connection: what is read goes to its session, until its answers wait
// unsent above maxUnsentBytes (the client does not read: TCP pushes back on it).
void HttpServer::readSession(Conn &c)
{
    const bool open = readInto(
        c, [&] { return c.unsent() > maxUnsentBytes; },
        [&](const char *data, size_t n) {
            if (!c.session->receive(data, n)) {
                c.done = true; // its GOAWAY is written, then it closes
            }
        });
    if (!open) {
        return;
    }
    markDirty(c);
    updateInterest(c);
    updateTimers(c);
}

void HttpServer::markDirty(Conn &c)
{
    if (!c.dirty) {
        c.dirty = true;
        m_dirty.push_back(c.id);
    }
}

ConnSession *HttpServer::session(quint64 connection)
{
    Conn *c = find(connection);
    return c == nullptr || c->lingering ? nullptr : c->session.get();
}

void HttpServer::wake(quint64 connection)
{
    if (Conn *c = find(connection); c != nullptr && !c->lingering) {
        markDirty(*c);
    }
}

void HttpServer::process(Conn &c)
{
    if (c.session) {
        updateInterest(c);
        updateTimers(c);
        return;
    }
    auto paused = [&] {
        return c.nextSeq - c.writeSeq >= quint64(m_limits.maxInFlight) ||
               c.unsent() > maxUnsentBytes;
    };
    while (!c.done && c.parsed < c.scanner.heads() && !paused()) {
        // Blank lines between requests are tolerated (RFC 9112 2.2), as the scanner does.
        while (c.inPos < c.in.size() && (c.in[c.inPos] == '\r' || c.in[c.inPos] == '\n')) {
            ++c.inPos;
        }
        const QByteArrayView rest(c.in.data() + c.inPos, qsizetype(c.in.size() - c.inPos));
        const qsizetype end = headEnd(rest);
        if (end < 0) {
            break; // cannot be: the scanner saw this head whole
        }
        const QByteArrayView head = rest.first(end);
        RequestHead h;
        if (!parseRequestHead(head, &h)) {
            reject(c, rejectMalformed(head, m_limits));
            break;
        }
        if (rest.size() - end < h.contentLength) {
            break; // its body is still coming
        }
        ++c.parsed;
        const Ticket t{c.id, c.nextSeq++, m_index};
        if (h.close) {
            c.done = true; // requests after this one are not read
        }
        h.body = rest.sliced(end, qsizetype(h.contentLength));
        m_handler(h, t, c.gone);
        c.inPos += size_t(end + h.contentLength);
    }
    if (c.inPos == c.in.size()) {
        c.in.clear();
        c.inPos = 0;
    } else if (c.inPos > 65536) {
        c.in.erase(0, c.inPos);
        c.inPos = 0;
    }
    if (!c.done && c.pending && c.parsed == c.scanner.heads()) {
        reject(c, c.pending);
    }
    updateInterest(c);
    updateTimers(c);
}

void HttpServer::reject(Conn &c, const Rejection &rejection)
{
    const Rejection r = rejection; // it may be c.pending
    c.done = true;
    c.pending = {};
    c.in.clear();
    c.inPos = 0;
    // After the answers to the requests before this one (pipelining).
    respond(Ticket{c.id, c.nextSeq++, m_index},
            formatResponse(r.status, {}, errorBody(r.status, r.code, r.message), true), true);
}

void HttpServer::respond(const Ticket &t, QByteArray response, bool close)
{
    Conn *c = find(t.connection);
    if (c == nullptr || c->lingering || c->closeAfterOut || t.seq < c->writeSeq ||
        t.seq >= c->nextSeq) {
        return; // the client has gone, or the connection closes after an earlier answer
    }
    if (t.seq != c->writeSeq) {
        c->ready.emplace(t.seq, std::make_pair(std::move(response), close));
        return;
    }
    c->out.append(response.constData(), size_t(response.size()));
    ++c->writeSeq;
    c->closeAfterOut = close;
    while (!c->closeAfterOut) {
        const auto it = c->ready.find(c->writeSeq);
        if (it == c->ready.end()) {
            break;
        }
        c->out.append(it->second.first.constData(), size_t(it->second.first.size()));
        c->closeAfterOut = it->second.second;
        c->ready.erase(it);
        ++c->writeSeq;
    }
    if (c->closeAfterOut) {
        c->done = true;
        c->ready.clear();
    }
    if (!c->dirty) {
        c->dirty = true;
        m_dirty.push_back(c->id);
    }
}

void HttpServer::flush()
{
    if (m_turnEnd) {
        m_turnEnd();
    }
    while (!m_dirty.empty()) {
        std::vector<quint64> ids;
        ids.swap(m_dirty);
        for (const quint64 id : ids) {
            Conn *c = find(id);
            if (c == nullptr) {
                continue;
            }
            c->dirty = false;
            writeOut(*c);
            if ((c = find(id)) != nullptr && !c->lingering) {
                process(*c); // answered requests may let the next ones be read
            }
        }
        if (m_turnEnd) {
            m_turnEnd();
        }
    }
    m_closed.clear();
}

void HttpServer::writeOut(Conn &c)
{
    if (!handshake(c)) {
        return; // what is queued goes out once it is done
    }
    bool more = false; // the session had more to send than fitted
    if (c.session && !c.lingering && !c.closeAfterOut) {
        if (c.unsent() < maxUnsentBytes) {
            const size_t room = maxUnsentBytes - c.unsent();
            const size_t before = c.out.size();
            c.session->produce(c.out, room);
            more = c.out.size() - before >= room;
        }
        if (c.done || c.session->finished()) {
            // Its last frames (a GOAWAY) go out, then it closes; a client that does not read
            // them is cut when the linger time runs out.
            c.done = true;
            c.closeAfterOut = true;
            c.lingerDeadline = nowMs() + lingerMs;
        }
    }
    while (c.unsent() > 0) {
        const ssize_t n = transmit(c, c.out.data() + c.outPos, c.unsent());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                c.blocked = true;
                break;
            }
            close(c); // the client has gone
            return;
        }
        c.outPos += size_t(n);
    }
    if (c.unsent() == 0) {
        c.blocked = false;
        c.out.clear();
        c.outPos = 0;
        if (c.closeAfterOut && !c.lingering) {
            startLinger(c);
            return;
        }
        if (more) {
            markDirty(c); // the rest in the next round of this turn
        }
    }
    updateInterest(c);
}

void HttpServer::startLinger(Conn &c)
{
    // FIN after the answer; keep reading (and dropping) until the client closes or the linger
    // time runs out. Closing with unread input would send a reset that can destroy the answer
    // before the client reads it. The place of maxConnections is free from now on: the client
    // sees the connection closed. TLS says so first (close_notify, best effort).
    if (c.ssl != nullptr) {
        ERR_clear_error();
        SSL_shutdown(c.ssl);
        ERR_clear_error();
    }
    ::shutdown(c.fd, SHUT_WR);
    c.lingering = true;
    c.done = true;
    c.gone->store(true);
    c.in.clear();
    c.inPos = 0;
    c.lingerDeadline = nowMs() + lingerMs;
    c.headDeadline = c.idleDeadline = 0;
    uncount(c);
    updateInterest(c);
}

void HttpServer::updateInterest(Conn &c)
{
    uint32_t want = EPOLLRDHUP;
    const bool paused =
        (c.session == nullptr && c.nextSeq - c.writeSeq >= quint64(m_limits.maxInFlight)) ||
        c.unsent() > maxUnsentBytes;
    const size_t cap = size_t(2 * (m_limits.maxHeaderBytes + m_limits.maxBodyBytes) + 65536);
    if (c.lingering || c.done || c.pending || (!paused && c.in.size() - c.inPos < cap)) {
        want |= EPOLLIN;
    }
    if (c.blocked) {
        want |= EPOLLOUT;
    }
    if (want == c.events) {
        return;
    }
    c.events = want;
    epoll_event ev{};
    ev.events = want;
    ev.data.u64 = c.id;
    ::epoll_ctl(m_epollFd, EPOLL_CTL_MOD, c.fd, &ev);
}

void HttpServer::updateTimers(Conn &c)
{
    if (c.done || c.lingering) {
        c.headDeadline = c.idleDeadline = 0;
        return;
    }
    if (c.session) {
        if (!c.session->started()) {
            return; // its preface: within the header timeout since it connected
        }
        c.headDeadline = 0;
        if (!c.session->idle() || c.unsent() > 0) {
            c.idleDeadline = 0;
        } else if (c.idleDeadline == 0) {
            c.idleDeadline = nowMs() + m_limits.idleTimeoutMs;
        }
        return;
    }
    if (c.scanner.inRequest()) {
        c.idleDeadline = 0;
        if (c.headDeadline == 0) {
            c.headDeadline = nowMs() + m_limits.headerTimeoutMs;
        }
        return;
    }
    if (c.nextSeq == 0) {
        return; // the first request: its timer runs since the connection opened
    }
    c.headDeadline = 0;
    if (c.nextSeq != c.writeSeq || c.unsent() > 0 || c.parsed < c.scanner.heads()) {
        c.idleDeadline = 0; // waiting for a decision, the client, or a turn to be read
    } else if (c.idleDeadline == 0) {
        c.idleDeadline = nowMs() + m_limits.idleTimeoutMs;
    }
}

void HttpServer::close(Conn &c)
{
    c.gone->store(true);
    uncount(c);
    ::epoll_ctl(m_epollFd, EPOLL_CTL_DEL, c.fd, nullptr);
    ::close(c.fd);
    // Freed after this turn: callers up the stack may still hold it.
    const auto it = m_conns.find(c.id);
    m_closed.push_back(std::move(it->second));
    m_conns.erase(it);
}

void HttpServer::sweep()
{
    const qint64 now = nowMs();
    std::vector<quint64> lapsed;
    for (const auto &[id, c] : m_conns) {
        if ((c->lingerDeadline != 0 && now >= c->lingerDeadline) ||
            (c->headDeadline != 0 && now >= c->headDeadline) ||
            (c->idleDeadline != 0 && now >= c->idleDeadline)) {
            lapsed.push_back(id);
        }
    }
    for (const quint64 id : lapsed) {
        Conn *c = find(id);
        if (c == nullptr) {
            continue;
        }
        if (c->session && c->idleDeadline != 0 && !c->lingering) {
            // An idle HTTP/2 connection: a GOAWAY first, then it closes once that is written.
            c->session->goAway();
            c->idleDeadline = 0;
            c->done = true;
            markDirty(*c);
        } else if (c->lingering || c->idleDeadline != 0 || c->handshaking || c->session) {
            // Lingered long enough; or a keep-alive connection with nothing to do: closed
            // without an answer (as nginx's keepalive_timeout); the client opens a new one. A
            // TLS handshake not done within the header timeout: nothing can be said to it.
            close(*c);
        } else {
            reject(*c, Rejection{408, QStringLiteral("request_timeout"),
                                 QStringLiteral("the request did not arrive within %1 ms")
                                     .arg(m_limits.headerTimeoutMs)});
        }
    }
    flush();
}

} // namespace sluice::serve
