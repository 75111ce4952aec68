#include "core/common/duration.h"

#include "testkit.h"

#include <QTest>

using namespace sluice;

class TestDuration : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        test::columns<QString, qint64>("text", "us");
        QTest::newRow("ms") << QStringLiteral("250ms") << qint64(250'000);
        QTest::newRow("s") << QStringLiteral("5s") << qint64(5'000'000);
        QTest::newRow("m") << QStringLiteral("1m") << qint64(60'000'000);
        QTest::newRow("h") << QStringLiteral("1h") << qint64(3'600'000'000);
        QTest::newRow("d") << QStringLiteral("1d") << qint64(86'400'000'000);
        QTest::newRow("us") << QStringLiteral("7us") << qint64(7);
        QTest::newRow("bare unit") << QStringLiteral("s") << qint64(1'000'000);
        QTest::newRow("spaces") << QStringLiteral(" 10 s ") << qint64(10'000'000);
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(qint64, us);
        auto r = duration::parseUs(text);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(*r, us);
        QCOMPARE(*duration::parseUs(duration::formatUs(us)), us); // round trip
    }

    void parseBad_data()
    {
        test::columns<QString, QString>("text", "says");
        QTest::newRow("zero") << QStringLiteral("0s") << QStringLiteral("positive");
        QTest::newRow("negative") << QStringLiteral("-5s") << QStringLiteral("not a duration");
        QTest::newRow("no unit") << QStringLiteral("5") << QStringLiteral("unit");
        QTest::newRow("bad unit") << QStringLiteral("5y") << QStringLiteral("unit");
        QTest::newRow("fraction") << QStringLiteral("1.5s") << QStringLiteral("not a duration");
        QTest::newRow("empty") << QString() << QStringLiteral("not a duration");
        QTest::newRow("huge") << QStringLiteral("999999999999d") << QStringLiteral("too long");
    }
    void parseBad()
    {
        QFETCH(QString, text);
        QFETCH(QString, says);
        const QString failure =
            test::failedWith(duration::parseUs(text), Error::Kind::Invalid, says);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
    }

    void rate_data()
    {
        test::columns<QString, qint64, qint64, QString>("text", "count", "period", "formatted");
        QTest::newRow("per second") << QStringLiteral("100/s") << qint64(100) << qint64(1'000'000)
                                    << QStringLiteral("100/s");
        QTest::newRow("per 10s") << QStringLiteral("5/10s") << qint64(5) << qint64(10'000'000)
                                 << QStringLiteral("5/10s");
        QTest::newRow("per minute")
            << QStringLiteral("7/m") << qint64(7) << qint64(60'000'000) << QStringLiteral("7/m");
        QTest::newRow("per day") << QStringLiteral("1/d") << qint64(1) << qint64(86'400'000'000)
                                 << QStringLiteral("1/d");
        QTest::newRow("per 250ms") << QStringLiteral("3/250ms") << qint64(3) << qint64(250'000)
                                   << QStringLiteral("3/250ms");
    }
    void rate()
    {
        QFETCH(QString, text);
        QFETCH(qint64, count);
        QFETCH(qint64, period);
        QFETCH(QString, formatted);
        auto r = duration::parseRate(text);
        QVERIFY2(r.ok(), qPrintable(r.ok() ? QString() : r.error().message));
        QCOMPARE(r->count, count);
        QCOMPARE(r->periodUs, period);
        QCOMPARE(duration::formatRate(*r), formatted);
    }

    void rateBad_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("no slash") << QStringLiteral("100");
        QTest::newRow("zero count") << QStringLiteral("0/s");
        QTest::newRow("negative") << QStringLiteral("-3/s");
        QTest::newRow("zero period") << QStringLiteral("3/0s");
        QTest::newRow("junk") << QStringLiteral("abc/s");
        QTest::newRow("fraction") << QStringLiteral("1.5/s");
    }
    void rateBad()
    {
        QFETCH(QString, text);
        auto r = duration::parseRate(text);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(text), qPrintable(r.error().message));
    }
};

QTEST_GUILESS_MAIN(TestDuration)
#include "tst_duration.moc"
