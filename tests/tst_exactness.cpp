// Exactness (ALGORITHMS.md): a denied request repeated exactly retry_after_ms later, with
// nothing in between, is admitted; one millisecond earlier it is still denied (the retry is
// the least wait, rounded up). On the twin and on the scripts, for many rates, from many
// random states. Doubles that drift fail this.
#include "testredis.h"

#include "core/limiter/localmodel.h"
#include "core/limiter/redislimiter.h"

#include <QRandomGenerator>
#include <QTest>

using namespace sluice;

namespace {

constexpr qint64 s = duration::usPerSecond;
constexpr int trials = 40;

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

} // namespace

class TestExactness : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanupTestCase() { test::cleanup(); }

    void retryIsExact_data()
    {
        QTest::addColumn<int>("algorithm");
        QTest::addColumn<bool>("onRedis");
        for (Algorithm a : algorithm::all) {
            QTest::addRow("%s twin", qPrintable(algorithm::name(a))) << int(a) << false;
            QTest::addRow("%s redis", qPrintable(algorithm::name(a))) << int(a) << true;
        }
    }
    void retryIsExact()
    {
        QFETCH(int, algorithm);
        QFETCH(bool, onRedis);
        const auto a = Algorithm(algorithm);
        ManualClock clock;
        LocalModel twin(clock);
        std::optional<RedisLimiter> redis;
        if (onRedis) {
            redis.emplace(test::connect());
        }
        Limiter &limiter = onRedis ? static_cast<Limiter &>(*redis) : twin;
        QRandomGenerator rng(7u + quint32(algorithm));
        int checked = 0;
        for (const Case &c : cases) {
            const Policy p = policyFor(a, c);
            for (int trial = 0; trial < trials; ++trial) {
                // Two keys walk the same random history until the first denial; then key A
                // retries exactly retry_after_ms later and key B one millisecond earlier.
                const QByteArray stem = test::keyPrefix() + algorithm::name(a).toUtf8() + ':' +
                                        QByteArray::number(c.count) + '/' +
                                        QByteArray::number(c.periodUs) + ':' +
                                        QByteArray::number(trial);
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
};

QTEST_GUILESS_MAIN(TestExactness)
#include "tst_exactness.moc"
