// The drafts behind the Simulation and Load pages' forms, without widgets: a pattern as typed
// (PatternDraft, checkAlone: the messages are the scenario reader's, by field) and a whole
// scenario (ScenarioDraft: its file, the reader's messages sorted to the fields, the lists).

#include "ui/common/patterndraft.h"
#include "ui/sim/scenariodraft.h"

#include "core/common/duration.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

PatternDraft pattern(const QString &kind, const QHash<QString, QString> &values)
{
    PatternDraft d;
    d.kind = kind;
    d.values = values;
    return d;
}

} // namespace

class TestScenarioDraft : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void patternKeysByKind()
    {
        QCOMPARE(PatternDraft::keys(u"constant"_s),
                 QStringList({u"rate"_s, u"from"_s, u"to"_s, u"subject"_s}));
        QVERIFY(PatternDraft::keys(u"burst"_s).contains(u"count"_s));
        QVERIFY(!PatternDraft::keys(u"burst"_s).contains(u"from"_s));
        QVERIFY(PatternDraft::keys(u"ramp"_s).contains(u"to_rate"_s));
        QVERIFY(PatternDraft::keys(u"nonsense"_s).isEmpty());
    }

    void patternJsonKeepsOnlyItsKindsFilledFields()
    {
        // Values of another kind (left from a switch of kind) and empty fields are not written;
        // counts are written as numbers.
        const PatternDraft d = pattern(u"burst"_s, {{u"count"_s, u" 50 "_s},
                                                    {u"at"_s, u"1s"_s},
                                                    {u"rate"_s, u"9/s"_s},
                                                    {u"spread"_s, {}}});
        const QJsonObject o = d.toJson();
        QCOMPARE(o.value(u"pattern"_s).toString(), u"burst"_s);
        QCOMPARE(o.value(u"count"_s).toInteger(), 50);
        QCOMPARE(o.value(u"at"_s).toString(), u"1s"_s);
        QVERIFY(!o.contains(u"rate"_s));
        QVERIFY(!o.contains(u"spread"_s));
        QCOMPARE(d.summary(), u"burst of  50  at 1s"_s);
    }

    void patternFromAndBack()
    {
        sim::TrafficPattern p;
        p.kind = sim::TrafficPattern::Kind::Constant;
        p.rate = duration::parseRate(u"20/s"_s).value();
        p.fromUs = 2 * duration::usPerSecond;
        const PatternDraft d = PatternDraft::from(p);
        QCOMPARE(d.kind, u"constant"_s);
        QCOMPARE(d.values.value(u"from"_s), u"2s"_s);
        const CheckedPattern c = checkAlone(d, u"10s"_s);
        QVERIFY2(c.ok(), qPrintable(c.firstProblem()));
        QCOMPARE(c.durationUs, 10 * duration::usPerSecond);
        QCOMPARE(c.pattern->fromUs, p.fromUs);
        QCOMPARE(c.pattern->expectedCount(c.durationUs), 160.0);
    }

    // The messages are the reader's, each at its field; duration's at "duration".
    void checkAloneSaysWhereItIsWrong()
    {
        CheckedPattern c = checkAlone(pattern(u"constant"_s, {{u"rate"_s, u"fast"_s}}), u"2s"_s);
        QVERIFY(!c.ok());
        QVERIFY(c.errors.contains(u"rate"_s));
        QCOMPARE(c.errors.size(), 1);

        c = checkAlone(pattern(u"constant"_s, {{u"rate"_s, u"5/s"_s}, {u"to"_s, u"5s"_s}}),
                       u"2s"_s);
        QVERIFY(c.errors.value(u"to"_s).contains(u"2s"_s));

        c = checkAlone(pattern(u"burst"_s, {{u"count"_s, u"-4"_s}, {u"at"_s, u"3s"_s}}), u"2s"_s);
        QVERIFY(c.errors.contains(u"count"_s));
        QVERIFY(c.errors.contains(u"at"_s));

        c = checkAlone(pattern(u"constant"_s, {{u"rate"_s, u"5/s"_s}}), u"soon"_s);
        QVERIFY(c.errors.contains(u"duration"_s));
        QCOMPARE(c.firstProblem(), c.errors.value(u"duration"_s));

        // Past the cap: said at the rate, as in a file.
        c = checkAlone(pattern(u"constant"_s, {{u"rate"_s, u"1000000000/s"_s}}), u"30d"_s);
        QVERIFY(c.errors.value(u"rate"_s).contains(u"at most"_s));
    }

    void scenarioFromPresetChecksClean()
    {
        ScenarioDraft d;
        QString error;
        QVERIFY(d.load(sim::scenario::preset(u"boundary-burst"_s), QString(), &error));
        QVERIFY(!d.patterns.empty());
        QVERIFY(!d.rules.empty());
        const auto loaded = d.check();
        QVERIFY(loaded.ok());
        QCOMPARE(d.problemCount, 0);
        QVERIFY(d.topErrors.isEmpty());
        QCOMPARE(d.patternErrors.size(), d.patterns.size());
    }

    void scenarioErrorsSortedToTheirFields()
    {
        ScenarioDraft d;
        d.top.insert(u"duration"_s, u"10s"_s);
        const int p = d.addPattern();
        QCOMPARE(p, 0);
        const int r = d.addRule();
        QCOMPARE(r, 0);
        QVERIFY(d.check().ok());

        d.patterns[0].values.insert(u"rate"_s, u"-5/s"_s);
        d.rules[0].values.insert(u"limit"_s, u"0"_s);
        d.top.insert(u"bin"_s, u"1us"_s);
        QVERIFY(!d.check().ok());
        QVERIFY(d.patternErrors[0].contains(u"rate"_s));
        QVERIFY(d.ruleErrors[0].contains(u"limit"_s));
        QVERIFY(d.topErrors.contains(u"bin"_s));
        QVERIFY(d.problemCount >= 3);

        // Not saved with problems.
        QTemporaryDir dir;
        QString error;
        QVERIFY(!d.save(dir.filePath(u"bad.json"_s), &error));
        QVERIFY(error.contains(u"problem"_s));

        // Removing what is wrong: the traffic as a whole is then missing.
        QCOMPARE(d.removePattern(0), -1);
        d.check();
        QVERIFY(!d.trafficProblems.isEmpty());
    }

    void scenarioSavesAndReadsBack()
    {
        ScenarioDraft d;
        QVERIFY(d.load(sim::scenario::preset(u"steady-overload"_s), QString(), nullptr));
        QVERIFY(d.check().ok());
        QTemporaryDir dir;
        QString error;
        QVERIFY(!d.save(dir.filePath(u"x.yaml"_s), &error));
        QVERIFY(error.contains(u".json"_s));
        const QString path = dir.filePath(u"x.json"_s);
        QVERIFY2(d.save(path, &error), qPrintable(error));
        const auto back = sim::scenario::loadFile(path);
        QVERIFY(back.ok());
        ScenarioDraft again;
        QVERIFY(again.load(back, dir.path(), nullptr));
        QCOMPARE(again.documentJson(), d.documentJson());
    }

    void rulesFromARuleSet()
    {
        Rule a;
        a.id = u"tb"_s;
        a.algorithm = Algorithm::TokenBucket;
        a.scope = Scope{Scope::Kind::Ip, {}};
        a.rate = duration::parseRate(u"10/s"_s).value();
        a.burst = 20;
        a.description = u"not carried"_s;
        RuleSet set;
        set.rules = {a};
        ScenarioDraft d;
        d.addRule();
        d.addRule();
        d.useRules(set);
        QCOMPARE(d.rules.size(), size_t(1));
        QCOMPARE(d.rules[0].keys(), QStringList({u"id"_s, u"scope"_s, u"rate"_s, u"burst"_s}));
        QCOMPARE(d.rules[0].values.value(u"burst"_s), u"20"_s);
        QVERIFY(!d.rules[0].values.contains(u"description"_s));
        QVERIFY(d.rules[0].summary().startsWith(u"tb · token bucket"_s));
    }

    // A rule's count_rejected is carried into the scenario the page runs (the simulation
    // counts denials as the rule does), while the algorithm takes it.
    void rulesKeepCountRejected()
    {
        Rule log;
        log.id = u"log"_s;
        log.algorithm = Algorithm::SlidingLog;
        log.scope = Scope{Scope::Kind::Ip, {}};
        log.limit = 5;
        log.windowUs = duration::usPerMinute;
        log.countRejected = true;
        RuleSet set;
        set.rules = {log};
        ScenarioDraft d;
        QVERIFY(d.load(sim::scenario::preset(u"steady-overload"_s), QString(), nullptr));
        d.useRules(set);
        const sim::scenario::Loaded l = d.check();
        QVERIFY2(l.ok(), qPrintable(l.ok() ? QString() : l.errors.first().toString()));
        QVERIFY(l.scenario.rules.at(0).countRejected);
        // Switched to an algorithm that refuses it, the draft leaves it out instead of failing.
        d.rules[0].kind = u"gcra"_s;
        d.rules[0].values.insert(u"rate"_s, u"5/m"_s);
        d.rules[0].values.insert(u"burst"_s, u"2"_s);
        const sim::scenario::Loaded g = d.check();
        QVERIFY2(g.ok(), qPrintable(g.ok() ? QString() : g.errors.first().toString()));
        QVERIFY(!g.scenario.rules.at(0).countRejected);
    }
};

QTEST_GUILESS_MAIN(TestScenarioDraft)
#include "tst_scenariodraft.moc"
