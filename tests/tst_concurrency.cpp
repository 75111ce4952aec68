// 8 threads, one connection each, 1,000 requests each on one key with limit 500 and no refill
// during the test: exactly 500 admitted, for every algorithm, with Redis' own clock. After
// every call the key is absent or has a TTL.
#include "testredis.h"

#include "limiter/redislimiter.h"

#include <QTest>

#include <atomic>
#include <thread>

using namespace sluice;

namespace {
constexpr int threads = 8;
constexpr int perThread = 1000;
constexpr qint64 limit = 500;
} // namespace

class TestConcurrency : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanupTestCase()
    {
        Connection c = test::connect();
        test::cleanup(c);
    }

    void exactlyLimitAdmitted_data()
    {
        QTest::addColumn<int>("algorithm");
        for (Algorithm a : algorithm::all) {
            QTest::newRow(qPrintable(algorithm::name(a))) << int(a);
        }
    }
    void exactlyLimitAdmitted()
    {
        QFETCH(int, algorithm);
        const auto a = Algorithm(algorithm);
        // No refill while the test runs: a one-hour window, or one unit per day.
        const Rate perDay{1, duration::usPerDay};
        Policy p = algorithm::isWindow(a) ? Policy::window(a, limit, duration::usPerHour)
                   : a == Algorithm::Gcra
                       ? Policy::bucket(a, perDay, limit - 1) // limit = burst + 1
                       : Policy::bucket(a, perDay, limit);
        QCOMPARE(p.capacity(), limit);
        const QByteArray key = test::keyPrefix() + "hammer:" + algorithm::name(a).toUtf8();

        std::atomic<int> admitted{0};
        std::atomic<int> failures{0};
        std::atomic<int> ttlViolations{0};
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            pool.emplace_back([&] {
                RedisLimiter limiter(test::connect());
                Connection &c = limiter.connection();
                const auto *script = *limiter.scriptFor(p);
                if (!ScriptRegistry::ensureLoaded(c, *script)) {
                    ++failures;
                    return;
                }
                QList<QByteArray> eval{"EVALSHA", script->sha, "1", key};
                eval << p.scriptArgs() << "1" << QByteArray(); // cost 1, Redis TIME
                for (int i = 0; i < perThread; ++i) {
                    // The decision and a PTTL right behind it on the same connection.
                    auto r = c.pipeline({eval, {"PTTL", key}});
                    if (!r || !(*r)[0] || (*r)[0]->elements.size() != 6) {
                        ++failures;
                        continue;
                    }
                    if ((*r)[0]->elements[0].integer == 1) {
                        ++admitted;
                    }
                    const qint64 ttl = (*r)[1]->integer;
                    if (ttl != -2 && ttl <= 0) {
                        ++ttlViolations;
                    }
                }
            });
        }
        for (auto &t : pool) {
            t.join();
        }
        QCOMPARE(failures.load(), 0);
        QCOMPARE(ttlViolations.load(), 0);
        QCOMPARE(admitted.load(), int(limit));
        Connection c = test::connect();
        QVERIFY(test::pttl(c, key) > 0);
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
