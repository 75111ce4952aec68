#pragma once

#include "httpparse.h"
#include "servertls.h"

#include "core/common/result.h"

#include <QByteArray>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <sys/socket.h>

class QSocketNotifier;

namespace sluice::serve {

// Where an answer goes: the connection and the answer's place in the order of its requests.
struct Ticket
{
    quint64 connection = 0;
    quint64 seq = 0;
    int loop = 0; // the HttpServer (CheckService: one per HTTP thread)
};

// A connection's protocol when it is not HTTP/1.1 (the gRPC port's HTTP/2, grpcsession.h): the
// server reads and writes the socket (TLS included) and keeps the connection limits and the
// timers; the session takes the bytes read and makes the bytes to send. In the server's thread.
class ConnSession
{
public:
    virtual ~ConnSession() = default;
    // Bytes read. False: the session is over (a protocol error, a limit passed): what it has
    // to send (a GOAWAY) is written, then the connection closes.
    virtual bool receive(const char *data, size_t size) = 0;
    // Appends what it has to send to `out`, up to about `room` bytes.
    virtual void produce(std::string &out, size_t room) = 0;
    // The client's preface has come (the header timeout stops).
    virtual bool started() const = 0;
    // No call is open (the idle timeout runs).
    virtual bool idle() const = 0;
    // Over: nothing more is read; closed once what it produced is written.
    virtual bool finished() const = 0;
    // Idle too long: says goodbye the protocol's way (HTTP/2: GOAWAY NO_ERROR, so a client such
    // as Envoy opens a new connection for its next call instead of failing it), then is over.
    virtual void goAway() = 0;
};

// Why a new connection is refused (the limits, out of file descriptors).
enum class Refusal { MaxConnections, MaxConnectionsPerPeer, OutOfDescriptors };

// The check service's HTTP/1.1 server: non-blocking sockets on one epoll set, driven from the
// thread that owns it (a QSocketNotifier on the epoll descriptor, so it shares that thread's
// Qt event loop), with the service's limits built in (docs/ARCHITECTURE.md "The HTTP layer":
// why it replaced Qt HTTP Server 6.4). Per connection it
//  - screens every request head as its bytes arrive with a HeadScanner (httpparse.h) and
//    answers 400 (not HTTP, a malformed head, both Content-Length and Transfer-Encoding, an
//    Upgrade), 413 (a body above maxBodyBytes, announced or chunked), 414, 431 (a head above
//    maxHeaderBytes, a Sluice-Subject above maxSubjectBytes) itself, before any of it is
//    buffered, then closes (lingering, as nginx does: stop writing, read and drop what the
//    client still sends for at most 2 s, so the client reads the answer instead of a reset);
//  - closes a connection whose request head does not arrive in headerTimeoutMs (408,
//    slowloris) and a keep-alive connection idle for idleTimeoutMs;
//  - hands every request to the handler with a Ticket and writes the answers (respond()) in
//    the order of the requests, whichever is decided first: pipelined requests are all
//    answered, in order; with maxInFlight requests unanswered, or 64 KiB of answers the client
//    has not read, it stops reading the connection (TCP pushes back on the client) until the
//    client reads;
//  - past maxConnections, or past maxConnectionsPerPeer of one client address, answers a new
//    connection 503 and closes it; out of file descriptors (EMFILE), it says so once in the
//    log and answers what waits in the backlog 503 through a descriptor kept in reserve;
//  - sets a flag the decision workers see once the client has gone (gone()), so a request of
//    a client that left costs no decision.
// Answers written in one turn of the event loop to one connection go out in one write.
// With setTls(), every connection is HTTPS: a non-blocking handshake (SSL_accept's steps as the
// socket is ready) bounded by the header timeout, then SSL_read and SSL_write where recv and
// send were; a client that speaks plain HTTP is answered 400 in plain HTTP, one that fails the
// handshake (no or a wrong client certificate, TLS below 1.2) is closed.
class HttpServer : public QObject
{
    Q_OBJECT
public:
    using Gone = std::shared_ptr<const std::atomic<bool>>;
    // Called for every request, in the server's thread; the views live for the call only.
    using Handler = std::function<void(const RequestHead &, const Ticket &, const Gone &)>;

    // `index` goes into every Ticket; `open` counts the connections of every HttpServer that
    // shares the limit (several threads on one port).
    HttpServer(const HttpLimits &limits, Handler handler, int index = 0,
               std::shared_ptr<std::atomic<int>> open = {}, QObject *parent = nullptr);
    ~HttpServer() override;
    HttpServer(const HttpServer &) = delete;
    HttpServer &operator=(const HttpServer &) = delete;

    // Port 0 picks a free port; the port is returned. Then start() in the thread the server is
    // to run in.
    Result<quint16> listen(const QHostAddress &address, quint16 port);
    void start();
    // The servers (this one among them, each in its own thread) the connections this one
    // accepts are handed to, in turn. None: it keeps them all.
    void shareWith(std::vector<HttpServer *> servers) { m_peers = std::move(servers); }

    // The answer of `ticket` (a whole response); `close` closes the connection after it. An
    // answer for a connection that has gone is dropped. Written at the end of the current
    // turn (flush()).
    void respond(const Ticket &ticket, QByteArray response, bool close);
    // Writes what respond() queued. Called after each batch of events and of answers.
    void flush();

    // Called at the end of every turn (before its answers are written): the handler's
    // requests of the turn can be handed on together.
    void setTurnEnd(std::function<void()> turnEnd) { m_turnEnd = std::move(turnEnd); }

    // Connections open and not closing (what --max-connections counts).
    int connections() const { return m_open->load(); }

    // HTTPS: each new connection takes tls->context() (so a reload applies to the next ones).
    // Before start().
    void setTls(std::shared_ptr<ServerTls> tls) { m_tls = std::move(tls); }

    // One line per change (out of file descriptors, accepting again), in the server's thread.
    void setLog(std::function<void(const QString &)> log) { m_log = std::move(log); }
    // The listener's trouble (out of file descriptors: why; "" once it accepts again).
    void setProblem(std::function<void(const QString &)> problem)
    {
        m_problem = std::move(problem);
    }

    // Another protocol than HTTP/1.1 on every connection (before start()): `sessions` makes
    // each accepted connection's session; a refused connection gets `refusal`'s bytes (on a
    // TLS port: none, a bare close) at once and is closed. `flags` prefixes the names of the
    // limits in messages ("grpc-": --grpc-max-connections).
    using SessionFactory = std::function<std::unique_ptr<ConnSession>(quint64 connection)>;
    using RefusalBytes = std::function<QByteArray(Refusal why, const QString &message)>;
    void setSessions(SessionFactory sessions, RefusalBytes refusal, QString flags)
    {
        m_sessions = std::move(sessions);
        m_refusal = std::move(refusal);
        m_flags = std::move(flags);
    }
    // The session of a connection still open, or none.
    ConnSession *session(quint64 connection);
    // The session of `connection` has bytes to send: written at the end of the turn.
    void wake(quint64 connection);

private:
    struct Conn;
    // The connections open per client address (the IP, as bytes), of the connections this
    // server accepted, wherever they are served: a connection carries the table it counts in.
    struct PeerTable
    {
        std::mutex mutex;
        std::unordered_map<std::string, int> open;
    };
    void uncount(Conn &c); // its places of maxConnections and of its peer are free
    void outOfDescriptors(int error);
    void onEvents();
    void accept();
    void take(int fd, const sockaddr_storage &ss);
    void refuse(int fd, Refusal why, const QString &message);
    void readSession(Conn &c);
    // Reads what the socket has into `take` until `full()` (bytes after a close, a rejection or
    // while lingering are read and dropped); false if the connection closed.
    bool readInto(Conn &c, const std::function<bool()> &full,
                  const std::function<void(const char *, size_t)> &take);
    void markDirty(Conn &c);
    // A connection accepted (and counted) by this server or another.
    void adopt(int fd, std::shared_ptr<PeerTable> peers, std::string peer);
    Conn &add(int fd);
    void onReadable(Conn &c);
    // TLS: drives the handshake; true once it is done (or without TLS). False: it waits for
    // the socket, or failed and the connection is closed or answered 400.
    bool handshake(Conn &c);
    ssize_t receive(Conn &c, char *buffer, size_t size);      // recv or SSL_read, errno as recv's
    ssize_t transmit(Conn &c, const char *data, size_t size); // send or SSL_write
    void process(Conn &c);
    void dispatch(Conn &c, QByteArrayView head, qsizetype consumed);
    void reject(Conn &c, const Rejection &r);
    void writeOut(Conn &c);
    void startLinger(Conn &c);
    void updateInterest(Conn &c);
    void updateTimers(Conn &c);
    void close(Conn &c);
    void sweep();
    Conn *find(quint64 id);

    HttpLimits m_limits;
    Handler m_handler;
    std::function<void()> m_turnEnd;
    int m_listenFd = -1;
    int m_epollFd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QTimer *m_sweep = nullptr;
    int m_index = 0;
    quint64 m_nextId = 1;
    std::shared_ptr<std::atomic<int>> m_open;
    std::shared_ptr<PeerTable> m_peerTable = std::make_shared<PeerTable>();
    std::function<void(const QString &)> m_log;
    std::function<void(const QString &)> m_problem;
    SessionFactory m_sessions;
    RefusalBytes m_refusal;
    QString m_flags;
    std::shared_ptr<ServerTls> m_tls;
    int m_reserveFd = -1;       // /dev/null, closed to answer 503 when descriptors run out
    bool m_fdExhausted = false; // said in the log; said again when accepting works again
    std::vector<HttpServer *> m_peers;
    size_t m_nextPeer = 0;
    std::unordered_map<quint64, std::unique_ptr<Conn>> m_conns;
    std::vector<quint64> m_dirty;                // connections with answers to write
    std::vector<std::unique_ptr<Conn>> m_closed; // closed in this turn: freed after it
};

} // namespace sluice::serve
