// sluice-cli serve as systemd runs it (resources/systemd/sluice-serve@.service): readiness
// through $NOTIFY_SOCKET (READY=1 once it listens), SIGHUP reloading --rules FILE (a new rule
// answers, a removed one is 404), an invalid file on SIGHUP keeping the rules served, and
// SIGTERM stopping it cleanly (STOPPING=1, exit 0). Before SIGHUP was handled, it killed the
// service.
#include "servefixture.h"
#include "testdata.h"
#include "testredis.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace sluice;

namespace {

using test::writeFile;

QByteArray rulesWith(const QByteArray &id)
{
    QByteArray text = R"({"version": 1, "rules": [{"id": "ID", "scope": "ip", "algorithm":
        "fixed_window", "limit": 5, "window": "1m", "key_prefix": "PREFIX"}]})";
    text.replace("ID", id);
    text.replace("PREFIX", test::keyPrefix());
    return text;
}

// The status code of GET `target` (-1 if none came).
int status(quint16 port, const QByteArray &target)
{
    return test::httpGet(port, target).status;
}

// The datagram socket a service manager listens on for sd_notify messages.
class NotifySocket
{
public:
    explicit NotifySocket(const QString &path)
        : m_path(path)
    {
        m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
        sockaddr_un addr{};
        addr.sun_family = AF_UNIX;
        const QByteArray p = QFile::encodeName(path);
        qstrncpy(addr.sun_path, p.constData(), sizeof addr.sun_path);
        m_ok = m_fd >= 0 && ::bind(m_fd, reinterpret_cast<sockaddr *>(&addr), sizeof addr) == 0;
    }
    ~NotifySocket()
    {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
    }
    bool ok() const { return m_ok; }
    // Every message received so far, appended.
    QByteArray received()
    {
        char buf[4096];
        ssize_t n;
        while ((n = ::recv(m_fd, buf, sizeof buf, 0)) > 0) {
            m_all += QByteArray(buf, n) + '\n';
        }
        return m_all;
    }

private:
    QString m_path;
    int m_fd = -1;
    bool m_ok = false;
    QByteArray m_all;
};

} // namespace

class TestServeSighup : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void reloadsTheRulesFileOnSighup()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString rules = dir.filePath(QStringLiteral("rules.json"));
        QVERIFY(writeFile(rules, rulesWith("first")));
        NotifySocket notify(dir.filePath(QStringLiteral("notify")));
        QVERIFY(notify.ok());

        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("NOTIFY_SOCKET"), dir.filePath(QStringLiteral("notify")));
        test::ServeProcess serve;
        QVERIFY2(serve.start(test::serveArgs(rules, test::redisUrl()), env),
                 serve.err().constData());
        QProcess &service = serve.process();
        const quint16 port = serve.port();
        QVERIFY(QTest::qWaitFor([&] { return notify.received().contains("READY=1"); }, 5000));
        QCOMPARE(status(port, "/v1/check?rule=first&subject=a"), 200);
        QCOMPARE(status(port, "/v1/check?rule=second&subject=a"), 404);

        // A new file, then SIGHUP: the new rule answers, the old one is gone.
        QVERIFY(writeFile(rules, rulesWith("second")));
        QByteArray err;
        QVERIFY(::kill(pid_t(service.processId()), SIGHUP) == 0);
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         err += service.readAllStandardError();
                         return err.contains("reloaded") || service.state() == QProcess::NotRunning;
                     },
                     10000),
                 err.constData());
        QVERIFY2(service.state() == QProcess::Running, "SIGHUP ended the service");
        QVERIFY2(err.contains("SIGHUP: reloaded 1 rules from " + QFile::encodeName(rules)),
                 err.constData());
        QCOMPARE(status(port, "/v1/check?rule=second&subject=a"), 200);
        QCOMPARE(status(port, "/v1/check?rule=first&subject=a"), 404);
        QVERIFY(notify.received().contains("RELOADING=1"));

        // An invalid file: its error is printed, the rules served stay.
        QVERIFY(writeFile(rules, R"({"version": 1, "rules": [{"id": "second", "limit": 0}]})"));
        err.clear();
        QVERIFY(::kill(pid_t(service.processId()), SIGHUP) == 0);
        QVERIFY(QTest::qWaitFor(
            [&] {
                err += service.readAllStandardError();
                return err.contains("not reloaded") || service.state() == QProcess::NotRunning;
            },
            10000));
        QVERIFY2(err.contains("rules.json:1:"), err.constData()); // file:line of the error
        QVERIFY2(err.contains("still serving the rules loaded before"), err.constData());
        QCOMPARE(status(port, "/v1/check?rule=second&subject=a"), 200);

        // SIGTERM: STOPPING=1 and a clean exit.
        QVERIFY(::kill(pid_t(service.processId()), SIGTERM) == 0);
        QVERIFY(service.waitForFinished(10000));
        QCOMPARE(service.exitStatus(), QProcess::NormalExit);
        QCOMPARE(service.exitCode(), 0);
        QVERIFY(notify.received().contains("STOPPING=1"));
    }
};

QTEST_GUILESS_MAIN(TestServeSighup)
#include "tst_serve_sighup.moc"
