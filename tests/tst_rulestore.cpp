#include "testkit.h"
#include "testredis.h"

#include "core/rules/rulestore.h"
#include "core/rules/rulewatcher.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <latch>
#include <thread>

using namespace sluice;
using namespace sluice::rules;

namespace {

constexpr qint64 s = duration::usPerSecond;

// A fixed window of 5 s per IP.
Rule windowRule(const QString &id, qint64 limit)
{
    return Rule::window(id, Algorithm::FixedWindow, limit, 5 * s, {Scope::Kind::Ip, {}});
}

// FORMATS.md's example, more or less.
RuleSet baseSet()
{
    RuleSet set;
    Rule hello = windowRule(QStringLiteral("hello-per-ip"), 3);
    hello.description = QStringLiteral("GET /hello: 3 per 5 s per client IP");
    hello.route = QStringLiteral("GET /hello");
    set.rules = {hello, Rule::bucket(QStringLiteral("api-global"), Algorithm::TokenBucket,
                                     Rate{100, s}, 200)};
    return set;
}

RuleSet sortedById(RuleSet set)
{
    std::sort(set.rules.begin(), set.rules.end(),
              [](const Rule &a, const Rule &b) { return a.id < b.id; });
    return set;
}

// Everything the store holds, to prove that a failed push changed nothing.
struct Dump
{
    QByteArray version;
    QList<QByteArray> hash;
    QList<QByteArray> history;
    bool operator==(const Dump &) const = default;
};

Dump dump(Connection &c, const RuleStore &store)
{
    Dump d;
    auto v = c.command({"GET", store.versionKey()});
    d.version = v ? v->str : "<error>";
    if (auto h = c.command({"HGETALL", store.hashKey()}); h) {
        QList<QPair<QByteArray, QByteArray>> kv;
        for (size_t i = 0; i + 1 < h->elements.size(); i += 2) {
            kv.append({h->elements[i].str, h->elements[i + 1].str});
        }
        std::sort(kv.begin(), kv.end());
        for (const auto &[k, val] : kv) {
            d.hash << k << val;
        }
    }
    if (auto l = c.command({"LRANGE", store.historyKey(), "0", "-1"}); l) {
        for (const Reply &e : l->elements) {
            d.history << e.str;
        }
    }
    return d;
}

qint64 storedVersion(Connection &c, const RuleStore &store)
{
    auto v = c.command({"GET", store.versionKey()});
    return v ? v->str.toLongLong() : -1;
}

// A store of the test's own: <test prefix><name>:rules...
RuleStore storeFor(const char *name)
{
    return RuleStore(test::keyPrefix() + name + ':');
}

RuleSet basedOn(RuleSet set, std::optional<qint64> version);

// Pushes baseSet() as version 1 of `store`: false when it could not.
bool pushBase(Connection &c, const RuleStore &store)
{
    return store.push(c, baseSet(), false).ok();
}

// A connection to the fixture's Redis and a store of the test's own under `name`, baseSet()
// pushed as its version 1 (`pushed`: whether it was).
struct BaseStore
{
    Connection c;
    RuleStore store;
    bool pushed;
};
BaseStore baseStore(const char *name)
{
    Connection c = test::connect();
    const RuleStore store = storeFor(name);
    const bool pushed = pushBase(c, store);
    return {std::move(c), store, pushed};
}

// Pushes baseSet() as version 1, then version 2 with the first rule's limit at `limit`:
// version 2's set, empty when a push failed.
RuleSet pushTwoVersions(Connection &c, const RuleStore &store, qint64 limit)
{
    RuleSet v2 = basedOn(baseSet(), 1);
    v2.rules[0].limit = limit;
    if (!store.push(c, baseSet(), false) || !store.push(c, v2, false)) {
        return {};
    }
    return v2;
}

RuleSet basedOn(RuleSet set, std::optional<qint64> version)
{
    set.basedOn = version;
    return set;
}

RuleWatcher::Options fastWatcher()
{
    RuleWatcher::Options o;
    o.minBackoff = std::chrono::milliseconds(50);
    o.maxBackoff = std::chrono::milliseconds(500);
    return o;
}

// The version carried by the last rulesChanged() a spy saw.
qint64 lastVersion(const QSignalSpy &spy)
{
    return spy.isEmpty() ? -1 : spy.last().at(1).toLongLong();
}

// Waits until the spy has seen version `v` (signals may arrive in one batch or several).
bool waitForVersion(QSignalSpy &spy, qint64 v, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    while (lastVersion(spy) != v && t.elapsed() < timeoutMs) {
        spy.wait(int(std::max<qint64>(1, timeoutMs - t.elapsed())));
    }
    return lastVersion(spy) == v;
}

} // namespace

class TestRuleStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pushToAnEmptyStoreIsVersion1()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("empty");
        auto r = store.push(c, baseSet(), false);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->version, 1);
        QCOMPARE(r->added,
                 (QStringList{QStringLiteral("hello-per-ip"), QStringLiteral("api-global")}));
        QVERIFY(r->changed.isEmpty());
        QVERIFY(r->removed.isEmpty());
        QCOMPARE(storedVersion(c, store), 1);
        QCOMPARE(c.command({"HLEN", store.hashKey()})->integer, 2);
        // The history entry says what happened, newest first.
        auto h = c.command({"LRANGE", store.historyKey(), "0", "-1"});
        QVERIFY(h.ok());
        QCOMPARE(h->elements.size(), size_t(1));
        const QJsonObject entry = QJsonDocument::fromJson(h->elements[0].str).object();
        QCOMPARE(entry.value(QLatin1String("version")).toInteger(), 1);
        QCOMPARE(entry.value(QLatin1String("added")).toArray().size(), 2);
        QVERIFY(!entry.value(QLatin1String("time")).toString().isEmpty());
    }

    void pullRoundTrip()
    {
        auto [c, store, pushed] = baseStore("roundtrip");
        QVERIFY(pushed);
        auto snap = store.pull(c);
        QVERIFY2(snap.ok(), snap.ok() ? "" : qPrintable(snap.error().message));
        QCOMPARE(snap->version, 1);
        QCOMPARE(snap->set.basedOn, std::optional<qint64>(1));
        // Rules come back sorted by id (a hash has no order), otherwise equal.
        QVERIFY(snap->set.rules == sortedById(baseSet()).rules);
        // Pulling an empty store: version 0, no rules.
        auto none = storeFor("never-pushed").pull(c);
        QVERIFY(none.ok());
        QCOMPARE(none->version, 0);
        QVERIFY(none->set.rules.empty());
    }

    void pushUnchangedKeepsTheVersion()
    {
        auto [c, store, pushed] = baseStore("unchanged");
        QVERIFY(pushed);
        const Dump before = dump(c, store);
        auto r = store.push(c, basedOn(baseSet(), 1), false);
        QVERIFY(r.ok());
        QVERIFY(r->unchanged());
        QCOMPARE(r->version, 1);
        // Same rules in another order, and without a based-on version: still nothing to do.
        RuleSet reordered = baseSet();
        std::reverse(reordered.rules.begin(), reordered.rules.end());
        r = store.push(c, reordered, false);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QVERIFY(r->unchanged());
        QCOMPARE(dump(c, store), before);
    }

    void pushReportsTheDiff()
    {
        auto [c, store, pushed] = baseStore("diff");
        QVERIFY(pushed);
        RuleSet next = basedOn(baseSet(), 1);
        next.rules[1].burst = 300;                                      // api-global changed
        next.rules.erase(next.rules.begin());                           // hello-per-ip removed
        next.rules.push_back(windowRule(QStringLiteral("new-one"), 9)); // added
        auto r = store.push(c, next, false);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->version, 2);
        QCOMPARE(r->added, QStringList{QStringLiteral("new-one")});
        QCOMPARE(r->changed, QStringList{QStringLiteral("api-global")});
        QCOMPARE(r->removed, QStringList{QStringLiteral("hello-per-ip")});
        QVERIFY(store.pull(c)->set.rules == sortedById(next).rules);
    }

    void conflictNamesTheVersionsInBetween()
    {
        auto [c, store, pushed] = baseStore("conflict");
        QVERIFY(pushed); // v1
        RuleSet v2 = basedOn(baseSet(), 1);
        v2.rules[1].burst = 250;
        QCOMPARE(store.push(c, v2, false)->version, 2); // v2 changed api-global
        RuleSet v3 = basedOn(v2, 2);
        v3.rules.push_back(
            Rule::bucket(QStringLiteral("export-queue"), Algorithm::LeakyBucket, Rate{10, s}, 50));
        QCOMPARE(store.push(c, v3, false)->version, 3); // v3 added export-queue
        const Dump before = dump(c, store);

        // Someone still at v1 removes hello-per-ip.
        RuleSet stale = basedOn(baseSet(), 1);
        stale.rules.erase(stale.rules.begin());
        auto r = store.push(c, stale, false);
        QVERIFY(!r.ok());
        const QString m = r.error().message;
        QCOMPARE(r.error().kind, Error::Kind::Conflict);
        QVERIFY2(m.contains(QStringLiteral("conflict")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("at version 3")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("based on version 1")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("v2 changed api-global")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("v3 added export-queue")), qPrintable(m));
        QVERIFY2(m.indexOf(QStringLiteral("v2 ")) < m.indexOf(QStringLiteral("v3 ")),
                 qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("--force")), qPrintable(m));
        QVERIFY2(m.contains(QStringLiteral("remove export-queue, hello-per-ip")), qPrintable(m));
        QCOMPARE(dump(c, store), before);

        // A set that was never pulled conflicts with a store that has rules.
        r = store.push(c, basedOn(stale, std::nullopt), false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("not pulled")),
                 qPrintable(r.error().message));
        // A based-on version the store never had (another store, or a reset) conflicts too.
        r = store.push(c, basedOn(stale, 42), false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QStringLiteral("never had")),
                 qPrintable(r.error().message));
        QCOMPARE(dump(c, store), before);

        // Based on the current version: accepted.
        auto ok = store.push(c, basedOn(stale, 3), false);
        QVERIFY2(ok.ok(), ok.ok() ? "" : qPrintable(ok.error().message));
        QCOMPARE(ok->version, 4);
    }

    void forceOverwrites()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("force");
        const RuleSet v2 = pushTwoVersions(c, store, 30);
        QVERIFY(!v2.rules.empty());
        RuleSet mine = basedOn(baseSet(), 1);
        mine.rules[1].rate = Rate{5, s};
        QVERIFY(!store.push(c, mine, false).ok());
        auto r = store.push(c, mine, true);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->version, 3);
        QVERIFY(store.pull(c)->set.rules == sortedById(mine).rules);
        auto h = c.command({"LINDEX", store.historyKey(), "0"});
        const QJsonObject entry = QJsonDocument::fromJson(h->str).object();
        QCOMPARE(entry.value(QLatin1String("version")).toInteger(), 3);
        QCOMPARE(entry.value(QLatin1String("forced")).toBool(), true);
    }

    void invalidSetWritesNothing()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("invalid");
        // Into an empty store: not a single key appears.
        RuleSet bad = baseSet();
        bad.rules.push_back(windowRule(QStringLiteral("hello-per-ip"), 5)); // duplicate id
        bad.rules.push_back(windowRule(QStringLiteral("zero"), 0));         // limit 0
        auto r = store.push(c, bad, true);
        const QString failure =
            test::failedWith(r, Error::Kind::Invalid, QStringLiteral("nothing was written"));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(r.error().message.contains(QStringLiteral("rules[")),
                 qPrintable(r.error().message));
        for (const QByteArray &k : {store.hashKey(), store.versionKey(), store.historyKey()}) {
            QCOMPARE(c.command({"EXISTS", k})->integer, 0);
        }
        // Over an existing store: unchanged, even forced.
        QVERIFY(store.push(c, baseSet(), false).ok());
        const Dump before = dump(c, store);
        QVERIFY(!store.push(c, basedOn(bad, 1), true).ok());
        QCOMPARE(dump(c, store), before);
    }

    void wrongKeyTypeWritesNothing()
    {
        // Redis does not roll back a script: the write step checks every key before it writes.
        auto [c, store, pushed] = baseStore("wrongtype");
        QVERIFY(pushed);
        QVERIFY(c.command({"DEL", store.historyKey()}).ok());
        QVERIFY(c.command({"SET", store.historyKey(), "not a list"}).ok());
        const Dump before = dump(c, store);
        RuleSet next = basedOn(baseSet(), 1);
        next.rules.pop_back();
        auto r = store.push(c, next, false);
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(QString::fromUtf8(store.historyKey())),
                 qPrintable(r.error().message));
        QCOMPARE(dump(c, store), before);
        QCOMPARE(c.command({"GET", store.historyKey()})->str, QByteArray("not a list"));
    }

    void corruptStoreIsReportedAndForceable()
    {
        auto [c, store, pushed] = baseStore("corrupt");
        QVERIFY(pushed);
        QVERIFY(c.command({"HSET", store.hashKey(), "broken", "{not json"}).ok());
        auto snap = store.pull(c);
        QVERIFY(!snap.ok());
        QVERIFY2(snap.error().message.contains(QStringLiteral("broken")),
                 qPrintable(snap.error().message));
        auto r = store.push(c, basedOn(baseSet(), 1), false);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->removed, QStringList{QStringLiteral("broken")});
        QVERIFY(store.pull(c).ok());
    }

    // Every pushed version can be rebuilt from the stored rules and the history's undo
    // records: added, changed and removed rules walked back exactly.
    void everyKeptVersionIsRebuilt()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("versions");
        std::vector<RuleSet> pushed; // pushed[i] is version i + 1
        RuleSet set = baseSet();
        RuleStore::PushOptions o;
        o.author = QStringLiteral("alice");
        o.message = QStringLiteral("first\nrules");
        for (int i = 0; i < 6; ++i) {
            if (i == 1) {
                set.rules[0].limit = 5; // changed
            } else if (i == 2) {
                set.rules.push_back(windowRule(QStringLiteral("login"), 2)); // added
            } else if (i == 3) {
                set.rules.erase(set.rules.begin() + 1); // removed (api-global)
            } else if (i == 4) {
                set.rules[0].algorithm = Algorithm::SlidingLog; // changed algorithm
                set.rules.push_back(Rule::bucket(QStringLiteral("api-global"), Algorithm::Gcra,
                                                 Rate{7, s}, 3)); // back again
            } else if (i == 5) {
                set.rules.clear();
                set.rules.push_back(windowRule(QStringLiteral("only"), 1)); // all replaced
            }
            set.basedOn = i == 0 ? std::nullopt : std::optional<qint64>(i);
            auto r = store.push(c, set, o);
            QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
            QCOMPARE(r->version, i + 1);
            RuleSet expect = set;
            expect.basedOn.reset();
            pushed.push_back(sortedById(expect));
        }
        auto h = store.history(c);
        QVERIFY2(h.ok(), h.ok() ? "" : qPrintable(h.error().message));
        QCOMPARE(h->version, 6);
        QCOMPARE(h->entries.size(), 6);
        QCOMPARE(h->entries.front().version, 6);
        QCOMPARE(h->entries.front().author, QStringLiteral("alice"));
        QCOMPARE(h->entries.front().message, QStringLiteral("first rules")); // one line
        QCOMPARE(h->entries.at(2).removed, QStringList{QStringLiteral("api-global")});
        QCOMPARE(h->restorable, (QList<qint64>{6, 5, 4, 3, 2, 1}));
        for (qint64 v = 1; v <= 6; ++v) {
            auto snap = store.pullVersion(c, v);
            QVERIFY2(snap.ok(), snap.ok() ? "" : qPrintable(snap.error().message));
            QCOMPARE(snap->version, v);
            QCOMPARE(snap->set.basedOn, std::optional<qint64>(6));
            RuleSet got = snap->set;
            got.basedOn.reset();
            QVERIFY2(got == pushed[size_t(v - 1)], qPrintable(QString::number(v)));
        }
        // What cannot be rebuilt is an error listing what can.
        for (qint64 v : {0, 7, 100}) {
            auto bad = store.pullVersion(c, v);
            const QString failure = test::failedWith(
                bad, Error::Kind::Invalid, QStringLiteral("versions that can: 6 down to 1"));
            QVERIFY2(failure.isEmpty(), qPrintable(failure));
        }
    }

    // A rollback stores the old rules as a new version, marked as such; the history keeps
    // every version (nothing rewritten) and the rolled-back version can itself be undone.
    void rollbackIsANewVersion()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("rollback");
        RuleSet v1 = baseSet();
        QVERIFY(store.push(c, v1, false).ok());
        RuleSet v2 = basedOn(baseSet(), 1);
        v2.rules[0].limit = 50;
        v2.rules.pop_back();
        QVERIFY(store.push(c, v2, false).ok());
        const Dump before = dump(c, store);
        auto r = store.rollback(c, 1, {});
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->version, 3);
        QCOMPARE(r->changed, QStringList{QStringLiteral("hello-per-ip")});
        QCOMPARE(r->added, QStringList{QStringLiteral("api-global")});
        auto now = store.pull(c);
        QVERIFY(now.ok());
        QVERIFY(now->set.rules == sortedById(v1).rules);
        auto h = store.history(c);
        QVERIFY(h.ok());
        QCOMPARE(h->entries.size(), 3);
        QCOMPARE(h->entries.front().rollbackOf, std::optional<qint64>(1));
        QCOMPARE(h->entries.front().message, QStringLiteral("rollback to version 1"));
        // The history of v1 and v2 is still there, byte for byte.
        const Dump after = dump(c, store);
        QCOMPARE(after.history.mid(1), before.history);
        // Rolling back to what is stored changes nothing and makes no version.
        auto same = store.rollback(c, 3, {});
        QVERIFY(same.ok());
        QVERIFY(same->unchanged());
        QCOMPARE(storedVersion(c, store), 3);
        auto v2again = store.pullVersion(c, 2);
        QVERIFY(v2again.ok());
        QVERIFY(v2again->set.rules == sortedById(v2).rules);
    }

    // A rollback raced by a push is refused as a conflict naming the version it raced;
    // nothing is written.
    void rollbackRacedByAPushIsAConflict()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("rollbackrace");
        const RuleSet v2 = pushTwoVersions(c, store, 9);
        QVERIFY(!v2.rules.empty());
        // The other console read version 2 and rebuilds version 1 from it ...
        auto snap = store.pullVersion(c, 1);
        QVERIFY(snap.ok());
        QCOMPARE(snap->set.basedOn, std::optional<qint64>(2));
        // ... while this one pushes version 3.
        RuleSet v3 = basedOn(baseSet(), 2);
        v3.rules[0].limit = 11;
        QVERIFY(store.push(c, v3, false).ok());
        const Dump before = dump(c, store);
        RuleStore::PushOptions o;
        o.rollbackOf = 1;
        auto r = store.push(c, snap->set, o);
        const QString failure =
            test::failedWith(r, Error::Kind::Conflict, QStringLiteral("version 3"));
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY(dump(c, store) == before);
    }

    // Entries written by an older Sluice (no undo record) bound what can be rebuilt; a
    // version before them is an error listing what can, not a guess.
    void olderEntriesWithoutUndoBoundTheRollback()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("oldentries");
        const RuleSet v2 = pushTwoVersions(c, store, 4);
        QVERIFY(!v2.rules.empty());
        // Rewrite entry 2 as an older Sluice wrote it: no undo.
        auto l = c.command({"LINDEX", store.historyKey(), "0"});
        QVERIFY(l.ok());
        QJsonObject o = QJsonDocument::fromJson(l->str).object();
        o.remove(QStringLiteral("undo"));
        QVERIFY(c.command({"LSET", store.historyKey(), "0",
                           QJsonDocument(o).toJson(QJsonDocument::Compact)})
                    .ok());
        auto h = store.history(c);
        QVERIFY(h.ok());
        QCOMPARE(h->restorable, QList<qint64>{2});
        QVERIFY(!h->entries.front().undoable);
        auto bad = store.pullVersion(c, 1);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().message.contains(QStringLiteral("versions that can: 2")),
                 qPrintable(bad.error().message));
    }

    void pushPublishesTheNewVersion()
    {
        Connection c = test::connect();
        Connection sub = test::connect();
        const RuleStore store = storeFor("publish");
        QVERIFY(sub.command({"SUBSCRIBE", store.channel()}).ok());
        QVERIFY(store.push(c, baseSet(), false).ok());
        auto msg = sub.readRaw();
        QVERIFY(msg.ok());
        const Reply m = Connection::toReply(msg->get());
        QCOMPARE(m.elements.size(), size_t(3));
        QCOMPARE(m.elements[0].str, QByteArray("message"));
        QCOMPARE(m.elements[1].str, store.channel());
        QCOMPARE(m.elements[2].str, QByteArray("1"));
    }

    void concurrentPushersExactlyOneWins()
    {
        const RuleStore store = storeFor("race");
        Connection c = test::connect();
        QVERIFY(store.push(c, baseSet(), false).ok());
        for (int round = 0; round < 25; ++round) {
            const qint64 base = storedVersion(c, store);
            RuleSet a = basedOn(baseSet(), base);
            a.rules[0].limit = 1000 + round;
            RuleSet b = basedOn(baseSet(), base);
            b.rules[0].limit = 2000 + round;
            std::optional<Result<RuleStore::PushResult>> ra, rb;
            Connection ca = test::connect();
            Connection cb = test::connect();
            std::latch go(2);
            std::thread ta([&] {
                go.arrive_and_wait();
                ra = store.push(ca, a, false);
            });
            std::thread tb([&] {
                go.arrive_and_wait();
                rb = store.push(cb, b, false);
            });
            ta.join();
            tb.join();
            QVERIFY(ra && rb);
            QCOMPARE(int(ra->ok()) + int(rb->ok()), 1);
            const auto &loser = ra->ok() ? *rb : *ra;
            QVERIFY2(loser.error().message.contains(QStringLiteral("conflict")),
                     qPrintable(loser.error().message));
            const auto &winner = ra->ok() ? *ra : *rb;
            QCOMPARE(winner->version, base + 1);
            QCOMPARE(storedVersion(c, store), base + 1);
            const RuleSet &won = ra->ok() ? a : b;
            QVERIFY(store.pull(c)->set.rules == sortedById(won).rules);
        }
    }

    void watcherPicksUpPushes()
    {
        auto [c, store, pushed] = baseStore("watch");
        QVERIFY(pushed);
        RuleWatcher w(test::redisEndpoint(), store, fastWatcher());
        QSignalSpy spy(&w, &RuleWatcher::rulesChanged);
        w.start();
        QVERIFY(w.isRunning());
        QVERIFY(waitForVersion(spy, 1, 5000));
        QVERIFY(spy.last().at(0).value<RuleSet>().rules == sortedById(baseSet()).rules);

        RuleSet next = basedOn(baseSet(), 1);
        next.rules.push_back(
            Rule::bucket(QStringLiteral("export-queue"), Algorithm::LeakyBucket, Rate{10, s}, 50));
        QVERIFY(store.push(c, next, false).ok());
        QVERIFY(waitForVersion(spy, 2, 5000));
        const RuleSet seen = spy.last().at(0).value<RuleSet>();
        QVERIFY(seen.rules == sortedById(next).rules);
        QCOMPARE(seen.basedOn, std::optional<qint64>(2));

        // An unchanged push publishes nothing and emits nothing.
        const auto count = spy.size();
        QVERIFY(store.push(c, basedOn(next, 2), false)->unchanged());
        QTest::qWait(200);
        QCOMPARE(spy.size(), count);

        QElapsedTimer t;
        t.start();
        w.stop();
        QVERIFY2(t.elapsed() < 1000, qPrintable(QString::number(t.elapsed())));
        QVERIFY(!w.isRunning());
        // Stopped: later pushes are not seen.
        RuleSet after = basedOn(next, 2);
        after.rules.pop_back();
        QVERIFY(store.push(c, after, false).ok());
        QTest::qWait(300);
        QCOMPARE(spy.size(), count);
    }

    void watcherStartsOnAnEmptyStore()
    {
        Connection c = test::connect();
        const RuleStore store = storeFor("watch-empty");
        RuleWatcher w(test::redisEndpoint(), store, fastWatcher());
        QSignalSpy spy(&w, &RuleWatcher::rulesChanged);
        w.start();
        QVERIFY(spy.wait(5000));
        QCOMPARE(lastVersion(spy), 0);
        QVERIFY(spy.last().at(0).value<RuleSet>().rules.empty());
        QVERIFY(store.push(c, baseSet(), false).ok());
        QVERIFY(waitForVersion(spy, 1, 5000));
    }

    void watcherSurvivesClientKill()
    {
        auto [c, store, pushed] = baseStore("watch-kill");
        QVERIFY(pushed);
        RuleWatcher w(test::redisEndpoint(), store, fastWatcher());
        QSignalSpy spy(&w, &RuleWatcher::rulesChanged);
        QSignalSpy errors(&w, &RuleWatcher::errorOccurred);
        w.start();
        QVERIFY(waitForVersion(spy, 1, 5000));

        // Kill the watcher's connections, found by their client name.
        auto list = c.command({"CLIENT", "LIST"});
        QVERIFY(list.ok());
        int killed = 0;
        for (const QByteArray &line : list->str.split('\n')) {
            if (!line.contains(" name=" + RuleWatcher::clientName() + ' ')) {
                continue;
            }
            const QByteArray id = line.mid(3, line.indexOf(' ') - 3); // "id=<n> ..."
            auto k = c.command({"CLIENT", "KILL", "ID", id});
            QVERIFY(k.ok());
            killed += int(k->integer);
        }
        QCOMPARE(killed, 2);        // the subscriber and the puller
        QVERIFY(errors.wait(5000)); // the loss is reported ...

        RuleSet next = basedOn(baseSet(), 1);
        next.rules[0].limit = 99;
        QVERIFY(store.push(c, next, false).ok());
        QVERIFY(waitForVersion(spy, 2, 10000)); // ... and the next push is still seen
        QVERIFY(spy.last().at(0).value<RuleSet>().rules == sortedById(next).rules);

        // And the one after that, through the new subscription.
        RuleSet third = basedOn(next, 2);
        third.rules[0].limit = 100;
        QVERIFY(store.push(c, third, false).ok());
        QVERIFY(waitForVersion(spy, 3, 5000));
    }

    void watcherNoticesASilentLink()
    {
        // An idle subscription is PINGed; an answered PING changes nothing, an unanswered one
        // (here: the server pauses every client) is a lost link, and the watcher recovers.
        auto [c, store, pushed] = baseStore("watch-ping");
        QVERIFY(pushed);
        RuleWatcher::Options o = fastWatcher();
        o.pingInterval = std::chrono::milliseconds(50);
        o.commandTimeout = std::chrono::milliseconds(300);
        RuleWatcher w(test::redisEndpoint(), store, o);
        QSignalSpy spy(&w, &RuleWatcher::rulesChanged);
        QSignalSpy errors(&w, &RuleWatcher::errorOccurred);
        w.start();
        QVERIFY(waitForVersion(spy, 1, 5000));
        QTest::qWait(400); // several PING/pong rounds
        QCOMPARE(errors.size(), 0);
        QCOMPARE(spy.size(), 1);

        QVERIFY(c.command({"CLIENT", "PAUSE", "1000", "ALL"}).ok());
        QVERIFY(errors.wait(3000));
        QTest::qWait(1000); // the pause ends
        RuleSet next = basedOn(baseSet(), 1);
        next.rules[0].limit = 7;
        auto r = store.push(c, next, false);
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QVERIFY(waitForVersion(spy, 2, 10000));
    }
};

QTEST_GUILESS_MAIN(TestRuleStore)
#include "tst_rulestore.moc"
