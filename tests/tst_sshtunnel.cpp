// SshTunnel against a real OpenSSH server that the test starts on a free loopback port (its own
// host keys, user keys and known_hosts in a temporary directory), forwarding to the fixture's
// Redis. Clients talk RESP over the tunnel's Unix socket with plain POSIX calls.

#include "runcli.h"
#include "testdata.h"
#include "testredis.h"

#include "core/redis/sshtunnel.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <atomic>
#include <limits>
#include <thread>
#include <vector>

#include <csignal>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

using namespace sluice;
using namespace sluice::redis;
using namespace Qt::StringLiterals;
using std::chrono::milliseconds;

namespace {

constexpr milliseconds kTimeout{5000};

QString localUser()
{
    const passwd *pw = ::getpwuid(::geteuid());
    return pw != nullptr ? QString::fromLocal8Bit(pw->pw_name) : u"root"_s;
}

bool run(const QString &program, const QStringList &args, QByteArray *out = nullptr)
{
    QProcess p;
    p.start(program, args);
    if (!p.waitForFinished(20000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        qWarning() << program << args << p.readAllStandardError();
        return false;
    }
    if (out != nullptr) {
        *out = p.readAllStandardOutput();
    }
    return true;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// True once something accepts TCP connections on 127.0.0.1:port.
bool accepts(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    const bool ok = ::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

// Every process below `root` (sshd's per-connection children), from /proc.
QList<pid_t> descendants(pid_t root)
{
    QMultiHash<pid_t, pid_t> children;
    const QStringList entries = QDir(u"/proc"_s).entryList(QDir::Dirs);
    for (const QString &e : entries) {
        bool isPid = false;
        const pid_t pid = e.toInt(&isPid);
        if (!isPid) {
            continue;
        }
        const QByteArray stat = readFile(u"/proc/"_s + e + u"/stat"_s);
        // pid (comm) state ppid ...: comm may hold spaces, so split after the last ')'
        const qsizetype close = stat.lastIndexOf(')');
        const QList<QByteArray> f = stat.mid(close + 2).split(' ');
        if (f.size() > 1) {
            children.insert(f[1].toInt(), pid);
        }
    }
    QList<pid_t> out;
    QList<pid_t> todo{root};
    while (!todo.isEmpty()) {
        const pid_t p = todo.takeLast();
        const QList<pid_t> c = children.values(p);
        out += c;
        todo += c;
    }
    return out;
}

// A loopback TCP socket bound to a free port; listening (accepting into the backlog, silent)
// or not.

// CPU time (utime + stime, clock ticks) of this process's tunnel threads ("sluice-ssh"); -1
// when there is none.
qint64 tunnelThreadTicks()
{
    qint64 total = -1;
    const QStringList tasks =
        QDir(u"/proc/self/task"_s).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &t : tasks) {
        const QString base = u"/proc/self/task/"_s + t;
        if (readFile(base + u"/comm"_s).trimmed() != "sluice-ssh") {
            continue;
        }
        const QByteArray stat = readFile(base + u"/stat"_s);
        const QList<QByteArray> f = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
        // after "pid (comm) ": state is field 3, utime 14, stime 15
        total = std::max<qint64>(total, 0) + f.value(11).toLongLong() + f.value(12).toLongLong();
    }
    return total;
}

// One client of the tunnel's Unix socket. Reads never wait past `timeout`.
struct UnixClient
{
    int fd = -1;
    QByteArray buffer; // read, not consumed yet
    bool eof = false;

    explicit UnixClient(const QString &path)
    {
        fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_un a{};
        a.sun_family = AF_UNIX;
        const QByteArray p = QFile::encodeName(path);
        std::copy(p.begin(), p.end(), a.sun_path);
        if (::connect(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) != 0) {
            ::close(fd);
            fd = -1;
        }
    }
    ~UnixClient()
    {
        if (fd >= 0) {
            ::close(fd);
        }
    }
    bool isConnected() const { return fd >= 0; }
    bool send(const QByteArray &data)
    {
        qsizetype off = 0;
        while (off < data.size()) {
            const ssize_t n =
                ::send(fd, data.constData() + off, size_t(data.size() - off), MSG_NOSIGNAL);
            if (n <= 0) {
                return false;
            }
            off += n;
        }
        return true;
    }
    // Reads more into buffer; false on EOF, error or timeout.
    bool fill(milliseconds timeout)
    {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, int(timeout.count())) != 1) {
            return false;
        }
        char buf[65536];
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0) {
            eof = n == 0;
            return false;
        }
        buffer.append(buf, n);
        return true;
    }
    // One line without its \r\n; empty on timeout/EOF.
    QByteArray line(milliseconds timeout = kTimeout)
    {
        for (;;) {
            const qsizetype i = buffer.indexOf("\r\n");
            if (i >= 0) {
                QByteArray l = buffer.left(i);
                buffer.remove(0, i + 2);
                return l;
            }
            if (!fill(timeout)) {
                return {};
            }
        }
    }
    QByteArray exactly(qsizetype n, milliseconds timeout = kTimeout)
    {
        while (buffer.size() < n) {
            if (!fill(timeout)) {
                return {};
            }
        }
        QByteArray out = buffer.left(n);
        buffer.remove(0, n);
        return out;
    }
};

// The error's message, or nothing: for QVERIFY2 on a Result that should be ok.
template <typename T> QString why(const Result<T> &r)
{
    return r.ok() ? QString() : r.error().message;
}

QByteArray resp(const QList<QByteArray> &argv)
{
    QByteArray out = '*' + QByteArray::number(argv.size()) + "\r\n";
    for (const QByteArray &a : argv) {
        out += '$' + QByteArray::number(a.size()) + "\r\n" + a + "\r\n";
    }
    return out;
}

} // namespace

class TestSshTunnel : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QProcess m_sshd;
    quint16 m_port = 0;
    QString m_user;
    Endpoint m_redis;

    QString path(const QString &name) const { return m_dir.filePath(name); }

    // Starts sshd with this host key on m_port and waits until it accepts.
    bool startSshd(const QString &hostKey, const QByteArray &extra = {})
    {
        // sshd keeps the first value it reads for a keyword: `extra` goes first to win.
        const QByteArray config = extra + "Port " + QByteArray::number(m_port) +
                                  "\n"
                                  "ListenAddress 127.0.0.1\n"
                                  "HostKey " +
                                  QFile::encodeName(hostKey) +
                                  "\n"
                                  "AuthorizedKeysFile " +
                                  QFile::encodeName(path(u"authorized_keys"_s)) +
                                  "\n"
                                  "PidFile " +
                                  QFile::encodeName(path(u"sshd.pid"_s)) +
                                  "\n"
                                  "StrictModes no\n"
                                  "UsePAM no\n"
                                  "PermitRootLogin prohibit-password\n"
                                  "PasswordAuthentication yes\n"
                                  "KbdInteractiveAuthentication no\n"
                                  "AllowTcpForwarding yes\n"
                                  "LogLevel VERBOSE\n";
        if (!test::writeFile(path(u"sshd_config"_s), config)) {
            return false;
        }
        ::mkdir("/run/sshd", 0755); // privilege separation directory, as the package's unit does
        m_sshd.setProcessChannelMode(QProcess::MergedChannels);
        m_sshd.setStandardOutputFile(path(u"sshd.log"_s), QIODevice::Append);
        // sshd dies with the test, also when the test crashes
        m_sshd.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
        m_sshd.start(u"/usr/sbin/sshd"_s, {u"-D"_s, u"-e"_s, u"-f"_s, path(u"sshd_config"_s)});
        if (!m_sshd.waitForStarted(5000)) {
            return false;
        }
        for (int i = 0; i < 200; ++i) {
            if (accepts(m_port)) {
                return true;
            }
            if (m_sshd.state() != QProcess::Running) {
                break;
            }
            QTest::qWait(25);
        }
        qWarning() << "sshd did not start:" << readFile(path(u"sshd.log"_s)).right(2000);
        return false;
    }

    // SIGKILL to sshd and every session process under it: the tunnel's TCP connection breaks.
    void killSshd()
    {
        if (m_sshd.state() == QProcess::NotRunning) {
            return;
        }
        const pid_t master = pid_t(m_sshd.processId());
        for (const pid_t p : descendants(master)) {
            ::kill(p, SIGKILL);
        }
        m_sshd.kill();
        m_sshd.waitForFinished(5000);
    }

    SshOptions options() const
    {
        SshOptions o;
        o.user = m_user;
        o.host = u"127.0.0.1"_s;
        o.port = m_port;
        o.keyFile = path(u"userkey"_s);
        o.knownHostsFile = path(u"known_hosts"_s);
        return o;
    }

    QByteArray knownHostsLine(const QString &pubFile) const
    {
        const QList<QByteArray> f = readFile(pubFile).trimmed().split(' ');
        return "[127.0.0.1]:" + QByteArray::number(m_port) + ' ' + f.value(0) + ' ' + f.value(1) +
               '\n';
    }

    QByteArray pubKeyBase64(const QString &pubFile) const
    {
        return readFile(pubFile).trimmed().split(' ').value(1);
    }

    Result<std::shared_ptr<SshTunnel>> openToRedis(const SshOptions &o,
                                                   milliseconds timeout = kTimeout)
    {
        return SshTunnel::open(o, m_redis.host, m_redis.port, timeout);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY2(QFile::exists(u"/usr/sbin/sshd"_s), "openssh-server is not installed");
        m_redis = test::redisEndpoint();
        m_user = localUser();
        for (const QString &k : {u"hostkey"_s, u"hostkey2"_s, u"userkey"_s, u"otherkey"_s}) {
            QVERIFY(run(u"ssh-keygen"_s, {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, QString(),
                                          u"-C"_s, k, u"-f"_s, path(k)}));
        }
        QVERIFY(test::writeFile(path(u"authorized_keys"_s), readFile(path(u"userkey.pub"_s))));
        m_port = test::freeLoopbackPort();
        QVERIFY(startSshd(path(u"hostkey"_s)));
        // The known host for most cases, written by the test (case 2 checks writing it).
        QVERIFY(test::writeFile(path(u"known_hosts"_s), knownHostsLine(path(u"hostkey.pub"_s))));
    }

    void cleanupTestCase()
    {
        killSshd();
        Connection c = test::cleanSlate();
    }

    // The same tunnel under a Connection (the way every part of Sluice uses it) and under
    // sluice-cli --ssh, with the host-key check visible to the user.
    void connectionThroughTheTunnel()
    {
        Endpoint e = m_redis;
        e.ssh = options();
        auto c = Connection::open(e);
        QVERIFY2(c.ok(), qPrintable(c.ok() ? QString() : c.error().message));
        QVERIFY(c->endpoint().display().contains(u"via ssh "_s));
        auto pong = c->command({"PING"});
        QVERIFY(pong.ok());
        QCOMPARE(pong->str, QByteArray("PONG"));
        // A second connection shares the tunnel; a reconnect still works.
        auto c2 = Connection::open(e);
        QVERIFY(c2.ok());
        QVERIFY(c->reconnect().ok());
        QVERIFY(c->command({"PING"}).ok());

        const QStringList decide{u"check"_s,
                                 u"--url"_s,
                                 test::redisUrl(),
                                 u"--algorithm"_s,
                                 u"fixed_window"_s,
                                 u"--limit"_s,
                                 u"2"_s,
                                 u"--window"_s,
                                 u"1m"_s,
                                 u"--subject"_s,
                                 u"ssh-cli"_s,
                                 u"--key-prefix"_s,
                                 QString::fromUtf8(test::keyPrefix()),
                                 u"--ssh"_s,
                                 u"%1@127.0.0.1:%2"_s.arg(m_user).arg(m_port),
                                 u"--ssh-key"_s,
                                 path(u"userkey"_s)};
        auto ok =
            test::runCli(decide + QStringList{u"--ssh-known-hosts"_s, path(u"known_hosts"_s)});
        QVERIFY2(ok.exitCode == 0, ok.err.constData());
        // An unknown host key: a runtime error that shows the fingerprint and the way out.
        const QString empty = path(u"empty_known_hosts"_s);
        QVERIFY(test::writeFile(empty, QByteArray()));
        auto unknown = test::runCli(decide + QStringList{u"--ssh-known-hosts"_s, empty});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains("SHA256:") && unknown.err.contains("--ssh-accept-new"),
                 unknown.err.constData());
        auto accepted = test::runCli(
            decide + QStringList{u"--ssh-known-hosts"_s, empty, u"--ssh-accept-new"_s});
        QVERIFY2(accepted.exitCode == 0, accepted.err.constData());
        QVERIFY(!readFile(empty).isEmpty());
        // Usage errors: a missing key file, an SSH flag without --ssh.
        auto noKey = test::runCli({u"check"_s, u"--url"_s, test::redisUrl(), u"--algorithm"_s,
                                   u"fixed_window"_s, u"--limit"_s, u"2"_s, u"--window"_s, u"1m"_s,
                                   u"--subject"_s, u"x"_s, u"--ssh"_s, u"u@127.0.0.1"_s,
                                   u"--ssh-key"_s, path(u"nothere"_s)});
        QCOMPARE(noKey.exitCode, 2);
        QVERIFY2(noKey.err.contains("--ssh-key") && noKey.err.contains("no such file"),
                 noKey.err.constData());
        auto stray = test::runCli({u"check"_s, u"--url"_s, test::redisUrl(), u"--algorithm"_s,
                                   u"fixed_window"_s, u"--limit"_s, u"2"_s, u"--window"_s, u"1m"_s,
                                   u"--subject"_s, u"x"_s, u"--ssh-accept-new"_s});
        QCOMPARE(stray.exitCode, 2);
        QVERIFY2(stray.err.contains("need --ssh"), stray.err.constData());
    }

    // 1. PING, concurrent pipelined clients, a 5 MB value, through the tunnel to the fixture.
    void tunnelToRedis()
    {
        auto t = openToRedis(options());
        QVERIFY2(t.ok(), qPrintable(why(t)));
        std::shared_ptr<SshTunnel> tunnel = *t;
        QVERIFY(tunnel->isAlive());
        const QString sock = tunnel->socketPath();
        QVERIFY(QFileInfo(sock).exists());
        // A private directory: nobody else may even reach the socket.
        QCOMPARE(QFileInfo(QFileInfo(sock).path()).permissions() & 0x0077, QFile::Permissions());
        QVERIFY(tunnel->display().contains(u"127.0.0.1:"_s + QString::number(m_redis.port)));

        {
            UnixClient c(sock);
            QVERIFY(c.isConnected());
            QVERIFY(c.send("PING\r\n"));
            QCOMPARE(c.line(), QByteArray("+PONG"));

            // Round-trip latency: no sleeps in the pump (a 10 ms poll would show here).
            std::vector<qint64> us;
            for (int i = 0; i < 200; ++i) {
                QElapsedTimer e;
                e.start();
                QVERIFY(c.send("PING\r\n"));
                QCOMPARE(c.line(), QByteArray("+PONG"));
                us.push_back(e.nsecsElapsed() / 1000);
            }
            std::sort(us.begin(), us.end());
            Connection direct = test::connect();
            std::vector<qint64> directUs;
            for (int i = 0; i < 200; ++i) {
                QElapsedTimer e;
                e.start();
                QVERIFY(direct.command({"PING"}).ok());
                directUs.push_back(e.nsecsElapsed() / 1000);
            }
            std::sort(directUs.begin(), directUs.end());
            qInfo("PING through the tunnel: median %lld us, p90 %lld us, max %lld us (direct TCP: "
                  "median %lld us)",
                  us[us.size() / 2], us[us.size() * 9 / 10], us.back(),
                  directUs[directUs.size() / 2]);
            QVERIFY2(us[us.size() / 2] < 5000, "median round trip over 5 ms");
        }
        // The second request on a fresh connection is where Nagle meets delayed ACKs (a 40 ms
        // stall without TCP_NODELAY): the best of three must be fast.
        {
            qint64 best = std::numeric_limits<qint64>::max();
            for (int attempt = 0; attempt < 3; ++attempt) {
                UnixClient c(sock);
                QVERIFY(c.send("PING\r\n"));
                QCOMPARE(c.line(), QByteArray("+PONG"));
                QElapsedTimer e;
                e.start();
                QVERIFY(c.send("PING\r\n"));
                QCOMPARE(c.line(), QByteArray("+PONG"));
                best = std::min(best, e.nsecsElapsed() / 1000);
            }
            QVERIFY2(best < 20000, qPrintable(u"second PING took %1 us"_s.arg(best)));
        }

        // 8 clients at once, each 1000 pipelined pairs: INCR of its own key (replies 1..1000 in
        // order) and of a shared one (8000 at the end, read directly from Redis).
        const QByteArray prefix = test::keyPrefix();
        constexpr int kClients = 8;
        constexpr int kIncrs = 1000;
        std::atomic<int> good{0};
        std::vector<QString> failures(kClients);
        {
            QElapsedTimer e;
            e.start();
            std::vector<std::thread> threads;
            for (int i = 0; i < kClients; ++i) {
                threads.emplace_back([&, i] {
                    UnixClient c(sock);
                    if (!c.isConnected()) {
                        failures[i] = u"cannot connect"_s;
                        return;
                    }
                    QByteArray batch;
                    const QByteArray own = prefix + "own" + QByteArray::number(i);
                    for (int k = 0; k < kIncrs; ++k) {
                        batch += resp({"INCR", own}) + resp({"INCR", prefix + "shared"});
                    }
                    if (!c.send(batch)) {
                        failures[i] = u"send failed"_s;
                        return;
                    }
                    qint64 lastShared = 0;
                    for (int k = 1; k <= kIncrs; ++k) {
                        const QByteArray a = c.line();
                        const QByteArray b = c.line();
                        if (a != ':' + QByteArray::number(k)) {
                            failures[i] = u"reply %1 is %2"_s.arg(k).arg(QString::fromUtf8(a));
                            return;
                        }
                        const qint64 shared = b.mid(1).toLongLong();
                        if (!b.startsWith(':') || shared <= lastShared) {
                            failures[i] =
                                u"shared reply %1 is %2"_s.arg(k).arg(QString::fromUtf8(b));
                            return;
                        }
                        lastShared = shared;
                    }
                    ++good;
                });
            }
            for (auto &th : threads) {
                th.join();
            }
            qInfo("%d clients x %d pipelined INCR pairs: %lld ms", kClients, kIncrs, e.elapsed());
        }
        for (int i = 0; i < kClients; ++i) {
            QVERIFY2(failures[i].isEmpty(), qPrintable(failures[i]));
        }
        QCOMPARE(good.load(), kClients);
        {
            Connection direct = test::connect();
            auto r = direct.command({"GET", prefix + "shared"});
            QVERIFY(r.ok());
            QCOMPARE(r->str, QByteArray::number(kClients * kIncrs));
        }

        // 5 MB SET then GET: more than the channel windows, both ways.
        {
            QByteArray value(5 * 1024 * 1024, Qt::Uninitialized);
            QRandomGenerator rng(42);
            rng.fillRange(reinterpret_cast<quint32 *>(value.data()), value.size() / 4);
            UnixClient c(sock);
            QVERIFY(c.isConnected());
            QElapsedTimer e;
            e.start();
            QVERIFY(c.send(resp({"SET", prefix + "big", value})));
            QCOMPARE(c.line(), QByteArray("+OK"));
            QVERIFY(c.send(resp({"GET", prefix + "big"})));
            QCOMPARE(c.line(), '$' + QByteArray::number(value.size()));
            const QByteArray back = c.exactly(value.size() + 2);
            QCOMPARE(back.size(), value.size() + 2);
            QVERIFY(back.left(value.size()) == value);
            QVERIFY(back.endsWith("\r\n"));
            qInfo("5 MB SET + GET through the tunnel: %lld ms", e.elapsed());
        }
        QTRY_COMPARE(tunnel->clientCount(), 0);
        QVERIFY(tunnel->lastError().isEmpty());

        // The destructor removes the socket and its directory.
        const QString dir = QFileInfo(sock).path();
        t = Error::make(Error::Kind::Internal, QString()); // drop the Result's reference
        QCOMPARE(tunnel.use_count(), 1);
        tunnel.reset();
        QVERIFY(!QFileInfo::exists(sock));
        QVERIFY(!QFileInfo::exists(dir));
    }

    // 2. unknown host key refused with its fingerprint; accepted and written with acceptNew; a
    // changed key refused even with acceptNew.
    void hostKeys()
    {
        const QString kh = path(u"known_hosts_new"_s);
        QVERIFY(test::writeFile(kh, QByteArray()));
        SshOptions o = options();
        o.knownHostsFile = kh;

        QByteArray listing;
        QVERIFY(run(u"ssh-keygen"_s, {u"-lf"_s, path(u"hostkey.pub"_s), u"-E"_s, u"sha256"_s},
                    &listing));
        const QString fingerprint = QString::fromUtf8(listing.split(' ').value(1));
        QVERIFY(fingerprint.startsWith(u"SHA256:"_s));

        auto r = openToRedis(o);
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Auth);
        QVERIFY2(r.error().message.contains(fingerprint), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(u"--ssh-accept-new"_s), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(u"ssh "_s + m_user + u"@127.0.0.1:"_s +
                                            QString::number(m_port)),
                 qPrintable(r.error().message));
        QVERIFY(readFile(kh).isEmpty()); // nothing written without acceptNew

        // A known_hosts file that does not exist yet: the same, and still not created.
        o.knownHostsFile = path(u"no/such/dir/known_hosts"_s);
        r = openToRedis(o);
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(fingerprint), qPrintable(r.error().message));
        QVERIFY(!QFileInfo::exists(o.knownHostsFile));
        o.knownHostsFile = kh;

        o.acceptNew = true;
        r = openToRedis(o);
        QVERIFY2(r.ok(), qPrintable(why(r)));
        {
            UnixClient c((*r)->socketPath());
            QVERIFY(c.send("PING\r\n"));
            QCOMPARE(c.line(), QByteArray("+PONG"));
        }
        const QByteArray written = readFile(kh);
        QVERIFY2(written.contains(pubKeyBase64(path(u"hostkey.pub"_s))), written.constData());
        QVERIFY2(written.contains("[127.0.0.1]:" + QByteArray::number(m_port)),
                 written.constData());
        r = Error::make(Error::Kind::Internal, QString());

        // A first connection of a new user: no ~/.ssh yet. It is made, private.
        {
            SshOptions fresh = o;
            fresh.knownHostsFile = path(u"fresh-home/.ssh/known_hosts"_s);
            auto f = openToRedis(fresh);
            QVERIFY2(f.ok(), qPrintable(why(f)));
            QVERIFY(readFile(fresh.knownHostsFile).contains(pubKeyBase64(path(u"hostkey.pub"_s))));
            QCOMPARE(QFileInfo(path(u"fresh-home/.ssh"_s)).permissions() & 0x0077,
                     QFile::Permissions());
        }

        // Known now: no acceptNew needed.
        o.acceptNew = false;
        r = openToRedis(o);
        QVERIFY2(r.ok(), qPrintable(why(r)));
        r = Error::make(Error::Kind::Internal, QString());

        // Another host key on the same address: refused loudly, also with acceptNew.
        killSshd();
        QVERIFY(startSshd(path(u"hostkey2"_s)));
        o.acceptNew = true;
        r = openToRedis(o);
        const QByteArray after = readFile(kh);
        killSshd();
        QVERIFY(startSshd(path(u"hostkey"_s)));
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Auth);
        QVERIFY2(r.error().message.contains(u"HOST KEY HAS CHANGED"_s),
                 qPrintable(r.error().message));
        QByteArray listing2;
        QVERIFY(run(u"ssh-keygen"_s, {u"-lf"_s, path(u"hostkey2.pub"_s), u"-E"_s, u"sha256"_s},
                    &listing2));
        QVERIFY2(r.error().message.contains(QString::fromUtf8(listing2.split(' ').value(1))),
                 qPrintable(r.error().message));
        QCOMPARE(after, written); // the known key was not replaced
    }

    // 3. a key the server does not know: refused, naming user and key file, within the deadline.
    void rejectedKey()
    {
        SshOptions o = options();
        o.keyFile = path(u"otherkey"_s);
        QElapsedTimer e;
        e.start();
        auto r = openToRedis(o, milliseconds(3000));
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QVERIFY(e.elapsed() < 3000);
        QCOMPARE(r.error().kind, Error::Kind::Auth);
        QVERIFY2(r.error().message.contains(m_user + u"@127.0.0.1"_s),
                 qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(o.keyFile), qPrintable(r.error().message));

        // A key file that is not there: Invalid, naming it.
        o.keyFile = path(u"missing-key"_s);
        r = openToRedis(o);
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Invalid);
        QVERIFY2(r.error().message.contains(o.keyFile), qPrintable(r.error().message));

        // An encrypted key with the wrong passphrase: the passphrase is never shown.
        QVERIFY(run(u"ssh-keygen"_s, {u"-q"_s, u"-t"_s, u"ed25519"_s, u"-N"_s, u"right-phrase-77"_s,
                                      u"-f"_s, path(u"lockedkey"_s)}));
        o.keyFile = path(u"lockedkey"_s);
        o.keyPassphrase = u"wrong-phrase-31337"_s;
        r = openToRedis(o);
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(o.keyFile), qPrintable(r.error().message));
        QVERIFY(!r.error().message.contains(u"wrong-phrase-31337"_s));
        // With the right passphrase (and the key authorized): in.
        QVERIFY(
            test::writeFile(path(u"authorized_keys"_s),
                            readFile(path(u"userkey.pub"_s)) + readFile(path(u"lockedkey.pub"_s))));
        o.keyPassphrase = u"right-phrase-77"_s;
        r = openToRedis(o);
        QVERIFY2(r.ok(), qPrintable(why(r)));
    }

    // 4. a wrong password: refused, and the password appears nowhere.
    void wrongPassword()
    {
        SshOptions o = options();
        o.keyFile.clear(); // agent and default keys first (none is authorized), then the password
        o.password = u"hunter2-Secret-Pw"_s;
        auto r = openToRedis(o, milliseconds(4000));
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Auth);
        QVERIFY2(r.error().message.contains(u"password"_s), qPrintable(r.error().message));
        QVERIFY(!r.error().message.contains(o.password));
        QVERIFY(!r.error().message.contains(u"hunter2"_s));
    }

    // 5. the bastion cannot reach the target: open() says so; and a target that goes away
    // later closes the client's socket, with lastError() saying why.
    void targetUnreachable()
    {
        const quint16 closed = test::freeLoopbackPort();
        QElapsedTimer e;
        e.start();
        auto r = SshTunnel::open(options(), u"127.0.0.1"_s, closed, kTimeout);
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QVERIFY(e.elapsed() < kTimeout.count());
        QCOMPARE(r.error().kind, Error::Kind::Io);
        QVERIFY2(
            r.error().message.contains(u"could not reach 127.0.0.1:"_s + QString::number(closed)),
            qPrintable(r.error().message));

        auto target = std::make_unique<test::LoopbackSocket>(true);
        r = SshTunnel::open(options(), u"127.0.0.1"_s, target->port(), kTimeout);
        QVERIFY2(r.ok(), qPrintable(why(r)));
        target.reset(); // nothing listens there any more
        UnixClient c((*r)->socketPath());
        QVERIFY(c.isConnected());
        QVERIFY(!c.fill(kTimeout));
        QVERIFY(c.eof);
        QVERIFY2((*r)->lastError().contains(u"could not reach"_s), qPrintable((*r)->lastError()));
        QVERIFY((*r)->isAlive()); // one refused channel does not end the session
    }

    // 6. sshd dies under a connected client: the tunnel says so, the client sees EOF, and
    // shared() opens a fresh tunnel once sshd is back.
    void bastionDies()
    {
        auto r = SshTunnel::shared(options(), m_redis.host, m_redis.port, kTimeout);
        QVERIFY2(r.ok(), qPrintable(why(r)));
        const std::shared_ptr<SshTunnel> first = *r;
        {
            auto again = SshTunnel::shared(options(), m_redis.host, m_redis.port, kTimeout);
            QVERIFY(again.ok());
            QCOMPARE(again->get(), first.get()); // shared while held
        }
        UnixClient c(first->socketPath());
        QVERIFY(c.send("PING\r\n"));
        QCOMPARE(c.line(), QByteArray("+PONG"));

        killSshd();
        QTRY_VERIFY_WITH_TIMEOUT(!first->isAlive(), 5000);
        QVERIFY(!c.fill(kTimeout));
        QVERIFY(c.eof);
        QVERIFY(!QFileInfo::exists(first->socketPath()));
        QVERIFY2(first->lastError().contains(u"lost"_s), qPrintable(first->lastError()));

        // While sshd is down: a clear error, no hang.
        r = SshTunnel::shared(options(), m_redis.host, m_redis.port, kTimeout);
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Io);

        QVERIFY(startSshd(path(u"hostkey"_s)));
        r = SshTunnel::shared(options(), m_redis.host, m_redis.port, kTimeout);
        QVERIFY2(r.ok(), qPrintable(why(r)));
        QVERIFY(r->get() != first.get());
        QVERIFY((*r)->isAlive());
        UnixClient c2((*r)->socketPath());
        QVERIFY(c2.send("PING\r\n"));
        QCOMPARE(c2.line(), QByteArray("+PONG"));
    }

    // A client that does not read: the tunnel stops taking the bastion's data (no unbounded
    // buffering) and, once the client reads, delivers all of it intact and in order.
    void slowClient()
    {
        auto t = openToRedis(options());
        QVERIFY2(t.ok(), qPrintable(why(t)));
        const QByteArray key = test::keyPrefix() + "slow";
        QByteArray value(3 * 1024 * 1024, Qt::Uninitialized);
        QRandomGenerator rng(7);
        rng.fillRange(reinterpret_cast<quint32 *>(value.data()), value.size() / 4);
        UnixClient c((*t)->socketPath());
        QVERIFY(c.send(resp({"SET", key, value})));
        QCOMPARE(c.line(), QByteArray("+OK"));
        // Three GETs at once, then nothing read for a while: 9 MB are waiting for the client.
        QVERIFY(c.send(resp({"GET", key}) + resp({"GET", key}) + resp({"GET", key})));
        QTest::qWait(700);
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(c.line(), '$' + QByteArray::number(value.size()));
            const QByteArray back = c.exactly(value.size() + 2);
            QVERIFY2(back.left(value.size()) == value, qPrintable(QString::number(i)));
        }
        QVERIFY(c.send("PING\r\n"));
        QCOMPARE(c.line(), QByteArray("+PONG"));
    }

    // Destroying the tunnel closes its clients (they see EOF) and its socket.
    void destroyWithClients()
    {
        auto t = openToRedis(options());
        QVERIFY2(t.ok(), qPrintable(why(t)));
        std::shared_ptr<SshTunnel> tunnel = *t;
        t = Error::make(Error::Kind::Internal, QString());
        const QString sock = tunnel->socketPath();
        UnixClient a(sock);
        UnixClient b(sock);
        QVERIFY(a.send("PING\r\n"));
        QCOMPARE(a.line(), QByteArray("+PONG"));
        QVERIFY(b.send("PING\r\n"));
        QCOMPARE(b.line(), QByteArray("+PONG"));
        QCOMPARE(tunnel->clientCount(), 2);
        // Idle with two clients connected: the tunnel thread sleeps in poll(), no busy loop.
        const qint64 before = tunnelThreadTicks();
        QVERIFY(before >= 0);
        QTest::qWait(1000);
        const qint64 ticks = tunnelThreadTicks() - before;
        QVERIFY2(ticks <= 2, qPrintable(u"%1 ticks of CPU in 1 s of idle"_s.arg(ticks)));
        QElapsedTimer e;
        e.start();
        tunnel.reset();
        QVERIFY2(e.elapsed() < 1000, qPrintable(QString::number(e.elapsed())));
        QVERIFY(!a.fill(kTimeout));
        QVERIFY(a.eof);
        QVERIFY(!b.fill(kTimeout));
        QVERIFY(b.eof);
        QVERIFY(!QFileInfo::exists(sock));
        QVERIFY(!UnixClient(sock).isConnected());
    }

    // shared() from several threads at once: one tunnel, opened once.
    void sharedConcurrently()
    {
        constexpr int kThreads = 6;
        std::vector<std::shared_ptr<SshTunnel>> got(kThreads);
        std::vector<std::thread> threads;
        for (int i = 0; i < kThreads; ++i) {
            threads.emplace_back([&, i] {
                auto r = SshTunnel::shared(options(), m_redis.host, m_redis.port, kTimeout);
                if (r) {
                    got[i] = *r;
                }
            });
        }
        for (auto &th : threads) {
            th.join();
        }
        for (int i = 0; i < kThreads; ++i) {
            QVERIFY(got[i]);
            QCOMPARE(got[i].get(), got[0].get());
        }
        // Another target is another tunnel.
        test::LoopbackSocket other(true);
        auto r = SshTunnel::shared(options(), u"127.0.0.1"_s, other.port(), kTimeout);
        QVERIFY2(r.ok(), qPrintable(why(r)));
        QVERIFY(r->get() != got[0].get());
    }

    // A bastion that does not forward at all: the same clear error from open().
    void forwardingDisabled()
    {
        killSshd();
        QVERIFY(startSshd(path(u"hostkey"_s), "AllowTcpForwarding no\n"));
        auto r = openToRedis(options());
        killSshd();
        QVERIFY(startSshd(path(u"hostkey"_s)));
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Io);
        QVERIFY2(r.error().message.contains(u"could not reach"_s), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(u"AllowTcpForwarding"_s),
                 qPrintable(r.error().message));
    }

    // 7. an address that accepts TCP but never speaks SSH: open() gives up at its deadline.
    void deadline()
    {
        test::LoopbackSocket silent(true);
        SshOptions o = options();
        o.port = silent.port();
        QElapsedTimer e;
        e.start();
        auto r = SshTunnel::open(o, m_redis.host, m_redis.port, milliseconds(1500));
        const qint64 ms = e.elapsed();
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Timeout);
        QVERIFY2(ms >= 1400 && ms < 2500, qPrintable(QString::number(ms)));
        QVERIFY2(r.error().message.contains(u"1500 ms"_s), qPrintable(r.error().message));

        // A port where nothing listens: refused at once, as Io.
        test::LoopbackSocket none(false);
        o.port = none.port();
        e.restart();
        r = SshTunnel::open(o, m_redis.host, m_redis.port, milliseconds(1500));
        QVERIFY(!r.ok());
        qInfo("%s", qPrintable(r.error().message));
        QCOMPARE(r.error().kind, Error::Kind::Io);
        QVERIFY(e.elapsed() < 1000);
    }
};

QTEST_GUILESS_MAIN(TestSshTunnel)
#include "tst_sshtunnel.moc"
