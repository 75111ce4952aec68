// Exactness (ALGORITHMS.md): a denied request repeated exactly retry_after_ms later, with
// nothing in between, is admitted; one millisecond earlier it is still denied (the retry is
// the least wait, rounded up). On the twin and on the scripts, for many rates, from many
// random states. Doubles that drift fail this.
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/limiter/localmodel.h"
#include "core/limiter/redislimiter.h"

#include <QRandomGenerator>
#include <QTest>

#include <atomic>
#include <thread>

using namespace sluice;

namespace {

constexpr qint64 s = duration::usPerSecond;
constexpr int trials = 40;

// The limiter a row runs on: the scripts in the fixture's Redis, or their twin on a manual
// clock.
struct LimiterUnderTest
{
    explicit LimiterUnderTest(bool onRedis)
    {
        if (onRedis) {
            redis.emplace(test::connect());
        }
    }
    Limiter &limiter() { return redis ? static_cast<Limiter &>(*redis) : twin; }

    ManualClock clock;
    LocalModel twin{clock};
    std::optional<RedisLimiter> redis;
};

struct Case
{
    qint64 count; // limit, or rate count
    qint64 periodUs;
};
const Case cases[] = {{3, s},
                      {5, 10 * s},
                      {7, duration::usPerMinute},
                      {1, duration::usPerDay},
                      {4, 333'333},
                      {13, 7 * s},
                      {1000, s},
                      {9, 250'000}};

Policy policyFor(Algorithm a, const Case &c)
{
    return algorithm::isWindow(a) ? Policy::window(a, c.count, c.periodUs)
                                  : Policy::bucket(a, {c.count, c.periodUs}, c.count);
}

// A policy of capacity `capacity` that does not refill while the test runs: a one-day window,
// or one unit per day (GCRA's capacity is burst + 1).
Policy slowPolicy(Algorithm a, qint64 capacity)
{
    const Rate perDay{1, duration::usPerDay};
    Policy p = algorithm::isWindow(a) ? Policy::window(a, capacity, duration::usPerDay)
               : a == Algorithm::Gcra ? Policy::bucket(a, perDay, capacity - 1)
                                      : Policy::bucket(a, perDay, capacity);
    p.id = QStringLiteral("change");
    return p;
}

} // namespace

class TestExactness : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void retryIsExact_data()
    {
        test::columns<int, bool, bool>("algorithm", "onRedis", "countRejected");
        for (Algorithm a : algorithm::all) {
            QTest::addRow("%s twin", qPrintable(algorithm::name(a))) << int(a) << false << false;
            QTest::addRow("%s redis", qPrintable(algorithm::name(a))) << int(a) << true << false;
            if (algorithm::countsRejected(a)) {
                // The denial is counted: its retry is that of the state after the count.
                QTest::addRow("%s twin count_rejected", qPrintable(algorithm::name(a)))
                    << int(a) << false << true;
                QTest::addRow("%s redis count_rejected", qPrintable(algorithm::name(a)))
                    << int(a) << true << true;
            }
        }
    }
    void retryIsExact()
    {
        QFETCH(int, algorithm);
        QFETCH(bool, onRedis);
        QFETCH(bool, countRejected);
        const auto a = Algorithm(algorithm);
        LimiterUnderTest under(onRedis);
        Limiter &limiter = under.limiter();
        QRandomGenerator rng(7u + quint32(algorithm));
        int checked = 0;
        for (const Case &c : cases) {
            Policy p = policyFor(a, c);
            p.countRejected = countRejected;
            for (int trial = 0; trial < trials; ++trial) {
                // Two keys walk the same random history until the first denial; then key A
                // retries exactly retry_after_ms later and key B one millisecond earlier.
                const QByteArray stem =
                    test::keyPrefix() + algorithm::name(a).toUtf8() +
                    (countRejected ? ":cr:" : ":") + QByteArray::number(c.count) + '/' +
                    QByteArray::number(c.periodUs) + ':' + QByteArray::number(trial);
                const QByteArray keyA = stem + ":{a}", keyB = stem + ":{b}";
                qint64 now = 1'700'000'000'000'000 + qint64(rng.bounded(1'000'000'000));
                std::optional<Decision> denial;
                qint64 cost = 1;
                for (int step = 0; step < 100'000 && !denial; ++step) {
                    cost = 1 + qint64(rng.bounded(quint32(std::min<qint64>(3, p.capacity()))));
                    std::vector<Request> both{{&p, keyA, cost, now, 600'000},
                                              {&p, keyB, cost, now, 600'000}};
                    auto r = limiter.decideBatch(both);
                    QVERIFY(r.ok() && (*r)[0].ok() && (*r)[1].ok());
                    QCOMPARE(*(*r)[0], *(*r)[1]);
                    if (!(*r)[0]->allowed) {
                        denial = *(*r)[0];
                        break;
                    }
                    // Small random gaps: mostly faster than the limit refills.
                    now +=
                        qint64(rng.bounded(quint32(std::max<qint64>(2, c.periodUs / c.count / 2))));
                }
                QVERIFY2(denial, "never denied");
                const qint64 retry = denial->retryAfterMs;
                QVERIFY2(retry > 0, qPrintable(QStringLiteral("retry %1").arg(retry)));
                auto atRetry = limiter.decide({&p, keyA, cost, now + retry * 1000, 600'000});
                QVERIFY(atRetry.ok());
                QVERIFY2(atRetry->allowed,
                         qPrintable(QStringLiteral("%1: denied at now_us %2 + retry %3 ms; "
                                                   "admitted only later")
                                        .arg(p.describe())
                                        .arg(now)
                                        .arg(retry)));
                auto early = limiter.decide({&p, keyB, cost, now + (retry - 1) * 1000, 600'000});
                QVERIFY(early.ok());
                QVERIFY2(!early->allowed,
                         qPrintable(QStringLiteral("%1: admitted 1 ms before retry %2 ms: the "
                                                   "retry was not the least wait")
                                        .arg(p.describe())
                                        .arg(retry)));
                ++checked;
            }
        }
        qInfo("%d denials retried exactly", checked);
    }

    // count_rejected against a client retrying faster than the limit (every 100 ms against 3
    // per second) for 3 s. The sliding log and the sliding counter: with it, denied from the
    // fourth request to the end, and admitted at the last denial's retry_after_ms; without
    // it, admitted again within the window after the first denial (the log at 1 s exactly,
    // when the first admitted request leaves). The fixed window admits the same requests
    // either way (its window ends when it ends). On the twin and on the scripts alike.
    void countRejectedKeepsAHammeringClientOut_data()
    {
        test::columns<int, bool>("algorithm", "onRedis");
        for (Algorithm a : algorithm::all) {
            if (algorithm::countsRejected(a)) {
                QTest::addRow("%s twin", qPrintable(algorithm::name(a))) << int(a) << false;
                QTest::addRow("%s redis", qPrintable(algorithm::name(a))) << int(a) << true;
            }
        }
    }
    void countRejectedKeepsAHammeringClientOut()
    {
        QFETCH(int, algorithm);
        QFETCH(bool, onRedis);
        const auto a = Algorithm(algorithm);
        LimiterUnderTest under(onRedis);
        Limiter &limiter = under.limiter();
        constexpr qint64 t0 = 1'700'000'000'000'000;
        QList<qint64> admitted[2]; // ms after t0, without and with count_rejected
        for (const bool counting : {false, true}) {
            Policy p = Policy::window(a, 3, s, QStringLiteral("hammer"));
            p.countRejected = counting;
            const QByteArray key = test::keyPrefix() + "hammer:" + algorithm::name(a).toUtf8() +
                                   (counting ? ":counted:{c}" : ":plain:{c}");
            Decision last;
            for (qint64 ms = 0; ms < 3000; ms += 100) {
                auto d = limiter.decide({&p, key, 1, t0 + ms * 1000, 600'000});
                QVERIFY(d.ok());
                if (d->allowed) {
                    admitted[counting] << ms;
                } else {
                    last = *d;
                }
            }
            QVERIFY(!last.allowed && last.retryAfterMs > 0);
            auto after =
                limiter.decide({&p, key, 1, t0 + (2900 + last.retryAfterMs) * 1000, 600'000});
            QVERIFY(after.ok());
            QVERIFY2(after->allowed, "denied at the last denial's retry_after_ms");
        }
        if (a == Algorithm::FixedWindow) {
            QCOMPARE(admitted[1], admitted[0]);
            QCOMPARE(admitted[1], (QList<qint64>{0, 100, 200, 1000, 1100, 1200, 2000, 2100, 2200}));
            return;
        }
        QCOMPARE(admitted[1], (QList<qint64>{0, 100, 200}));
        QStringList plain;
        for (qint64 ms : std::as_const(admitted[0])) {
            plain << QString::number(ms);
        }
        QVERIFY2(
            admitted[0].size() > 3 && admitted[0][3] >= 1000 && admitted[0][3] < 2000,
            qPrintable(
                QStringLiteral("without count_rejected admitted at %1 ms").arg(plain.join(u' '))));
        if (a == Algorithm::SlidingLog) {
            QCOMPARE(admitted[0][3], qint64(1000));
        }
    }

    // After a rule change, under concurrency: 4 of 10 used under the old rule, then 8 threads
    // (a connection each, Redis TIME) hammer the new one; exactly what on_change leaves is
    // admitted (ALGORITHMS.md "When a rule changes"), and the twin admits as many.
    void exactlyTheNewLimitAfterAChange_data()
    {
        test::columns<int, int, qint64, int>("algorithm", "onChange", "capacity", "expected");
        struct Row
        {
            OnChange mode;
            qint64 capacity;
            int expected;
        };
        // Old capacity 10 with 4 used. reset: all of the new one; keep_used: new - 4;
        // proportional: new - ceil(4 x new / 10); additive: a raise new - 4, a cut min(6, new).
        const Row rows[] = {{OnChange::Reset, 16, 16},       {OnChange::Reset, 6, 6},
                            {OnChange::KeepUsed, 16, 12},    {OnChange::KeepUsed, 6, 2},
                            {OnChange::Proportional, 16, 9}, {OnChange::Proportional, 6, 3},
                            {OnChange::Additive, 16, 12},    {OnChange::Additive, 6, 6},
                            {OnChange::KeepUsed, 3, 0},      {OnChange::Additive, 3, 3}};
        for (Algorithm a : algorithm::all) {
            for (const Row &r : rows) {
                QTest::addRow("%s %s to %lld", qPrintable(algorithm::name(a)),
                              onchange::name(r.mode).constData(), qlonglong(r.capacity))
                    << int(a) << int(r.mode) << r.capacity << r.expected;
            }
        }
    }
    void exactlyTheNewLimitAfterAChange()
    {
        QFETCH(int, algorithm);
        QFETCH(int, onChange);
        QFETCH(qint64, capacity);
        QFETCH(int, expected);
        const auto a = Algorithm(algorithm);
        const Policy before = slowPolicy(a, 10);
        Policy after = slowPolicy(a, capacity);
        after.onChange = OnChange(onChange);
        QVERIFY(before.version() != after.version());
        const QByteArray key = test::keyPrefix() + "change:" + algorithm::name(a).toUtf8() + ':' +
                               onchange::name(after.onChange) + ':' + QByteArray::number(capacity);
        {
            RedisLimiter limiter(test::connect());
            for (int i = 0; i < 4; ++i) {
                auto d = limiter.decide(Request{&before, key, 1, std::nullopt, 0});
                QVERIFY(d.ok() && d->allowed);
            }
        }
        std::atomic<int> admitted{0}, failures{0}, ttlViolations{0};
        std::vector<std::thread> pool;
        for (int t = 0; t < 8; ++t) {
            pool.emplace_back([&] {
                RedisLimiter limiter(test::connect());
                Connection probe = test::connect();
                for (int i = 0; i < 5; ++i) {
                    auto d = limiter.decide(Request{&after, key, 1, std::nullopt, 0});
                    if (!d.ok()) {
                        ++failures;
                        continue;
                    }
                    if (d->allowed) {
                        ++admitted;
                    }
                    if (const qint64 ttl = test::pttl(probe, key); ttl != -2 && ttl <= 0) {
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
        QCOMPARE(admitted.load(), expected);

        // The twin: the same history, one request at a time, on its own clock.
        ManualClock clock;
        LocalModel twin(clock);
        const int twinAdmitted = test::twinAdmitsAfterChange(twin, before, 4, after, 40, key, 1000);
        QCOMPARE(twinAdmitted, expected);
        QCOMPARE(twin.version(key), twinAdmitted > 0 ? after.version() : before.version());
    }
};

QTEST_GUILESS_MAIN(TestExactness)
#include "tst_exactness.moc"
