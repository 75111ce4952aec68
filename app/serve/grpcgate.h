#pragma once

#include "metrics.h"

#include "core/common/result.h"

#include <QHostAddress>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

#include <sys/socket.h>

class QSocketNotifier;
class QTimer;

namespace grpc::experimental {
class ExternalConnectionAcceptor;
class ServerInterceptorFactoryInterface;
} // namespace grpc::experimental

namespace sluice::serve {

// The gRPC port's own accept loop (serve --grpc): grpc++ 1.51 has no connection limit, stops
// accepting for good after one EMFILE, and has no defence against a client that opens streams
// it never reads or resets them as fast as it opens them. So the service listens itself and
// hands each connection it keeps to gRPC (an ExternalConnectionAcceptor: the server's own
// credentials and handshake apply, TLS included). Per connection it
//  - refuses a connection past maxConnections, or past maxConnectionsPerPeer of one client
//    address: an HTTP/2 GOAWAY (ENHANCE_YOUR_CALM, with the reason) and close, counted in
//    sluice_grpc_connections_refused_total{reason};
//  - out of file descriptors (EMFILE), says so once in the log and in /healthz (`problem`),
//    answers what waits in the backlog through a descriptor kept in reserve, and accepts again
//    as soon as descriptors are free (gRPC's own listener never would);
//  - counts every call of a connection from its first byte to its end (an interceptor): a
//    connection with more than 2 x maxStreams calls unfinished (its client does not read the
//    answers, or ignores MAX_CONCURRENT_STREAMS) or with more than maxResetsPerSecond calls in
//    a second that ended unanswered (cancelled, reset) and fewer answered, is closed (its
//    socket shut down: gRPC frees its streams), counted in
//    sluice_grpc_connections_closed_total{reason}.
// A connection is known by its socket (descriptor and inode), found closed by a sweep every
// 250 ms (gRPC closes the descriptor; it has no close callback).
//
// Threads: listen(), start() and the accept loop in the thread the object lives in; the
// interceptor in gRPC's threads (a lock).
class GrpcGate : public QObject
{
    Q_OBJECT
public:
    struct Limits
    {
        int maxConnections = 256;
        int maxConnectionsPerPeer = 0; // 0: half of maxConnections (at least 1)
        int maxStreams = 100;          // MAX_CONCURRENT_STREAMS of a connection
        int maxResetsPerSecond = 200;  // calls ended unanswered per second on a connection
        // The refusal is a plaintext HTTP/2 GOAWAY; false (a TLS port): a bare close.
        bool plaintext = true;
        int perPeerLimit() const;
    };
    // `problem` is called in this thread with the reason the port is degraded, "" once it is not.
    GrpcGate(Limits limits, Metrics &metrics, std::function<void(const QString &)> log,
             std::function<void(const QString &)> problem, QObject *parent = nullptr);
    ~GrpcGate() override;

    // Port 0 picks a free one (returned).
    Result<quint16> listen(const QHostAddress &address, quint16 port);
    // Accepts from now on, handing connections to `acceptor` (after the server started).
    void start(std::unique_ptr<grpc::experimental::ExternalConnectionAcceptor> acceptor);
    // For the ServerBuilder: counts each call of the connections this gate accepted.
    std::unique_ptr<grpc::experimental::ServerInterceptorFactoryInterface> callCounter();

    int connections() const;

    struct State;

private:
    void onReadable();
    void take(int fd, const sockaddr_storage &ss);
    void outOfDescriptors(int error);
    void refuse(int fd, Metrics::GrpcRefused reason, const QString &why);

    Limits m_limits;
    Metrics &m_metrics;
    std::function<void(const QString &)> m_log;
    std::function<void(const QString &)> m_problem;
    std::shared_ptr<State> m_state;
    std::unique_ptr<grpc::experimental::ExternalConnectionAcceptor> m_acceptor;
    int m_listenFd = -1;
    int m_reserveFd = -1; // /dev/null, closed to take one waiting connection when out of fds
    bool m_fdExhausted = false;
    QSocketNotifier *m_notifier = nullptr;
    QTimer *m_sweep = nullptr;
};

} // namespace sluice::serve
