// The Load page's controller without its widgets (LoadSession), against the fixture's Redis:
// the rules ticked across a new set, messages by field from the scenario reader, the plan, a
// run to its end with its rates and statistics, a stop, not connected. No widget is created.

#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/load/loadsession.h"

#include "core/stats/statsreader.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSignalSpy>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

Rule windowRule(const QString &id, qint64 limit, qint64 windowUs)
{
    return Rule::window(id, Algorithm::FixedWindow, limit, windowUs, Scope{Scope::Kind::Ip, {}},
                        test::keyPrefix());
}

PatternDraft constant(const QString &rate, const QString &duration)
{
    PatternDraft d;
    d.kind = u"constant"_s;
    d.values = {{u"rate"_s, rate}, {u"duration"_s, duration}};
    return d;
}

} // namespace

class TestLoadSession : public QObject
{
    Q_OBJECT

    test::PageHarness m_h; // a controller connected to the fixture's Redis

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_h.connect()); }

    void notConnected()
    {
        ConnectionController none(&m_h.store());
        LoadSession session(&none);
        RuleSet set;
        set.rules = {windowRule(u"nc"_s, 10, duration::usPerSecond)};
        session.setRules(set);
        QVERIFY(!session.canStart());
        QVERIFY(session.plan().isEmpty());
        QVERIFY(!session.start());
        QCOMPARE(session.message().tone, Tone::Bad);
        QVERIFY2(session.message().headline.contains(u"Not connected"_s),
                 qPrintable(session.message().headline));
    }

    // The first set ticks its enabled rules; a later one keeps what was unticked.
    void ticksAcrossSets()
    {
        LoadSession session(m_h.controller());
        QVERIFY(session.rulesProblem().contains(u"No rules"_s));
        RuleSet set;
        set.rules = {windowRule(u"a"_s, 10, duration::usPerSecond),
                     windowRule(u"b"_s, 10, duration::usPerSecond),
                     windowRule(u"off"_s, 10, duration::usPerSecond)};
        set.rules[2].enabled = false;
        QSignalSpy rulesChanged(&session, &LoadSession::rulesChanged);
        session.setRules(set);
        QCOMPARE(rulesChanged.size(), 1);
        QCOMPARE(session.tickedIds(), (QStringList{u"a"_s, u"b"_s}));
        QVERIFY(session.rulesProblem().isEmpty());
        session.setTicked(u"b"_s, false);
        set.rules.push_back(windowRule(u"c"_s, 10, duration::usPerSecond));
        session.setRules(set);
        QCOMPARE(session.tickedIds(), (QStringList{u"a"_s, u"c"_s}));
        session.setTicked(u"a"_s, false);
        session.setTicked(u"c"_s, false);
        QVERIFY(session.rulesProblem().contains(u"Tick at least one"_s));
        QVERIFY(!session.canStart());
    }

    // The scenario reader's messages, by field; the plan once all is well.
    void checksByField()
    {
        LoadSession session(m_h.controller());
        RuleSet set;
        set.rules = {windowRule(u"v"_s, 10, duration::usPerSecond)};
        session.setRules(set);
        QVERIFY(session.canStart()); // the defaults: constant 200/s for 10 s

        QSignalSpy changed(&session, &LoadSession::changed);
        session.setDraft(constant(u"fast"_s, u"10s"_s));
        QCOMPARE(changed.size(), 1);
        QVERIFY(!session.checked().ok());
        QVERIFY(!session.checked().errors.value(u"rate"_s).isEmpty());
        QVERIFY(!session.canStart());
        QVERIFY(session.plan().isEmpty());
        QVERIFY(!session.options());

        PatternDraft late = constant(u"200/s"_s, u"2s"_s);
        late.values.insert(u"to"_s, u"5s"_s);
        session.setDraft(late);
        QVERIFY(session.checked().errors.value(u"to"_s).contains(u"2s"_s));

        session.setDraft(constant(u"200/s"_s, u"2s"_s));
        session.setSubjects(1);
        QVERIFY(session.checked().ok());
        QCOMPARE(session.plan(), u"400 requests over 2s from one subject, each decided by one "
                                 "rule."_s);
        // Keys of the run's own unless told otherwise.
        QVERIFY(session.options()->keyPrefixOverride.startsWith("sluice:load:"));
        session.setRealKeys(true);
        QVERIFY(session.options()->keyPrefixOverride.isEmpty());
    }

    // Constant 200/s for 2 s on one subject, limit 100 a minute: 400 sent, exactly 100 allowed,
    // rates polled on the way, the outcome in words, the decisions in the statistics.
    void runsToTheEnd()
    {
        const QString id = u"load-session-"_s + QString::number(QCoreApplication::applicationPid());
        LoadSession session(m_h.controller());
        RuleSet set;
        set.rules = {windowRule(id, 100, 60 * duration::usPerSecond)};
        session.setRules(set);
        session.setDraft(constant(u"200/s"_s, u"2s"_s));
        session.setThreads(2);
        session.setSubjects(1);
        QSignalSpy started(&session, &LoadSession::started);
        QSignalSpy finished(&session, &LoadSession::finished);
        QVERIFY(session.start());
        QCOMPARE(started.size(), 1);
        QVERIFY(session.isRunning());
        QVERIFY(!session.canStart());
        QVERIFY(!session.start()); // once at a time
        QVERIFY(finished.wait(15000) || !finished.isEmpty());
        QVERIFY(!session.isRunning());

        const load::LoadProgress &p = session.progress();
        QVERIFY(p.finished && !p.cancelled);
        QCOMPARE(p.sent, 400);
        QCOMPARE(p.allowed, 100);
        QCOMPARE(p.denied, 300);
        QCOMPARE(finished.at(0).at(0).value<load::LoadProgress>().sent, 400);
        QVERIFY(!session.rates().isEmpty());
        QVERIFY(session.rateTop() >= 10);
        for (const LoadSession::RatePoint &r : session.rates()) {
            QVERIFY(r.allowed >= 0 && r.denied >= 0);
            QVERIFY(r.elapsedS > 0);
        }
        QCOMPARE(session.message().tone, Tone::Good);
        QVERIFY2(session.message().headline.contains(u"Finished"_s),
                 qPrintable(session.message().headline));
        QVERIFY(session.message().headline.contains(QLocale().toString(400)));
        QVERIFY(session.canStart()); // again

        Connection c = test::connect();
        QTRY_COMPARE_WITH_TIMEOUT(test::recordedCounts(c, id), (stats::Counts{100, 300, 0}), 5000);
    }

    void stops()
    {
        LoadSession session(m_h.controller());
        RuleSet set;
        set.rules = {windowRule(u"load-session-stop"_s, 1000, duration::usPerSecond)};
        session.setRules(set);
        session.setDraft(constant(u"100/s"_s, u"60s"_s));
        QSignalSpy finished(&session, &LoadSession::finished);
        QVERIFY(session.start());
        QTRY_VERIFY_WITH_TIMEOUT(session.progress().sent > 0, 5000);
        session.stop();
        QVERIFY(finished.wait(5000) || !finished.isEmpty());
        QVERIFY(session.progress().cancelled);
        QCOMPARE(session.message().tone, Tone::Warning);
        QVERIFY(session.message().headline.contains(u"Stopped"_s));
    }
};

QTEST_MAIN(TestLoadSession)
#include "tst_loadsession.moc"
