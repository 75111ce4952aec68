#include "guardedtcpserver.h"

#include "guardedsocket.h"

namespace sluice::serve {

GuardedTcpServer::GuardedTcpServer(qsizetype maxRequestLineBytes, QObject *parent)
    : QTcpServer(parent)
    , m_maxRequestLine(maxRequestLineBytes)
{}

void GuardedTcpServer::incomingConnection(qintptr descriptor)
{
    auto *socket = new GuardedSocket(m_maxRequestLine, this);
    if (!socket->setSocketDescriptor(descriptor)) {
        delete socket;
        return;
    }
    // Small answers, sent at once: no Nagle delay on keep-alive connections.
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    addPendingConnection(socket);
}

} // namespace sluice::serve
