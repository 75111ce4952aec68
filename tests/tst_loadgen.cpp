// The load generator against the real Redis of the fixture: real time, exact outcomes.
#include "ownredis.h"
#include "testredis.h"

#include "core/load/loadgenerator.h"
#include "core/rules/rulestore.h"
#include "core/stats/statsrecorder.h"

#include <QDateTime>
#include <QTest>

#include <thread>

using namespace sluice;
using namespace sluice::load;

namespace {

// A fixed window of `limit` per `windowS` seconds per IP, under the test's key prefix.
Rule windowRule(const QString &id, qint64 limit, qint64 windowS)
{
    return Rule::window(id, Algorithm::FixedWindow, limit, windowS * duration::usPerSecond,
                        {Scope::Kind::Ip, {}}, test::keyPrefix());
}

sim::TrafficPattern constant(qint64 perSecond)
{
    sim::TrafficPattern p;
    p.kind = sim::TrafficPattern::Kind::Constant;
    p.rate = Rate{perSecond, duration::usPerSecond};
    return p;
}

// Fixed windows are aligned on multiples of the window: a run of `runS` seconds must not cross
// a boundary, or a subject gets a second window's worth. Waits (at most runS) if it would.
void stayInsideWindow(qint64 windowS, qint64 runS)
{
    const qint64 windowMs = windowS * 1000;
    const qint64 intoMs = QDateTime::currentMSecsSinceEpoch() % windowMs;
    if (intoMs + runS * 1000 + 500 > windowMs) {
        QThread::msleep(quint64(windowMs - intoMs + 50));
    }
}

// Runs `o` to its end: the final progress, its error set when the run did not start.
LoadProgress runToEnd(const LoadOptions &o)
{
    LoadGenerator g(o);
    if (auto started = g.start(); !started) {
        LoadProgress p;
        p.error = started.error().message;
        return p;
    }
    g.wait();
    return g.progress();
}

} // namespace

class TestLoadGen : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cleanup() { test::cleanup(); }

    // 150/s for 2 s over 3 subjects against "50 per 10 s per subject": exactly 300 sent
    // (a constant pattern is exact), exactly 150 allowed, every decision in the recorder.
    void constantPatternAllowsWhatTheLimitAllows()
    {
        LoadOptions o;
        o.endpoint = test::redisEndpoint();
        o.rules.rules = {windowRule(QStringLiteral("lg-fw"), 50, 10)};
        o.pattern = constant(150);
        o.durationUs = 2 * duration::usPerSecond;
        o.threads = 3;
        o.subjects = 3;
        o.seed = 7;
        stats::StatsRecorder recorder;
        o.recorder = &recorder;
        stayInsideWindow(10, 3);
        const LoadProgress p = runToEnd(o);
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QVERIFY(p.finished);
        QVERIFY(!p.cancelled);
        QCOMPARE(p.errors, qint64(0));
        QCOMPARE(p.planned, qint64(300));
        QCOMPARE(p.sent, qint64(300));
        QCOMPARE(p.allowed, qint64(150));
        QCOMPARE(p.denied, qint64(150));
        QCOMPARE(p.rules.size(), 1);
        QCOMPARE(p.rules[0].allowed, qint64(150));
        // Real time: the run lasts the pattern's 2 s (give or take scheduling).
        QVERIFY2(p.elapsedS >= 1.9 && p.elapsedS < 4, qPrintable(QString::number(p.elapsedS)));
        const stats::Counts counted = recorder.totals();
        QCOMPARE(counted.allowed, qint64(150));
        QCOMPARE(counted.denied, qint64(150));
        // Each of the 3 subjects has its state key, at the limit.
        Connection c = test::connect();
        for (int i = 1; i <= 3; ++i) {
            const QByteArray key = o.rules.rules[0].keyFor("10.0.0." + QByteArray::number(i));
            QVERIFY2(test::pttl(c, key) > 0, key.constData());
        }
    }

    // keyPrefixOverride: the decisions use keys under the run's prefix, the real subjects' keys
    // stay as they were, and the run's keys are gone at the end (unless asked to stay).
    void runScopedPrefixLeavesRealKeysAlone()
    {
        Connection c = test::connect();
        const Rule rule = windowRule(QStringLiteral("lg-run"), 5, 3600);
        const QByteArray realKey = rule.keyFor("10.0.0.1");
        QVERIFY(c.command({"SET", realKey, "real"}));

        LoadOptions o;
        o.endpoint = test::redisEndpoint();
        o.rules.rules = {rule};
        o.pattern = constant(100);
        o.durationUs = 300'000;
        o.threads = 1;
        o.subjects = 2;
        o.keyPrefixOverride = test::keyPrefix() + "run:" + runScopedPrefix();
        QVERIFY(runScopedPrefix().startsWith("sluice:load:"));
        QCOMPARE(runScopedPrefix().size(), qsizetype(12 + 16 + 1));
        QVERIFY(runScopedPrefix() != runScopedPrefix());
        o.removeOverrideKeys = false;
        {
            const LoadProgress p = runToEnd(o);
            QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
            QCOMPARE(p.errors, qint64(0));
            QCOMPARE(p.sent, qint64(30));
            QCOMPARE(p.allowed, qint64(10)); // 5 per subject: fresh keys, not the real ones
            QCOMPARE(p.keyPrefix, o.keyPrefixOverride);
            QCOMPARE(p.keysRemoved, qint64(0));
        }
        QCOMPARE(test::keysWithPrefix(c, o.keyPrefixOverride).size(), qsizetype(2));
        QVERIFY(test::keysWithPrefix(c, o.keyPrefixOverride)
                    .contains(o.keyPrefixOverride + "lg-run:{10.0.0.1}"));
        // The real key is untouched: no other key under the rule's own prefix appeared either.
        auto value = c.command({"GET", realKey});
        QVERIFY(value);
        QCOMPARE(value->str, QByteArray("real"));
        QCOMPARE(test::keysWithPrefix(c, test::keyPrefix() + "lg-run:").size(), qsizetype(1));

        // Removed at the end, by default.
        test::deleteByPrefix(c, o.keyPrefixOverride);
        o.removeOverrideKeys = true;
        const LoadProgress p = runToEnd(o);
        QVERIFY2(p.cleanupError.isEmpty(), qPrintable(p.cleanupError));
        QCOMPARE(p.keysRemoved, qint64(2));
        QCOMPARE(test::keysWithPrefix(c, o.keyPrefixOverride).size(), qsizetype(0));
        QCOMPARE(c.command({"GET", realKey})->str, QByteArray("real"));
    }

    // A staged change's candidate decides beside the rule it would replace, on the same
    // requests, in shadow (as serve --from-redis decides it): the Monitor's candidate chart moves
    // in a console-only run. Only the named rule's candidate: another rule's is not run.
    void stagedCandidateDecidesInShadow()
    {
        LoadOptions o;
        o.endpoint = test::redisEndpoint();
        const Rule enforced = windowRule(QStringLiteral("lg-st"), 100, 10);
        Rule candidate = windowRule(rules::RuleStore::stagedId(enforced.id), 2, 10);
        candidate.shadow = true;
        Rule other = windowRule(QStringLiteral("lg-other"), 100, 10);
        Rule otherCandidate = windowRule(rules::RuleStore::stagedId(other.id), 1, 10);
        o.rules.rules = {enforced, other};
        o.rules.staged = {candidate, otherCandidate};
        o.ruleIds = {enforced.id};
        o.pattern = constant(50);
        o.durationUs = duration::usPerSecond;
        o.threads = 1;
        o.subjects = 1;
        stats::StatsRecorder recorder;
        o.recorder = &recorder;
        stayInsideWindow(10, 2);
        const LoadProgress p = runToEnd(o);
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QCOMPARE(p.rules.size(), 2);
        QCOMPARE(p.rules[0].ruleId, enforced.id);
        QCOMPARE(p.rules[0].allowed, qint64(50));
        QCOMPARE(p.rules[1].ruleId, candidate.id);
        QCOMPARE(p.rules[1].allowed, qint64(2));
        QCOMPARE(p.rules[1].shadowDenied, qint64(48));
        QCOMPARE(p.rules[1].denied, qint64(0));
        QCOMPARE(p.denied, qint64(0)); // a candidate never denies
        QCOMPARE(recorder.totals().shadowDenied, qint64(48));
        QCOMPARE(stagedCandidates(o.rules, {}, true).size(), size_t(0));
        QCOMPARE(stagedCandidates(o.rules, {other.id}, false).size(), size_t(1));
    }

    // A Poisson pattern of 200/s for 2 s sends about 400 requests; two rules decide each.
    void poissonSendsAboutRateTimesDuration()
    {
        LoadOptions o;
        o.endpoint = test::redisEndpoint();
        Rule a = windowRule(QStringLiteral("lg-a"), 1'000'000, 10);
        Rule b = windowRule(QStringLiteral("lg-b"), 1, 3600);
        b.shadow = true;
        o.rules.rules = {a, b};
        sim::TrafficPattern p;
        p.kind = sim::TrafficPattern::Kind::Poisson;
        p.rate = Rate{200, duration::usPerSecond};
        o.pattern = p;
        o.durationUs = 2 * duration::usPerSecond;
        o.threads = 4;
        o.subjects = 10;
        const LoadProgress r = runToEnd(o);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        QCOMPARE(r.sent, r.planned);
        const qint64 requests = r.sent / 2;
        QVERIFY2(requests > 300 && requests < 500, qPrintable(QString::number(requests)));
        QCOMPARE(r.rules[0].allowed, requests);
        // The shadow rule admits one per subject per hour and shadow-denies the rest.
        QVERIFY(r.rules[1].allowed <= 10);
        QCOMPARE(r.rules[1].shadowDenied, requests - r.rules[1].allowed);
        QCOMPARE(r.rules[1].denied, qint64(0));
        QCOMPARE(r.denied, qint64(0));
    }

    void cancelStopsPromptly()
    {
        LoadOptions o;
        o.endpoint = test::redisEndpoint();
        o.rules.rules = {windowRule(QStringLiteral("lg-c"), 1'000'000, 60)};
        o.pattern = constant(500);
        o.durationUs = 60 * duration::usPerSecond;
        o.threads = 2;
        LoadGenerator g(o);
        QVERIFY(g.start());
        QTRY_VERIFY_WITH_TIMEOUT(g.progress().sent >= 100, 10000);
        QVERIFY(!g.progress().finished);
        g.cancel();
        g.wait();
        const LoadProgress p = g.progress();
        QVERIFY(p.finished);
        QVERIFY(p.cancelled);
        QVERIFY(p.sent < p.planned);
        QVERIFY2(p.elapsedS < 30, qPrintable(QString::number(p.elapsedS)));
    }

    // Redis restarted mid-run (every connection closed, the keyspace empty): the requests
    // meanwhile are answered by on_redis_error, then each worker reconnects (LazyConnection)
    // and decides in the new server again, and the run ends without an error.
    void survivesRedisRestart()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        LoadOptions o;
        o.endpoint = redis.endpoint();
        o.rules.rules = {windowRule(QStringLiteral("lg-r"), 1'000'000, 60)};
        o.pattern = constant(200);
        o.durationUs = 60 * duration::usPerSecond;
        o.threads = 2;
        LoadGenerator g(o);
        QVERIFY(g.start());
        QTRY_VERIFY_WITH_TIMEOUT(g.progress().allowed >= 50, 10000);
        QVERIFY2(redis.restart(), redis.output().constData());
        Connection check = redis.connect();
        auto keysInNewServer = [&] {
            auto n = check.command({QByteArrayLiteral("DBSIZE")});
            return n ? n->integer : qint64(-1);
        };
        // Decisions reach the new server: its keyspace fills again.
        QTRY_VERIFY_WITH_TIMEOUT(keysInNewServer() > 0, 10000);
        g.cancel();
        g.wait();
        const LoadProgress p = g.progress();
        QVERIFY2(p.error.isEmpty(), qPrintable(p.error));
        QVERIFY2(p.fallbacks > 0, "no request was answered by on_redis_error during the restart");
        QVERIFY2(!p.lastUnavailable.isEmpty(), "the restart was not reported as a cause");
    }

    void redisDownIsAnError()
    {
        LoadOptions o;
        o.endpoint.port = test::freeLoopbackPort();
        o.rules.rules = {windowRule(QStringLiteral("lg-d"), 5, 10)};
        o.pattern = constant(10);
        o.durationUs = duration::usPerSecond;
        // start() takes it (connecting happens on the generator's thread); the run then ends
        // with the connection's error.
        const LoadProgress p = runToEnd(o);
        QVERIFY(p.finished);
        QVERIFY2(p.error.contains(QString::number(o.endpoint.port)), qPrintable(p.error));
        QCOMPARE(p.sent, qint64(0));
    }

    void badOptions()
    {
        LoadOptions o;
        o.endpoint = test::redisEndpoint();
        o.rules.rules = {windowRule(QStringLiteral("lg-e"), 5, 10)};
        o.pattern = constant(10);
        o.durationUs = duration::usPerSecond;
        {
            LoadOptions x = o;
            x.ruleIds = {QStringLiteral("nope")};
            auto r = LoadGenerator(x).start();
            QVERIFY(!r);
            QVERIFY2(r.error().message.contains(u"'nope'"), qPrintable(r.error().message));
        }
        {
            LoadOptions x = o;
            x.threads = 0;
            auto r = LoadGenerator(x).start();
            QVERIFY(!r);
            QVERIFY(r.error().message.contains(u"threads"));
        }
        {
            LoadOptions x = o;
            x.rules.rules[0].enabled = false;
            auto r = LoadGenerator(x).start();
            QVERIFY(!r);
            QVERIFY(r.error().message.contains(u"disabled"));
        }
        {
            LoadOptions x = o;
            x.pattern.fromUs = 5 * duration::usPerSecond; // after the end
            auto r = LoadGenerator(x).start();
            QVERIFY(!r);
            QVERIFY2(r.error().message.contains(u"traffic[0]"), qPrintable(r.error().message));
        }
    }
};

QTEST_GUILESS_MAIN(TestLoadGen)
#include "tst_loadgen.moc"
