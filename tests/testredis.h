#pragma once

// Shared by the tests that need Redis: the server the CTest fixture started
// (redis-fixture.sh), a connection to it, and a key prefix of the test's own.

#include "redis/connection.h"

#include <QByteArray>
#include <QString>

namespace sluice::test {

// redis://127.0.0.1:PORT from $SLUICE_TEST_REDIS_URL, else $SLUICE_TEST_REDIS_DIR/url.
// Empty when neither is there (the test then fails with a message saying how to run it).
QString redisUrl();
Endpoint redisEndpoint();
// A fresh connection; fails the calling test (QFAIL-style, via qFatal-free QVERIFY) if none.
Connection connect();
// "t:<test name>:<pid>:" : keys of one test process never meet another's.
QByteArray keyPrefix();
// Deletes every key under keyPrefix().
void cleanup(Connection &c);
// PTTL of a key: -2 absent, -1 no TTL, else ms.
qint64 pttl(Connection &c, const QByteArray &key);
// A loopback TCP port that was free a moment ago (bound to port 0, then released): nothing
// listens there, so a connection to it is refused.
quint16 freeLoopbackPort();

} // namespace sluice::test
