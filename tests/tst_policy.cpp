#include "core/limiter/model.h"
#include "core/limiter/policy.h"

#include <QTest>

using namespace sluice;

Q_DECLARE_METATYPE(sluice::Policy)

class TestPolicy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void names()
    {
        for (Algorithm a : algorithm::all) {
            QCOMPARE(algorithm::fromName(algorithm::name(a)), std::optional<Algorithm>(a));
        }
        QVERIFY(!algorithm::fromName(QStringLiteral("fixed-window")));
    }

    void validate_data()
    {
        QTest::addColumn<Policy>("policy");
        QTest::addColumn<QString>("says"); // empty = valid
        const qint64 s = duration::usPerSecond;
        const qint64 d = duration::usPerDay;
        QTest::newRow("fw ok") << Policy::window(Algorithm::FixedWindow, 3, 5 * s) << QString();
        QTest::newRow("fw zero limit")
            << Policy::window(Algorithm::FixedWindow, 0, 5 * s) << QStringLiteral("limit");
        QTest::newRow("fw negative limit")
            << Policy::window(Algorithm::SlidingLog, -1, 5 * s) << QStringLiteral("limit");
        QTest::newRow("fw zero window")
            << Policy::window(Algorithm::FixedWindow, 3, 0) << QStringLiteral("window");
        QTest::newRow("fw window 11 years")
            << Policy::window(Algorithm::FixedWindow, 3, 4000 * d) << QStringLiteral("window");
        QTest::newRow("counter 100000/d ok")
            << Policy::window(Algorithm::SlidingCounter, 50'000, d) << QString();
        QTest::newRow("counter 1e6/d too large")
            << Policy::window(Algorithm::SlidingCounter, 1'000'000, d)
            << QStringLiteral("too large for exact arithmetic");
        QTest::newRow("log 1e6/d ok")
            << Policy::window(Algorithm::SlidingLog, 1'000'000, d) << QString();
        QTest::newRow("tb ok") << Policy::bucket(Algorithm::TokenBucket, {100, s}, 200)
                               << QString();
        QTest::newRow("tb zero burst")
            << Policy::bucket(Algorithm::TokenBucket, {100, s}, 0) << QStringLiteral("burst");
        QTest::newRow("lb zero rate")
            << Policy::bucket(Algorithm::LeakyBucket, {0, s}, 5) << QStringLiteral("rate count");
        QTest::newRow("gcra zero period")
            << Policy::bucket(Algorithm::Gcra, {5, 0}, 5) << QStringLiteral("rate period");
        // 1e6/d reduces to 1 per 86,400 us: a daily million with a million burst is exact.
        QTest::newRow("tb 1e6/d reduces")
            << Policy::bucket(Algorithm::TokenBucket, {1'000'000, d}, 1'000'000) << QString();
        // 7/d does not reduce: P = 86,400,000,000 ticks per token; 2 x 1e6 x P > 2^53.
        QTest::newRow("tb 7/d burst 1e6 too large")
            << Policy::bucket(Algorithm::TokenBucket, {7, d}, 1'000'000)
            << QStringLiteral("too large for exact arithmetic");
    }
    void validate()
    {
        QFETCH(Policy, policy);
        QFETCH(QString, says);
        auto r = policy.validate();
        if (says.isEmpty()) {
            QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        } else {
            QVERIFY(!r.ok());
            QVERIFY2(r.error().message.contains(says), qPrintable(r.error().message));
        }
    }

    void capacityAndArgs()
    {
        const Policy fw = Policy::window(Algorithm::FixedWindow, 3, 5'000'000);
        QCOMPARE(fw.capacity(), 3);
        QCOMPARE(fw.scriptArgs(), (QList<QByteArray>{"3", "5000000"}));
        const Policy g = Policy::bucket(Algorithm::Gcra, {5, 10'000'000}, 4);
        QCOMPARE(g.capacity(), 5); // burst + 1, as redis-cell
        QCOMPARE(g.scriptArgs(), (QList<QByteArray>{"5", "10000000", "4"}));
        QCOMPARE(Policy::bucket(Algorithm::TokenBucket, {5, 1}, 9).capacity(), 9);
        QCOMPARE(fw.describe(), QStringLiteral("3 per 5s"));
        QCOMPARE(Policy::bucket(Algorithm::TokenBucket, {100, 1'000'000}, 200).describe(),
                 QStringLiteral("100/s, burst 200"));
    }

    void keys()
    {
        Policy p =
            Policy::window(Algorithm::FixedWindow, 3, 5'000'000, QStringLiteral("hello-per-ip"));
        QCOMPARE(p.keyFor("1.2.3.4"), QByteArray("rate_limit:hello-per-ip:{1.2.3.4}"));
        p.keyPrefix = "app1:";
        const QByteArray odd("a b\n{c}\0d", 9);
        QCOMPARE(p.keyFor(odd), QByteArray("app1:hello-per-ip:{") + odd + '}');
    }

    void reduce()
    {
        const auto r = model::reduce({1'000'000, duration::usPerDay});
        QCOMPARE(r.c, 1);
        QCOMPARE(r.p, 86'400);
        const auto t = model::reduce({3, duration::usPerSecond});
        QCOMPARE(t.c, 3);
        QCOMPARE(t.p, 1'000'000);
    }

    void integerHelpers()
    {
        QCOMPARE(model::ceilDiv(7, 2), 4);
        QCOMPARE(model::ceilDiv(6, 2), 3);
        QCOMPARE(model::ceilDiv(0, 5), 0);
        QCOMPARE(model::ceilDiv(-7, 2), -3);
        QCOMPARE(model::usToMsCeil(1), 1);
        QCOMPARE(model::usToMsCeil(1000), 1);
        QCOMPARE(model::usToMsCeil(1001), 2);
    }
};

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
