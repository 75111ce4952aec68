// The simulator against the truth: every preset gives the same results, time series and
// decisions on the in-process twins and on the scripts in Redis; the classic properties hold
// on the presets, key by key; a run slower than real time still matches (thanks to min_ttl_ms,
// and only thanks to it); a cancelled or failed Redis run leaves no key behind.
#include "testredis.h"

#include "core/limiter/localmodel.h"
#include "core/sim/redisrun.h"
#include "core/sim/simulator.h"

#include <QTest>
#include <QThread>

#include <map>
#include <optional>

using namespace sluice;
using namespace sluice::sim;
using namespace Qt::StringLiterals;

namespace {

__extension__ using Int128 = __int128; // exact products of 2^53-sized integers

constexpr qint64 ms = duration::usPerMs;
constexpr qint64 sec = duration::usPerSecond;

Simulator presetSimulator(const QString &name)
{
    const scenario::Loaded l = scenario::preset(name);
    if (!l.ok()) {
        qFatal("preset %s: %s", qPrintable(name), qPrintable(l.errors.first().toString()));
    }
    auto s = Simulator::create(l.scenario);
    if (!s) {
        qFatal("preset %s: %s", qPrintable(name), qPrintable(s.error().message));
    }
    return std::move(*s);
}

// The simulator of the current data row's preset (its column "preset").
Simulator rowSimulator()
{
    QFETCH(QString, preset);
    return presetSimulator(preset);
}

qint64 simKeys(Connection &c)
{
    return test::keysWithPrefix(c, "sluice:sim:").size();
}

// The message of a failed result for QVERIFY2 (which evaluates it even on success).
template <typename T> const char *failure(const Result<T> &r)
{
    static QByteArray text;
    text = r.ok() ? QByteArray() : r.error().message.toUtf8();
    return text.constData();
}

const RuleResult &resultOf(const SimResult &r, const QString &rule)
{
    for (const RuleResult &x : r.rules) {
        if (x.rule == rule) {
            return x;
        }
    }
    qFatal("no rule %s", qPrintable(rule));
}

// Admission (and release) times per key of each rule, from the decisions as they were made.
struct PerKey
{
    std::map<std::pair<int, quint32>, std::vector<qint64>> admitted;
    std::map<std::pair<int, quint32>, std::vector<qint64>> released;
};

// A scenario whose keys are short-lived (windows and buckets of 200 ms): on Redis, real-time
// TTLs matter as soon as the run is slower than the virtual clock.
Scenario shortLived()
{
    Scenario s;
    s.name = u"short-lived"_s;
    s.durationUs = 1 * sec;
    s.binUs = 10 * ms;
    s.measureWindowUs = 200 * ms;
    s.seed = 3;
    TrafficPattern p;
    p.kind = TrafficPattern::Kind::Constant;
    p.rate = Rate{100, sec};
    s.traffic.push_back(p);
    const auto rule = [](const char *id, Algorithm a) {
        Rule r;
        r.id = QString::fromLatin1(id);
        r.scope = Scope{Scope::Kind::Global, {}};
        r.algorithm = a;
        if (algorithm::isWindow(a)) {
            r.limit = 5;
            r.windowUs = 200 * ms;
        } else {
            r.rate = Rate{5, 200 * ms};
            r.burst = 5;
        }
        return r;
    };
    s.rules = {rule("fw", Algorithm::FixedWindow),    rule("sl", Algorithm::SlidingLog),
               rule("sc", Algorithm::SlidingCounter), rule("tb", Algorithm::TokenBucket),
               rule("lb", Algorithm::LeakyBucket),    rule("gc", Algorithm::Gcra)};
    return s;
}

// The time of the first event (of `times`, in order) that makes a run of events come faster
// than `rate` allows, by more than `slackTicks`: for some i <= j, (j - i) P - c (t_j - t_i) >
// slack, in ticks (c requests per P us). A running minimum of i P - c t_i, exactly.
std::optional<qint64> firstOverRate(const std::vector<qint64> &times, const Rate &rate,
                                    Int128 slackTicks)
{
    const Int128 c = rate.count;
    const Int128 per = rate.periodUs;
    Int128 best = 0;
    for (size_t j = 0; j < times.size(); ++j) {
        const Int128 here = Int128(j) * per - c * times[j];
        best = j == 0 ? here : std::min(best, here);
        if (here - best > slackTicks) {
            return times[j];
        }
    }
    return std::nullopt;
}

} // namespace

class TestSimulator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        Connection c = test::connect();
        QCOMPARE(simKeys(c), 0);
    }

    void cleanupTestCase()
    {
        Connection c = test::connect();
        QCOMPARE(simKeys(c), 0); // every run removed its keys
    }

    void localEqualsRedis_data()
    {
        QTest::addColumn<QString>("preset");
        for (const QString &n : scenario::presetNames()) {
            QTest::newRow(qPrintable(n)) << n;
        }
    }

    void localEqualsRedis()
    {
        const Simulator sim = rowSimulator();
        auto local = sim.runLocal();
        QVERIFY2(local.ok(), failure(local));
        auto redis = runOnRedis(sim, test::redisEndpoint());
        QVERIFY2(redis.ok(), failure(redis));
        QVERIFY2(redis->warning.isEmpty(), qPrintable(redis->warning));
        QCOMPARE(local->backend, u"local"_s);
        QCOMPARE(redis->backend, u"redis"_s);
        QVERIFY(!local->cancelled && !redis->cancelled);
        QCOMPARE(local->processed, qint64(sim.traffic().arrivals.size()));
        QCOMPARE(redis->processed, local->processed);
        // Result for result, bin for bin, decision for decision (the digest covers every reply).
        for (size_t i = 0; i < local->rules.size(); ++i) {
            QCOMPARE(redis->rules[i].rule, local->rules[i].rule);
            QCOMPARE(redis->rules[i].admitted, local->rules[i].admitted);
            QCOMPARE(redis->rules[i].maxAdmittedInWindow, local->rules[i].maxAdmittedInWindow);
            QCOMPARE(redis->rules[i].maxReleasedInWindow, local->rules[i].maxReleasedInWindow);
            QCOMPARE(redis->rules[i].meanDelayMs, local->rules[i].meanDelayMs);
            QVERIFY(redis->rules[i] == local->rules[i]);
            QVERIFY(redis->series[i] == local->series[i]);
        }
        QCOMPARE(redis->digest, local->digest);
        QVERIFY(redis->sameOutcome(*local));
        // Not a vacuous comparison: every preset both admits and rejects.
        qint64 admitted = 0;
        qint64 rejected = 0;
        for (const RuleResult &x : local->rules) {
            admitted += x.admitted;
            rejected += x.rejected;
            QCOMPARE(x.admitted + x.rejected, x.offered);
        }
        QVERIFY(admitted > 0 && rejected > 0);
        Connection c = test::connect();
        QCOMPARE(simKeys(c), 0);
    }

    void presetProperties_data() { localEqualsRedis_data(); }

    // Key by key, on every preset: the sliding log never admits more than N in a window; the
    // token bucket (and GCRA, its meter) at most B + r*t in any span t; the leaky bucket
    // releases at most r*t + 1 in any span t (one millisecond of slack: delays are whole ms,
    // rounded up); the totals add up.
    void presetProperties()
    {
        const Simulator sim = rowSimulator();
        const Scenario &s = sim.scenario();
        PerKey keys;
        RunOptions options;
        options.onDecision = [&](const DecisionEvent &e) {
            const Rule &rule = s.rules[size_t(e.rule)];
            const quint32 subject = rule.scope.kind == Scope::Kind::Global ? 0 : e.subject;
            if (e.decision.allowed) {
                keys.admitted[{e.rule, subject}].push_back(e.tUs);
                keys.released[{e.rule, subject}].push_back(e.tUs + e.decision.delayMs * ms);
            }
        };
        auto r = sim.runLocal(options);
        QVERIFY(r.ok());
        qint64 checked = 0;
        for (const auto &[key, times] : keys.admitted) {
            const Rule &rule = s.rules[size_t(key.first)];
            const Policy p = rule.policy();
            switch (rule.algorithm) {
            case Algorithm::SlidingLog: {
                WindowCounter w(p.windowUs);
                for (qint64 t : times) {
                    w.add(t);
                }
                QVERIFY2(w.max() <= p.limit,
                         qPrintable(u"%1: %2 > %3"_s.arg(rule.id).arg(w.max()).arg(p.limit)));
                ++checked;
                break;
            }
            case Algorithm::TokenBucket:
            case Algorithm::Gcra: {
                // For all i <= j: (j - i + 1) <= B + r (t_j - t_i): (j - i) events over the
                // rate by at most B - 1.
                const auto over =
                    firstOverRate(times, p.rate, Int128(p.capacity() - 1) * p.rate.periodUs);
                QVERIFY2(!over, qPrintable(u"%1: more than B + r*t at %2 us"_s.arg(rule.id).arg(
                                    over.value_or(0))));
                ++checked;
                break;
            }
            case Algorithm::LeakyBucket: {
                std::vector<qint64> rel = keys.released[key];
                QVERIFY(std::is_sorted(rel.begin(), rel.end())); // a queue releases in order
                // (j - i) <= r (rel_j - rel_i + 1 ms) for all i <= j.
                const auto over = firstOverRate(rel, p.rate, Int128(p.rate.count) * ms);
                QVERIFY2(!over,
                         qPrintable(u"%1: more than r*t + 1 released at %2 us"_s.arg(rule.id).arg(
                             over.value_or(0))));
                ++checked;
                break;
            }
            case Algorithm::FixedWindow:
            case Algorithm::SlidingCounter:
                break;
            }
        }
        QVERIFY(checked >= 4);
    }

    // The classic cases, on the rule results the CLI prints.
    void boundaryBurst()
    {
        auto r = presetSimulator(u"boundary-burst"_s).runLocal();
        QVERIFY(r.ok());
        const qint64 n = 100;
        // Close to 2N within one window length by the fixed window...
        QVERIFY2(resultOf(*r, u"fixed-window"_s).maxAdmittedInWindow >= 19 * n / 10,
                 qPrintable(QString::number(resultOf(*r, u"fixed-window"_s).maxAdmittedInWindow)));
        // ... and the span where it happens straddles the boundary at 10 s.
        const qint64 start = resultOf(*r, u"fixed-window"_s).maxAdmittedWindowStartUs;
        QVERIFY(start < 10 * sec && start + 10 * sec > 10 * sec);
        // At most N by the sliding log.
        QVERIFY(resultOf(*r, u"sliding-log"_s).maxAdmittedInWindow <= n);
        // The token bucket: at most B + r*t = 100 + 10/s * 10 s.
        QVERIFY(resultOf(*r, u"token-bucket"_s).maxAdmittedInWindow <= 200);
    }

    void steadyOverload()
    {
        auto r = presetSimulator(u"steady-overload"_s).runLocal();
        QVERIFY(r.ok());
        // r = 10/s, B = 20, measure window 1 s.
        const RuleResult &leaky = resultOf(*r, u"leaky-bucket"_s);
        const RuleResult &token = resultOf(*r, u"token-bucket"_s);
        QVERIFY(leaky.maxReleasedInWindow <= 10 + 1);
        QVERIFY(token.maxAdmittedInWindow <= 20 + 10);
        // Flat output against bursts: the token bucket lets a burst through at each wave.
        QVERIFY2(token.maxAdmittedInWindow >= 25,
                 qPrintable(QString::number(token.maxAdmittedInWindow)));
        QVERIFY(leaky.maxAdmittedInWindow >= 25); // admitted in bursts too, released flat
        QVERIFY(leaky.maxDelayMs > 0 && leaky.meanDelayMs > 0);
        QCOMPARE(token.maxDelayMs, 0);
    }

    void budgetSpentIn100ms()
    {
        auto r = presetSimulator(u"budget-in-100ms"_s).runLocal();
        QVERIFY(r.ok());
        // The whole minute's budget within 0.1 s (one 100 ms bin) by the fixed window...
        QVERIFY(resultOf(*r, u"fixed-window"_s).peakAdmittedPerBin >= 9'000);
        // ... released at 10,000/min = 167/s by the leaky bucket.
        QVERIFY(resultOf(*r, u"leaky-bucket"_s).maxReleasedInWindow <= 168);
        QVERIFY(resultOf(*r, u"leaky-bucket"_s).maxDelayMs >= 59'000);
        // The released column of the series carries the queue past the admissions.
        const size_t lb = 4;
        QCOMPARE(r->rules[lb].rule, u"leaky-bucket"_s);
        qint64 released = 0;
        for (const SeriesBin &b : r->series[lb]) {
            released += b.released;
        }
        QCOMPARE(released, r->rules[lb].admitted);
    }

    void sharedGlobal()
    {
        auto r = presetSimulator(u"shared-global"_s).runLocal();
        QVERIFY(r.ok());
        QCOMPARE(resultOf(*r, u"per-ip"_s).rejected, 0);
        // One key for everyone: ~300/s offered against 200/s.
        const RuleResult &g = resultOf(*r, u"global-sliding-log"_s);
        QVERIFY(g.maxAdmittedInWindow <= 200);
        QVERIFY(g.rejected > g.offered / 5);
    }

    // The run's keys carry the run prefix and the TTL floor while it runs.
    void redisKeysDuringRun()
    {
        const Simulator sim = presetSimulator(u"boundary-burst"_s);
        Connection c = test::connect();
        qint64 seen = 0;
        qint64 minPttl = std::numeric_limits<qint64>::max();
        RunOptions options;
        options.batch = 12;
        options.progress = [&](const Progress &) {
            for (const QByteArray &key : test::keysWithPrefix(c, "sluice:sim:")) {
                ++seen;
                minPttl = std::min(minPttl, test::pttl(c, key));
            }
        };
        auto r = runOnRedis(sim, test::redisEndpoint(), options);
        QVERIFY(r.ok());
        QVERIFY(r->keyPrefix.startsWith("sluice:sim:"));
        QVERIFY(seen > 0);
        // min_ttl_ms (1 h) raised every TTL, though the rules' windows are 10 s.
        QVERIFY2(minPttl > 3'000'000, qPrintable(QString::number(minPttl)));
        QCOMPARE(simKeys(c), 0);
    }

    // Slower than real time: 1 s of virtual time over more than 2.5 s of wall clock, with keys
    // whose natural TTL is 200 ms or less. With the TTL floor the decisions are the twins';
    // without it Redis forgets state the virtual clock still needs, and they are not.
    void slowRunMatches()
    {
        auto sim = Simulator::create(shortLived());
        QVERIFY(sim.ok());
        auto local = sim->runLocal();
        QVERIFY(local.ok());
        RunOptions slow;
        slow.batch = 6; // one request (by six rules) per round trip
        slow.progress = [](const Progress &) { QThread::msleep(25); };

        auto floored = runOnRedis(*sim, test::redisEndpoint(), slow);
        QVERIFY2(floored.ok(), failure(floored));
        QVERIFY(floored->wallSeconds > 2.0); // slower than real time indeed
        QVERIFY(floored->sameOutcome(*local));

        slow.minTtlMs = 0; // no floor: the keys die on the wall clock
        auto bare = runOnRedis(*sim, test::redisEndpoint(), slow);
        QVERIFY(bare.ok());
        QVERIFY(!bare->sameOutcome(*local));
        QVERIFY(resultOf(*bare, u"fw"_s).admitted > resultOf(*local, u"fw"_s).admitted);
        Connection c = test::connect();
        QCOMPARE(simKeys(c), 0);
    }

    void cancelLeavesNoKeys()
    {
        const Simulator sim = presetSimulator(u"budget-in-100ms"_s);
        std::atomic<bool> cancel{false};
        int batches = 0;
        Connection c = test::connect();
        qint64 keysMidRun = 0;
        RunOptions options;
        options.cancel = &cancel;
        options.progress = [&](const Progress &p) {
            QVERIFY(p.done < p.total);
            if (++batches == 20) {
                keysMidRun = simKeys(c);
                cancel.store(true);
            }
        };
        auto r = runOnRedis(sim, test::redisEndpoint(), options);
        QVERIFY(r.ok());
        QVERIFY(r->cancelled);
        QCOMPARE(batches, 20);
        QVERIFY(r->processed > 0 && r->processed < r->total);
        QCOMPARE(keysMidRun, 6); // one global key per rule was there ...
        QCOMPARE(simKeys(c), 0); // ... and is gone

        // Cancelled on the twins: the partial results are those of the decisions made.
        cancel.store(false);
        batches = 0;
        options.progress = [&](const Progress &) {
            if (++batches == 20) {
                cancel.store(true);
            }
        };
        auto partial = sim.runLocal(options);
        QVERIFY(partial.ok() && partial->cancelled);
        QCOMPARE(partial->processed, r->processed);
        QCOMPARE(partial->rules.front().offered, partial->processed);
        QVERIFY(partial->rules == r->rules);
    }

    // The connection dies in the middle of a run: the run fails with the error, reconnects and
    // still removes its keys.
    void failureLeavesNoKeys()
    {
        const Simulator sim = presetSimulator(u"budget-in-100ms"_s);
        Connection c = test::connect();
        auto me = c.command({"CLIENT", "ID"});
        QVERIFY(me.ok());
        int batches = 0;
        RunOptions options;
        options.progress = [&](const Progress &) {
            if (++batches != 10) {
                return;
            }
            QCOMPARE(simKeys(c), 6);
            // Kill every other client: the run's connection.
            auto list = c.command({"CLIENT", "LIST"});
            for (const QByteArray &line : list->str.split('\n')) {
                if (line.startsWith("id=")) {
                    const QByteArray id = line.mid(3, line.indexOf(' ') - 3);
                    if (id.toLongLong() != me->integer) {
                        (void)c.command({"CLIENT", "KILL", "ID", id});
                    }
                }
            }
        };
        auto r = runOnRedis(sim, test::redisEndpoint(), options);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().isConnectionLoss(), qPrintable(r.error().message));
        QVERIFY2(r.error().message.contains(u"of virtual time"_s), qPrintable(r.error().message));
        QCOMPARE(batches, 10);
        QCOMPARE(simKeys(c), 0);
    }

    // A run that takes longer on the wall clock than its keys' TTL floor allows stops with an
    // error (rather than risk decisions on state Redis already expired) and removes its keys.
    void tooSlowForTheTtlFloor()
    {
        auto sim = Simulator::create(shortLived());
        QVERIFY(sim.ok());
        RunOptions slow;
        slow.batch = 6;
        slow.minTtlMs = 500; // guard at 450 ms of wall clock
        slow.progress = [](const Progress &) { QThread::msleep(20); };
        auto r = runOnRedis(*sim, test::redisEndpoint(), slow);
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, Error::Kind::Timeout);
        QVERIFY2(
            r.error().message.contains(u"close to the TTL floor of its keys (min_ttl_ms 500)"_s),
            qPrintable(r.error().message));
        Connection c = test::connect();
        QCOMPARE(simKeys(c), 0);
    }

    // Any Limiter: a LocalModel handed in (keys hashed, swept, expiring on the virtual clock)
    // gives what runLocal gives, on every preset, whatever the batch size.
    void anyLimiter_data() { localEqualsRedis_data(); }

    void anyLimiter()
    {
        const Simulator sim = rowSimulator();
        ManualClock clock;
        LocalModel model(clock);
        RunOptions options;
        options.batch = 7;
        auto r = sim.run(model, options, u"custom"_s);
        QVERIFY(r.ok());
        auto local = sim.runLocal();
        QVERIFY(local.ok());
        QVERIFY(r->sameOutcome(*local));
        QCOMPARE(r->backend, u"custom"_s);
    }
};

QTEST_GUILESS_MAIN(TestSimulator)
#include "tst_simulator.moc"
