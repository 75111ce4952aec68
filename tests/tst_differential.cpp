// The randomized differential test (ALGORITHMS.md "The local twins"): the same random
// sequence of (time step, cost, subject) runs through the script in Redis, with now_us
// injected, and through the in-process twin. Every reply must be identical, and after every
// call the key must be absent or carry a TTL.
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/limiter/localmodel.h"
#include "core/limiter/redislimiter.h"

#include <QRandomGenerator>
#include <QTest>

using namespace sluice;

namespace {

constexpr int opsPerAlgorithm = 24'000;
constexpr int batchSize = 64;
constexpr qint64 s = duration::usPerSecond;

std::vector<Policy> policiesFor(Algorithm a)
{
    const qint64 m = duration::usPerMinute;
    const qint64 d = duration::usPerDay;
    if (algorithm::isWindow(a)) {
        return {Policy::window(a, 3, s),       Policy::window(a, 5, 10 * s),
                Policy::window(a, 7, m),       Policy::window(a, 1, d),
                Policy::window(a, 4, 333'333), Policy::window(a, 50, 7 * s)};
    }
    return {Policy::bucket(a, {3, s}, 5),     Policy::bucket(a, {5, 10 * s}, 5),
            Policy::bucket(a, {7, m}, 3),     Policy::bucket(a, {1, d}, 2),
            Policy::bucket(a, {1000, s}, 50), Policy::bucket(a, {13, 7 * s}, 4)};
}

// A time scale for the policy: its window, or the time its bucket takes to fill.
qint64 scaleUs(const Policy &p)
{
    if (algorithm::isWindow(p.algorithm)) {
        return p.windowUs;
    }
    return std::max<qint64>(1, p.rate.periodUs * p.capacity() / p.rate.count);
}

// The decision in a script's reply (its six elements, checked by the caller).
// The decision in a script's reply; none, with *why, when the reply is an error or not the six
// integers a decision is.
std::optional<Decision> decisionOf(const Result<Reply> &r, QString *why)
{
    if (!r) {
        *why = r.error().message;
        return std::nullopt;
    }
    if (r->elements.size() != 6) {
        *why = QStringLiteral("a reply of %1 elements, not 6").arg(r->elements.size());
        return std::nullopt;
    }
    const auto &e = r->elements;
    return Decision{e[0].integer != 0, e[1].integer, e[2].integer,
                    e[3].integer,      e[4].integer, e[5].integer};
}

// A request's cost: mostly 1, sometimes 0 (a peek), else anything up to just over capacity.
qint64 randomCost(QRandomGenerator &rng, const Policy &p)
{
    const int roll = int(rng.bounded(100));
    return roll < 8 ? 0 : roll < 75 ? 1 : qint64(rng.bounded(quint32(p.capacity() + 2)));
}

qint64 randomStep(QRandomGenerator &rng, qint64 scale)
{
    const int r = int(rng.bounded(100));
    if (r < 20) {
        return 0; // same microsecond
    }
    if (r < 45) {
        return qint64(rng.bounded(1000)) + 1; // under a millisecond
    }
    if (r < 80) {
        return qint64(rng.bounded(quint64(std::max<qint64>(2, scale / 3)))); // within the period
    }
    if (r < 93) {
        return qint64(rng.bounded(quint64(std::max<qint64>(2, 3 * scale)))); // past it
    }
    return -qint64(rng.bounded(quint64(std::max<qint64>(2, scale / 2)))); // clock steps back
}

// What is wrong with a key whose PTTL is `pttl` after a decision: nothing when it is gone (-2)
// or has a TTL; a key left without one blocks its subject for good.
QString withoutTtl(const QByteArray &key, qint64 pttl)
{
    if (pttl == -2 || pttl > 0) {
        return {};
    }
    return QStringLiteral("%1 left without TTL (PTTL %2)").arg(QString::fromUtf8(key)).arg(pttl);
}

// One pipeline of operations, queued as the twin decides them: for each, [DEL,] EVALSHA and
// PTTL; then sent at once, the script's decision and the key's PTTL after it for each.
struct Batch
{
    QList<QList<QByteArray>> cmds;
    std::vector<Request> reqs;
    std::vector<Decision> expected; // the twin's
    std::vector<qsizetype> evalAt;  // index of each EVALSHA reply

    struct Answer
    {
        Decision decision;
        qint64 pttlMs = 0;
    };

    // Decides `r` on the twin and queues `eval` (the script's EVALSHA for it). Redis expires
    // keys on the wall clock, the twin on the injected one: where the twin's TTL has run out
    // at `now`, the key goes in Redis too, as its own TTL would have made it go (it matters
    // when the clock then steps back). False when the twin could not decide.
    bool add(LocalModel &twin, const Request &r, const QList<QByteArray> &eval)
    {
        if (twin.pttlMs(r.key, *r.nowUs) == -2) {
            cmds << QList<QByteArray>{"DEL", r.key};
        }
        reqs.push_back(r);
        auto local = twin.decide(reqs.back());
        if (!local.ok()) {
            return false;
        }
        expected.push_back(*local);
        evalAt.push_back(cmds.size());
        cmds << eval << QList<QByteArray>{"PTTL", r.key};
        return true;
    }

    Result<std::vector<Answer>> send(Connection &c) const
    {
        auto replies = c.pipeline(cmds);
        if (!replies.ok()) {
            return replies.error();
        }
        std::vector<Answer> out;
        for (size_t i = 0; i < reqs.size(); ++i) {
            QString why;
            const std::optional<Decision> decided = decisionOf((*replies)[size_t(evalAt[i])], &why);
            if (!decided) {
                return Error::make(Error::Kind::Reply, QStringLiteral("op %1: %2").arg(i).arg(why));
            }
            out.push_back({*decided, (*replies)[size_t(evalAt[i]) + 1]->integer});
        }
        return out;
    }

    // What is wrong with operation i, after `done` others of the test, under the policy named
    // `what`: the script decided otherwise than the twin, or left the key without a TTL;
    // empty when nothing is.
    QString wrongAt(const std::vector<Answer> &answers, size_t i, const QString &what,
                    int done) const
    {
        const Request &r = reqs[i];
        if (!(answers[i].decision == expected[i])) {
            return QStringLiteral("%1, op %2: now_us %3 cost %4 key %5: script %6, twin %7")
                .arg(what)
                .arg(done + int(i))
                .arg(*r.nowUs)
                .arg(r.cost)
                .arg(QString::fromUtf8(r.key), test::describe(answers[i].decision),
                     test::describe(expected[i]));
        }
        return withoutTtl(r.key, answers[i].pttlMs);
    }
};

} // namespace

class TestDifferential : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Each algorithm, and each that counts denials with count_rejected (its ARGV[8] '1').
    void scriptEqualsTwin_data()
    {
        test::columns<int, bool>("algorithm", "countRejected");
        for (Algorithm a : algorithm::all) {
            QTest::newRow(qPrintable(algorithm::name(a))) << int(a) << false;
            if (algorithm::countsRejected(a)) {
                QTest::addRow("%s count_rejected", qPrintable(algorithm::name(a)))
                    << int(a) << true;
            }
        }
    }
    void scriptEqualsTwin()
    {
        const Algorithm a = test::fetchAlgorithm();
        QFETCH(bool, countRejected);
        std::vector<Policy> policies = policiesFor(a);
        for (Policy &p : policies) {
            p.countRejected = countRejected;
        }
        Connection c = test::connect();
        const auto *script = ScriptRegistry::builtin().find(algorithm::name(a));
        QVERIFY(script);
        QVERIFY(ScriptRegistry::ensureLoaded(c, *script).ok());
        ManualClock clock;
        QRandomGenerator rng(quint32(0x51u + quint32(a) + (countRejected ? 0x100u : 0u)));
        int done = 0, allowed = 0, denied = 0;
        const int perPolicy = opsPerAlgorithm / int(policies.size());
        for (size_t pi = 0; pi < policies.size(); ++pi) {
            const Policy &p = policies[pi];
            const qint64 scale = scaleUs(p);
            LocalModel twin(clock);
            qint64 now = 1'700'000'000'000'000 + qint64(rng.bounded(1'000'000'000));
            const QByteArray base = test::keyPrefix() + algorithm::name(a).toUtf8() + ':' +
                                    QByteArray::number(qint64(pi)) + ":{";
            for (int start = 0; start < perPolicy; start += batchSize) {
                Batch b; // the twin decides as the pipeline is built
                for (int i = 0; i < batchSize; ++i) {
                    now += randomStep(rng, scale);
                    const qint64 cost = randomCost(rng, p);
                    const QByteArray key = base + QByteArray::number(rng.bounded(5)) + '}';
                    QList<QByteArray> cmd{"EVALSHA", script->sha, "1", key};
                    cmd << p.scriptArgs() << QByteArray::number(cost) << QByteArray::number(now)
                        << "600000";
                    if (countRejected) {
                        cmd << ""
                            << ""
                            << "1"; // no version, no on_change, count_rejected
                    }
                    QVERIFY(b.add(twin, Request{&p, key, cost, now, 600'000}, cmd));
                }
                const auto answers = b.send(c);
                QVERIFY2(answers, qPrintable(answers ? QString() : answers.error().message));
                for (size_t i = 0; i < b.reqs.size(); ++i) {
                    const QString wrong =
                        b.wrongAt(*answers, i, algorithm::name(a) + u' ' + p.describe(), done);
                    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
                    (*answers)[i].decision.allowed ? ++allowed : ++denied;
                }
                done += int(b.reqs.size());
            }
        }
        QVERIFY(done >= 20'000);
        // A sequence that only ever admits (or only denies) would prove little.
        QVERIFY2(allowed > done / 10 && denied > done / 10,
                 qPrintable(QStringLiteral("allowed %1 denied %2").arg(allowed).arg(denied)));
        qInfo("%s: %d operations identical (%d allowed, %d denied)", qPrintable(algorithm::name(a)),
              done, allowed, denied);
    }

    // Rule changes (ALGORITHMS.md "When a rule changes"): the same random operations, now
    // with the rule's parameters changing every few dozen operations (limit, window, rate and
    // burst up and down, another algorithm of the same and of another Redis type, and back),
    // for each on_change. Script and twin must decide alike, and every key keeps a TTL.
    void migrationScriptEqualsTwin_data()
    {
        test::columns<int, int, bool>("algorithm", "onChange", "countRejected");
        for (Algorithm a : algorithm::all) {
            for (OnChange m : onchange::all) {
                QTest::addRow("%s %s", qPrintable(algorithm::name(a)),
                              onchange::name(m).constData())
                    << int(a) << int(m) << false;
                if (algorithm::countsRejected(a)) {
                    QTest::addRow("%s %s count_rejected", qPrintable(algorithm::name(a)),
                                  onchange::name(m).constData())
                        << int(a) << int(m) << true;
                }
            }
        }
    }
    void migrationScriptEqualsTwin()
    {
        QFETCH(int, algorithm);
        QFETCH(int, onChange);
        QFETCH(bool, countRejected);
        const Algorithm a = Algorithm(algorithm);
        std::vector<Policy> policies = policiesFor(a);
        // Another algorithm on the same keys: one of the same Redis type (a hash for a hash),
        // one of another (a sorted set or a string).
        const qint64 m = duration::usPerMinute;
        switch (a) {
        case Algorithm::FixedWindow:
            policies.push_back(Policy::window(Algorithm::SlidingCounter, 4, 10 * s));
            policies.push_back(Policy::window(Algorithm::SlidingLog, 4, 10 * s));
            break;
        case Algorithm::SlidingCounter:
            policies.push_back(Policy::window(Algorithm::FixedWindow, 4, 10 * s));
            policies.push_back(Policy::bucket(Algorithm::Gcra, {3, s}, 4));
            break;
        case Algorithm::SlidingLog:
            policies.push_back(Policy::window(Algorithm::FixedWindow, 4, 10 * s));
            policies.push_back(Policy::bucket(Algorithm::Gcra, {3, s}, 4));
            break;
        case Algorithm::TokenBucket:
            policies.push_back(Policy::bucket(Algorithm::LeakyBucket, {3, s}, 4));
            policies.push_back(Policy::window(Algorithm::SlidingLog, 4, m));
            break;
        case Algorithm::LeakyBucket:
            policies.push_back(Policy::bucket(Algorithm::TokenBucket, {3, s}, 4));
            policies.push_back(Policy::bucket(Algorithm::Gcra, {3, s}, 4));
            break;
        case Algorithm::Gcra:
            policies.push_back(Policy::bucket(Algorithm::TokenBucket, {3, s}, 4));
            policies.push_back(Policy::window(Algorithm::FixedWindow, 4, 10 * s));
            break;
        }
        for (Policy &p : policies) {
            p.id = QStringLiteral("mig");
            p.onChange = OnChange(onChange);
            p.countRejected = countRejected && algorithm::countsRejected(p.algorithm);
        }
        Connection c = test::connect();
        for (const Policy &p : policies) {
            QVERIFY(ScriptRegistry::ensureLoaded(
                        c, *ScriptRegistry::builtin().find(algorithm::name(p.algorithm)))
                        .ok());
        }
        ManualClock clock;
        LocalModel twin(clock);
        QRandomGenerator rng(quint32(0x77u + quint32(algorithm) * 8u + quint32(onChange) +
                                     (countRejected ? 0x100u : 0u)));
        const QByteArray base = test::keyPrefix() + "mig:" + algorithm::name(a).toUtf8() + ':' +
                                onchange::name(OnChange(onChange)) +
                                (countRejected ? ":cr:{" : ":{");
        qint64 now = 1'700'000'000'000'000 + qint64(rng.bounded(1'000'000'000));
        int done = 0, allowed = 0, denied = 0, changes = 0, migrated = 0;
        size_t current = 0;
        constexpr int ops = 3'000;
        QHash<QByteArray, QStringList> history; // for a failure's message
        for (int start = 0; start < ops; start += batchSize) {
            Batch b;
            for (int i = 0; i < batchSize; ++i) {
                if (rng.bounded(24) == 0) {
                    // A change: mostly among the algorithm's own parameters.
                    const size_t own = policiesFor(a).size();
                    current = rng.bounded(8) == 0
                                  ? own + rng.bounded(quint32(policies.size() - own))
                                  : rng.bounded(quint32(own));
                    ++changes;
                }
                const Policy &p = policies[current];
                now += randomStep(rng, scaleUs(p));
                const qint64 cost = randomCost(rng, p);
                const QByteArray key = base + QByteArray::number(rng.bounded(4)) + '}';
                if (!twin.version(key).isEmpty() && twin.version(key) != p.version()) {
                    ++migrated;
                }
                QList<QByteArray> cmd{
                    "EVALSHA", ScriptRegistry::builtin().find(algorithm::name(p.algorithm))->sha,
                    "1", key};
                cmd << p.scriptArgs() << QByteArray::number(cost) << QByteArray::number(now)
                    << p.versionArgs(600'000);
                QVERIFY(b.add(twin, Request{&p, key, cost, now, 600'000}, cmd));
            }
            const auto answers = b.send(c);
            QVERIFY2(answers, qPrintable(answers ? QString() : answers.error().message));
            for (size_t i = 0; i < b.reqs.size(); ++i) {
                const Request &r = b.reqs[i];
                const Decision &remote = (*answers)[i].decision;
                const QString wrong = b.wrongAt(
                    *answers, i,
                    r.policy->describe() + u' ' + QString::fromLatin1(r.policy->version()), done);
                if (!wrong.isEmpty()) {
                    for (const QString &h : history.value(r.key)) {
                        qWarning("%s", qPrintable(h));
                    }
                    QFAIL(qPrintable(wrong));
                }
                history[r.key] << QStringLiteral("%1 %2 cost %3 -> %4")
                                      .arg(QString::fromLatin1(r.policy->version()))
                                      .arg(*r.nowUs)
                                      .arg(r.cost)
                                      .arg(test::describe(remote));
                remote.allowed ? ++allowed : ++denied;
            }
            done += int(b.reqs.size());
        }
        QVERIFY2(
            changes > 50 && migrated > 50,
            qPrintable(QStringLiteral("changes %1, migrations %2").arg(changes).arg(migrated)));
        QVERIFY2(allowed > done / 10 && denied > done / 10,
                 qPrintable(QStringLiteral("allowed %1 denied %2").arg(allowed).arg(denied)));
        qInfo("%s %s: %d operations identical across %d rule changes (%d on a state of another "
              "version)",
              qPrintable(algorithm::name(a)), onchange::name(OnChange(onChange)).constData(), done,
              changes, migrated);
    }

    // Production calls (no now_us, Redis TIME, no min_ttl): the TTL is the reset time.
    void ttlIsResetAfter_data() { test::addAlgorithmRows(); }
    void ttlIsResetAfter()
    {
        const Algorithm a = test::fetchAlgorithm();
        const Policy p = algorithm::isWindow(a) ? Policy::window(a, 10, 60 * s)
                                                : Policy::bucket(a, {10, 60 * s}, 10);
        RedisLimiter limiter(test::connect());
        Connection probe = test::connect();
        const QByteArray key = test::keyPrefix() + "ttl:" + algorithm::name(a).toUtf8();
        auto d = limiter.decide(Request{&p, key, 3, std::nullopt, 0});
        QVERIFY(d.ok() && d->allowed);
        const qint64 ttl = test::pttl(probe, key);
        QVERIFY2(
            ttl > 0 && ttl <= d->resetAfterMs && ttl > d->resetAfterMs - 1000,
            qPrintable(QStringLiteral("PTTL %1, reset_after %2").arg(ttl).arg(d->resetAfterMs)));
        // A peek and a denial write nothing: the TTL only runs down.
        auto peek = limiter.decide(Request{&p, key, 0, std::nullopt, 0});
        QVERIFY(peek.ok() && peek->allowed);
        auto deny = limiter.decide(Request{&p, key, p.capacity(), std::nullopt, 0});
        QVERIFY(deny.ok() && !deny->allowed);
        QVERIFY(test::pttl(probe, key) <= ttl);
    }

    // Fixed window and sliding counter: the TTL is set where the window opens
    // (anchors, rolls) and an increment keeps it; a key without TTL (another writer's, or one
    // whose TTL was taken away) gets one from the next admission. Production calls: Redis
    // TIME, no min_ttl_ms.
    void ttlSetWhereTheWindowOpens_data()
    {
        QTest::addColumn<int>("algorithm");
        QTest::newRow("fixed_window") << int(Algorithm::FixedWindow);
        QTest::newRow("sliding_counter") << int(Algorithm::SlidingCounter);
    }
    void ttlSetWhereTheWindowOpens()
    {
        QFETCH(int, algorithm);
        const Algorithm a = Algorithm(algorithm);
        const bool sliding = a == Algorithm::SlidingCounter;
        // The sliding counter's key lives to the end of the next window.
        const qint64 full = sliding ? 120'000 : 60'000;
        const Policy p = Policy::window(a, 10, 60 * s);
        RedisLimiter limiter(test::connect());
        Connection c = test::connect();
        const QByteArray key = test::keyPrefix() + algorithm::name(a).toUtf8() + ":ttl:{a}";
        const auto admit = [&](qint64 cost) {
            auto d = limiter.decide(Request{&p, key, cost, std::nullopt, 0});
            return d.ok() && d->allowed;
        };
        QVERIFY(admit(1));
        const qint64 opened = test::pttl(c, key);
        QVERIFY2(opened > full - 1000 && opened <= full, qPrintable(QString::number(opened)));
        // An increment leaves the TTL alone: a TTL planted above the window stays.
        QVERIFY(c.command({"PEXPIRE", key, "3600000"}).ok());
        QVERIFY(admit(2));
        QVERIFY2(test::pttl(c, key) > full, qPrintable(QString::number(test::pttl(c, key))));
        // Taken away (PERSIST): the next admission into the live window sets it again.
        QVERIFY(c.command({"PERSIST", key}).ok());
        QCOMPARE(test::pttl(c, key), qint64(-1));
        QVERIFY(admit(1));
        qint64 ttl = test::pttl(c, key);
        QVERIFY2(ttl > 0 && ttl <= full, qPrintable(QString::number(ttl)));
        auto h = c.command({"HGET", key, "c"});
        QVERIFY(h.ok());
        QCOMPARE(h->str, QByteArray("4")); // counted through all of it

        // A foreign key without TTL under the prefix: a live window another writer made...
        auto t = c.command({"TIME"});
        QVERIFY(t.ok() && t->elements.size() == 2);
        const QByteArray nowUs = QByteArray::number(t->elements[0].str.toLongLong() * 1'000'000 +
                                                    t->elements[1].str.toLongLong() - 1'000'000);
        const QByteArray foreign = test::keyPrefix() + algorithm::name(a).toUtf8() + ":ttl:{b}";
        QVERIFY(c.command({"HSET", foreign, "s", nowUs, "c", "3"}).ok());
        QCOMPARE(test::pttl(c, foreign), qint64(-1));
        auto d = limiter.decide(Request{&p, foreign, 1, std::nullopt, 0});
        QVERIFY(d.ok() && d->allowed);
        QCOMPARE(d->remaining, qint64(6)); // its count is taken as it is
        ttl = test::pttl(c, foreign);
        QVERIFY2(ttl > 0 && ttl <= d->resetAfterMs, qPrintable(QString::number(ttl)));
        // ...and one whose window is long over (or not a window at all): rewritten, with TTL.
        for (const QByteArray &start : {QByteArray("0"), QByteArray("abc")}) {
            QVERIFY(c.command({"HSET", foreign, "s", start, "c", "9"}).ok());
            QVERIFY(c.command({"PERSIST", foreign}).ok());
            d = limiter.decide(Request{&p, foreign, 1, std::nullopt, 0});
            QVERIFY(d.ok() && d->allowed);
            QCOMPARE(d->remaining, qint64(9));
            ttl = test::pttl(c, foreign);
            QVERIFY2(ttl > full - 1000 && ttl <= full, qPrintable(QString::number(ttl)));
        }
        QVERIFY(c.command({"DEL", key, foreign}).ok());
    }

    // The twin keeps the TTL as the script does: an increment does not move the expiry set
    // where the window opened (it would have moved by the sub-millisecond rounding of reset).
    void twinKeepsTheTtlOfTheOpening()
    {
        const Policy p = Policy::window(Algorithm::FixedWindow, 10, 60 * s);
        ManualClock clock;
        LocalModel twin(clock);
        const qint64 t0 = 1'700'000'000'000'000;
        const QByteArray key = "twin:{a}";
        QVERIFY(twin.decide(Request{&p, key, 1, t0, 0}).ok());
        QCOMPARE(twin.pttlMs(key, t0), qint64(60'000));
        QVERIFY(twin.decide(Request{&p, key, 1, t0 + 10 * s + 500, 0}).ok());
        // Expires with the window: at t0 + 60 s + 100 us it is gone (a TTL set again at
        // t0 + 10.0005 s as ceil(49999.5 ms) would have lasted to t0 + 60.0005 s).
        QCOMPARE(twin.pttlMs(key, t0 + 60 * s - 200), qint64(1));
        QCOMPARE(twin.pttlMs(key, t0 + 60 * s + 100), qint64(-2));
        // With min_ttl_ms every write sets the TTL.
        QVERIFY(twin.decide(Request{&p, key, 1, t0 + 70 * s, 600'000}).ok());
        QVERIFY(twin.decide(Request{&p, key, 1, t0 + 80 * s, 600'000}).ok());
        QCOMPARE(twin.pttlMs(key, t0 + 80 * s), qint64(600'000));
    }
};

QTEST_GUILESS_MAIN(TestDifferential)
#include "tst_differential.moc"
