#pragma once

// A served rule set: `sluice-cli serve` as a process of its own on a port it chose, and plain
// HTTP requests to it over real sockets (blocking: the service is another process).

#include <QByteArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

namespace sluice::test {

// serve's usual flags: the Redis at `url`, the rules file, a loopback port of its choosing,
// no statistics.
QStringList serveArgs(const QString &rulesPath, const QString &url);

// `sluice-cli serve ARGS` (the CLI of the build), started by start(), killed by the
// destructor.
class ServeProcess
{
public:
    ServeProcess() = default;
    ~ServeProcess();
    ServeProcess(const ServeProcess &) = delete;
    ServeProcess &operator=(const ServeProcess &) = delete;

    // Starts it (with `env` when given; under a descriptor limit of `maxFiles` when > 0) and
    // waits until it says "listening on http://HOST:PORT" (and, with --metrics-listen, "metrics
    // on ..."), at most 15 s. False when it did not: err() and out() say why.
    bool start(const QStringList &args, const QProcessEnvironment &env = {}, int maxFiles = 0);
    quint16 port() const { return m_port; }
    quint16 metricsPort() const { return m_metricsPort; }
    qint64 pid() const { return m_process.processId(); }
    QProcess &process() { return m_process; }
    // Its stdout and stderr so far.
    QByteArray out();
    QByteArray err();

private:
    QProcess m_process;
    QByteArray m_out, m_err;
    quint16 m_port = 0;
    quint16 m_metricsPort = 0;
};

// The descriptors process `pid` holds open (/proc/PID/fd); -1 if unreadable.
int openDescriptors(qint64 pid);
// Sets the soft descriptor limit (RLIMIT_NOFILE) of the running process `pid` (prlimit), its
// hard limit kept: a service out of descriptors without being started so (which would make it
// lower its connection limits to fit). False if refused.
bool setDescriptorLimit(qint64 pid, qint64 soft);

// One HTTP response: its status (-1: none came back), headers (names in lower case), body.
struct HttpReply
{
    int status = -1;
    QMap<QByteArray, QByteArray> headers;
    QByteArray body;
    bool closed = false; // httpExchange: the server closed the connection
    QByteArray header(const char *name) const { return headers.value(QByteArray(name).toLower()); }
    QJsonObject json() const { return QJsonDocument::fromJson(body).object(); }
};

// Sends `request` (whole, with "Connection: close") on a connection of its own to
// 127.0.0.1:port and reads the answer until the server closes. `inProcess`: the service runs
// on this thread's event loop, which then spins while the answer comes (a blocking read would
// starve it).
HttpReply httpRequest(quint16 port, const QByteArray &request, bool inProcess = false);

// GET `target` on a connection of its own to 127.0.0.1:port, with `extraHeaders` (CRLF-ended
// lines), read to its end: HTTP/1.1 with Connection: close, or HTTP/1.0 (nginx answers those
// and closes).
HttpReply httpGet(quint16 port, const QByteArray &target, const QByteArray &extraHeaders = {},
                  bool http10 = false);
// GET `target` from a service of this process (httpRequest's `inProcess`).
HttpReply inProcessGet(quint16 port, const QByteArray &target);

// Parses one response at the start of `data` into `r`, its body as long as Content-Length
// says (none without one); false while it is incomplete. For a connection kept alive, where
// the end of the answer is not the end of the stream.
bool parseHttpReply(const QByteArray &data, HttpReply *r);
// Sends `head`, then `bodyBytes` of filler in 1 MB pieces (stopping once the server answered
// or closed), on a connection of its own to a service of this process, and waits (the event
// loop spinning) for one response or the connection's end, at most timeoutMs each.
HttpReply httpExchange(quint16 port, const QByteArray &head, qint64 bodyBytes = 0,
                       int timeoutMs = 10000);

} // namespace sluice::test
