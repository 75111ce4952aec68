// The key watcher's arithmetic (core/keys/keywatcher.h), without Redis: two samples of the same
// keys compared, through a window that goes on, one that resets (the count falls, or the TTL
// is set again while the count grew), a key that appears, one that expires, a counter past
// its limit (its denials counted, not admitted), a key whose window is in its name (a TTL set
// with every request is not a reset there), and the level of a key against its limit.
// `keys top` on real libraries' keys is tested in tst_real_limiters.
#include "core/keys/keywatcher.h"

#include <QTest>

using namespace sluice;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 t0 = 1'700'000'000'000'000; // us
constexpr qint64 second = 1'000'000;

WatchedKey counter(const QByteArray &key, qint64 count, qint64 pttlMs, qint64 readUs,
                   qint64 limit = 100)
{
    WatchedKey k;
    k.key = key;
    k.layout = QLatin1String("rate_limit_redis");
    k.ruleId = u"adopted"_s;
    k.limit = limit;
    k.count = count;
    k.counter = true;
    k.pttlMs = pttlMs;
    k.readUs = readUs;
    return k;
}

WatchSample sampleOf(qint64 startUs, QList<WatchedKey> keys)
{
    WatchSample s;
    s.startUs = startUs;
    s.endUs = startUs + 1000;
    s.keys = std::move(keys);
    return s;
}

const WatchedSubject *find(const WatchReport &r, const QByteArray &key)
{
    for (const WatchedSubject &s : r.subjects) {
        if (s.now.key == key) {
            return &s;
        }
    }
    return nullptr;
}

} // namespace

class TestKeyWatcher : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The words keys top prints (and writes in its JSON) for each level and change.
    void names()
    {
        QCOMPARE(QStringList({watchLevelName(WatchLevel::Under), watchLevelName(WatchLevel::Near),
                              watchLevelName(WatchLevel::At), watchLevelName(WatchLevel::Over)}),
                 QStringList({u"under"_s, u"near"_s, u"at"_s, u"over"_s}));
        QCOMPARE(QStringList(
                     {watchChangeName(WatchChange::Steady), watchChangeName(WatchChange::New),
                      watchChangeName(WatchChange::Reset), watchChangeName(WatchChange::Expired)}),
                 QStringList({u"steady"_s, u"new"_s, u"reset"_s, u"expired"_s}));
    }

    void steadyWindow()
    {
        const WatchReport r = KeyWatcher::compare(
            sampleOf(t0, {counter("a", 10, 50'000, t0)}),
            sampleOf(t0 + 2 * second, {counter("a", 30, 48'000, t0 + 2 * second)}));
        QCOMPARE(r.intervalMs, qint64(2000));
        QCOMPARE(r.resolution(), u"sampled every 2 s"_s);
        const WatchedSubject *a = find(r, "a");
        QVERIFY(a);
        QCOMPARE(a->change, WatchChange::Steady);
        QCOMPARE(a->counted, qint64(20));
        QCOMPARE(a->admitted, qint64(20));
        QCOMPARE(a->countedPerS, 10.0);
        QVERIFY(!a->lowerBound);
        QCOMPARE(a->level, WatchLevel::Under);
    }

    // Past the limit the counter goes on counting the denied requests: counted, not admitted.
    void overTheLimit()
    {
        const WatchReport r = KeyWatcher::compare(
            sampleOf(t0, {counter("a", 95, 50'000, t0)}),
            sampleOf(t0 + 2 * second, {counter("a", 120, 48'000, t0 + 2 * second)}));
        const WatchedSubject *a = find(r, "a");
        QCOMPARE(a->counted, qint64(25));
        QCOMPARE(a->admitted, qint64(5));
        QCOMPARE(a->admittedPerS, 2.5);
        QCOMPARE(a->level, WatchLevel::Over);
        QCOMPARE(r.limited(), qint64(1));
    }

    // The window restarted between the samples: the count fell. What the new window counted is
    // a lower bound (the old window's last requests are not known).
    void resetByCount()
    {
        const WatchReport r = KeyWatcher::compare(
            sampleOf(t0, {counter("a", 90, 1'000, t0)}),
            sampleOf(t0 + 2 * second, {counter("a", 7, 59'000, t0 + 2 * second)}));
        const WatchedSubject *a = find(r, "a");
        QCOMPARE(a->change, WatchChange::Reset);
        QVERIFY(a->lowerBound);
        QCOMPARE(a->counted, qint64(7));
        QCOMPARE(a->admitted, qint64(7));
    }

    // ... or the count grew past the old one in the new window: only the TTL, set again
    // although time passed, tells it. Without that the delta would be 5, not at least 95.
    void resetByTtl()
    {
        const WatchReport r = KeyWatcher::compare(
            sampleOf(t0, {counter("a", 90, 500, t0)}),
            sampleOf(t0 + 2 * second, {counter("a", 95, 58'700, t0 + 2 * second)}));
        const WatchedSubject *a = find(r, "a");
        QCOMPARE(a->change, WatchChange::Reset);
        QCOMPARE(a->counted, qint64(95));
        QCOMPARE(a->admitted, qint64(95));
    }

    // A layout whose window is in the key's name (Kong, Envoy) EXPIREs with every request: a
    // TTL that went up is not a new window there (a new window is a new key).
    void ttlUpIsNoResetWhenTheWindowIsInTheName()
    {
        WatchedKey a1 = counter("ratelimit:r:s:ip:1700000000000:minute", 10, 30'000, t0);
        WatchedKey a2 = counter(a1.key, 14, 59'000, t0 + 2 * second);
        a1.orphanByName = a2.orphanByName = true;
        const WatchReport r =
            KeyWatcher::compare(sampleOf(t0, {a1}), sampleOf(t0 + 2 * second, {a2}));
        const WatchedSubject *a = find(r, a1.key);
        QCOMPARE(a->change, WatchChange::Steady);
        QCOMPARE(a->counted, qint64(4));
    }

    // A key that appeared: everything it counted since; one that expired: listed last, its
    // last requests unknown, not limited.
    void newAndExpired()
    {
        const WatchReport r = KeyWatcher::compare(
            sampleOf(t0, {counter("gone", 100, 300, t0)}),
            sampleOf(t0 + 2 * second, {counter("fresh", 4, 59'000, t0 + 2 * second)}));
        QCOMPARE(r.subjects.size(), 2);
        QCOMPARE(r.expired, qint64(1));
        const WatchedSubject *fresh = find(r, "fresh");
        QCOMPARE(fresh->change, WatchChange::New);
        QCOMPARE(fresh->counted, qint64(4));
        QCOMPARE(fresh->countedPerS, 2.0);
        QCOMPARE(r.subjects.last().now.key, QByteArray("gone"));
        QCOMPARE(r.subjects.last().change, WatchChange::Expired);
        QCOMPARE(r.subjects.last().counted, qint64(-1));
        QCOMPARE(r.limited(), qint64(0)); // the expired key was at its limit: not any more
        QCOMPARE(r.admittedPerS(), 2.0);
    }

    // The most limited first, then the busiest.
    void order()
    {
        const WatchReport r = KeyWatcher::compare(
            sampleOf(t0, {counter("quiet", 1, 50'000, t0), counter("busy", 10, 50'000, t0),
                          counter("full", 99, 50'000, t0)}),
            sampleOf(t0 + second, {counter("quiet", 2, 49'000, t0 + second),
                                   counter("busy", 60, 49'000, t0 + second),
                                   counter("full", 100, 49'000, t0 + second)}));
        QCOMPARE(r.subjects[0].now.key, QByteArray("full"));
        QCOMPARE(r.subjects[0].level, WatchLevel::At);
        QCOMPARE(r.subjects[1].now.key, QByteArray("busy"));
        QCOMPARE(r.subjects[2].now.key, QByteArray("quiet"));
        QCOMPARE(r.watched, qint64(3));

        // Kept: the first subjects; the figures count every one.
        const WatchSample later =
            sampleOf(t0 + second, {counter("quiet", 2, 49'000, t0 + second),
                                   counter("busy", 60, 49'000, t0 + second),
                                   counter("full", 100, 49'000, t0 + second)});
        const WatchReport one = KeyWatcher::compare(
            sampleOf(t0, {counter("quiet", 1, 50'000, t0), counter("busy", 10, 50'000, t0),
                          counter("full", 99, 50'000, t0)}),
            later, 0.8, 1);
        QCOMPARE(one.subjects.size(), 1);
        QCOMPARE(one.subjects[0].now.key, QByteArray("full"));
        QCOMPARE(one.watched, qint64(3));
        QCOMPARE(one.limited(), qint64(1));
        QCOMPARE(one.countedPerS(), 52.0);
    }

    void levels_data()
    {
        QTest::addColumn<int>("kind"); // 0 counter, 1 tokens, 2 block key
        QTest::addColumn<double>("value");
        QTest::addColumn<int>("level");
        QTest::newRow("under") << 0 << 79.0 << int(WatchLevel::Under);
        QTest::newRow("near") << 0 << 80.0 << int(WatchLevel::Near);
        QTest::newRow("at") << 0 << 100.0 << int(WatchLevel::At);
        QTest::newRow("over") << 0 << 101.0 << int(WatchLevel::Over);
        QTest::newRow("tokens left") << 1 << 1.0 << int(WatchLevel::Under);
        QTest::newRow("no token left") << 1 << 0.4 << int(WatchLevel::At);
        QTest::newRow("blocked") << 2 << 0.0 << int(WatchLevel::Over);
    }
    void levels()
    {
        QFETCH(int, kind);
        QFETCH(double, value);
        QFETCH(int, level);
        WatchedKey k = counter("k", qint64(value), 1000, t0);
        if (kind == 1) {
            k = WatchedKey{};
            k.tokens = value;
        } else if (kind == 2) {
            k = WatchedKey{};
            k.blockKey = true;
        }
        QCOMPARE(int(KeyWatcher::levelOf(k)), level);
    }

    void resolutionWords()
    {
        WatchReport r;
        r.intervalMs = 2430;
        QCOMPARE(r.resolution(), u"sampled every 2.4 s"_s);
    }
};

QTEST_GUILESS_MAIN(TestKeyWatcher)
#include "tst_keywatcher.moc"
