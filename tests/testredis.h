#pragma once

// Shared by the tests that need Redis: the server the CTest fixture started
// (redis-fixture.sh), a connection to it, a key prefix of the test's own, and keys by prefix.
// A server of the test's own is OwnRedis (ownredis.h); running sluice-cli is runCli (runcli.h).

#include "core/redis/connection.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sluice::test {

// redis://127.0.0.1:PORT from $SLUICE_TEST_REDIS_URL, else $SLUICE_TEST_REDIS_DIR/url.
// Empty when neither is there (the test then fails with a message saying how to run it).
QString redisUrl();
Endpoint redisEndpoint();
// A fresh connection; fails the calling test (QFAIL-style, via qFatal-free QVERIFY) if none.
Connection connect();
// connect(), after removing this test's keys (cleanup()): a clean slate to plant on.
Connection cleanSlate();
// "t:<test name>:<pid>:" : keys of one test process never meet another's.
QByteArray keyPrefix();
// Deletes every key under keyPrefix(); without a connection, on a fresh one. The test's
// application does it once more when it ends, in every process that asked for the fixture's
// address: a test calls it itself only for a clean slate between its cases.
void cleanup(Connection &c);
void cleanup();
// The keys that start with `prefix` (taken literally: glob characters in it are escaped for
// SCAN MATCH), and deleting them. deleteByPrefix returns how many it deleted, -1 when a
// command failed (it stops there).
QList<QByteArray> keysWithPrefix(Connection &c, const QByteArray &prefix);
qint64 deleteByPrefix(Connection &c, const QByteArray &prefix);
// PTTL of a key: -2 absent, -1 no TTL, else ms.
qint64 pttl(Connection &c, const QByteArray &key);
// `n` fixed-window states "<prefix>big:{<i>}" for i in [from, from + n), each with a TTL of
// ttlMs, planted by one Lua loop per 50,000 keys (the test's own planting, not the code under
// test); and removing them again.
bool plantFixedWindows(Connection &c, const QByteArray &prefix, qint64 from, qint64 n,
                       qint64 ttlMs);
bool unplantFixedWindows(Connection &c, const QByteArray &prefix, qint64 from, qint64 n);
// A loopback TCP port that was free a moment ago (bound to port 0, then released): nothing
// listens there, so a connection to it is refused.
quint16 freeLoopbackPort();

// A loopback TCP socket bound to a port of its own while it lives: not listening, connections
// to it are refused; listening, the kernel accepts up to `backlog` of them into the backlog and
// nothing answers unless the owner accepts them from fd() (FakeResp and FakeServer do; alone it
// is a silent server).
class LoopbackSocket
{
public:
    explicit LoopbackSocket(bool listening, int backlog = 16);
    ~LoopbackSocket();
    LoopbackSocket(const LoopbackSocket &) = delete;
    LoopbackSocket &operator=(const LoopbackSocket &) = delete;
    quint16 port() const { return m_port; }
    int fd() const { return m_fd; }

private:
    int m_fd = -1;
    quint16 m_port = 0;
};

} // namespace sluice::test
