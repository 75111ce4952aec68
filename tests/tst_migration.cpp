// State migration on a rule change (ALGORITHMS.md "When a rule changes"), beyond the oracle
// tests: the rule file's on_change field (read, written, refused with its position), what the
// scripts store (the version), the states they did not write under a version (an older Sluice,
// another algorithm's Redis type, a type no script writes) and the bad on_change ARGV.
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/keys/layouts.h"
#include "core/limiter/localmodel.h"
#include "core/limiter/redislimiter.h"
#include "core/rules/codec.h"
#include "core/rules/rulediff.h"

#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 s = duration::usPerSecond;

Policy policy(Algorithm a, qint64 capacity, OnChange mode = OnChange::KeepUsed)
{
    Policy p = algorithm::isWindow(a) ? Policy::window(a, capacity, duration::usPerHour)
                                      : Policy::bucket(a, {1, duration::usPerHour}, capacity);
    p.id = u"mig"_s;
    p.onChange = mode;
    return p;
}

QByteArray ruleFile(const QByteArray &onChange)
{
    return "{\n  \"version\": 1,\n  \"rules\": [\n    {\"id\": \"a\", \"scope\": \"ip\", "
           "\"algorithm\": \"fixed_window\", \"limit\": 5, \"window\": \"1m\", \"on_change\": " +
           onChange + "}\n  ]\n}\n";
}

} // namespace

class TestMigration : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void onChangeIsReadAndWritten_data()
    {
        test::columns<QByteArray, int>("name", "mode");
        for (OnChange m : onchange::all) {
            QTest::newRow(onchange::name(m).constData()) << onchange::name(m) << int(m);
        }
    }
    void onChangeIsReadAndWritten()
    {
        QFETCH(QByteArray, name);
        QFETCH(int, mode);
        const rules::Loaded l = rules::parseJson(ruleFile('"' + name + '"'), u"r.json"_s);
        QVERIFY2(l.ok(), qPrintable(l.ok() ? QString() : l.errors.first().toString()));
        QCOMPARE(int(l.set.rules.at(0).onChange), mode);
        QCOMPARE(int(l.set.rules.at(0).policy().onChange), mode);
        // Written back only when it is not the default; read back the same either way.
        const QByteArray json = rules::toJson(l.set);
        QCOMPARE(json.contains("on_change"), OnChange(mode) != OnChange::KeepUsed);
        QCOMPARE(rules::parseJson(json, u"w.json"_s).set, l.set);
        const QByteArray yaml = rules::toYaml(l.set);
        QCOMPARE(rules::parseYaml(yaml, u"w.yaml"_s).set, l.set);
        // A change of on_change alone is a change of the rule, field by field.
        RuleSet other = l.set;
        other.rules[0].onChange =
            OnChange(mode) == OnChange::Reset ? OnChange::Additive : OnChange::Reset;
        const rules::RuleDiff d = rules::diffRules(l.set, other);
        QCOMPARE(d.changed.size(), qsizetype(1));
        QCOMPARE(d.changed.at(0).values.size(), qsizetype(1));
        QCOMPARE(d.changed.at(0).values.at(0).name, u"on_change"_s);
    }

    void badOnChangeNamesFileLineFieldAndChoices()
    {
        const rules::Loaded l = rules::parseJson(ruleFile("\"keep\""), u"bad.json"_s);
        QCOMPARE(l.errors.size(), qsizetype(1));
        const QString e = l.errors.at(0).toString();
        QVERIFY2(e.startsWith(u"bad.json:4:"_s), qPrintable(e));
        QVERIFY2(e.contains(u"rules[0].on_change: 'keep' is not a choice"_s), qPrintable(e));
        for (const char *choice : {"keep_used", "reset", "proportional", "additive"}) {
            QVERIFY2(e.contains(QLatin1String(choice)), qPrintable(e));
        }
        const rules::Loaded n = rules::parseJson(ruleFile("3"), u"bad.json"_s);
        QCOMPARE(n.errors.size(), qsizetype(1));
        QVERIFY2(n.errors.at(0).toString().contains(u"rules[0].on_change"_s),
                 qPrintable(n.errors.at(0).toString()));
    }

    void versionNamesAlgorithmAndParameters()
    {
        QCOMPARE(Policy::window(Algorithm::FixedWindow, 100, 60 * s).version(),
                 QByteArray("fw:100:60000000"));
        QCOMPARE(Policy::bucket(Algorithm::TokenBucket, {5, 10 * s}, 20).version(),
                 QByteArray("tb:5:10000000:20"));
        QCOMPARE(Policy::bucket(Algorithm::Gcra, {5, 10 * s}, 20).version(),
                 QByteArray("gc:5:10000000:20"));
        Policy p = Policy::window(Algorithm::SlidingLog, 3, s);
        p.onChange = OnChange::Proportional;
        QCOMPARE(p.versionArgs(), (QList<QByteArray>{"", "sl:3:1000000", "proportional"}));
        QCOMPARE(p.versionArgs(250), (QList<QByteArray>{"250", "sl:3:1000000", "proportional"}));
        p.versioned = false;
        QVERIFY(p.versionArgs().isEmpty());
    }

    // What each script stores beside its state, where the Keys page reads it.
    void scriptsStampTheVersion_data() { test::addAlgorithmRows(); }
    void scriptsStampTheVersion()
    {
        const Algorithm a = test::fetchAlgorithm();
        const Policy p = policy(a, 10);
        RedisLimiter limiter(test::connect());
        Connection c = test::connect();
        const QByteArray key =
            test::keyPrefix() + "mig:{stamp-" + algorithm::name(a).toUtf8() + '}';
        QVERIFY(limiter.decide(Request{&p, key, 2, std::nullopt, 0})->allowed);
        QByteArray stored;
        if (a == Algorithm::SlidingLog) {
            auto r = c.command({"ZRANGE", key, "0", "0", "WITHSCORES"});
            QVERIFY(r.ok() && r->elements.size() == 2);
            stored = r->elements[0].str;
            QCOMPARE(r->elements[1].str, QByteArray("-inf"));
            QCOMPARE(c.command({"ZCARD", key})->integer, qint64(3)); // 2 entries + the version
            QCOMPARE(stored, "v:" + p.version());
        } else if (a == Algorithm::Gcra) {
            stored = c.command({"GET", key})->str;
            QVERIFY2(stored.endsWith('@' + p.version()), stored.constData());
        } else {
            stored = c.command({"HGET", key, "v"})->str;
            QCOMPARE(stored, p.version());
        }
        QVERIFY(test::pttl(c, key) > 0);
        // The keys audit still names the layout with the version beside the state.
        keys::ForeignRead read;
        read.key = key;
        read.type = c.command({"TYPE", key})->str;
        read.pttlMs = test::pttl(c, key);
        auto t = c.command({"TIME"});
        read.nowUs = t->elements[0].str.toLongLong() * 1'000'000 + t->elements[1].str.toLongLong();
        if (read.type == "hash") {
            auto all = c.command({"HGETALL", key});
            for (size_t i = 0; i + 1 < all->elements.size(); i += 2) {
                read.fields << std::pair{all->elements[i].str, all->elements[i + 1].str};
            }
            read.hlen = qint64(read.fields.size());
        } else if (read.type == "string") {
            read.head = stored;
            read.strlen = stored.size();
        } else {
            read.zcard = 3;
        }
        const keys::Layout *l = keys::matchLayout(read, algorithm::name(a));
        QVERIFY(l);
        QCOMPARE(QLatin1String(l->id), QLatin1String("sluice_" + algorithm::name(a).toLatin1()));
    }

    // A state an older Sluice wrote (no version) counts as written under the current rule: a
    // change does not migrate it, and the next admission stamps it.
    void unversionedStateCountsAsCurrent_data() { test::addAlgorithmRows(); }
    void unversionedStateCountsAsCurrent()
    {
        const Algorithm a = test::fetchAlgorithm();
        Policy old = policy(a, 10);
        old.versioned = false;
        const Policy now = policy(a, 8, OnChange::Reset);
        RedisLimiter limiter(test::connect());
        Connection c = test::connect();
        const QByteArray key = test::keyPrefix() + "old:" + algorithm::name(a).toUtf8();
        for (int i = 0; i < 4; ++i) {
            QVERIFY(limiter.decide(Request{&old, key, 1, std::nullopt, 0})->allowed);
        }
        // Under the new rule the state is as it was (a reset would have left all of the new
        // capacity): 4 used still count, and a token bucket keeps its 6 tokens left.
        const int expected = a == Algorithm::TokenBucket ? 6 : int(now.capacity()) - 4;
        QVERIFY(expected != int(now.capacity()));
        int admitted = 0;
        for (int i = 0; i < 10; ++i) {
            auto d = limiter.decide(Request{&now, key, 1, std::nullopt, 0});
            QVERIFY(d.ok());
            admitted += d->allowed ? 1 : 0;
        }
        QCOMPARE(admitted, expected);
        QVERIFY(test::pttl(c, key) > 0);
    }

    // The rule changed algorithm, and the key holds another Sluice algorithm's Redis type: a
    // fresh state, replaced by the next admission, never an error; a type no script writes
    // (a list) stays the error it is.
    void otherSluiceTypeIsAFreshState_data()
    {
        test::columns<int, int>("from", "to");
        const std::pair<Algorithm, Algorithm> pairs[] = {
            {Algorithm::FixedWindow, Algorithm::SlidingLog},
            {Algorithm::SlidingLog, Algorithm::TokenBucket},
            {Algorithm::Gcra, Algorithm::SlidingCounter},
            {Algorithm::TokenBucket, Algorithm::Gcra},
            {Algorithm::SlidingLog, Algorithm::Gcra},
            {Algorithm::Gcra, Algorithm::LeakyBucket},
            {Algorithm::FixedWindow, Algorithm::SlidingCounter},
            {Algorithm::TokenBucket, Algorithm::LeakyBucket}};
        for (const auto &[f, t] : pairs) {
            QTest::addRow("%s to %s", qPrintable(algorithm::name(f)),
                          qPrintable(algorithm::name(t)))
                << int(f) << int(t);
        }
    }
    void otherSluiceTypeIsAFreshState()
    {
        QFETCH(int, from);
        QFETCH(int, to);
        const Policy before = policy(Algorithm(from), 10);
        const Policy after = policy(Algorithm(to), 5); // keep_used: only a fresh state admits all
        RedisLimiter limiter(test::connect());
        Connection c = test::connect();
        const QByteArray key =
            test::keyPrefix() + "retype:" + QByteArray::number(from) + ':' + QByteArray::number(to);
        for (int i = 0; i < 8; ++i) {
            QVERIFY(limiter.decide(Request{&before, key, 1, std::nullopt, 0})->allowed);
        }
        int admitted = 0;
        for (int i = 0; i < 8; ++i) {
            auto d = limiter.decide(Request{&after, key, 1, std::nullopt, 0});
            QVERIFY2(d.ok(), qPrintable(d.ok() ? QString() : d.error().message));
            admitted += d->allowed ? 1 : 0;
        }
        QCOMPARE(admitted, int(after.capacity()));
        QVERIFY(test::pttl(c, key) > 0);
        // The twin decides alike.
        ManualClock clock;
        LocalModel twin(clock);
        QCOMPARE(test::twinAdmitsAfterChange(twin, before, 8, after, 8, key, 100),
                 int(after.capacity()));
    }

    void listStaysAnError_data() { test::addAlgorithmRows(); }
    void listStaysAnError()
    {
        const Policy p = policy(test::fetchAlgorithm(), 10);
        RedisLimiter limiter(test::connect());
        Connection c = test::connect();
        const QByteArray key = test::keyPrefix() + "list";
        QVERIFY(c.command({"DEL", key}).ok());
        QVERIFY(c.command({"RPUSH", key, "x"}).ok());
        auto d = limiter.decide(Request{&p, key, 1, std::nullopt, 0});
        QVERIFY(!d.ok());
        QVERIFY2(d.error().message.contains(u"WRONGTYPE"_s), qPrintable(d.error().message));
        QCOMPARE(c.command({"TYPE", key})->str, QByteArray("list"));
        QVERIFY(c.command({"DEL", key}).ok());
    }

    void badOnChangeArgvNamesTheSlot_data() { test::addAlgorithmRows(); }
    void badOnChangeArgvNamesTheSlot()
    {
        const Algorithm a = test::fetchAlgorithm();
        const Policy p = policy(a, 10);
        Connection c = test::connect();
        auto r =
            test::runScript(c, p, test::keyPrefix() + "argv", {"1", "", "", p.version(), "keep"});
        QVERIFY(!r.ok());
        const QString slot = algorithm::isWindow(a) ? u"ARGV[7]"_s : u"ARGV[8]"_s;
        QVERIFY2(r.error().message.contains(slot + u" on_change must be keep_used, reset, "
                                                   "proportional or additive, got 'keep'"_s),
                 qPrintable(r.error().message));
    }
};

QTEST_GUILESS_MAIN(TestMigration)
#include "tst_migration.moc"
