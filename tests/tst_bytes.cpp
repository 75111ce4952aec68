// bytes::printable, the one rule every face prints bytes by (core/common/bytes.h), and the
// ByteWriter the service writes its answers with (core/common/bytewriter.h).

#include "core/common/bytes.h"
#include "core/common/bytewriter.h"

#include "testkit.h"

#include <limits>

#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

class TestBytes : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void printable_data()
    {
        test::columns<QByteArray, QString>("bytes", "text");
        QTest::newRow("ascii") << QByteArray("rate_limit:a:{1.2.3.4}")
                               << u"rate_limit:a:{1.2.3.4}"_s;
        QTest::newRow("controls") << QByteArray("a\nb\r\t", 5) << u"a\\x0ab\\x0d\\x09"_s;
        QTest::newRow("backslash") << QByteArray("a\\x41") << u"a\\x5cx41"_s;
        QTest::newRow("nul and ff") << QByteArray("\x00\xff{x}", 5) << u"\\x00\\xff{x}"_s;
        QTest::newRow("utf-8") << QByteArray("caf\xc3\xa9 \xe4\xb8\xad") << u"café 中"_s;
        QTest::newRow("del") << QByteArray("\x7f") << u"\\x7f"_s;
        // Well-formed UTF-8 of a character that is not printable: escaped byte by byte.
        QTest::newRow("NEL") << QByteArray("\xc2\x85") << u"\\xc2\\x85"_s;
        QTest::newRow("line separator") << QByteArray("\xe2\x80\xa8") << u"\\xe2\\x80\\xa8"_s;
        // Not UTF-8: overlong, surrogate, truncated.
        QTest::newRow("overlong") << QByteArray("\xc0\xaf") << u"\\xc0\\xaf"_s;
        QTest::newRow("surrogate") << QByteArray("\xed\xa0\x80") << u"\\xed\\xa0\\x80"_s;
        QTest::newRow("truncated") << QByteArray("\xe4\xb8") << u"\\xe4\\xb8"_s;
        QTest::newRow("empty") << QByteArray() << QString();
    }
    void printable()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        QCOMPARE(bytes::printable(bytes), text);
    }

    void writerAppendsAfterWhatIsThere()
    {
        QByteArray out("HTTP");
        {
            bytes::ByteWriter w(out, 4);
            w.put('/').put("1.1 ").number(429).put(QByteArray(" Too Many")).put(QByteArrayView());
            QCOMPARE(w.size(), qsizetype(21)); // the array's, what was there included
        }
        QCOMPARE(out, QByteArray("HTTP/1.1 429 Too Many"));
        { // a second writer goes on where the first one ended
            bytes::ByteWriter w(out, 1);
            w.put(" Requests");
        }
        QCOMPARE(out, QByteArray("HTTP/1.1 429 Too Many Requests"));
        QCOMPARE(qstrlen(out.constData()), size_t(out.size())); // still terminated
    }

    void writerNumbers()
    {
        QByteArray out;
        {
            bytes::ByteWriter w(out, 1); // every number grows it
            for (const qint64 v :
                 {qint64(0), qint64(-1), qint64(7), qint64(1'000'000'000'000),
                  std::numeric_limits<qint64>::min(), std::numeric_limits<qint64>::max()}) {
                w.number(v).put(',');
            }
        }
        QCOMPARE(out, QByteArray("0,-1,7,1000000000000,-9223372036854775808,"
                                 "9223372036854775807,"));
    }

    void writerGrowsFarPastWhatItExpected()
    {
        QByteArray out;
        QByteArray expected;
        {
            bytes::ByteWriter w(out, 2);
            for (int i = 0; i < 10'000; ++i) {
                w.number(i).put(i % 2 ? "ab" : "c");
                expected += QByteArray::number(i) + (i % 2 ? "ab" : "c");
            }
            w.finish();
            QCOMPARE(out, expected); // finish() twice (here and on destruction) is the same
        }
        QCOMPARE(out, expected);
    }
};

QTEST_GUILESS_MAIN(TestBytes)
#include "tst_bytes.moc"
