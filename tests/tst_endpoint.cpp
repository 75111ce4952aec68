#include "core/redis/endpoint.h"

#include "testkit.h"

#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

class TestEndpoint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Several addresses name a Redis Cluster's seeds; so does --url given twice (parseAll).
    void clusterSeeds()
    {
        auto e = Endpoint::parse(u"rediss://app:pw@h1:7000,h2:7001,[::1]:7002"_s);
        QVERIFY(e);
        QVERIFY(e->isCluster());
        QVERIFY(e->tls.enabled);
        QCOMPARE(e->seeds.size(), 3);
        QCOMPARE(e->host, u"h1"_s);
        QCOMPARE(e->port, quint16(7000));
        QCOMPARE(e->seeds[2].host, u"::1"_s);
        QCOMPARE(e->display(), u"h1:7000,h2:7001,[::1]:7002 (cluster) (TLS)"_s);
        QCOMPARE(e->safeUrl(), u"rediss://app@h1:7000,h2:7001,[::1]:7002"_s);
        QVERIFY(!Endpoint::parse(u"redis://h1:7000"_s)->isCluster());

        auto all = Endpoint::parseAll({u"redis://h1:7000"_s, u"redis://u:pw@h2:7001,h3:7002"_s});
        QVERIFY(all);
        QVERIFY(all->isCluster());
        QCOMPARE(all->seeds.size(), 3);
        QCOMPARE(all->user, u"u"_s);
        QCOMPARE(all->password, u"pw"_s);
        auto mixed = Endpoint::parseAll({u"redis://h1:7000"_s, u"rediss://h2:7001"_s});
        QVERIFY(!mixed);
        QVERIFY(mixed.error().message.contains(u"mix redis:// and rediss://"_s));
        auto unixSeed = Endpoint::parseAll({u"redis://h1:7000"_s, u"unix:///tmp/r.sock"_s});
        QVERIFY(!unixSeed);
        QVERIFY(unixSeed.error().message.contains(u"seeds of one Redis Cluster"_s));
    }

    void parse_data()
    {
        test::columns<QString, QString, int, int, QString, QString>("url", "host", "port", "db",
                                                                    "user", "password");
        QTest::newRow("plain") << u"redis://127.0.0.1:6379"_s << u"127.0.0.1"_s << 6379 << 0
                               << u""_s << u""_s;
        QTest::newRow("default port")
            << u"redis://cache.local"_s << u"cache.local"_s << 6379 << 0 << u""_s << u""_s;
        QTest::newRow("db") << u"redis://h:7000/3"_s << u"h"_s << 7000 << 3 << u""_s << u""_s;
        QTest::newRow("user+pass") << u"redis://alice:s3cret@h:6380/1"_s << u"h"_s << 6380 << 1
                                   << u"alice"_s << u"s3cret"_s;
        QTest::newRow("password only")
            << u"redis://:s3cret@h:6380"_s << u"h"_s << 6380 << 0 << u""_s << u"s3cret"_s;
        QTest::newRow("lone userinfo is the password")
            << u"redis://s3cret@h"_s << u"h"_s << 6379 << 0 << u""_s << u"s3cret"_s;
        QTest::newRow("escaped password")
            << u"redis://u:p%40ss%3Aw@h:1"_s << u"h"_s << 1 << 0 << u"u"_s << u"p@ss:w"_s;
        QTest::newRow("ipv6") << u"redis://[::1]:6379"_s << u"::1"_s << 6379 << 0 << u""_s << u""_s;
    }
    void parse()
    {
        QFETCH(QString, url);
        auto e = Endpoint::parse(url);
        QVERIFY2(e.ok(), qPrintable(e.ok() ? QString() : e.error().message));
        QTEST(e->host, "host");
        QTEST(int(e->port), "port");
        QTEST(e->db, "db");
        QTEST(e->user, "user");
        QTEST(e->password, "password");
        QVERIFY(!e->display().contains(QStringLiteral("s3cret")));
        QVERIFY(!e->safeUrl().contains(QStringLiteral("s3cret")));
    }

    void otherForms()
    {
        auto tls = Endpoint::parse(u"rediss://alice:s3cret@cache.example:6380/2"_s);
        QVERIFY(tls.ok());
        QVERIFY(tls->tls.enabled);
        QCOMPARE(tls->port, quint16(6380));
        QCOMPARE(tls->db, 2);
        QCOMPARE(tls->safeUrl(), u"rediss://alice@cache.example:6380/2"_s);
        QVERIFY(tls->display().contains(u"TLS"_s));

        auto sock = Endpoint::parse(u"unix:///run/redis/redis.sock?db=3"_s);
        QVERIFY(sock.ok());
        QCOMPARE(sock->kind, Endpoint::Kind::Unix);
        QCOMPARE(sock->socketPath, u"/run/redis/redis.sock"_s);
        QCOMPARE(sock->db, 3);
        QCOMPARE(sock->safeUrl(), u"unix:///run/redis/redis.sock?db=3"_s);
        QVERIFY(sock->isLocal());

        auto sockAuth = Endpoint::parse(u"unix://:s3cret@/tmp/r.sock"_s);
        QVERIFY(sockAuth.ok());
        QCOMPARE(sockAuth->password, u"s3cret"_s);
        QCOMPARE(sockAuth->socketPath, u"/tmp/r.sock"_s);

        auto sen =
            Endpoint::parse(u"redis+sentinel://:s3cret@10.0.0.1,10.0.0.2:26380/mymaster/4"_s);
        QVERIFY(sen.ok());
        QCOMPARE(sen->kind, Endpoint::Kind::Sentinel);
        QCOMPARE(sen->sentinels.size(), 2);
        QCOMPARE(sen->sentinels[0], (HostPort{u"10.0.0.1"_s, 26379}));
        QCOMPARE(sen->sentinels[1], (HostPort{u"10.0.0.2"_s, 26380}));
        QCOMPARE(sen->masterName, u"mymaster"_s);
        QCOMPARE(sen->db, 4);
        QCOMPARE(sen->password, u"s3cret"_s);
        QVERIFY(!sen->isLocal());
        QVERIFY(!sen->safeUrl().contains(u"s3cret"_s));
        QVERIFY(!sen->display().contains(u"s3cret"_s));
        QCOMPARE(sen->safeUrl(), u"redis+sentinel://10.0.0.1:26379,10.0.0.2:26380/mymaster/4"_s);
    }

    void withoutPassword_data()
    {
        test::columns<QString, QString, QString>("url", "stripped", "masked");
        QTest::newRow("user+pass")
            << u"redis://u:s3cret@h:1/2"_s << u"redis://u:@h:1/2"_s << u"redis://u:***@h:1/2"_s;
        QTest::newRow("password only")
            << u"rediss://:s3cret@h"_s << u"rediss://h"_s << u"rediss://:***@h"_s;
        QTest::newRow("lone") << u"redis://s3cret@h"_s << u"redis://h"_s << u"redis://***@h"_s;
        QTest::newRow("unix") << u"unix://u:s3cret@/tmp/r.sock"_s << u"unix://u:@/tmp/r.sock"_s
                              << u"unix://u:***@/tmp/r.sock"_s;
        QTest::newRow("none") << u"redis://h:1"_s << u"redis://h:1"_s << u"redis://h:1"_s;
    }
    void withoutPassword()
    {
        QFETCH(QString, url);
        QTEST(urlWithoutPassword(url), "stripped");
        QTEST(maskedUrl(url), "masked");
    }

    void bad_data()
    {
        test::columns<QString, QString>("url", "says");
        QTest::newRow("empty") << u""_s << u"empty"_s;
        // Found by fuzz_endpoint: a unix URL with user info but no socket path.
        QTest::newRow("unix with a password") << u"Unix://u:s3cret@h"_s << u"u:***@h"_s;
        QTest::newRow("no scheme") << u"127.0.0.1:6379"_s << u"scheme"_s;
        QTest::newRow("http") << u"http://h:6379"_s << u"'http' is not supported"_s;
        QTest::newRow("no host") << u"redis://:6379"_s << u"host"_s;
        QTest::newRow("bad port") << u"redis://h:99999"_s << u"not between 1 and 65535"_s;
        QTest::newRow("bad port with password")
            << u"redis://u:s3cret@127.0.0.1:99999"_s << u"u:***@"_s;
        QTest::newRow("space in password") << u"redis://u:s3c ret@h:x"_s << u"port 'x'"_s;
        QTest::newRow("lone userinfo masked") << u"redis://s3cret@h:1/zz"_s << u"***@h"_s;
        QTest::newRow("cluster with a database")
            << u"redis://h1:1,h2:2/3"_s << u"database 0 only"_s;
        QTest::newRow("cluster seed without host") << u"redis://h1:1,:2"_s << u"host is missing"_s;
        QTest::newRow("sentinel without master")
            << u"redis+sentinel://:s3cret@h1:26379"_s << u"master name"_s;
        QTest::newRow("unix relative") << u"unix://redis.sock"_s << u"absolute"_s;
        QTest::newRow("unix bad db") << u"unix:///tmp/r.sock?db=x"_s << u"database 'x'"_s;
        QTest::newRow("unix option") << u"unix:///tmp/r.sock?foo=1"_s << u"only db=N"_s;
        QTest::newRow("unbracketed v6") << u"redis://::1:6379"_s << u"brackets"_s;
        QTest::newRow("port 0") << u"redis://h:0"_s << u"port 0"_s;
        QTest::newRow("bad db") << u"redis://h:1/x"_s << u"database 'x'"_s;
        QTest::newRow("query") << u"redis://h:1?x=1"_s << u"query"_s;
        QTest::newRow("no scheme with password") << u"u:s3cret@h:1"_s << u"scheme"_s;
        QTest::newRow("password masked") << u"redis://u:s3cret@h:1/zz"_s << u"u:***@"_s;
    }
    void bad()
    {
        QFETCH(QString, url);
        QFETCH(QString, says);
        auto e = Endpoint::parse(url);
        const QString failure = test::failedWith(e, Error::Kind::Invalid, says);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(!e.error().message.contains(QStringLiteral("s3cret")),
                 "a password must never appear in an error");
    }
};

QTEST_GUILESS_MAIN(TestEndpoint)
#include "tst_endpoint.moc"
