// The Monitor page's controller without its widgets (MonitorSession), against the fixture's
// Redis: the not-connected status, the choice of the top rule, the statistics and the limited
// subjects of a read, the session generation, and an unblock with its outcome in words; the
// auto range; "Limited right now" and the top subjects agreeing on a real load, on the rules'
// keys and on the load's own. No widget is created here.

#include "core/limiter/redislimiter.h"
#include "core/load/loadgenerator.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"
#include "ownredis.h"
#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/monitor/monitorsession.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

// Stats keys live under {sluice}:stats:<id>:, outside keyPrefix(): ids of this process.
QString uniqueId(const char *base)
{
    return QString::fromLatin1(base) + u'-' + QString::number(QCoreApplication::applicationPid());
}

Rule windowRule(const QString &id, qint64 limit)
{
    return Rule::window(id, Algorithm::FixedWindow, limit, 60 * duration::usPerSecond,
                        Scope{Scope::Kind::Ip, {}}, test::keyPrefix());
}

// A one-second constant load of 200 requests a second over `subjects` subjects on `set`.
load::LoadOptions shortLoad(const RuleSet &set, int subjects)
{
    load::LoadOptions o;
    o.endpoint = test::redisEndpoint();
    o.rules = set;
    o.pattern.kind = sim::TrafficPattern::Kind::Constant;
    o.pattern.rate = {200, duration::usPerSecond};
    o.durationUs = duration::usPerSecond;
    o.threads = 1;
    o.subjects = subjects;
    return o;
}

// Reads more often than the page does, so that the test waits less.
MonitorWorker::Options fast()
{
    MonitorWorker::Options o;
    o.tickMs = 200;
    o.scanEveryTicks = 1;
    return o;
}

} // namespace

class TestMonitorSession : public QObject
{
    Q_OBJECT

    test::PageHarness m_h; // the profile store

private Q_SLOTS:
    // Not connected: said so; the top rule follows the rules; an unblock fails in words.
    void notConnected()
    {
        ConnectionController controller(&m_h.store());
        MonitorSession session(&controller, fast());
        QVERIFY2(session.status().headline.startsWith(u"Not connected"_s),
                 qPrintable(session.status().headline));
        QCOMPARE(session.status().tone, Tone::Info);
        QCOMPARE(session.limitedHeading(), u"Limited right now"_s);
        QVERIFY(session.limitedNote().isEmpty());
        QVERIFY(session.topRule().isEmpty());

        RuleSet set;
        set.rules = {windowRule(u"a"_s, 3), windowRule(u"b"_s, 3)};
        QSignalSpy top(&session, &MonitorSession::topChanged);
        session.setRules(set);
        QCOMPARE(session.topRule(), MonitorSnapshot::busiestRule);
        QCOMPARE(top.size(), 1);
        QCOMPARE(session.busiestLabel(), u"Busiest rule"_s);
        session.setTopRule(u"b"_s);
        QCOMPARE(session.topRule(), u"b"_s);
        session.setRules(set); // still there: kept
        QCOMPARE(session.topRule(), u"b"_s);
        set.rules = {windowRule(u"a"_s, 3)};
        session.setRules(set); // gone: the busiest rule again
        QCOMPARE(session.topRule(), MonitorSnapshot::busiestRule);
        session.setRules(RuleSet{});
        QVERIFY(session.topRule().isEmpty());

        QSignalSpy done(&session, &MonitorSession::unblockFinished);
        QSignalSpy busy(&session, &MonitorSession::unblockingChanged);
        session.unblock("nope");
        QVERIFY(session.isUnblocking());
        QVERIFY(done.wait(5000));
        QVERIFY(!session.isUnblocking());
        QCOMPARE(busy.size(), 2);
        QCOMPARE(done.first().at(0).toByteArray(), QByteArray("nope"));
        QCOMPARE(done.first().at(1).toBool(), false);
        const QString error = done.first().at(2).toString();
        QCOMPARE(error, u"not connected"_s);
        const PageMessage o = MonitorSession::describeUnblock("a<b", false, error);
        QCOMPARE(o.tone, Tone::Bad);
        QVERIFY2(o.headline.contains(u"Could not unblock: not connected"_s) &&
                     o.headline.contains(u"a&lt;b"_s),
                 qPrintable(o.headline));
    }

    // Connected: the recorded statistics, the denied subject, the busiest rule; then an unblock
    // deletes its key; a new session of the connection starts over.
    // The Monitor's reads feed the console's one connection state: after an outage the
    // connection follows the Monitor's first good read at once, not the end of its own
    // countdown (no other page is there to report it).
    void outageReportedToTheConnection()
    {
        using S = ConnectionState::State;
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        ConnectionController controller(&m_h.store());
        MonitorSession session(&controller, fast());
        RuleSet set;
        set.rules = {windowRule(uniqueId("outage"), 10)};
        session.setRules(set);
        controller.connectTo(test::saveProfile(m_h.store(), redis.endpoint(), u"outage"_s));
        QTRY_VERIFY_WITH_TIMEOUT(
            controller.state().state == S::Connected && session.snapshot().readAtMs > 0, 10000);
        redis.stop();
        // Down long enough for the session's back-off to count 8 s.
        QTRY_VERIFY_WITH_TIMEOUT(
            controller.state().state == S::Lost && controller.state().retryInSeconds >= 8, 30000);
        const qint64 backAtMs = QDateTime::currentMSecsSinceEpoch();
        QVERIFY2(redis.start(), redis.output().constData());
        QTRY_VERIFY_WITH_TIMEOUT(session.snapshot().readAtMs >= backAtMs, 10000);
        QElapsedTimer sinceRead;
        sinceRead.start();
        QTRY_VERIFY_WITH_TIMEOUT(controller.state().state == S::Connected, 3000);
        QVERIFY2(sinceRead.elapsed() < 3000, qPrintable(QString::number(sinceRead.elapsed())));
    }

    void readsLimitsAndUnblocks()
    {
        const QString id = uniqueId("ms-limit");
        const Rule rule = windowRule(id, 3);
        const QByteArray blocked = "10.8.8.8";
        {
            RedisLimiter limiter(test::connect());
            const Policy policy = rule.policy();
            for (int i = 0; i < 4; ++i) {
                auto d = limiter.decide({&policy, rule.keyFor(blocked), 1, {}, 0});
                QVERIFY(d.ok());
                QCOMPARE(d->allowed, i < 3);
            }
        }
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        stats::StatsRecorder recorder;
        recorder.record(id, blocked, true, false, now - 3, 7);
        recorder.record(id, blocked, false, false, now - 2, 2);
        {
            stats::StatsFlusher flusher(test::redisEndpoint(), &recorder);
            flusher.start();
            flusher.stop();
        }

        ConnectionController controller(&m_h.store());
        MonitorSession session(&controller, fast());
        const quint64 before = session.generation();
        RuleSet set;
        set.rules = {rule};
        session.setRules(set);
        controller.connectTo(m_h.fixtureProfile());
        QTRY_VERIFY_WITH_TIMEOUT(session.generation() > before, 10000);
        QTRY_VERIFY_WITH_TIMEOUT(session.snapshot().readAtMs > 0 &&
                                     session.snapshot().limited.size() == 1 &&
                                     !session.busiestRuleId().isEmpty(),
                                 10000);
        QVERIFY2(session.status().headline.startsWith(u"\u25cf Live, read at"_s),
                 qPrintable(session.status().headline));
        QCOMPARE(session.status().tone, Tone::Good);
        QVERIFY(session.error().isEmpty());

        const MonitorSnapshot &s = session.snapshot();
        QCOMPARE(s.series.size(), 1);
        QCOMPARE(s.series[0].ruleId, id);
        stats::Counts total;
        for (const stats::Counts &c : s.series[0].seconds) {
            total.allowed += c.allowed;
            total.denied += c.denied;
        }
        QCOMPARE(total.allowed, qint64(7));
        QCOMPARE(total.denied, qint64(2));
        QCOMPARE(session.busiestRuleId(), id);
        QCOMPARE(session.busiestLabel(), u"Busiest: %1"_s.arg(id));
        QCOMPARE(session.topSubjects().size(), 1);
        QCOMPARE(session.topSubjects()[0].subject, blocked);

        const LimitedSubject row = s.limited[0];
        QCOMPARE(row.key, rule.keyFor(blocked));
        QCOMPARE(session.limitedHeading(), u"Limited right now (1)"_s);
        QVERIFY2(session.limitedNote().startsWith(u"Subjects whose next request"_s),
                 qPrintable(session.limitedNote()));
        const QString question = MonitorSession::unblockQuestion(row);
        QVERIFY(question.contains(QString::fromLatin1(blocked)) && question.contains(id));

        // Unblock: the key is gone, and the next scan says so.
        QSignalSpy done(&session, &MonitorSession::unblockFinished);
        session.unblock(row.key);
        QVERIFY(done.wait(5000));
        QCOMPARE(done.first().at(0).toByteArray(), row.key);
        QCOMPARE(done.first().at(1).toBool(), true);
        QVERIFY(done.first().at(2).toString().isEmpty());
        Connection admin = test::connect();
        QCOMPARE(test::pttl(admin, row.key), qint64(-2));
        QTRY_VERIFY_WITH_TIMEOUT(session.snapshot().limited.isEmpty(), 5000);
        QVERIFY2(session.limitedNote().startsWith(u"No subject is denied right now"_s),
                 qPrintable(session.limitedNote()));
        const auto gone = MonitorSession::describeUnblock(row.key, false, QString());
        QVERIFY(gone.headline.contains(u"Nothing to unblock"_s));
        QCOMPARE(MonitorSession::describeUnblock(row.key, true, QString()).tone, Tone::Good);

        // Another session of the connection: what was read is dropped, then read again.
        QSignalSpy reset(&session, &MonitorSession::reset);
        const quint64 g = session.generation();
        controller.disconnectNow();
        QTRY_VERIFY_WITH_TIMEOUT(session.generation() > g, 5000);
        QVERIFY(!reset.isEmpty());
        QCOMPARE(session.snapshot().readAtMs, qint64(0));
        QVERIFY(session.topSubjects().isEmpty());
        QVERIFY(session.status().headline.startsWith(u"Not connected"_s));
    }

    // The auto range: the shortest step that holds the latest burst of decisions (else a
    // minute), so that a short load fills the chart, the second one too.
    void autoRange()
    {
        const qint64 now = 1'700'000'000;
        const auto series = [now](QList<qint64> agoWithData) {
            stats::RuleSeries r;
            r.ruleId = u"r"_s;
            r.firstSecond = now - 899;
            r.seconds.resize(900);
            for (qint64 ago : agoWithData) {
                r.seconds[899 - ago].allowed = 5;
            }
            return QList<stats::RuleSeries>{r};
        };
        QCOMPARE(MonitorSession::autoSeconds({}, now), 60);
        QCOMPARE(MonitorSession::autoSeconds(series({}), now), 60);
        QCOMPARE(MonitorSession::burstStart(series({}), now), -1);
        // A 10 s load that ended a second ago: 15 s, two thirds of the width.
        QCOMPARE(MonitorSession::autoSeconds(series({10, 5, 1}), now), 15);
        QCOMPARE(MonitorSession::autoSeconds(series({40, 2}), now), 60);
        QCOMPARE(MonitorSession::autoSeconds(series({170}), now), 180);
        // A quiet stretch of a minute or more ends a burst: the older one is left out...
        QCOMPARE(MonitorSession::autoSeconds(series({600, 20}), now), 30);
        // ... and the only one counts, however old.
        QCOMPARE(MonitorSession::autoSeconds(series({600}), now), 900);
        // A second 10 s load six minutes after the first fills the chart like the first.
        QList<qint64> twoLoads;
        for (qint64 s = 1; s <= 10; ++s) {
            twoLoads << s << s + 370;
        }
        QCOMPARE(MonitorSession::autoSeconds(series(twoLoads), now), 15);
        QCOMPARE(MonitorSession::burstStart(series(twoLoads), now), now - 10);
        QCOMPARE(MonitorSession::rangeText(60), u"1 min"_s);
        QCOMPARE(MonitorSession::rangeText(3600), u"1 h"_s);
        QCOMPARE(MonitorSession::rangeText(15), u"15 s"_s);
    }

    // The same real load twice: on the rules' keys, every subject the top subjects show as
    // denied is in "Limited right now"; on the load's own keys (the Load page's default), the
    // list is empty and the note says why and how to watch them, instead of "No subject is
    // denied right now" beside subjects denied 100 %.
    void limitedAgreesWithTopSubjects()
    {
        const QString id = uniqueId("ms-agree");
        Rule rule = windowRule(id, 3); // 3 per minute per IP: a subject with a denial is full
        Connection admin = test::connect();
        (void)test::deleteByPrefix(admin, stats::defaultNamespace + "stats:" + id.toUtf8() + ":");
        RuleSet set;
        set.rules = {rule};
        load::LoadOptions o = shortLoad(set, 8);
        o.keyPrefixOverride = load::runScopedPrefix();
        QVERIFY(test::recordedLoad(o).finished);

        ConnectionController controller(&m_h.store());
        MonitorSession session(&controller, fast());
        session.setRules(set);
        session.setPageVisible(true);
        controller.connectTo(m_h.fixtureProfile());
        QTRY_VERIFY_WITH_TIMEOUT(
            session.topSubjects().size() == 8 && !session.unwatchedRules().isEmpty(), 10000);
        QCOMPARE(session.unwatchedRules(), QStringList{id});
        QVERIFY(session.snapshot().limited.isEmpty());
        const QString note = session.limitedNote();
        QVERIFY2(!note.contains(u"No subject is denied right now"_s), qPrintable(note));
        QVERIFY2(note.contains(u"sluice:load:"_s) &&
                     note.contains(u"Decide on the rules' real keys"_s) && note.contains(id),
                 qPrintable(note));
        QVERIFY2(session.topNote().contains(u"other keys"_s), qPrintable(session.topNote()));

        // On the real keys: what the top subjects show denied is limited right now.
        o.keyPrefixOverride.clear();
        QVERIFY(test::recordedLoad(o).finished);
        QTRY_VERIFY_WITH_TIMEOUT(
            session.unwatchedRules().isEmpty() && session.snapshot().limited.size() == 8, 10000);
        QSet<QByteArray> limited;
        for (const LimitedSubject &l : session.snapshot().limited) {
            limited.insert(l.subject);
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            session.topSubjects().size() == 8 && session.topSubjects()[0].requests > 3, 5000);
        for (const stats::TopSubject &t : session.topSubjects()) {
            QVERIFY(t.denied > 0);
            QVERIFY2(limited.contains(t.subject), t.subject.constData());
        }
        QVERIFY2(session.limitedNote().startsWith(u"Subjects whose next request"_s),
                 qPrintable(session.limitedNote()));
        QVERIFY(!session.topNote().contains(u"other keys"_s));
        (void)test::deleteByPrefix(admin, rule.keyPrefix + id.toUtf8() + ":");
        (void)test::deleteByPrefix(admin, stats::defaultNamespace + "stats:" + id.toUtf8() + ":");
    }

    // A load on the rules' real keys of a rule whose keys live a second: once they expired, the
    // decisions of the last seconds have no key, rightly; the note never says they were made on
    // other keys (the Load page's own), which would send the user to tick a box already ticked.
    void noteTrueAfterARunOnTheRealKeys()
    {
        const QString id = uniqueId("ms-real");
        const Rule rule = Rule::window(id, Algorithm::FixedWindow, 3, duration::usPerSecond,
                                       Scope{Scope::Kind::Ip, {}}, test::keyPrefix());
        Connection admin = test::connect();
        (void)test::deleteByPrefix(admin, stats::defaultNamespace + "stats:" + id.toUtf8() + ":");
        RuleSet set;
        set.rules = {rule};
        ConnectionController controller(&m_h.store());
        MonitorSession session(&controller, fast());
        session.setRules(set);
        session.setPageVisible(true);
        controller.connectTo(m_h.fixtureProfile());
        QTRY_VERIFY_WITH_TIMEOUT(session.snapshot().limitedRead, 5000);
        const load::LoadProgress run = test::recordedLoad(shortLoad(set, 4));
        QVERIFY(run.finished);
        session.noteLoad(run); // what the Load page tells the Monitor at its end
        // The decisions are recorded, the keys gone: the moment the old note spoke up.
        const auto recent = [&] {
            for (const stats::RuleSeries &r : session.snapshot().series) {
                for (qsizetype i = std::max<qsizetype>(0, r.seconds.size() - 5);
                     i < r.seconds.size(); ++i) {
                    if (r.seconds[i].total() > 0) {
                        return true;
                    }
                }
            }
            return false;
        };
        QTRY_VERIFY_WITH_TIMEOUT(session.snapshot().limitedRead && recent() &&
                                     session.snapshot().keysPerRule.value(id) == 0,
                                 5000);
        QVERIFY2(session.unwatchedRules().isEmpty(), qPrintable(session.limitedNote()));
        QVERIFY2(!session.limitedNote().contains(u"sluice:load:"_s),
                 qPrintable(session.limitedNote()));
        (void)test::deleteByPrefix(admin, stats::defaultNamespace + "stats:" + id.toUtf8() + ":");
    }

    // Decisions recorded a minute ago, no key: nothing to say from the statistics alone (keys
    // expire); once the Load page says its run used keys of its own, the note says it; a run
    // on the real keys takes it back.
    void noteLoadOwnKeys()
    {
        const QString id = uniqueId("ms-own");
        const Rule rule = windowRule(id, 3);
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        stats::StatsRecorder recorder;
        recorder.record(id, "10.0.0.9", false, false, now - 60, 40);
        {
            stats::StatsFlusher flusher(test::redisEndpoint(), &recorder);
            flusher.start();
            flusher.stop();
        }
        ConnectionController controller(&m_h.store());
        MonitorSession session(&controller, fast());
        RuleSet set;
        set.rules = {rule};
        session.setRules(set);
        session.setPageVisible(true);
        controller.connectTo(m_h.fixtureProfile());
        QTRY_VERIFY_WITH_TIMEOUT(
            session.topSubjects().size() == 1 && session.snapshot().limitedRead, 10000);
        QVERIFY(session.unwatchedRules().isEmpty());
        QVERIFY2(session.limitedNote().startsWith(u"No subject is denied right now"_s),
                 qPrintable(session.limitedNote()));
        load::LoadProgress run;
        run.keyPrefix = "sluice:load:0123456789abcdef:";
        run.rules = {load::RuleProgress{id, 0, 40, 0, 0, 0}};
        session.noteLoad(run);
        QCOMPARE(session.unwatchedRules(), QStringList{id});
        QVERIFY2(session.limitedNote().contains(u"Decide on the rules' real keys"_s),
                 qPrintable(session.limitedNote()));
        run.keyPrefix.clear();
        session.noteLoad(run);
        QVERIFY(session.unwatchedRules().isEmpty());
        Connection admin = test::connect();
        (void)test::deleteByPrefix(admin, stats::defaultNamespace + "stats:" + id.toUtf8() + ":");
    }

    // Keys of a Spring GET/INCR/EXPIRE counter that a rule adopts (FORMATS.md "adopt"), written
    // by the aspect's own Lua: watched like the rule's keys, decoded against the adopted
    // limit, the full one with the time left; the ones that never expire (the classic bug)
    // listed and flagged, full or not; a counter below its limit with a TTL not listed.
    void adoptedKeysWatched()
    {
        const QByteArray prefix = test::keyPrefix() + "adopt:rate_limit:";
        Rule rule = Rule::window(uniqueId("ms-adopt"), Algorithm::SlidingLog, 100,
                                 60 * duration::usPerSecond, Scope{Scope::Kind::Ip, {}}, prefix);
        rule.adopt =
            Adopt{prefix + "*-hello", u"string_counter"_s, 60 * duration::usPerSecond, 100, {}};
        const QByteArray full = prefix + "127.0.0.1-com.example.HelloController-hello";
        const QByteArray half = prefix + "10.0.0.2-com.example.HelloController-hello";
        const QByteArray stuck = prefix + "10.0.0.3-com.example.HelloController-hello";
        const QByteArray stuckFull = prefix + "10.0.0.4-com.example.HelloController-hello";
        const QByteArray other = prefix + "10.0.0.5-com.example.HelloController-bye";
        Connection c = test::connect();
        const QByteArray spring =
            "local c = redis.call('get', KEYS[1]) "
            "if c and tonumber(c) > tonumber(ARGV[1]) then return tonumber(c) end "
            "c = redis.call('incr', KEYS[1]) "
            "if tonumber(c) == 1 then redis.call('expire', KEYS[1], ARGV[2]) end "
            "return tonumber(c)";
        QList<QList<QByteArray>> plant;
        for (int i = 0; i < 105; ++i) {
            plant.append({"EVAL", spring, "1", full, "100", "60"});
        }
        for (int i = 0; i < 57; ++i) {
            plant.append({"EVAL", spring, "1", half, "100", "60"});
        }
        // An INCR after expiry, then more: a counter without TTL, below and at the limit.
        plant.append({"INCRBY", stuck, "57"});
        plant.append({"INCRBY", stuckFull, "100"});
        plant.append({"INCRBY", other, "500"}); // not the adopted glob: an orphan, not listed
        plant.append({"EXPIRE", other, "600"});
        auto planted = c.pipeline(plant);
        QVERIFY(planted);
        QCOMPARE(test::pttl(c, stuck), qint64(-1));

        ConnectionController controller(&m_h.store());
        MonitorSession session(&controller, fast());
        RuleSet set;
        set.rules = {rule};
        session.setRules(set);
        controller.connectTo(m_h.fixtureProfile());
        QTRY_VERIFY_WITH_TIMEOUT(session.snapshot().limited.size() == 3, 10000);
        const MonitorSnapshot &s = session.snapshot();
        QCOMPARE(s.adoptedKeys, qint64(4));
        QCOMPARE(s.adoptedNeverExpire, qint64(2));
        QHash<QByteArray, LimitedSubject> rows;
        for (const LimitedSubject &r : s.limited) {
            rows.insert(r.key, r);
            QCOMPARE(r.ruleId, rule.id);
            QCOMPARE(r.adoptedAs, u"string_counter"_s);
        }
        QVERIFY(!rows.contains(half) && !rows.contains(other));
        const LimitedSubject a = rows.value(full);
        QVERIFY(a.limited && !a.neverExpires());
        QCOMPARE(a.subject, QByteArray("127.0.0.1-com.example.HelloController"));
        QVERIFY2(a.state == u"101 / 100 in this window (full)"_s, qPrintable(a.state));
        QVERIFY(a.retryInMs > 50'000 && a.retryInMs <= 60'000);
        const LimitedSubject d = rows.value(stuckFull);
        QVERIFY(d.limited && d.neverExpires());
        QCOMPARE(d.retryInMs, qint64(-1));
        QVERIFY2(d.state == u"100 / 100 in this window (full)"_s, qPrintable(d.state));
        const LimitedSubject b = rows.value(stuck);
        QVERIFY(!b.limited && b.neverExpires());
        QCOMPARE(b.state, u"57 / 100 in this window"_s);
        // Only the full ones count as limited; the note says what else is watched.
        QCOMPARE(session.limitedHeading(), u"Limited right now (2)"_s);
        // (%n is "4 key(s)" without the English plural forms the console installs.)
        QVERIFY2(session.limitedNote().contains(u" of other limiters, adopted by the rules, "
                                                "are watched too; 2 never expire"_s) &&
                     session.limitedNote().contains(u"4 key"_s),
                 qPrintable(session.limitedNote()));
        test::deleteByPrefix(c, prefix);
    }
};

QTEST_GUILESS_MAIN(TestMonitorSession)
#include "tst_monitorsession.moc"
