#include "servefixture.h"

#include "runcli.h"

#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

#include <sys/resource.h>

using namespace Qt::StringLiterals;

namespace sluice::test {

namespace {

// The status and headers of the response at the start of `data` into `r`: where its head
// ends, -1 when it has not ended yet.
qsizetype parseHead(const QByteArray &data, HttpReply *r)
{
    const qsizetype end = data.indexOf("\r\n\r\n");
    if (end < 0) {
        return -1;
    }
    const QList<QByteArray> lines = data.left(end).split('\n');
    const QList<QByteArray> first = lines.first().trimmed().split(' ');
    r->status = first.size() > 1 ? first[1].toInt() : -1;
    r->headers.clear();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0) {
            r->headers.insert(lines[i].left(colon).trimmed().toLower(),
                              lines[i].mid(colon + 1).trimmed());
        }
    }
    return end;
}

} // namespace

QStringList serveArgs(const QString &rulesPath, const QString &url)
{
    return {u"--url"_s,     url, u"--rules"_s, rulesPath, u"--listen"_s, u"127.0.0.1:0"_s,
            u"--no-stats"_s};
}

ServeProcess::~ServeProcess()
{
    m_process.kill();
    m_process.waitForFinished(5000);
}

bool ServeProcess::start(const QStringList &args, const QProcessEnvironment &env, int maxFiles)
{
    if (!env.isEmpty()) {
        m_process.setProcessEnvironment(env);
    }
    const QStringList all = QStringList{u"serve"_s} + args;
    if (maxFiles > 0) {
        m_process.start(
            u"/bin/sh"_s,
            QStringList{u"-c"_s, u"ulimit -n %1 && exec \"$0\" \"$@\""_s.arg(maxFiles), cliPath()} +
                all);
    } else {
        m_process.start(cliPath(), all);
    }
    if (!m_process.waitForStarted(5000)) {
        return false;
    }
    [[maybe_unused]] const bool listening = QTest::qWaitFor(
        [&] {
            m_out += m_process.readAllStandardOutput();
            return m_out.contains("listening on") || m_process.state() == QProcess::NotRunning;
        },
        15000);
    // The metrics line follows the listening line at once.
    [[maybe_unused]] const bool metrics = QTest::qWaitFor(
        [&] {
            m_out += m_process.readAllStandardOutput();
            return !args.contains(u"--metrics-listen"_s) || m_out.contains("metrics on");
        },
        5000);
    const auto m = QRegularExpression(u"listening on https?://[^\\s]+:(\\d+)"_s)
                       .match(QString::fromUtf8(m_out));
    m_port = m.hasMatch() ? quint16(m.captured(1).toUInt()) : 0;
    const auto mm = QRegularExpression(u"metrics on http://[^\\s]+:(\\d+)/metrics"_s)
                        .match(QString::fromUtf8(m_out));
    m_metricsPort = mm.hasMatch() ? quint16(mm.captured(1).toUInt()) : 0;
    return m_port != 0;
}

QByteArray ServeProcess::out()
{
    m_out += m_process.readAllStandardOutput();
    return m_out;
}

QByteArray ServeProcess::err()
{
    m_err += m_process.readAllStandardError();
    return m_err;
}

HttpReply httpRequest(quint16 port, const QByteArray &request, bool inProcess)
{
    HttpReply r;
    QTcpSocket s;
    s.connectToHost(u"127.0.0.1"_s, port);
    if (!s.waitForConnected(5000)) {
        return r;
    }
    s.write(request);
    QByteArray data;
    if (inProcess) {
        [[maybe_unused]] const bool closed = QTest::qWaitFor(
            [&] {
                data += s.readAll();
                return s.state() == QAbstractSocket::UnconnectedState;
            },
            10000);
    } else {
        while (s.state() == QAbstractSocket::ConnectedState && s.waitForReadyRead(10000)) {
            data += s.readAll();
        }
    }
    data += s.readAll();
    const qsizetype end = parseHead(data, &r);
    if (end >= 0) {
        r.body = data.mid(end + 4);
    }
    return r;
}

HttpReply httpGet(quint16 port, const QByteArray &target, const QByteArray &extraHeaders,
                  bool http10)
{
    return httpRequest(
        port, http10 ? "GET " + target + " HTTP/1.0\r\nHost: localhost\r\n" + extraHeaders + "\r\n"
                     : "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                           extraHeaders + "\r\n");
}

HttpReply inProcessGet(quint16 port, const QByteArray &target)
{
    return httpRequest(port, "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
                       true);
}

bool parseHttpReply(const QByteArray &data, HttpReply *r)
{
    const qsizetype end = parseHead(data, r);
    if (end < 0) {
        return false;
    }
    const qsizetype length = r->header("content-length").toLongLong();
    if (data.size() < end + 4 + length) {
        return false;
    }
    r->body = data.mid(end + 4, length);
    return true;
}

HttpReply httpExchange(quint16 port, const QByteArray &head, qint64 bodyBytes, int timeoutMs)
{
    HttpReply r;
    QTcpSocket s;
    s.connectToHost(u"127.0.0.1"_s, port);
    if (!QTest::qWaitFor([&] { return s.state() == QAbstractSocket::ConnectedState; }, timeoutMs)) {
        return r;
    }
    QByteArray data;
    bool done = false;
    QObject::connect(&s, &QTcpSocket::readyRead, &s, [&] {
        data += s.readAll();
        done = done || parseHttpReply(data, &r);
    });
    QObject::connect(&s, &QTcpSocket::disconnected, &s, [&] {
        parseHttpReply(data, &r);
        r.closed = true;
        done = true;
    });
    s.write(head);
    const QByteArray piece(1 << 20, 'x');
    QElapsedTimer t;
    t.start();
    while (bodyBytes > 0 && !done && t.elapsed() < timeoutMs) {
        if (s.bytesToWrite() < 2 * piece.size()) {
            s.write(piece);
            bodyBytes -= piece.size();
        }
        QTest::qWait(1);
    }
    [[maybe_unused]] const bool answered = QTest::qWaitFor([&] { return done; }, timeoutMs);
    // Before `data` goes: closing the socket would call the lambdas above.
    QObject::disconnect(&s, nullptr, nullptr, nullptr);
    return r;
}

int openDescriptors(qint64 pid)
{
    const QDir fds(u"/proc/%1/fd"_s.arg(pid));
    return fds.exists() ? int(fds.entryList(QDir::NoDotAndDotDot | QDir::AllEntries).size()) : -1;
}

bool setDescriptorLimit(qint64 pid, qint64 soft)
{
    rlimit now{};
    if (::prlimit(pid_t(pid), RLIMIT_NOFILE, nullptr, &now) != 0) {
        return false;
    }
    const rlimit to{rlim_t(soft), now.rlim_max};
    return ::prlimit(pid_t(pid), RLIMIT_NOFILE, &to, nullptr) == 0;
}

} // namespace sluice::test
