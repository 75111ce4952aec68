#pragma once

#include "httpparse.h"

#include <QByteArray>
#include <QTcpSocket>
#include <QTimer>

#include <atomic>
#include <map>
#include <memory>

namespace sluice::serve {

// A client connection of the check service: it screens what Qt HTTP Server is given, bounds
// what one client can cost, and keeps the answers in the order of the requests.
//
// Why: Qt 6.4's QAbstractHttpServer has no limits of its own (it buffers a whole body before the
// handler runs, accepts any header size, keeps idle connections forever), and on a request its
// parser rejects (garbage bytes, an unknown method) it calls socket->disconnect() — dropping
// every signal connection of the socket and leaving it open. So this class
//  - reads every request head before Qt does (its readyRead slot is connected first) with a
//    HeadScanner (httpparse.h) and answers 400 (not HTTP, both Content-Length and
//    Transfer-Encoding, an Upgrade), 413 (a body above maxBodyBytes, announced or chunked), 414,
//    431 (a head above maxHeaderBytes, a Sluice-Subject above maxSubjectBytes) itself, before
//    any of it is buffered;
//  - closes a connection whose request head does not arrive in headerTimeoutMs (408, slowloris)
//    and a keep-alive connection idle for idleTimeoutMs;
//  - numbers the requests (reserve()) and writes their answers in that order (fill()), whichever
//    worker decides first; with maxInFlight requests unanswered or answered but still in the
//    send buffer, it stops reading the connection (signals blocked, a bounded read buffer: TCP
//    pushes back on the client) until the client reads;
//  - sets a flag the decision workers see when the client has gone (gone()), so a request of a
//    client that left costs no decision;
//  - on Qt's disconnect(): answers 414 or 400 with a JSON body, and closes the connection the
//    way nginx does (lingering close: stop writing, read and drop what the client still sends,
//    for at most 2 s), so the client reads the answer instead of a reset.
class GuardedSocket final : public QTcpSocket
{
    Q_OBJECT
public:
    explicit GuardedSocket(const HttpLimits &limits, QObject *parent = nullptr);
    ~GuardedSocket() override;

    // Sends a JSON error and closes as above. Used for rejected requests and by the service.
    void rejectAndClose(int status, const QString &code, const QString &message);

    // The next answer's place in the order of the requests.
    quint64 reserve();
    // The answer of request `seq`: written once every earlier answer is; `close` closes the
    // connection after it.
    void fill(quint64 seq, const QByteArray &response, bool close);
    // reserve() + fill(): an answer given at once.
    void respond(const QByteArray &response, bool close);

    // True once the client has gone (read from any thread).
    std::shared_ptr<const std::atomic<bool>> gone() const { return m_gone; }

    // `slot` is freed (decremented) once, when the connection no longer holds a place: its
    // last answer is sent and it lingers to close, it is disconnected, or it is deleted
    // (whichever comes first). A lingering connection is bounded by its linger time; counting
    // it until its object is deleted told a client that saw the close and reconnected at
    // once that the service was full.
    void holdSlot(std::shared_ptr<int> slot);

protected:
    void disconnectNotify(const QMetaMethod &signal) override;

private:
    void screen();
    void rejectMalformed();
    void lingeringClose();
    void flush();
    void updatePause();
    void updateTimers();
    void markGone();
    void releaseSlot();

    HttpLimits m_limits;
    bool m_rejected = false;
    bool m_closing = false;

    // The request being read, ahead of Qt.
    HeadScanner m_scanner;

    // Answers in request order.
    quint64 m_nextSeq = 0;                                 // of the next reserve()
    quint64 m_writeSeq = 0;                                // of the next answer to write
    std::map<quint64, std::pair<QByteArray, int>> m_ready; // answer, how to close after it
    bool m_paused = false;

    QTimer m_headTimer;
    QTimer m_idleTimer;
    QTimer m_pauseTimer;
    std::shared_ptr<std::atomic<bool>> m_gone = std::make_shared<std::atomic<bool>>(false);
    std::shared_ptr<int> m_slot;
    // The context of this class's own slots on its signals: destroyed with the members, so
    // nothing of this class runs from ~QAbstractSocket, and the slots others connected (Qt HTTP
    // Server's, with the socket as context) stay.
    QObject m_own;
};

} // namespace sluice::serve
