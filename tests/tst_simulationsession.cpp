// The Simulation page's controller without its widgets (SimulationSession), against the
// fixture's Redis: a preset checked and edited (a bad field's message by field, a rule's
// algorithm changed), the twins and the real scripts deciding alike, a run refused while one
// goes, a long run on Redis cancelled with no key left, the Redis engine without a connection,
// the Rules page's rules taken over, a scenario saved and read back. No widget is created.
#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/sim/simulationsession.h"

#include <QCoreApplication>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

// Keys the simulator's Redis runs write (and must remove).
qint64 simKeys()
{
    Connection c = test::connect();
    return test::keysWithPrefix(c, "sluice:sim:").size();
}

// Runs and waits for the end; false when the run did not start or end within 60 s.
bool runAndWait(SimulationSession &session, SimulationSession::Engine engine)
{
    QSignalSpy done(&session, &SimulationSession::runFinished);
    return session.run(engine) && done.wait(60'000);
}

} // namespace

class TestSimulationSession : public QObject
{
    Q_OBJECT

    test::PageHarness m_h; // a controller connected to the fixture's Redis

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_h.connect()); }

    // A preset is checked; a bad duration gets the reader's message on its field and stops a
    // run; fixed again, it runs.
    void editsAreChecked()
    {
        SimulationSession session(m_h.controller());
        QVERIFY(session.loadPreset(u"boundary-burst"_s));
        QVERIFY(session.check().ok());
        QVERIFY(!session.draft().rules.empty());

        const QString duration = session.draft().top.value(u"duration"_s);
        session.setTopField(u"duration"_s, u"ten seconds"_s);
        QVERIFY(!session.check().ok());
        QVERIFY2(!session.draft().topErrors.value(u"duration"_s).isEmpty(),
                 qPrintable(session.draft().topErrors.keys().join(u", "_s)));
        QVERIFY(!session.run(SimulationSession::Engine::Local));
        QVERIFY((session.message().tone == Tone::Bad));
        QVERIFY(!session.isRunning());

        session.setTopField(u"duration"_s, duration);
        QVERIFY(session.check().ok());
        QVERIFY(session.setRuleKind(0, u"token_bucket"_s));
        QCOMPARE(session.draft().rules[0].kind, u"token_bucket"_s);
        QVERIFY(!session.setRuleKind(99, u"gcra"_s)); // no such rule
        QVERIFY(!session.setPattern(-1, PatternDraft()));
        QVERIFY(!session.loadPreset(u"no-such-preset"_s));
    }

    // The twins and the real scripts give the same outcome; the Redis run leaves no key, and a
    // second run is refused while one goes.
    void localAndRedisAgree()
    {
        SimulationSession session(m_h.controller());
        QVERIFY(session.loadPreset(u"boundary-burst"_s));
        QSignalSpy started(&session, &SimulationSession::started);
        QVERIFY(runAndWait(session, SimulationSession::Engine::Local));
        QCOMPARE(started.size(), 1);
        const sim::SimResult local = session.lastResult();
        QVERIFY(!local.rules.empty());
        QVERIFY(!local.cancelled);
        QVERIFY(!session.message().headline.isEmpty());

        QSignalSpy done(&session, &SimulationSession::runFinished);
        QVERIFY(session.run(SimulationSession::Engine::Redis));
        QVERIFY(session.isRunning());
        QVERIFY(!session.run(SimulationSession::Engine::Local)); // one at a time
        QVERIFY(done.wait(60'000));
        QCOMPARE(session.lastResult().backend, u"redis"_s);
        QVERIFY(session.lastResult().sameOutcome(local));
        QCOMPARE(simKeys(), 0);

        QTemporaryDir dir;
        QString error;
        QVERIFY2(session.exportTo(dir.filePath(u"run.csv"_s), &error), qPrintable(error));
        QVERIFY(QFile(dir.filePath(u"run.csv"_s)).size() > 0);
    }

    // A run of two million requests on Redis, cancelled once keys are written: it ends
    // cancelled, with a part decided, and removes its keys.
    void cancelOnRedis()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"big.json"_s);
        QVERIFY(test::writeFile(
            path, R"({"name": "big", "duration": "100s", "bin": "100ms", "subjects": 1000,
            "traffic": [{"pattern": "constant", "rate": "20000/s"}],
            "rules": [{"id": "fw", "scope": "ip", "algorithm": "fixed_window", "limit": 10,
                       "window": "10s"}]})"));
        SimulationSession session(m_h.controller());
        QString error;
        QVERIFY2(session.loadFile(path, &error), qPrintable(error));
        QVERIFY(session.message().headline.contains(u"big.json"_s));
        QSignalSpy progressed(&session, &SimulationSession::progressed);
        QSignalSpy done(&session, &SimulationSession::runFinished);
        QVERIFY(session.run(SimulationSession::Engine::Redis));
        QTRY_VERIFY_WITH_TIMEOUT(simKeys() > 100, 60'000);
        session.cancel();
        QVERIFY(done.wait(60'000));
        QVERIFY(session.lastResult().cancelled);
        QVERIFY(session.lastResult().processed < session.lastResult().total);
        QVERIFY(!session.isRunning());
        QCOMPARE(simKeys(), 0);
    }

    // The Redis engine without a connection: refused, with the engine's problem in words.
    void redisWithoutConnection()
    {
        ConnectionController none(&m_h.store());
        SimulationSession session(&none);
        QVERIFY(session.loadPreset(u"boundary-burst"_s));
        QSignalSpy started(&session, &SimulationSession::started);
        QVERIFY(!session.run(SimulationSession::Engine::Redis));
        QVERIFY(started.isEmpty());
        QVERIFY(session.engineProblem().contains(u"Not connected"_s));
        QVERIFY((session.message().tone == Tone::Bad));
        session.clearEngineProblem();
        QVERIFY(session.engineProblem().isEmpty());
        QVERIFY(runAndWait(session, SimulationSession::Engine::Local));
        QVERIFY(!session.lastResult().rules.empty());
    }

    // The Rules page's rules replace the scenario's; the draft saved reads back the same.
    void pageRulesAndSave()
    {
        SimulationSession session(m_h.controller());
        QVERIFY(session.loadPreset(u"boundary-burst"_s));
        RuleSet set;
        set.rules = {Rule::window(u"page-rule"_s, Algorithm::SlidingLog, 5, 1'000'000,
                                  Scope{Scope::Kind::Ip, {}}, test::keyPrefix())};
        session.setPageRules(set);
        session.usePageRules();
        QCOMPARE(session.draft().rules.size(), size_t(1));
        QCOMPARE(session.draft().rules[0].values.value(u"id"_s), u"page-rule"_s);
        QVERIFY(session.message().headline.contains(u"1"_s));
        QVERIFY(session.check().ok());

        QTemporaryDir dir;
        const QString path = dir.filePath(u"saved.json"_s);
        QString error;
        QVERIFY2(session.save(path, &error), qPrintable(error));
        SimulationSession again(m_h.controller());
        QVERIFY2(again.loadFile(path, &error), qPrintable(error));
        QCOMPARE(again.draft().rules.size(), size_t(1));
        QCOMPARE(again.draft().rules[0].kind, u"sliding_log"_s);
        QVERIFY(again.check().ok());
    }
};

QTEST_MAIN(TestSimulationSession)
#include "tst_simulationsession.moc"
