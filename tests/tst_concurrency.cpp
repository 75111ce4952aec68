// 8 threads, one connection each, 1,000 requests each on one key with limit 500 and no refill
// during the test: exactly 500 admitted, for every algorithm, with Redis' own clock. After
// every call the key is absent or has a TTL.
#include "testdata.h"
#include "testredis.h"

#include "core/limiter/localmodel.h"
#include "core/limiter/redislimiter.h"

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
    void exactlyLimitAdmitted_data() { test::addAlgorithmRows(); }
    void exactlyLimitAdmitted()
    {
        const Algorithm a = test::fetchAlgorithm();
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

    // 100 requests at the identical microsecond, limit 50: exactly 50 admitted, one log entry
    // each (members stay unique at the same now_us), on the script and on the twin.
    void slidingLogSameMicrosecond()
    {
        const Policy p = Policy::window(Algorithm::SlidingLog, 50, duration::usPerMinute);
        const QByteArray key = test::keyPrefix() + "same-us";
        const qint64 now = 1'700'000'000'123'456;
        std::vector<Request> requests(100, Request{&p, key, 1, now, 600'000});
        RedisLimiter redis(test::connect());
        auto remote = redis.decideBatch(requests);
        QVERIFY(remote.ok());
        ManualClock clock;
        LocalModel twin(clock);
        int admittedRedis = 0, admittedTwin = 0;
        for (size_t i = 0; i < requests.size(); ++i) {
            QVERIFY((*remote)[i].ok());
            auto local = twin.decide(requests[i]);
            QVERIFY(local.ok());
            QCOMPARE(*(*remote)[i], *local);
            admittedRedis += (*remote)[i]->allowed ? 1 : 0;
            admittedTwin += local->allowed ? 1 : 0;
        }
        QCOMPARE(admittedRedis, 50);
        QCOMPARE(admittedTwin, 50);
        Connection c = test::connect();
        // 50 entries, and the rule version's member at -inf (lua/sliding_log.lua).
        QCOMPARE(c.command({"ZCOUNT", key, "(-inf", "+inf"})->integer, 50);
        QCOMPARE(c.command({"ZCARD", key})->integer, 51);
        QVERIFY(test::pttl(c, key) > 0);
    }
};

QTEST_GUILESS_MAIN(TestConcurrency)
#include "tst_concurrency.moc"
