#include "servefixture.h"

#include "runcli.h"

#include <QRegularExpression>
#include <QTcpSocket>
#include <QTest>

using namespace Qt::StringLiterals;

namespace sluice::test {

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
    const auto m =
        QRegularExpression(u"listening on http://[^\\s]+:(\\d+)"_s).match(QString::fromUtf8(m_out));
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

HttpReply httpGet(quint16 port, const QByteArray &target, const QByteArray &extraHeaders,
                  bool http10)
{
    HttpReply r;
    QTcpSocket s;
    s.connectToHost(u"127.0.0.1"_s, port);
    if (!s.waitForConnected(5000)) {
        return r;
    }
    s.write(http10 ? "GET " + target + " HTTP/1.0\r\nHost: localhost\r\n" + extraHeaders + "\r\n"
                   : "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n" +
                         extraHeaders + "\r\n");
    QByteArray data;
    while (s.state() == QAbstractSocket::ConnectedState && s.waitForReadyRead(10000)) {
        data += s.readAll();
    }
    data += s.readAll();
    const qsizetype end = data.indexOf("\r\n\r\n");
    if (end < 0) {
        return r;
    }
    const QList<QByteArray> lines = data.left(end).split('\n');
    const QList<QByteArray> first = lines.first().trimmed().split(' ');
    r.status = first.size() > 1 ? first[1].toInt() : -1;
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0) {
            r.headers.insert(lines[i].left(colon).trimmed().toLower(),
                             lines[i].mid(colon + 1).trimmed());
        }
    }
    r.body = data.mid(end + 4);
    return r;
}

} // namespace sluice::test
