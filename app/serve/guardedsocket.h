#pragma once

#include <QTcpSocket>

namespace sluice::serve {

// A client connection of the check service that answers requests Qt HTTP Server gives up on.
//
// Why: on a request its parser rejects (garbage bytes, a request head above its 80 KB limit,
// an unknown method), Qt 6.4's QAbstractHttpServer calls socket->disconnect() — it drops every
// signal connection of the socket and leaves it open: the client waits forever and the socket
// is never freed. That full disconnect() reaches disconnectNotify() with an invalid method;
// this class then answers on its own: 414 when the request line alone is over the limit, else
// 400, both with a JSON body, and closes the connection the way nginx does (lingering close:
// stop writing, read and drop what the client still sends, for at most 2 s), so the client
// reads the answer instead of a reset.
class GuardedSocket final : public QTcpSocket
{
    Q_OBJECT
public:
    explicit GuardedSocket(qsizetype maxRequestLineBytes, QObject *parent = nullptr);

    // Sends a JSON error and closes as above. Used for rejected requests and by the service.
    void rejectAndClose(int status, const QString &code, const QString &message);

protected:
    void disconnectNotify(const QMetaMethod &signal) override;

private:
    void screen();
    void rejectMalformed();
    void lingeringClose();

    qsizetype m_maxRequestLine;
    bool m_rejected = false;
};

} // namespace sluice::serve
