#include "httpparse.h"

#include "core/common/bytes.h"

#include <algorithm>
#include <cstring>

namespace sluice::serve {

namespace {

using bytes::hexValue;

bool isMethodChar(char c)
{
    return c >= 'A' && c <= 'Z';
}

// Leading method characters of a head.
qsizetype methodLength(QByteArrayView head)
{
    qsizetype m = 0;
    while (m < head.size() && isMethodChar(head[m])) {
        ++m;
    }
    return m;
}

// The request line's length without its line end ("\r\n" or "\n"), or of what has come of it.
// It only grows as more of the head arrives, so a partial head and the whole one agree.
qsizetype requestLineLength(QByteArrayView head)
{
    qsizetype n = head.indexOf('\n');
    if (n < 0) {
        n = head.size();
    }
    if (n > 0 && head[n - 1] == '\r') {
        --n;
    }
    return n;
}

Rejection reject(int status, const char *code, const QString &message)
{
    return {status, QString::fromLatin1(code), message};
}

Rejection notHttp()
{
    return reject(400, "bad_request",
                  QStringLiteral("this is not an HTTP/1.x request (it must start with a method "
                                 "such as GET and a space)"));
}

Rejection uriTooLong(const HttpLimits &limits)
{
    return reject(414, "uri_too_long",
                  QStringLiteral("the request line is longer than %1 bytes; send shorter subjects "
                                 "(they become Redis keys)")
                      .arg(limits.maxRequestLineBytes));
}

Rejection headTooLarge(const HttpLimits &limits)
{
    return reject(
        431, "request_header_fields_too_large",
        QStringLiteral("the request head is larger than %1 bytes").arg(limits.maxHeaderBytes));
}

} // namespace

QByteArray formDecode(QByteArrayView in)
{
    QByteArray out;
    out.reserve(in.size());
    for (qsizetype i = 0; i < in.size(); ++i) {
        const char c = in[i];
        if (c == '+') {
            out += ' ';
            continue;
        }
        if (c == '%' && i + 2 < in.size()) {
            const int hi = hexValue(in[i + 1]);
            const int lo = hexValue(in[i + 2]);
            if (hi >= 0 && lo >= 0) {
                out += char(hi * 16 + lo);
                i += 2;
                continue;
            }
        }
        out += c;
    }
    return out;
}

bool parseDigits(QByteArrayView text, qint64 *value)
{
    if (text.isEmpty() || text.size() > 18) {
        return false;
    }
    qint64 n = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') {
            return false;
        }
        n = n * 10 + (c - '0');
    }
    *value = n;
    return true;
}

QString parseCheckQuery(QByteArrayView query, CheckParams *p)
{
    qsizetype from = 0;
    while (from < query.size()) {
        qsizetype amp = query.indexOf('&', from);
        if (amp < 0) {
            amp = query.size();
        }
        const QByteArrayView pair = query.sliced(from, amp - from);
        from = amp + 1;
        if (pair.isEmpty()) {
            continue;
        }
        const qsizetype eq = pair.indexOf('=');
        const QByteArrayView rawName = eq < 0 ? pair : pair.first(eq);
        // Names are plain words; decoded only when they carry an escape.
        const QByteArray name = rawName.contains('%') || rawName.contains('+')
                                    ? formDecode(rawName)
                                    : QByteArray::fromRawData(rawName.data(), rawName.size());
        const QByteArray value = eq < 0 ? QByteArray() : formDecode(pair.sliced(eq + 1));
        auto set = [&](QByteArray *field, bool *has) -> QString {
            if (*has) {
                return QStringLiteral("parameter '%1' is given twice").arg(bytes::printable(name));
            }
            *field = value;
            *has = true;
            return {};
        };
        QString err;
        if (name == "rule") {
            err = set(&p->rule, &p->hasRule);
        } else if (name == "subject") {
            err = set(&p->subject, &p->hasSubject);
        } else if (name == "cost") {
            err = set(&p->cost, &p->hasCost);
        } else {
            err = QStringLiteral("unknown parameter '%1' (known: rule, subject, cost)")
                      .arg(bytes::printable(name.left(64)));
        }
        if (!err.isEmpty()) {
            return err;
        }
    }
    return {};
}

void HeadScanner::reset()
{
    m_head.clear();
    m_bodyLeft = 0;
    m_inRequest = false;
}

Rejection HeadScanner::feed(QByteArrayView data)
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
            m_head.truncate(0); // keeps its allocation for the next head
        }
        const qsizetype before = m_head.size();
        m_head += data.sliced(i, std::min(data.size() - i, m_limits.maxHeaderBytes + 4 - before));
        const qsizetype from = std::max<qsizetype>(0, before - 3);
        qsizetype end = headEnd(QByteArrayView(m_head).sliced(from));
        end = end < 0 ? -1 : end + from;
        if (end < 0) {
            // Incomplete: refuse what can no longer become an acceptable head.
            if (requestLineLength(m_head) > m_limits.maxRequestLineBytes) {
                return uriTooLong(m_limits);
            }
            if (m_head.size() > m_limits.maxHeaderBytes) {
                return headTooLarge(m_limits);
            }
            // Not HTTP at all (TLS, garbage): say so at once rather than wait for a head.
            const qsizetype m = methodLength(m_head);
            if (m < m_head.size() && (m == 0 || m_head[m] != ' ' || m > 16)) {
                return notHttp();
            }
            if (m_head.size() >= 17 && m == m_head.size()) {
                return notHttp();
            }
            return {};
        }
        i += end - before;
        m_head.truncate(end);
        if (Rejection r = checkHead()) {
            return r;
        }
        ++m_heads;
    }
    return {};
}

Rejection HeadScanner::checkHead()
{
    const qsizetype m = methodLength(m_head);
    if (m == 0 || m > 16 || m >= m_head.size() || m_head[m] != ' ') {
        return notHttp();
    }
    if (m_head.size() > m_limits.maxHeaderBytes) {
        return headTooLarge(m_limits);
    }
    if (requestLineLength(m_head) > m_limits.maxRequestLineBytes) {
        return uriTooLong(m_limits);
    }
    qint64 length = -1;
    bool chunked = false;
    const QByteArrayView head(m_head);
    for (qsizetype at = head.indexOf('\n') + 1; at > 0 && at < head.size();) {
        qsizetype eol = head.indexOf('\n', at);
        if (eol < 0) {
            eol = head.size();
        }
        const QByteArrayView line = head.sliced(at, eol - at);
        at = eol + 1;
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0) {
            continue;
        }
        const QByteArrayView name = line.first(colon).trimmed();
        const QByteArrayView value = line.sliced(colon + 1).trimmed();
        auto is = [&](const char *header) {
            return name.compare(header, Qt::CaseInsensitive) == 0;
        };
        if (is("content-length")) {
            qint64 n = -1;
            if (!parseDigits(value, &n) || (length >= 0 && n != length)) {
                return reject(400, "bad_request",
                              QStringLiteral("Content-Length '%1' is not one whole number")
                                  .arg(QString::fromLatin1(
                                      value.first(std::min<qsizetype>(value.size(), 32)))));
            }
            length = n;
        } else if (is("transfer-encoding")) {
            chunked = true;
        } else if (is("upgrade")) {
            return reject(
                400, "upgrade_not_supported",
                QStringLiteral("this service does not upgrade connections (Upgrade: "
                               "%1); use plain HTTP/1.1 GET requests")
                    .arg(QString::fromLatin1(value.first(std::min<qsizetype>(value.size(), 64)))));
        } else if (is("sluice-subject") && value.size() > m_limits.maxSubjectBytes) {
            return reject(431, "request_header_fields_too_large",
                          QStringLiteral("the Sluice-Subject header is longer than %1 bytes "
                                         "(subjects become Redis keys)")
                              .arg(m_limits.maxSubjectBytes));
        }
    }
    if (chunked && length >= 0) {
        return reject(400, "bad_request",
                      QStringLiteral("a request with both Content-Length and Transfer-Encoding "
                                     "is ambiguous"));
    }
    if (chunked || length > m_limits.maxBodyBytes) {
        return reject(413, "content_too_large",
                      chunked ? QStringLiteral("a chunked request body is not accepted; send "
                                               "POST /json with a Content-Length of at most %1 "
                                               "bytes")
                                    .arg(m_limits.maxBodyBytes)
                              : QStringLiteral("the request body of %1 bytes is larger than %2 "
                                               "bytes, the most this service takes (a POST "
                                               "/json body; the decision requests take none)")
                                    .arg(length)
                                    .arg(m_limits.maxBodyBytes));
    }
    m_bodyLeft = std::max<qint64>(0, length);
    m_inRequest = m_bodyLeft > 0;
    return {};
}

qsizetype headEnd(QByteArrayView data)
{
    qsizetype end = data.indexOf("\r\n\r\n");
    end = end < 0 ? -1 : end + 4;
    // "\n\n" before it (it can only be before the "\r\n\r\n" when it ends earlier).
    if (const qsizetype lf = data.first(end < 0 ? data.size() : end).indexOf("\n\n");
        lf >= 0 && (end < 0 || lf + 2 < end)) {
        end = lf + 2;
    }
    return end;
}

namespace {

bool isTokenChar(char c)
{
    // RFC 9110 tchar.
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != 0 && std::strchr("!#$%&'*+-.^_`|~", c) != nullptr);
}

bool hasToken(QByteArrayView value, const char *token)
{
    // A comma-separated list ("keep-alive, Upgrade"), compared without case.
    qsizetype from = 0;
    while (from <= value.size()) {
        qsizetype comma = value.indexOf(',', from);
        if (comma < 0) {
            comma = value.size();
        }
        if (value.sliced(from, comma - from).trimmed().compare(token, Qt::CaseInsensitive) == 0) {
            return true;
        }
        from = comma + 1;
    }
    return false;
}

} // namespace

bool parseRequestHead(QByteArrayView head, RequestHead *out)
{
    *out = RequestHead{};
    qsizetype eol = head.indexOf('\n');
    if (eol < 0) {
        return false;
    }
    QByteArrayView line = head.first(eol);
    if (line.endsWith('\r')) {
        line.chop(1);
    }
    const qsizetype sp1 = line.indexOf(' ');
    const qsizetype sp2 = sp1 < 0 ? -1 : line.indexOf(' ', sp1 + 1);
    if (sp1 <= 0 || sp2 < 0 || line.indexOf(' ', sp2 + 1) >= 0) {
        return false;
    }
    out->method = line.first(sp1);
    for (const char c : out->method) {
        if (!isMethodChar(c)) {
            return false;
        }
    }
    QByteArrayView target = line.sliced(sp1 + 1, sp2 - sp1 - 1);
    const QByteArrayView version = line.sliced(sp2 + 1);
    // The absolute form (RFC 9112 3.2.2: "http://host/path?query"), which a server must accept:
    // its path and query are what count.
    for (const QByteArrayView scheme : {QByteArrayView("http://"), QByteArrayView("https://")}) {
        if (target.size() > scheme.size() &&
            target.first(scheme.size()).compare(scheme, Qt::CaseInsensitive) == 0) {
            const QByteArrayView rest = target.sliced(scheme.size());
            const qsizetype slash = rest.indexOf('/');
            const qsizetype query = rest.indexOf('?');
            if (slash >= 0 && (query < 0 || slash < query)) {
                target = rest.sliced(slash);
            } else {
                return false; // no path: "http://host" or "http://host?q"
            }
            break;
        }
    }
    if (target.isEmpty() || target[0] != '/' || version.size() != 8 ||
        !version.startsWith("HTTP/1.") || (version[7] != '0' && version[7] != '1')) {
        return false;
    }
    for (const char c : target) {
        if (uchar(c) <= 0x20 || uchar(c) >= 0x7f) {
            return false;
        }
    }
    if (const qsizetype hash = target.indexOf('#'); hash >= 0) {
        target = target.first(hash);
    }
    out->target = target;
    const qsizetype q = target.indexOf('?');
    out->path = q < 0 ? target : target.first(q);
    out->query = q < 0 ? QByteArrayView() : target.sliced(q + 1);
    const bool http10 = version[7] == '0';
    bool keepAlive = false;
    bool close = false;
    for (qsizetype at = eol + 1; at < head.size();) {
        eol = head.indexOf('\n', at);
        if (eol < 0) {
            eol = head.size();
        }
        QByteArrayView l = head.sliced(at, eol - at);
        at = eol + 1;
        if (l.endsWith('\r')) {
            l.chop(1);
        }
        if (l.isEmpty()) {
            break; // the blank line ending the head
        }
        const qsizetype colon = l.indexOf(':');
        if (colon <= 0) {
            return false;
        }
        const QByteArrayView name = l.first(colon);
        for (const char c : name) {
            if (!isTokenChar(c)) {
                return false; // also obsolete line folding (a line starting with a blank)
            }
        }
        const QByteArrayView value = l.sliced(colon + 1).trimmed();
        auto is = [&](const char *header) {
            return name.compare(header, Qt::CaseInsensitive) == 0;
        };
        if (is("connection")) {
            close = close || hasToken(value, "close");
            keepAlive = keepAlive || hasToken(value, "keep-alive");
        } else if (is("content-length")) {
            if (!parseDigits(value, &out->contentLength)) {
                return false;
            }
        } else if (is("sluice-subject")) {
            out->subject = value;
            out->hasSubject = true;
        } else if (is("accept")) {
            out->accept = value; // GET /metrics: OpenMetrics when asked for
        }
    }
    out->close = close || (http10 && !keepAlive);
    return true;
}

Rejection rejectMalformed(QByteArrayView head, const HttpLimits &limits)
{
    if (requestLineLength(head) > limits.maxRequestLineBytes) {
        return uriTooLong(limits);
    }
    return reject(400, "bad_request",
                  QStringLiteral("this is not an HTTP/1.x request the service understands "
                                 "(malformed request line or headers)"));
}

} // namespace sluice::serve
