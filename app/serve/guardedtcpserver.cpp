#include "guardedtcpserver.h"

#include <sys/socket.h>

namespace sluice::serve {

namespace {
// The kernel's send buffer of a connection: small answers, so a client that does not read is
// noticed (GuardedSocket stops reading it) after a few hundred of them, not tens of thousands.
constexpr int sendBufferBytes = 64 * 1024;
} // namespace

GuardedTcpServer::GuardedTcpServer(const HttpLimits &limits, QObject *parent)
    : QTcpServer(parent)
    , m_limits(limits)
{}

void GuardedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new GuardedSocket(m_limits, this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    if (*m_connections >= m_limits.maxConnections) {
        socket->rejectAndClose(503, QStringLiteral("too_many_connections"),
                               QStringLiteral("the service has %1 connections open, its limit "
                                              "(--max-connections); retry later")
                                   .arg(*m_connections));
        return;
    }
    socket->holdSlot(m_connections);
    // Small answers, sent at once: no Nagle delay on keep-alive connections.
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    ::setsockopt(int(descriptor), SOL_SOCKET, SO_SNDBUF, &sendBufferBytes, sizeof sendBufferBytes);
    addPendingConnection(socket);
}

} // namespace sluice::serve
