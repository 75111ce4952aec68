#include "guardedsocket.h"

#include "httpreply.h"

#include <QMetaMethod>

#include <sys/socket.h>

#include <utility>

namespace sluice::serve {

namespace {

constexpr int lingerMs = 2000;
// Answers not yet taken by the kernel above this: the client does not read; stop reading it.
constexpr qint64 maxUnsentBytes = 64 * 1024;

enum Close { KeepOpen = 0, Graceful = 1, Linger = 2 };

} // namespace

GuardedSocket::GuardedSocket(const HttpLimits &limits, QObject *parent)
    : QTcpSocket(parent)
    , m_limits(limits)
    , m_scanner(limits)
{
    // Connected before the HTTP server connects its own handler, so it runs first.
    connect(this, &QTcpSocket::readyRead, &m_own, [this] { screen(); });
    connect(this, &QTcpSocket::disconnected, &m_own, [this] { markGone(); });
    connect(this, &QTcpSocket::bytesWritten, &m_own, [this] {
        updatePause();
        updateTimers();
    });
    // A whole request (head + body) always fits: Qt keeps the current request in the buffer.
    setReadBufferSize(2 * (m_limits.maxHeaderBytes + m_limits.maxBodyBytes) + 65536);

    m_headTimer.setSingleShot(true);
    m_idleTimer.setSingleShot(true);
    m_headTimer.setInterval(m_limits.headerTimeoutMs);
    m_idleTimer.setInterval(m_limits.idleTimeoutMs);
    connect(&m_headTimer, &QTimer::timeout, this, [this] {
        if (m_rejected || m_closing) {
            return;
        }
        rejectAndClose(408, QStringLiteral("request_timeout"),
                       QStringLiteral("the request did not arrive within %1 ms")
                           .arg(m_limits.headerTimeoutMs));
    });
    connect(&m_idleTimer, &QTimer::timeout, this, [this] {
        // A keep-alive connection with nothing to do: closed without an answer (as nginx's
        // keepalive_timeout); the client opens a new one.
        m_closing = true;
        disconnectFromHost();
    });
    m_pauseTimer.setInterval(10);
    connect(&m_pauseTimer, &QTimer::timeout, this, [this] {
        if (state() != QAbstractSocket::ConnectedState) {
            // The client left while its signals were blocked: tell the HTTP server now.
            m_paused = false;
            m_pauseTimer.stop();
            blockSignals(false);
            markGone();
            Q_EMIT disconnected();
            return;
        }
        updatePause();
    });
    // The first request must come within the header timeout (a connection that sends nothing
    // is a slowloris too).
    m_headTimer.start();
}

GuardedSocket::~GuardedSocket()
{
    markGone();
    // ~QAbstractSocket still emits (disconnected, bytesWritten): not to this half-destroyed
    // object, whose own slots go with m_own. Never disconnect(this, nullptr, this, nullptr):
    // Qt HTTP Server's slots have the socket as their context too, and its slot on destroyed()
    // deletes the connection's QHttpServerRequest (it leaked with every connection).
    m_rejected = true;
}

void GuardedSocket::markGone()
{
    m_gone->store(true);
    releaseSlot();
}

void GuardedSocket::holdSlot(std::shared_ptr<int> slot)
{
    m_slot = std::move(slot);
    ++*m_slot;
}

void GuardedSocket::releaseSlot()
{
    if (auto slot = std::exchange(m_slot, nullptr)) {
        --*slot;
    }
}

void GuardedSocket::screen()
{
    if (m_rejected || m_closing) {
        return;
    }
    // The server starts a read transaction at the start of a request and commits it at the
    // end, reading all there is while it is incomplete. No transaction: the buffer starts at a
    // request; else: what is available is new, the rest of the request being read.
    if (!isTransactionStarted()) {
        m_scanner.reset();
    }
    if (const Rejection r = m_scanner.feed(peek(bytesAvailable()))) {
        rejectAndClose(r.status, r.code, r.message);
        return;
    }
    updateTimers();
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
    const Rejection r = serve::rejectMalformed(
        peek(std::max<qsizetype>(m_limits.maxRequestLineBytes + 2, 4096)), m_limits);
    rejectAndClose(r.status, r.code, r.message);
}

void GuardedSocket::rejectAndClose(int status, const QString &code, const QString &message)
{
    m_rejected = true;
    m_headTimer.stop();
    m_idleTimer.stop();
    // The server reads no more of this connection (its other connections stay: they free
    // the socket and its request object).
    disconnect(this, &QTcpSocket::readyRead, nullptr, nullptr);
    if (isTransactionStarted()) {
        commitTransaction();
    }
    connect(this, &QTcpSocket::readyRead, &m_own, [this] { skip(bytesAvailable()); });
    connect(this, &QTcpSocket::disconnected, &m_own, [this] { deleteLater(); });
    // After the answers to the requests before this one (pipelining).
    const quint64 seq = reserve();
    m_ready[seq] = {formatResponse(status, {}, errorBody(status, code, message), true), Linger};
    flush();
}

quint64 GuardedSocket::reserve()
{
    const quint64 seq = m_nextSeq++;
    updatePause();
    updateTimers();
    return seq;
}

void GuardedSocket::fill(quint64 seq, const QByteArray &response, bool close)
{
    if (seq < m_writeSeq || m_ready.count(seq) != 0) {
        return;
    }
    m_ready[seq] = {response, close ? Graceful : KeepOpen};
    flush();
}

void GuardedSocket::respond(const QByteArray &response, bool close)
{
    fill(reserve(), response, close);
}

void GuardedSocket::flush()
{
    while (!m_closing) {
        auto it = m_ready.find(m_writeSeq);
        if (it == m_ready.end()) {
            break;
        }
        const auto [bytes, close] = it->second;
        m_ready.erase(it);
        ++m_writeSeq;
        if (state() == QAbstractSocket::ConnectedState) {
            write(bytes);
        }
        if (close == Graceful) {
            m_closing = true;
            disconnectFromHost(); // after the bytes are written
        } else if (close == Linger) {
            m_closing = true;
            releaseSlot();
            connect(this, &QTcpSocket::bytesWritten, &m_own, [this] {
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
    }
    updatePause();
    updateTimers();
}

void GuardedSocket::updatePause()
{
    const bool pause = !m_closing && state() == QAbstractSocket::ConnectedState &&
                       (m_nextSeq - m_writeSeq >= quint64(m_limits.maxInFlight) ||
                        bytesToWrite() > maxUnsentBytes);
    if (pause == m_paused) {
        return;
    }
    m_paused = pause;
    // Blocked, readyRead reaches neither this class nor the HTTP server: nothing more of this
    // connection is parsed or decided; the bounded read buffer fills and TCP stops the client.
    blockSignals(pause);
    if (pause) {
        m_pauseTimer.start();
        return;
    }
    m_pauseTimer.stop();
    if (bytesAvailable() > 0) {
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT readyRead(); }, Qt::QueuedConnection);
    }
}

void GuardedSocket::updateTimers()
{
    if (m_rejected || m_closing) {
        m_headTimer.stop();
        m_idleTimer.stop();
        return;
    }
    if (m_scanner.inRequest()) {
        m_idleTimer.stop();
        if (!m_headTimer.isActive()) {
            m_headTimer.start();
        }
        return;
    }
    if (m_nextSeq == 0) {
        return; // the first request: the header timer runs since the connection opened
    }
    m_headTimer.stop();
    if (m_nextSeq != m_writeSeq) {
        m_idleTimer.stop(); // waiting for a decision
    } else if (!m_idleTimer.isActive()) {
        m_idleTimer.start();
    }
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
