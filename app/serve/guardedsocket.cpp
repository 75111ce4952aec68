#include "guardedsocket.h"

#include "httpreply.h"

#include <QMetaMethod>
#include <QTimer>

#include <sys/socket.h>

namespace sluice::serve {

namespace {
constexpr int lingerMs = 2000;
}

GuardedSocket::GuardedSocket(qsizetype maxRequestLineBytes, QObject *parent)
    : QTcpSocket(parent)
    , m_maxRequestLine(maxRequestLineBytes)
{
    // Connected before the HTTP server connects its own handler, so it runs first.
    connect(this, &QTcpSocket::readyRead, this, &GuardedSocket::screen);
}

void GuardedSocket::screen()
{
    // The server starts a read transaction at the start of a request and commits it at the
    // end: no transaction = these bytes start a new request. A request starts with a method
    // (upper-case letters) and a space; anything else is not HTTP (TLS, garbage), and Qt 6.4
    // would leave such a connection hanging.
    if (m_rejected || isTransactionStarted()) {
        return;
    }
    const QByteArray head = peek(17);
    if (head.isEmpty() || head.front() == '\r' || head.front() == '\n') {
        return;
    }
    qsizetype i = 0;
    while (i < head.size() && head[i] >= 'A' && head[i] <= 'Z') {
        ++i;
    }
    const bool method = i > 0 && (i == head.size() ? i < 17 : head[i] == ' ');
    if (!method) {
        rejectAndClose(400, QStringLiteral("bad_request"),
                       QStringLiteral("this is not an HTTP/1.x request (it must start with a "
                                      "method such as GET and a space)"));
    }
}

void GuardedSocket::disconnectNotify(const QMetaMethod &signal)
{
    // Invalid method = "every signal was disconnected": the HTTP server gave up on the request.
    if (!signal.isValid() && !m_rejected && state() == QAbstractSocket::ConnectedState) {
        m_rejected = true;
        // Not from inside disconnect(): the server is still in its readyRead handler.
        QMetaObject::invokeMethod(this, &GuardedSocket::rejectMalformed, Qt::QueuedConnection);
    }
}

void GuardedSocket::rejectMalformed()
{
    // The server read the request inside a transaction it never committed: roll back to see
    // the head of the rejected request.
    if (isTransactionStarted()) {
        rollbackTransaction();
    }
    const QByteArray head = peek(std::max<qsizetype>(m_maxRequestLine + 2, 4096));
    const qsizetype lineEnd = head.indexOf('\n');
    if ((lineEnd < 0 && head.size() > m_maxRequestLine) || lineEnd > m_maxRequestLine) {
        rejectAndClose(414, QStringLiteral("uri_too_long"),
                       QStringLiteral("the request line is longer than %1 bytes; send shorter "
                                      "subjects (they become Redis keys)")
                           .arg(m_maxRequestLine));
        return;
    }
    rejectAndClose(400, QStringLiteral("bad_request"),
                   QStringLiteral("this is not an HTTP/1.x request the service understands "
                                  "(malformed request line or headers)"));
}

void GuardedSocket::rejectAndClose(int status, const QString &code, const QString &message)
{
    m_rejected = true;
    // The server reads no more of this connection (its other connections stay: they free
    // the socket and its request object).
    disconnect(this, &QTcpSocket::readyRead, nullptr, nullptr);
    if (isTransactionStarted()) {
        commitTransaction();
    }
    write(formatResponse(status, {}, errorBody(status, code, message), true));
    connect(this, &QTcpSocket::readyRead, this, [this] { skip(bytesAvailable()); });
    connect(this, &QTcpSocket::disconnected, this, &QObject::deleteLater);
    connect(this, &QTcpSocket::bytesWritten, this, [this] {
        if (bytesToWrite() == 0) {
            lingeringClose();
        }
    });
    if (bytesToWrite() == 0) {
        lingeringClose();
    }
    QTimer::singleShot(lingerMs, this, [this] {
        abort();
        deleteLater();
    });
}

void GuardedSocket::lingeringClose()
{
    // FIN after the response; keep reading (and dropping) until the client closes or the
    // timer above gives up. Closing with unread input would send a reset that can destroy the
    // response before the client reads it.
    ::shutdown(int(socketDescriptor()), SHUT_WR);
    skip(bytesAvailable());
}

} // namespace sluice::serve
