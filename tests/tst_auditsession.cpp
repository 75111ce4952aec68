// The Keys page's audit mode without widgets (ui/keys/auditsession.h): the audit runs in its
// worker on a redis-server of the test's own, its rows put the flagged groups first with a
// Why, the fix asks with the count and sets a TTL only on keys still without one; Cancel stops
// a long audit.
#include "ownredis.h"

#include "ui/keys/auditsession.h"

#include "core/redis/connection.h"

#include <QSignalSpy>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

class TestAuditSession : public QObject
{
    Q_OBJECT

    test::OwnRedis m_redis;
    std::optional<Connection> m_c;

    qint64 pttl(const QByteArray &key)
    {
        auto r = m_c->command({"PTTL", key});
        return r ? r->integer : -3;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_redis.start({u"--enable-debug-command"_s, u"yes"_s}),
                 m_redis.output().constData());
        auto c = Connection::open(m_redis.endpoint());
        QVERIFY(c);
        m_c.emplace(std::move(*c));
    }

    void auditAndFix()
    {
        QVERIFY(m_c->command({"FLUSHALL"}));
        for (const char *k : {"rate_limit:a-hello", "rate_limit:b-hello", "rate_limit:c-hello"}) {
            QVERIFY(m_c->command({"SET", k, "9"}));
        }
        QVERIFY(m_c->command({"SET", "rl:1.2.3.4", "2", "PX", "60000"}));
        QVERIFY(m_c->command({"SET", "user_quota_7", "4"}));
        QVERIFY(m_c->command({"SET", "session:1", "x"}));

        AuditSession session;
        QSignalSpy finished(&session, &AuditSession::finished);
        session.start(m_redis.endpoint(), std::nullopt);
        QVERIFY(session.isRunning());
        QVERIFY(finished.wait(30'000));
        QVERIFY(!session.isRunning());
        QVERIFY2(session.statusText().startsWith(u"Audited 6 keys"_s),
                 qPrintable(session.statusText()));
        const QList<AuditSession::Row> rows = session.rows();
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[0].layout, u"string_counter"_s);
        QCOMPARE(rows[0].neverExpires, qint64(3));
        QCOMPARE(rows[0].withoutTtl, qint64(3));
        QVERIFY(rows[0].why.contains(u"INCR after the key expired"_s));
        QCOMPARE(rows[1].title, u"suspects"_s); // flagged, before the healthy groups
        QCOMPARE(rows[2].layout, u"rate_limit_redis"_s);
        QCOMPARE(rows[2].flagged, qint64(0));
        QVERIFY(session.summaryText().contains(u"1 other keys without TTL"_s));

        QString nothing;
        QVERIFY(!session.fixQuestion(rows[2], 60'000, false, &nothing));
        QVERIFY(!nothing.isEmpty());
        QVERIFY(!session.fixQuestion(rows[0], 0, false, &nothing)); // TTL 0: refused
        const auto question = session.fixQuestion(rows[0], 60'000, false, &nothing);
        QVERIFY(question);
        QVERIFY2(question->contains(u"3 keys"_s), qPrintable(*question));

        // A writer gives one of them a TTL before the fix: it is left as it is.
        QVERIFY(m_c->command({"PEXPIRE", "rate_limit:b-hello", "7200000"}));
        QSignalSpy fixed(&session, &AuditSession::fixFinished);
        session.fix(rows[0], 60'000, false);
        QVERIFY(session.isFixing());
        QVERIFY(fixed.wait(30'000));
        QVERIFY2(
            session.lastFix().headline.startsWith(u"Set a TTL on 2 keys that had none; 1 got a TTL "
                                                  "meanwhile"_s),
            qPrintable(session.lastFix().headline));
        QVERIFY(pttl("rate_limit:a-hello") > 0 && pttl("rate_limit:a-hello") <= 60'000);
        QVERIFY(pttl("rate_limit:b-hello") > 7'000'000);
        QCOMPARE(pttl("session:1"), qint64(-1));
    }

    void cancel()
    {
        QVERIFY(m_c->command({"FLUSHALL"}));
        QVERIFY(m_c->command({"DEBUG", "POPULATE", "200000", "app"}));
        AuditSession session;
        QSignalSpy finished(&session, &AuditSession::finished);
        session.start(m_redis.endpoint(), std::nullopt, {}, 5000); // 40 s at this budget
        QTest::qWait(300);
        session.cancel();
        QVERIFY(finished.wait(10'000));
        QVERIFY(session.result());
        QCOMPARE(session.result()->report.scan.status, keys::ScanSummary::Status::Cancelled);
        QVERIFY(session.statusText().startsWith(u"Cancelled after"_s));
    }
};

QTEST_GUILESS_MAIN(TestAuditSession)
#include "tst_auditsession.moc"
