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

bool isMethodChar(char c)
{
    return c >= 'A' && c <= 'Z';
}

} // namespace

GuardedSocket::GuardedSocket(const HttpLimits &limits, QObject *parent)
    : QTcpSocket(parent)
    , m_limits(limits)
{
    // Connected before the HTTP server connects its own handler, so it runs first.
    connect(this, &QTcpSocket::readyRead, this, &GuardedSocket::screen);
    connect(this, &QTcpSocket::disconnected, this, &GuardedSocket::markGone);
    connect(this, &QTcpSocket::bytesWritten, this, [this] {
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
    // object.
    m_rejected = true;
    disconnect(this, nullptr, this, nullptr);
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
        m_head.clear();
        m_bodyLeft = 0;
        m_inRequest = false;
    }
    if (scan(peek(bytesAvailable()))) {
        updateTimers();
    }
}

bool GuardedSocket::scan(const QByteArray &data)
{
    qsizetype i = 0;
    while (i < data.size()) {
        if (m_bodyLeft > 0) {
            const qint64 n = std::min<qint64>(m_bodyLeft, data.size() - i);
            m_bodyLeft -= n;
            i += n;
            m_inRequest = m_bodyLeft > 0;
            continue;
        }
        if (!m_inRequest) {
            // Blank lines between requests are tolerated (RFC 9112 2.2).
            if (data[i] == '\r' || data[i] == '\n') {
                ++i;
                continue;
            }
            m_inRequest = true;
            m_head.clear();
        }
        const qsizetype before = m_head.size();
        m_head += data.mid(i, m_limits.maxHeaderBytes + 4 - before);
        const qsizetype from = std::max<qsizetype>(0, before - 3);
        qsizetype end = m_head.indexOf("\r\n\r\n", from);
        end = end < 0 ? -1 : end + 4;
        if (const qsizetype lf = m_head.indexOf("\n\n", from);
            lf >= 0 && (end < 0 || lf + 2 < end)) {
            end = lf + 2;
        }
        if (end < 0) {
            const qsizetype lineEnd = m_head.indexOf('\n');
            if ((lineEnd < 0 ? m_head.size() : lineEnd) > m_limits.maxRequestLineBytes + 1) {
                rejectAndClose(414, QStringLiteral("uri_too_long"),
                               QStringLiteral("the request line is longer than %1 bytes; send "
                                              "shorter subjects (they become Redis keys)")
                                   .arg(m_limits.maxRequestLineBytes));
                return false;
            }
            if (m_head.size() > m_limits.maxHeaderBytes) {
                rejectAndClose(431, QStringLiteral("request_header_fields_too_large"),
                               QStringLiteral("the request head is larger than %1 bytes")
                                   .arg(m_limits.maxHeaderBytes));
                return false;
            }
            // Not HTTP at all (TLS, garbage): say so at once rather than wait for a head.
            qsizetype m = 0;
            while (m < m_head.size() && isMethodChar(m_head[m])) {
                ++m;
            }
            if (m < m_head.size() && (m == 0 || m_head[m] != ' ' || m > 16)) {
                return checkHead();
            }
            if (m_head.size() >= 17 && m == m_head.size()) {
                return checkHead();
            }
            return true;
        }
        i += end - before;
        m_head.truncate(end);
        if (!checkHead()) {
            return false;
        }
    }
    return true;
}

bool GuardedSocket::checkHead()
{
    qsizetype m = 0;
    while (m < m_head.size() && isMethodChar(m_head[m])) {
        ++m;
    }
    if (m == 0 || m > 16 || m >= m_head.size() || m_head[m] != ' ') {
        rejectAndClose(400, QStringLiteral("bad_request"),
                       QStringLiteral("this is not an HTTP/1.x request (it must start with a "
                                      "method such as GET and a space)"));
        return false;
    }
    if (m_head.size() > m_limits.maxHeaderBytes) {
        rejectAndClose(431, QStringLiteral("request_header_fields_too_large"),
                       QStringLiteral("the request head is larger than %1 bytes")
                           .arg(m_limits.maxHeaderBytes));
        return false;
    }
    const QList<QByteArray> lines = m_head.split('\n');
    if (lines.first().trimmed().size() > m_limits.maxRequestLineBytes) {
        rejectAndClose(414, QStringLiteral("uri_too_long"),
                       QStringLiteral("the request line is longer than %1 bytes; send shorter "
                                      "subjects (they become Redis keys)")
                           .arg(m_limits.maxRequestLineBytes));
        return false;
    }
    qint64 length = -1;
    bool chunked = false;
    for (qsizetype l = 1; l < lines.size(); ++l) {
        const QByteArray &line = lines[l];
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            continue;
        }
        const QByteArray name = line.left(colon).trimmed().toLower();
        const QByteArray value = line.mid(colon + 1).trimmed();
        if (name == "content-length") {
            bool ok = !value.isEmpty() && value.size() <= 18;
            for (char c : value) {
                ok = ok && c >= '0' && c <= '9';
            }
            const qint64 n = ok ? value.toLongLong() : -1;
            if (!ok || (length >= 0 && n != length)) {
                rejectAndClose(400, QStringLiteral("bad_request"),
                               QStringLiteral("Content-Length '%1' is not one whole number")
                                   .arg(QString::fromLatin1(value.left(32))));
                return false;
            }
            length = n;
        } else if (name == "transfer-encoding") {
            chunked = true;
        } else if (name == "upgrade") {
            rejectAndClose(400, QStringLiteral("upgrade_not_supported"),
                           QStringLiteral("this service does not upgrade connections (Upgrade: "
                                          "%1); use plain HTTP/1.1 GET requests")
                               .arg(QString::fromLatin1(value.left(64))));
            return false;
        } else if (name == "sluice-subject" && value.size() > m_limits.maxSubjectBytes) {
            rejectAndClose(431, QStringLiteral("request_header_fields_too_large"),
                           QStringLiteral("the Sluice-Subject header is longer than %1 bytes "
                                          "(subjects become Redis keys)")
                               .arg(m_limits.maxSubjectBytes));
            return false;
        }
    }
    if (chunked && length >= 0) {
        rejectAndClose(400, QStringLiteral("bad_request"),
                       QStringLiteral("a request with both Content-Length and Transfer-Encoding "
                                      "is ambiguous"));
        return false;
    }
    if (chunked || length > m_limits.maxBodyBytes) {
        rejectAndClose(413, QStringLiteral("content_too_large"),
                       chunked ? QStringLiteral("a chunked request body is not accepted (the "
                                                "service takes no request bodies)")
                               : QStringLiteral("the request body of %1 bytes is larger than "
                                                "%2 bytes (the service takes no request bodies)")
                                     .arg(length)
                                     .arg(m_limits.maxBodyBytes));
        return false;
    }
    m_bodyLeft = std::max<qint64>(0, length);
    m_inRequest = m_bodyLeft > 0;
    return true;
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
    const QByteArray head = peek(std::max<qsizetype>(m_limits.maxRequestLineBytes + 2, 4096));
    const qsizetype lineEnd = head.indexOf('\n');
    if ((lineEnd < 0 && head.size() > m_limits.maxRequestLineBytes) ||
        lineEnd > m_limits.maxRequestLineBytes) {
        rejectAndClose(414, QStringLiteral("uri_too_long"),
                       QStringLiteral("the request line is longer than %1 bytes; send shorter "
                                      "subjects (they become Redis keys)")
                           .arg(m_limits.maxRequestLineBytes));
        return;
    }
    rejectAndClose(400, QStringLiteral("bad_request"),
                   QStringLiteral("this is not an HTTP/1.x request the service understands "
                                  "(malformed request line or headers)"));
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
    connect(this, &QTcpSocket::readyRead, this, [this] { skip(bytesAvailable()); });
    connect(this, &QTcpSocket::disconnected, this, &QObject::deleteLater);
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
    if (m_inRequest) {
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
