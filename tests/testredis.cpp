#include "testredis.h"

#include "core/redis/keyspace.h"

#include <QCoreApplication>
#include <QFile>
#include <QTest>

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sluice::test {

namespace {

// What a test leaves under keyPrefix() in the fixture's Redis goes when the test's application
// ends: every process that asked for the fixture's address registers this once, so no test
// class needs a cleanupTestCase() for it. A test that needs a clean slate between its cases
// still calls cleanup() in init().
void cleanupAtExit()
{
    auto c = Connection::open(redisEndpoint());
    if (!c) {
        qWarning("could not remove this test's keys (%s*): %s", keyPrefix().constData(),
                 qPrintable(c.error().message));
        return;
    }
    if (deleteByPrefix(*c, keyPrefix()) < 0) {
        qWarning("could not remove all of this test's keys (%s*)", keyPrefix().constData());
    }
}

void cleanupWhenTheTestEnds()
{
    static bool registered = false;
    if (!registered && QCoreApplication::instance() != nullptr) {
        registered = true;
        keyPrefix(); // while the application still names itself
        qAddPostRoutine(&cleanupAtExit);
    }
}

} // namespace

QString redisUrl()
{
    const QString url = qEnvironmentVariable("SLUICE_TEST_REDIS_URL");
    if (!url.isEmpty()) {
        return url;
    }
    QFile f(qEnvironmentVariable("SLUICE_TEST_REDIS_DIR") + QStringLiteral("/url"));
    if (f.open(QIODevice::ReadOnly)) {
        return QString::fromUtf8(f.readAll().trimmed());
    }
    return {};
}

Endpoint redisEndpoint()
{
    const QString url = redisUrl();
    if (url.isEmpty()) {
        qFatal("no test Redis: run the tests through ctest (its fixture starts redis-server), or "
               "set SLUICE_TEST_REDIS_URL=redis://127.0.0.1:PORT");
    }
    auto e = Endpoint::parse(url);
    if (!e) {
        qFatal("bad test Redis URL %s", qPrintable(url));
    }
    cleanupWhenTheTestEnds();
    return *e;
}

Connection connect()
{
    auto c = Connection::open(redisEndpoint());
    if (!c) {
        qFatal("cannot connect to the test Redis: %s", qPrintable(c.error().message));
    }
    return std::move(*c);
}

Connection cleanSlate()
{
    Connection c = connect();
    cleanup(c);
    return c;
}

QByteArray keyPrefix()
{
    static const QByteArray prefix = "t:" + QCoreApplication::applicationName().toUtf8() + ':' +
                                     QByteArray::number(QCoreApplication::applicationPid()) + ':';
    return prefix;
}

void cleanup(Connection &c)
{
    deleteByPrefix(c, keyPrefix());
}

void cleanup()
{
    Connection c = connect();
    cleanup(c);
}

namespace {

// Runs `script` over [from, from + n) in slices of 50,000: ARGV prefix.."big:", first, last.
bool overFixedWindows(Connection &c, const QByteArray &script, const QByteArray &prefix,
                      qint64 from, qint64 n, const QByteArray &extra = {})
{
    for (qint64 at = from; at < from + n; at += 50'000) {
        const qint64 last = std::min(at + 50'000, from + n) - 1;
        QList<QByteArray> args{
            "EVAL", script, "0", prefix + "big:", QByteArray::number(at), QByteArray::number(last)};
        if (!extra.isEmpty()) {
            args << extra;
        }
        if (!c.command(args)) {
            return false;
        }
    }
    return true;
}

} // namespace

bool plantFixedWindows(Connection &c, const QByteArray &prefix, qint64 from, qint64 n, qint64 ttlMs)
{
    static const QByteArray script = R"(
        local now = redis.call('TIME')
        local s = string.format('%.0f', tonumber(now[1]) * 1000000 + tonumber(now[2]))
        for i = tonumber(ARGV[2]), tonumber(ARGV[3]) do
            local k = ARGV[1] .. '{' .. i .. '}'
            redis.call('HSET', k, 's', s, 'c', '1')
            redis.call('PEXPIRE', k, ARGV[4])
        end
        return 1)";
    return overFixedWindows(c, script, prefix, from, n, QByteArray::number(ttlMs));
}

bool unplantFixedWindows(Connection &c, const QByteArray &prefix, qint64 from, qint64 n)
{
    static const QByteArray script = R"(
        for i = tonumber(ARGV[2]), tonumber(ARGV[3]) do
            redis.call('UNLINK', ARGV[1] .. '{' .. i .. '}')
        end
        return 1)";
    return overFixedWindows(c, script, prefix, from, n);
}

namespace {

// Calls `page` with each SCAN page of the keys under `prefix`; false when a command failed.
template <typename Page> bool scanPrefix(Connection &c, const QByteArray &prefix, Page page)
{
    const QByteArray pattern = redis::globEscaped(prefix) + '*';
    QByteArray cursor = "0";
    do {
        auto r = c.command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
        if (!r || r->elements.size() != 2) {
            return false;
        }
        cursor = r->elements[0].str;
        QList<QByteArray> keys;
        for (const Reply &k : r->elements[1].elements) {
            if (k.str.startsWith(prefix)) {
                keys << k.str;
            }
        }
        if (!keys.isEmpty() && !page(keys)) {
            return false;
        }
    } while (cursor != "0");
    return true;
}

int bindLoopback(quint16 *port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a);
    socklen_t len = sizeof a;
    ::getsockname(fd, reinterpret_cast<sockaddr *>(&a), &len);
    *port = ntohs(a.sin_port);
    return fd;
}

} // namespace

QList<QByteArray> keysWithPrefix(Connection &c, const QByteArray &prefix)
{
    QList<QByteArray> out;
    scanPrefix(c, prefix, [&](const QList<QByteArray> &keys) {
        out += keys;
        return true;
    });
    return out;
}

qint64 deleteByPrefix(Connection &c, const QByteArray &prefix)
{
    const Result<qint64> deleted = redis::deleteByPrefix(c, prefix);
    return deleted ? *deleted : -1;
}

qint64 pttl(Connection &c, const QByteArray &key)
{
    auto r = c.command({"PTTL", key});
    return r ? r->integer : -3;
}

quint16 freeLoopbackPort()
{
    quint16 port = 0;
    ::close(bindLoopback(&port));
    return port;
}

LoopbackSocket::LoopbackSocket(bool listening, int backlog)
{
    // Not in the initializer list: m_port's own initializer would run after it.
    m_fd = bindLoopback(&m_port);
    if (listening) {
        ::listen(m_fd, backlog); // accepts connections into the backlog
    }
}

LoopbackSocket::~LoopbackSocket()
{
    ::close(m_fd);
}

} // namespace sluice::test
