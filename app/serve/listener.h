#pragma once

#include "core/common/result.h"

#include <QByteArray>
#include <QHostAddress>

#include <functional>
#include <string>

#include <sys/socket.h>

namespace sluice::serve {

// A listening TCP socket (non-blocking, close-on-exec, SO_REUSEADDR, a backlog of 1,024; any
// address: one dual-stack socket), the steps the HTTP and the gRPC port share. Port 0 picks a
// free one. Returns the port; *fd gets the socket.
Result<quint16> openListener(const QHostAddress &address, quint16 port, int *fd);

// Accepts one connection of `listenFd` (non-blocking, close-on-exec; EINTR retried) and its
// peer's address: its descriptor, or -1 with *exhausted the errno when the process or the
// system is out of descriptors or memory (EMFILE, ENFILE, ENOBUFS, ENOMEM), 0 when nothing
// waits.
int acceptConnection(int listenFd, sockaddr_storage *peer, int *exhausted);

// One turn of a listener's accept loop, the steps the HTTP and the gRPC port share: up to 256
// connections waiting on `listenFd`, each with TCP_NODELAY handed to `take` with its peer's
// address. Out of descriptors (acceptConnection): `exhausted(errno)`, and the turn ends; the
// first connection after that clears *wasExhausted and calls `recovered` before `take`.
void acceptWaiting(int listenFd, bool *wasExhausted, const std::function<void(int)> &exhausted,
                   const std::function<void()> &recovered,
                   const std::function<void(int, const sockaddr_storage &)> &take);

// Sends `bytes` (best effort: one non-blocking write; none: nothing), reads and drops what the
// client sent already (so that the close is not a reset that could destroy the answer before
// the client reads it), and closes `fd`: a connection refused at once.
void refuseAndClose(int fd, const QByteArray &bytes);

// The client's address of an accepted connection, without the port, as bytes (4 or 16): what
// a per-peer limit counts. An IPv4 client of a dual-stack socket (::ffff:a.b.c.d) is a.b.c.d.
std::string peerAddress(const sockaddr_storage &ss);

} // namespace sluice::serve
