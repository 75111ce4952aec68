// Per-rule statistics: recorder aggregation, flush to a real Redis and read back, TTLs, round
// trips, top subjects, a Redis that is down then comes back, the recording limiter.
#include "ownredis.h"
#include "testredis.h"

#include "core/limiter/redislimiter.h"
#include "core/stats/recordinglimiter.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsreader.h"
#include "core/stats/statsrecorder.h"

#include <QDateTime>
#include <QTcpSocket>
#include <QTest>

#include <thread>

using namespace sluice;
using namespace sluice::stats;

namespace {

Decision verdict(bool allowed)
{
    Decision d;
    d.allowed = allowed;
    return d;
}

// Our namespace for stats keys: under the test's prefix, so cleanup() removes them.
QByteArray ns()
{
    return test::keyPrefix() + "{sluice}:";
}

StatsFlusher::Options flusherOptions()
{
    StatsFlusher::Options o;
    o.ns = ns();
    return o;
}

qint64 infoField(Connection &c, const char *section, const QByteArray &field)
{
    auto r = c.command({"INFO", section});
    if (!r) {
        return -1;
    }
    for (const QByteArray &line : r->str.split('\n')) {
        if (line.startsWith(field + ':')) {
            return line.mid(field.size() + 1).trimmed().toLongLong();
        }
    }
    return 0;
}

// calls=N of one command in INFO commandstats (0 if never called since RESETSTAT).
qint64 calls(Connection &c, const QByteArray &command)
{
    auto r = c.command({"INFO", "commandstats"});
    if (!r) {
        return -1;
    }
    const QByteArray tag = "cmdstat_" + command + ":calls=";
    const qsizetype at = r->str.indexOf(tag);
    if (at < 0) {
        return 0;
    }
    const qsizetype from = at + tag.size();
    return r->str.mid(from, r->str.indexOf(',', from) - from).toLongLong();
}

} // namespace

class TestStats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init() { test::cleanup(); }

    // 8 threads record into one recorder: every decision is counted, in the right second and
    // kind, with exact per-subject tallies.
    void recorderAggregatesAcrossThreads()
    {
        StatsRecorder recorder;
        constexpr int threads = 8;
        constexpr int perThread = 20'000;
        const qint64 s0 = 1'700'000'000;
        std::vector<std::thread> pool;
        for (int t = 0; t < threads; ++t) {
            pool.emplace_back([&recorder, t, s0] {
                for (int i = 0; i < perThread; ++i) {
                    // Second s0 + i % 3; kinds: 1/2 allowed, 1/4 denied, 1/4 shadow-denied on
                    // the shadow rule "s"; subjects "u0".."u9".
                    const bool allowed = i % 2 == 0;
                    const bool shadow = i % 4 == 3;
                    recorder.record(shadow ? QStringLiteral("s") : QStringLiteral("r"),
                                    "u" + QByteArray::number((i + t) % 10), verdict(allowed),
                                    shadow, s0 + i % 3);
                }
            });
        }
        for (auto &th : pool) {
            th.join();
        }
        const Counts total = recorder.totals();
        QCOMPARE(total.allowed, qint64(threads * perThread / 2));
        QCOMPARE(total.denied, qint64(threads * perThread / 4));
        QCOMPARE(total.shadowDenied, qint64(threads * perThread / 4));
        QCOMPARE(recorder.dropped(), qint64(0));

        // Recount what the threads did, per second and rule, and compare with take().
        QHash<QPair<qint64, QString>, Counts> expected;
        QHash<QPair<qint64, QString>, QHash<QByteArray, qint64>> expectedSubjects;
        for (int t = 0; t < threads; ++t) {
            for (int i = 0; i < perThread; ++i) {
                const bool allowed = i % 2 == 0;
                const bool shadow = i % 4 == 3;
                const auto k =
                    qMakePair(s0 + i % 3, shadow ? QStringLiteral("s") : QStringLiteral("r"));
                Counts &c = expected[k];
                (allowed ? c.allowed : shadow ? c.shadowDenied : c.denied) += 1;
                expectedSubjects[k]["u" + QByteArray::number((i + t) % 10)] += 1;
            }
        }
        const QList<SecondBucket> buckets = recorder.take();
        QCOMPARE(buckets.size(), expected.size());
        for (const SecondBucket &b : buckets) {
            const auto k = qMakePair(b.second, b.ruleId);
            QVERIFY(expected.contains(k));
            QCOMPARE(b.counts, expected.value(k));
            QCOMPARE(b.top.size(), expectedSubjects.value(k).size());
            for (const TopSubject &t : b.top) {
                QCOMPARE(t.requests, expectedSubjects.value(k).value(t.subject));
            }
        }
        QVERIFY(recorder.take().isEmpty());
        QCOMPARE(recorder.totals(), total); // totals survive take()
    }

    // More subjects than the tally holds: a heavy subject arriving late still comes out on top.
    void recorderTopIsBounded()
    {
        StatsRecorder recorder(StatsRecorder::Options{900, 10});
        for (int i = 0; i < 1000; ++i) {
            recorder.record(QStringLiteral("r"), "light" + QByteArray::number(i), verdict(true),
                            false, 100);
        }
        for (int i = 0; i < 500; ++i) {
            recorder.record(QStringLiteral("r"), "heavy", verdict(false), false, 100);
        }
        const QList<SecondBucket> b = recorder.take();
        QCOMPARE(b.size(), 1);
        QCOMPARE(b[0].top.size(), 10);
        QCOMPARE(b[0].counts.allowed, qint64(1000));
        QCOMPARE(b[0].counts.denied, qint64(500));
        auto heavy = std::find_if(b[0].top.begin(), b[0].top.end(),
                                  [](const TopSubject &t) { return t.subject == "heavy"; });
        QVERIFY(heavy != b[0].top.end());
        QVERIFY(heavy->requests >= 500);
        QCOMPARE(heavy->denied, qint64(500));
    }

    // Flush, then read back: exact counts per second, zeros where nothing happened, a TTL on
    // every key, and the read of 15 minutes of two rules is one pipeline (the server handles
    // it in a handful of reads, not 1,800).
    void flushThenReadBack()
    {
        Connection c = test::connect();
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        StatsRecorder recorder;
        // Rule "a": second now-5: 3 allowed, 2 denied; now-2: 7 allowed; now: 1 shadow-denied.
        for (int i = 0; i < 3; ++i) {
            recorder.record(QStringLiteral("a"), "x", verdict(true), false, now - 5);
        }
        for (int i = 0; i < 2; ++i) {
            recorder.record(QStringLiteral("a"), "y", verdict(false), false, now - 5);
        }
        recorder.record(QStringLiteral("a"), "z", true, false, now - 2, 7);
        recorder.record(QStringLiteral("a"), "z", verdict(false), true, now);
        // Rule "b": 600 s ago (still within the 15 minutes), 4 denied.
        recorder.record(QStringLiteral("b"), "w", false, false, now - 600, 4);
        {
            StatsFlusher flusher(test::redisEndpoint(), &recorder, flusherOptions());
            flusher.start();
            flusher.stop(); // writes the rest
            const auto st = flusher.status();
            QVERIFY2(st.redisOk, qPrintable(st.lastError));
            QCOMPARE(st.flushes, qint64(1));
            QCOMPARE(st.roundTrips, qint64(1));
            QCOMPARE(st.bucketsWritten, qint64(4));
            QCOMPARE(st.backlog, qint64(0));
        }

        // Every key has a TTL, no longer than 16 minutes from its second.
        const QList<QByteArray> keys = test::keysWithPrefix(c, ns());
        // 4 count hashes, 4 :top zsets, 3 :topd hashes (the buckets with a denial), and the
        // batch's idempotency marker (flush:<id>).
        QCOMPARE(keys.size(), 12);
        for (const QByteArray &k : keys) {
            const qint64 ttl = test::pttl(c, k);
            QVERIFY2(ttl > 0 && ttl <= qint64(ttlSeconds) * 1000, k.constData());
        }
        QVERIFY(test::pttl(c, countsKey(ns(), QStringLiteral("b"), now - 600)) <=
                qint64(ttlSeconds - 599) * 1000);

        QVERIFY(c.command({"CONFIG", "RESETSTAT"}));
        const qint64 readsBefore = infoField(c, "stats", "total_reads_processed");
        auto series = readSeries(c, {QStringLiteral("a"), QStringLiteral("b")}, 900, now, ns());
        const qint64 readsAfter = infoField(c, "stats", "total_reads_processed");
        QVERIFY2(series, series ? "" : qPrintable(series.error().message));
        QCOMPARE(calls(c, "hmget"), qint64(1800));
        // 1,800 commands, one pipeline: the server sees them in a few socket reads.
        QVERIFY2(readsAfter - readsBefore < 100,
                 qPrintable(QStringLiteral("%1 reads").arg(readsAfter - readsBefore)));
        QCOMPARE(series->size(), 2);
        const RuleSeries &a = (*series)[0];
        QCOMPARE(a.ruleId, QStringLiteral("a"));
        QCOMPARE(a.firstSecond, now - 899);
        QCOMPARE(a.seconds.size(), 900);
        for (int i = 0; i < 900; ++i) {
            const qint64 s = a.firstSecond + i;
            const Counts expected = s == now - 5   ? Counts{3, 2, 0}
                                    : s == now - 2 ? Counts{7, 0, 0}
                                    : s == now     ? Counts{0, 0, 1}
                                                   : Counts{};
            QCOMPARE(a.seconds[i], expected);
        }
        const RuleSeries &b = (*series)[1];
        for (int i = 0; i < 900; ++i) {
            QCOMPARE(b.seconds[i], (b.firstSecond + i == now - 600 ? Counts{0, 4, 0} : Counts{}));
        }
        // A second flush of the same second adds up (HINCRBY), as two processes would.
        recorder.record(QStringLiteral("a"), "x", true, false, now - 5, 10);
        {
            StatsFlusher flusher(test::redisEndpoint(), &recorder, flusherOptions());
            flusher.start();
            flusher.stop();
        }
        auto again = readSeries(c, {QStringLiteral("a")}, 10, now, ns());
        QVERIFY(again);
        QCOMPARE((*again)[0].seconds[4], (Counts{13, 2, 0}));

        QVERIFY(!readSeries(c, {QStringLiteral("a")}, 0, now, ns()));
        QVERIFY(!readSeries(c, {QStringLiteral("a")}, maxSeriesSeconds + 1, now, ns()));
    }

    // Decisions recorded continuously for ~3 s: the flusher makes at most one round trip per
    // second (+ the final one at stop), counted by the server as MULTI/EXEC transactions.
    void flusherRoundTripsPerSecond()
    {
        Connection c = test::connect();
        QVERIFY(c.command({"CONFIG", "RESETSTAT"}));
        StatsRecorder recorder;
        StatsFlusher flusher(test::redisEndpoint(), &recorder, flusherOptions());
        flusher.start();
        QElapsedTimer timer;
        timer.start();
        qint64 recorded = 0;
        while (timer.elapsed() < 3200) {
            for (int i = 0; i < 100; ++i) {
                recorder.record(QStringLiteral("busy"), "s" + QByteArray::number(i % 50),
                                verdict(i % 3 != 0), false);
                ++recorded;
            }
            QThread::msleep(1);
        }
        flusher.stop();
        const double seconds = double(timer.elapsed()) / 1000.0;
        const auto st = flusher.status();
        QVERIFY2(st.redisOk, qPrintable(st.lastError));
        const qint64 multis = calls(c, "multi");
        const qint64 execs = calls(c, "exec");
        qInfo("%lld decisions recorded in %.1f s; %lld flush round trips, %lld commands", recorded,
              seconds, st.roundTrips, st.commands);
        QCOMPARE(multis, st.roundTrips);
        QCOMPARE(execs, st.roundTrips);
        QVERIFY(st.roundTrips >= 3);
        QVERIFY2(double(st.roundTrips) <= seconds + 1.0,
                 qPrintable(QString::number(st.roundTrips)));
        // And everything recorded is in Redis.
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        auto series = readSeries(c, {QStringLiteral("busy")}, 60, now, ns());
        QVERIFY(series);
        Counts sum;
        for (const Counts &s : (*series)[0].seconds) {
            sum += s;
        }
        QCOMPARE(sum.total(), recorded);
        QCOMPARE(sum, recorder.totals());
        for (const QByteArray &k : test::keysWithPrefix(c, ns())) {
            QVERIFY2(test::pttl(c, k) > 0, k.constData());
        }
    }

    void topSubjects()
    {
        Connection c = test::connect();
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        StatsRecorder recorder;
        // 30 subjects over two seconds: subject i makes i + 1 requests in each; every third
        // request of subject i is denied.
        for (int s = 0; s < 2; ++s) {
            for (int i = 0; i < 30; ++i) {
                for (int k = 0; k <= i; ++k) {
                    recorder.record(QStringLiteral("t"), "sub" + QByteArray::number(i),
                                    verdict(k % 3 != 2), false, now - s);
                }
            }
        }
        {
            StatsFlusher flusher(test::redisEndpoint(), &recorder, flusherOptions());
            flusher.start();
            flusher.stop();
        }
        // Redis keeps the 20 busiest per second.
        auto z = c.command({"ZCARD", topKey(ns(), QStringLiteral("t"), now)});
        QVERIFY(z);
        QCOMPARE(z->integer, qint64(topKept));
        auto top = readTopSubjects(c, QStringLiteral("t"), 60, now, 5, ns());
        QVERIFY2(top, top ? "" : qPrintable(top.error().message));
        QCOMPARE(top->size(), 5);
        for (int j = 0; j < 5; ++j) {
            const int i = 29 - j;
            QCOMPARE((*top)[j].subject, "sub" + QByteArray::number(i));
            QCOMPARE((*top)[j].requests, qint64(2 * (i + 1)));
            QCOMPARE((*top)[j].denied, qint64(2 * ((i + 1) / 3)));
        }
        auto none = readTopSubjects(c, QStringLiteral("never"), 60, now, 5, ns());
        QVERIFY(none);
        QVERIFY(none->isEmpty());
    }

    // Redis down: record() goes on (no I/O, nothing waits), the flusher keeps a backlog and says
    // why; when a server comes up at that address, the backlog is written.
    void stalledFlushIsNotCountedTwice()
    {
        // A flush whose EXEC answer never came (DEBUG SLEEP longer than the
        // flusher's timeout) was applied by Redis after the stall; before the batch marker it
        // was sent again and counted twice (reliability review 3: a=200 for 100 decisions).
        test::OwnRedis server;
        QVERIFY(server.start({QStringLiteral("--enable-debug-command"), QStringLiteral("local")}));
        StatsRecorder recorder;
        StatsFlusher::Options o = flusherOptions();
        o.interval = std::chrono::milliseconds(100);
        o.connection.connectTimeout = o.connection.commandTimeout = std::chrono::milliseconds(300);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        for (int i = 0; i < 100; ++i) {
            recorder.record(QStringLiteral("deny"), "s", false, false, now, 1);
        }
        QTcpSocket sleeper;
        sleeper.connectToHost(QHostAddress::LocalHost, server.port());
        QVERIFY(sleeper.waitForConnected(2000));
        sleeper.write("DEBUG SLEEP 1.5\r\n");
        QVERIFY(sleeper.waitForBytesWritten(2000));
        QTest::qWait(50);
        StatsFlusher flusher(server.endpoint(), &recorder, o);
        flusher.start();
        QVERIFY(QTest::qWaitFor([&] { return !flusher.status().redisOk; }, 3000)); // timed out
        QVERIFY(QTest::qWaitFor(
            [&] {
                const auto st = flusher.status();
                return st.redisOk && st.flushes >= 1 && st.backlog == 0;
            },
            10000));
        flusher.stop();
        auto c = Connection::open(server.endpoint());
        QVERIFY(c.ok());
        auto d = c->command({"HGET", countsKey(ns(), QStringLiteral("deny"), now), "d"});
        QVERIFY(d.ok());
        qInfo("100 denials, flushed across a 1.5 s stall: d=%s, batches found applied: %lld",
              d->str.constData(), flusher.status().skippedApplied);
        QCOMPARE(d->str, QByteArray("100"));
    }

    void flusherSurvivesRedisDown()
    {
        test::OwnRedis server; // not started yet: nothing listens at its port
        const quint16 port = server.port();
        const Endpoint e = server.endpoint();
        StatsRecorder recorder;
        StatsFlusher::Options o = flusherOptions();
        o.interval = std::chrono::milliseconds(200);
        StatsFlusher flusher(e, &recorder, o);
        flusher.start();
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        std::vector<std::thread> pool;
        for (int t = 0; t < 4; ++t) {
            pool.emplace_back([&recorder, now] {
                for (int i = 0; i < 50'000; ++i) {
                    recorder.record(QStringLiteral("down"), "x", verdict(i % 2 == 0), false,
                                    now - i % 5);
                }
            });
        }
        for (auto &th : pool) {
            th.join();
        }
        QTRY_VERIFY_WITH_TIMEOUT(!flusher.status().redisOk && flusher.status().backlog == 5, 5000);
        const auto st = flusher.status();
        QVERIFY2(st.lastError.contains(QString::number(port)), qPrintable(st.lastError));
        QCOMPARE(st.flushes, qint64(0));
        QCOMPARE(recorder.totals().total(), qint64(200'000));

        // Redis comes back at that address.
        QVERIFY2(server.start(), server.output().constData());
        QTRY_VERIFY_WITH_TIMEOUT(flusher.status().redisOk && flusher.status().backlog == 0, 10000);
        QCOMPARE(flusher.status().bucketsWritten, qint64(5));
        {
            auto c = Connection::open(e);
            QVERIFY(c);
            auto series = readSeries(*c, {QStringLiteral("down")}, 10, now, ns());
            QVERIFY(series);
            Counts sum;
            for (const Counts &s : (*series)[0].seconds) {
                sum += s;
            }
            QCOMPARE(sum.allowed, qint64(100'000));
            QCOMPARE(sum.denied, qint64(100'000));
        }
        flusher.stop();
        server.stop();
    }

    // The decorator: decisions through it are counted under the policy's id, the subject read
    // back from the key; a shadow rule's denials are shadow-denied; peeks are not counted.
    void recordingLimiter()
    {
        StatsRecorder recorder;
        RedisLimiter redis(test::connect());
        RecordingLimiter limiter(&redis, &recorder);
        Policy p = Policy::window(Algorithm::FixedWindow, 2, 3600 * duration::usPerSecond,
                                  QStringLiteral("rec"));
        p.keyPrefix = test::keyPrefix();
        const QByteArray key = p.keyFor("1.2.3.4");
        QCOMPARE(RecordingLimiter::subjectOf(Request{&p, key, 1, std::nullopt, 0}),
                 QByteArray("1.2.3.4"));
        QVERIFY(limiter.decide(Request{&p, key, 1, std::nullopt, 0}));
        std::vector<Request> batch(4, Request{&p, key, 1, std::nullopt, 0});
        QVERIFY(limiter.decideBatch(batch));
        QVERIFY(limiter.decide(Request{&p, key, 0, std::nullopt, 0})); // a peek
        QCOMPARE(recorder.totals(), (Counts{2, 3, 0}));
        limiter.setShadowRules({QStringLiteral("rec")});
        QVERIFY(limiter.decide(Request{&p, key, 1, std::nullopt, 0}));
        QCOMPARE(recorder.totals(), (Counts{2, 3, 1}));
        const QList<SecondBucket> b = recorder.take();
        QVERIFY(!b.isEmpty());
        QCOMPARE(b.first().ruleId, QStringLiteral("rec"));
        QCOMPARE(b.first().top.first().subject, QByteArray("1.2.3.4"));
        Connection c = test::cleanSlate();
    }
};

QTEST_GUILESS_MAIN(TestStats)
#include "tst_stats.moc"
