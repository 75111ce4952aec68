#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <algorithm>

// The pure parsing of the check service's requests: no socket, no Qt Network. HttpServer
// screens request heads with HeadScanner, reads them with parseRequestHead, and CheckService
// reads the query of /v1/check with parseCheckQuery; tst_httpparse tests them directly and
// tests/fuzz/fuzz_http fuzzes them.

namespace sluice::serve {

// The HTTP limits of the check service (FORMATS.md `sluice-cli serve`), all on by default.
struct HttpLimits
{
    qsizetype maxRequestLineBytes = 8192; // above: 414
    qsizetype maxHeaderBytes = 16384;     // the whole request head; above: 431
    qsizetype maxBodyBytes = 4096;        // announced by Content-Length; above: 413
    qsizetype maxSubjectBytes = 8192;     // the Sluice-Subject header; above: 431
    int headerTimeoutMs = 10000;          // a request head (and body) must arrive within this: 408
    int idleTimeoutMs = 60000;            // a keep-alive connection with nothing to do is closed
    int maxInFlight = 32;                 // requests of one connection answered but unread, or
                                          // waiting for a decision; past it the connection is
                                          // not read until its client reads (pipelining)
    int maxConnections = 1000;            // past it: 503 and close
    // Of one client address; past it: 503 and close, so one peer holding idle sockets cannot
    // take every place of maxConnections. 0: half of maxConnections (at least 1).
    int maxConnectionsPerPeer = 0;
    int perPeerLimit() const
    {
        return maxConnectionsPerPeer > 0 ? maxConnectionsPerPeer : std::max(1, maxConnections / 2);
    }
};

// An answer that refuses a request: status, JSON error code, message. status 0: none.
struct Rejection
{
    int status = 0;
    QString code;
    QString message;

    explicit operator bool() const { return status != 0; }
};

// application/x-www-form-urlencoded: '+' is a space, %XX (two hex digits) a byte; a '%' not
// followed by two hex digits stands for itself (as QUrl's tolerant parsing, which the
// service's URLs go through first, and the WHATWG URL standard read it).
QByteArray formDecode(QByteArrayView encoded);

// A whole number written as 1 to 18 decimal digits, nothing else (no sign, no blanks): what
// Content-Length and the cost parameter accept. False otherwise.
bool parseDigits(QByteArrayView text, qint64 *value);

// The parameters of /v1/check and /v1/auth.
struct CheckParams
{
    QByteArray rule, subject, cost;
    bool hasRule = false, hasSubject = false, hasCost = false;
};

// The query of /v1/check, strictly: the known names (rule, subject, cost) once each, names and
// values form-decoded, a name without '=' has an empty value, empty pairs ("a=1&&b=2") are
// skipped. Returns the error message (the parameter named, printable), or an empty string.
QString parseCheckQuery(QByteArrayView query, CheckParams *params);

// Screens the request heads of one connection before they are parsed, as the bytes
// arrive: feed() takes the bytes that follow those fed before and returns the first rejection
// (400 not HTTP, a bad or doubled Content-Length, both Content-Length and Transfer-Encoding,
// an Upgrade; 413 a body above maxBodyBytes, announced or chunked; 414 a request line above
// maxRequestLineBytes; 431 a head above maxHeaderBytes, a Sluice-Subject above
// maxSubjectBytes). It skips the announced bodies and the blank lines between requests, and
// never holds more than maxHeaderBytes + 4 bytes. The verdict does not depend on how the bytes
// are split into feeds (only which of two reasons to refuse is named may).
class HeadScanner
{
public:
    explicit HeadScanner(const HttpLimits &limits)
        : m_limits(limits)
    {}

    // Forget the request being read: the next byte fed starts a request.
    void reset();
    Rejection feed(QByteArrayView data);

    // A request has begun (its head, or its body) and is not complete.
    bool inRequest() const { return m_inRequest; }
    // Request heads screened and accepted so far.
    quint64 heads() const { return m_heads; }
    // Bytes of the current head held.
    qsizetype heldBytes() const { return m_head.size(); }

private:
    Rejection checkHead();

    HttpLimits m_limits;
    QByteArray m_head;     // the head so far
    qint64 m_bodyLeft = 0; // bytes of its body still to come
    bool m_inRequest = false;
    quint64 m_heads = 0;
};

// The answer to a request whose head parseRequestHead refused, from the first bytes of that
// request: 414 when its request line is too long, else 400.
Rejection rejectMalformed(QByteArrayView head, const HttpLimits &limits);

// Where the head of the request at the start of `data` ends (just after its blank line:
// "\r\n\r\n", or "\n\n" as RFC 9112 tolerates), or -1 while it is incomplete. The same end
// HeadScanner finds.
qsizetype headEnd(QByteArrayView data);

// One request head (the bytes up to and including its blank line), as the check service reads
// it. The views point into the head.
struct RequestHead
{
    QByteArrayView method;  // "GET"
    QByteArrayView target;  // "/v1/check?rule=a&subject=b" (a fragment cut off)
    QByteArrayView path;    // "/v1/check"
    QByteArrayView query;   // "rule=a&subject=b", still encoded
    QByteArrayView subject; // the Sluice-Subject header's value (trimmed)
    QByteArrayView accept;  // the Accept header's value (trimmed; the last one given)
    bool hasSubject = false;
    bool close = false;       // Connection: close, or HTTP/1.0 without keep-alive
    qint64 contentLength = 0; // of the body that follows the head
    QByteArrayView body;      // that body (HttpServer sets it once it has arrived whole)
};

// Parses a head HeadScanner accepted: "METHOD SP origin-form SP HTTP/1.x" and "name: value"
// lines. False for anything else (a target that is not a path, another HTTP version, a header
// line without a name, obsolete line folding): the request is malformed (rejectMalformed).
bool parseRequestHead(QByteArrayView head, RequestHead *out);

} // namespace sluice::serve
