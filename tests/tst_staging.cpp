// A staged rollout (FORMATS.md "Staged rollout"): a candidate rule set stored beside the
// enforced one, run in shadow by a real `sluice-cli serve`, compared from the statistics, then
// promoted or discarded; each step a version, with push's concurrency check. On a redis-server
// of the test's own (the rule store's default namespace would be shared on the fixture's).

#include "ownredis.h"
#include "runcli.h"
#include "servefixture.h"
#include "testdata.h"
#include "testkit.h"

#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "core/rules/overridestore.h"
#include "core/rules/rulestore.h"
#include "core/stats/stagecompare.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <thread>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

// Enforced: api 5 per 10 s per IP, login. Candidate: api 2 per 10 s, search added, login
// removed.
const QByteArray enforcedJson = R"({"version": 1, "rules": [
    {"id": "api", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "10s"},
    {"id": "login", "scope": "ip", "algorithm": "token_bucket", "rate": "1/s", "burst": 2}]})";
const QByteArray candidateJson = R"({"version": 1, "based_on": 1, "rules": [
    {"id": "api", "scope": "ip", "algorithm": "fixed_window", "limit": 2, "window": "10s"},
    {"id": "search", "scope": "ip", "algorithm": "sliding_log", "limit": 1, "window": "10s"}]})";

RuleSet parse(const QByteArray &json)
{
    rules::Loaded l = rules::parseJson(json, u"inline.json"_s);
    Q_ASSERT(l.ok());
    return l.set;
}

// What a stage or promote step named, when it is not the candidate's change against the enforced
// set (api changed, search added, login removed); empty when it is.
template <typename Step> QString notTheCandidatesChange(const Step &s)
{
    if (s.changed == QStringList{u"api"_s} && s.added == QStringList{u"search"_s} &&
        s.removed == QStringList{u"login"_s}) {
        return {};
    }
    return u"changed [%1], added [%2], removed [%3]"_s.arg(
        s.changed.join(u", "_s), s.added.join(u", "_s), s.removed.join(u", "_s));
}

// A failed result's message, for QVERIFY2 (which evaluates its message either way).
template <typename T> QString why(const Result<T> &r)
{
    return r ? QString() : r.error().message;
}

QStringList ids(const std::vector<Rule> &rules)
{
    QStringList out;
    for (const Rule &r : rules) {
        out << r.id;
    }
    return out;
}

} // namespace

class TestStaging : public QObject
{
    Q_OBJECT
    test::OwnRedis m_redis;
    QTemporaryDir m_dir;
    rules::RuleStore m_store;

    // A store at version 1 with the enforced rules, nothing staged.
    void reset(Connection &c)
    {
        QVERIFY(c.command({"FLUSHALL"}));
        auto pushed = m_store.push(c, parse(enforcedJson), false);
        QVERIFY2(pushed, qPrintable(why(pushed)));
        QCOMPARE(pushed->version, qint64(1));
    }

    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        return test::writeFile(path, bytes) ? path : QString();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY2(m_redis.start(), m_redis.output().constData()); }

    // Staging changes nothing enforced: the same rules, one version more, the candidates beside
    // them under their own ids, in shadow; the history says what the stage would change.
    void stageKeepsTheEnforcedRules()
    {
        Connection c = m_redis.connect();
        reset(c);
        rules::RuleStore::PushOptions o;
        o.message = u"tighten api"_s;
        o.author = u"alice"_s;
        auto staged = m_store.stage(c, parse(candidateJson), o);
        QVERIFY2(staged, qPrintable(why(staged)));
        QCOMPARE(staged->version, qint64(2));
        QVERIFY2(notTheCandidatesChange(*staged).isEmpty(),
                 qPrintable(notTheCandidatesChange(*staged)));

        auto snap = m_store.pull(c);
        QVERIFY(snap);
        QCOMPARE(snap->version, qint64(2));
        QCOMPARE(ids(snap->set.rules), (QStringList{u"api"_s, u"login"_s}));
        QCOMPARE(snap->set.rules[0].limit, qint64(5)); // still enforced as before
        QCOMPARE(ids(snap->set.staged), (QStringList{u"api@staged"_s, u"search@staged"_s}));
        for (const Rule &r : snap->set.staged) {
            QVERIFY(r.shadow);
        }
        QCOMPARE(snap->set.staged[0].limit, qint64(2));
        QVERIFY(snap->stage);
        QCOMPARE(snap->stage->version, qint64(2));
        QCOMPARE(snap->stage->basedOn, qint64(1));
        QCOMPARE(snap->stage->author, u"alice"_s);
        QCOMPARE(snap->stage->message, u"tighten api"_s);
        // The whole candidate is kept, in its order.
        QCOMPARE(ids(snap->stage->set.rules), (QStringList{u"api"_s, u"search"_s}));

        auto h = m_store.history(c);
        QVERIFY(h);
        QCOMPARE(h->entries.size(), 2);
        const rules::RuleStore::Entry &e = h->entries.front();
        QCOMPARE(e.version, qint64(2));
        QCOMPARE(e.stageOp, u"stage"_s);
        QVERIFY(e.added.isEmpty() && e.changed.isEmpty() && e.removed.isEmpty());
        QCOMPARE(e.stagedChanged, QStringList{u"api"_s});
        QCOMPARE(e.stagedAdded, QStringList{u"search"_s});
        QCOMPARE(e.stagedRemoved, QStringList{u"login"_s});
        // Walking back over a stage is walking over no change.
        QCOMPARE(h->restorable, (QList<qint64>{2, 1}));
        auto v1 = m_store.pullVersion(c, 1);
        QVERIFY(v1);
        QCOMPARE(ids(v1->set.rules), (QStringList{u"api"_s, u"login"_s}));
    }

    // While a change is staged every other write is refused, naming it, and writes nothing;
    // a forced push ends the stage and says so in its entry.
    void aStageBlocksOtherWrites()
    {
        Connection c = m_redis.connect();
        reset(c);
        RuleSet seven = parse(enforcedJson);
        seven.basedOn = 1;
        seven.rules[0].limit = 7;
        QVERIFY(m_store.push(c, seven, false)); // version 2: api 7
        RuleSet candidate = parse(candidateJson);
        candidate.basedOn = 2;
        QVERIFY(m_store.stage(c, candidate, {})); // version 3
        RuleSet other = seven;
        other.basedOn = 3;
        other.rules[0].limit = 50;

        auto pushed = m_store.push(c, other, false);
        const QString failure =
            test::failedWith(pushed, Error::Kind::Conflict, u"a change is staged (version 3)"_s);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        auto rolled = m_store.rollback(c, 1, {}); // api back to 5: a change, refused
        QVERIFY(!rolled);
        QCOMPARE(rolled.error().kind, Error::Kind::Conflict);
        auto again = m_store.stage(c, other, {});
        const QString staging = test::failedWith(again, Error::Kind::Conflict, u"already staged"_s);
        QVERIFY2(staging.isEmpty(), qPrintable(staging));
        auto snap = m_store.pull(c);
        QVERIFY(snap);
        QCOMPARE(snap->version, qint64(3));
        QCOMPARE(snap->set.rules[0].limit, qint64(7));
        QVERIFY(snap->stage);

        auto forced = m_store.push(c, other, true);
        QVERIFY2(forced, qPrintable(why(forced)));
        QCOMPARE(forced->version, qint64(4));
        QCOMPARE(forced->discardedStage, std::optional<qint64>(3));
        snap = m_store.pull(c);
        QVERIFY(snap);
        QVERIFY(!snap->stage);
        QVERIFY(snap->set.staged.empty());
        QCOMPARE(snap->set.rules[0].limit, qint64(50));
        auto h = m_store.history(c);
        QVERIFY(h);
        QCOMPARE(h->entries.front().stageOp, u"discard"_s);
        QCOMPARE(h->entries.front().stageOf, std::optional<qint64>(3));
        QCOMPARE(h->entries.front().changed, QStringList{u"api"_s});
    }

    // Promote: the candidate becomes the rules, as a version whose undo record brings the old
    // ones back; discard: the rules stay, the stage is gone. Neither finds anything the second
    // time.
    void promoteAndDiscard()
    {
        Connection c = m_redis.connect();
        reset(c);
        QVERIFY(m_store.stage(c, parse(candidateJson), {}));
        auto promoted = m_store.promote(c, {});
        QVERIFY2(promoted, qPrintable(why(promoted)));
        QCOMPARE(promoted->version, qint64(3));
        QVERIFY2(notTheCandidatesChange(*promoted).isEmpty(),
                 qPrintable(notTheCandidatesChange(*promoted)));
        auto snap = m_store.pull(c);
        QVERIFY(snap);
        QVERIFY(!snap->stage);
        QCOMPARE(snap->set.rules, parse(candidateJson).rules);
        auto h = m_store.history(c);
        QVERIFY(h);
        QCOMPARE(h->entries.front().stageOp, u"promote"_s);
        QCOMPARE(h->entries.front().stageOf, std::optional<qint64>(2));
        QCOMPARE(h->entries.front().message, u"promote the change staged at version 2"_s);
        auto before = m_store.pullVersion(c, 2);
        QVERIFY2(before, qPrintable(why(before)));
        QCOMPARE(before->set.rules, parse(enforcedJson).rules);

        auto twice = m_store.promote(c, {});
        const QString failure =
            test::failedWith(twice, Error::Kind::Invalid, u"nothing is staged"_s);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));

        // A candidate with the stored rules is nothing to stage.
        RuleSet same = parse(candidateJson);
        same.basedOn = 3;
        auto nothing = m_store.stage(c, same, {});
        QVERIFY(!nothing);
        QVERIFY2(nothing.error().message.contains(u"nothing to stage"_s),
                 qPrintable(nothing.error().message));

        RuleSet next = parse(enforcedJson);
        next.basedOn = 3;
        QVERIFY(m_store.stage(c, next, {}));
        auto discarded = m_store.discard(c, {});
        QVERIFY2(discarded, qPrintable(why(discarded)));
        QCOMPARE(discarded->version, qint64(5));
        QCOMPARE(discarded->discardedStage, std::optional<qint64>(4));
        snap = m_store.pull(c);
        QVERIFY(snap);
        QVERIFY(!snap->stage);
        QCOMPARE(snap->set.rules, parse(candidateJson).rules);
        QVERIFY(!m_store.discard(c, {}));
    }

    // A candidate based on an older version is a conflict, as a push is.
    void aStaleCandidateConflicts()
    {
        Connection c = m_redis.connect();
        reset(c);
        RuleSet moved = parse(enforcedJson);
        moved.basedOn = 1;
        moved.rules[1].burst = 9;
        QVERIFY(m_store.push(c, moved, false));                   // version 2
        auto staged = m_store.stage(c, parse(candidateJson), {}); // based on 1
        const QString failure =
            test::failedWith(staged, Error::Kind::Conflict, u"based on version 1"_s);
        QVERIFY2(failure.isEmpty(), qPrintable(failure));
        QVERIFY2(staged.error().message.contains(u"Staging it would"_s),
                 qPrintable(staged.error().message));
        QVERIFY(!m_store.pull(c)->stage);
    }

    // Two consoles staging at once: one wins, the other is refused, nothing is lost.
    void concurrentStagersOneWins()
    {
        Connection c = m_redis.connect();
        reset(c);
        std::atomic<int> won{0}, refused{0};
        std::vector<std::thread> threads;
        for (int i = 0; i < 4; ++i) {
            threads.emplace_back([&, i] {
                auto own = Connection::open(m_redis.endpoint());
                if (!own) {
                    return;
                }
                RuleSet s = parse(candidateJson);
                s.rules[0].limit = 2 + i;
                auto r = m_store.stage(*own, s, {});
                (r ? won : refused)++;
            });
        }
        for (auto &t : threads) {
            t.join();
        }
        QCOMPARE(won.load(), 1);
        QCOMPARE(refused.load(), 3);
        auto snap = m_store.pull(c);
        QVERIFY(snap && snap->stage);
        QCOMPARE(snap->version, qint64(2));
    }

    // A real serve follows the stage: every request of a changed rule is decided again by the
    // candidate in shadow (its own keys and statistics), the answers stay the enforced rule's; a
    // rule only the candidate has answers as a shadow rule; a stored override of the rule
    // applies to its candidate; `rules staged` shows the two side by side; promoted, the
    // candidate's limit is enforced.
    void serveRunsTheCandidateInShadow()
    {
        Connection c = m_redis.connect();
        reset(c);
        QVERIFY(m_store.stage(c, parse(candidateJson), {}));
        // 10.0.0.9 is always allowed by a stored override of api: its candidate must say so too.
        {
            Override allow;
            allow.kind = Override::Kind::Subject;
            allow.pattern = u"10.0.0.9"_s;
            allow.action = Override::Action::Allow;
            allow.ttlUs = 3'600'000'000;
            allow.note = u"health checker"_s;
            auto added =
                rules::OverrideStore().add(c, *m_store.pull(c)->set.find(u"api"_s), allow, {});
            QVERIFY2(added, qPrintable(why(added)));
        }
        // 10.0.0.7 has a limit of its own, 8 per 10 s, above both rules' limits: a request of
        // cost 4 is within it, so the candidate decides it too (under its override key) rather
        // than taking it for one it would refuse.
        {
            Override more;
            more.kind = Override::Kind::Subject;
            more.pattern = u"10.0.0.7"_s;
            more.action = Override::Action::Limit;
            more.limit = 8;
            more.windowUs = 10'000'000;
            more.ttlUs = 3'600'000'000;
            auto added =
                rules::OverrideStore().add(c, *m_store.pull(c)->set.find(u"api"_s), more, {});
            QVERIFY2(added, qPrintable(why(added)));
        }

        test::ServeProcess serve;
        QVERIFY2(serve.start({u"--url"_s, m_redis.url(), u"--from-redis"_s, u"--listen"_s,
                              u"127.0.0.1:0"_s}),
                 (serve.out() + serve.err()).constData());
        QList<int> statuses;
        for (int i = 0; i < 6; ++i) {
            statuses << test::httpGet(serve.port(), "/v1/check?rule=api&subject=1.2.3.4").status;
        }
        QCOMPARE(statuses, (QList<int>{200, 200, 200, 200, 200, 429})); // the enforced 5
        for (int i = 0; i < 3; ++i) {
            QCOMPARE(test::httpGet(serve.port(), "/v1/check?rule=api&subject=10.0.0.9").status,
                     200);
        }
        QCOMPARE(test::httpGet(serve.port(), "/v1/check?rule=api&subject=10.0.0.7&cost=4").status,
                 200);
        QTRY_COMPARE_WITH_TIMEOUT(
            c.command({"KEYS", "rate_limit:api@staged*{10.0.0.7}"})->elements.size(), size_t(1),
            5000);
        const test::HttpReply first =
            test::httpGet(serve.port(), "/v1/check?rule=search&subject=1.2.3.4");
        const test::HttpReply second =
            test::httpGet(serve.port(), "/v1/check?rule=search&subject=1.2.3.4");
        QCOMPARE(first.status, 200);
        QCOMPARE(second.status, 200); // a shadow rule never blocks
        QCOMPARE(second.header("Sluice-Decision"), QByteArray("shadow-denied"));
        QVERIFY2(second.body.contains("\"rule\":\"search@staged\""), second.body.constData());
        // The candidate's own key, with a TTL; the enforced key unchanged by it.
        QVERIFY(c.command({"PTTL", "rate_limit:api@staged:{1.2.3.4}"})->integer > 0);
        QCOMPARE(c.command({"HGET", "rate_limit:api:{1.2.3.4}", "c"})->str, QByteArray("5"));

        // The statistics, flushed once a second: enforced 1 denial of 6, the candidate 4 would-be
        // denials of the same 6 (limit 2), and none of the overridden subjects' 4.
        std::optional<stats::StageReport> report;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 10'000) {
            auto stage = m_store.staged(c);
            QVERIFY(stage && *stage);
            auto r = stats::compareStage(c, **stage, 60);
            QVERIFY2(r, qPrintable(why(r)));
            if (r->rules.size() == 3 && r->rules[0].candidate.total() == 10 &&
                r->rules[1].candidate.total() == 2) {
                report = *r;
                break;
            }
            QTest::qWait(200);
        }
        QVERIFY2(report, "the candidate's statistics did not arrive within 10 s");
        const stats::StagedRuleReport &api = report->rules[0];
        QCOMPARE(api.id, u"api"_s);
        QCOMPARE(api.change, u"changed"_s);
        QCOMPARE(api.enforced.allowed, qint64(9));
        QCOMPARE(api.enforced.denied, qint64(1));
        QCOMPARE(api.candidate.allowed, qint64(6));
        QCOMPARE(api.candidate.shadowDenied, qint64(4));
        QCOMPARE(api.candidate.denied, qint64(0));
        QCOMPARE(api.candidateDenied.size(), 1);
        QCOMPARE(api.candidateDenied[0].subject, QByteArray("1.2.3.4"));
        QCOMPARE(report->rules[1].id, u"search"_s);
        QCOMPARE(report->rules[1].candidate.shadowDenied, qint64(1));
        QCOMPARE(report->rules[2].change, u"removed"_s);

        test::CliRun r =
            test::runCli({u"rules"_s, u"staged"_s, u"--url"_s, m_redis.url(), u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(u"staged"_s).toObject().value(u"version"_s).toInteger(), 2);
        const QJsonObject apiJson = o.value(u"rules"_s).toArray().at(0).toObject();
        QCOMPARE(apiJson.value(u"candidate"_s).toObject().value(u"shadow_denied"_s).toInteger(), 4);
        QCOMPARE(apiJson.value(u"enforced"_s).toObject().value(u"denied"_s).toInteger(), 1);

        // Promoted through the CLI: serve enforces the candidate's 2 on a fresh subject.
        r = test::runCli({u"rules"_s, u"promote"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("promoted the staged change as version 3"), r.out.constData());
        t.restart();
        QList<int> after;
        while (t.elapsed() < 10'000) {
            after.clear();
            for (int i = 0; i < 3; ++i) {
                after << test::httpGet(serve.port(), "/v1/check?rule=api&subject=5.6.7." +
                                                         QByteArray::number(t.elapsed()))
                             .status;
            }
            if (after.front() == 200 &&
                test::httpGet(serve.port(), "/v1/check?rule=login&subject=x").status == 404) {
                break;
            }
            QTest::qWait(100);
        }
        const QByteArray subject = "9.9.9.9";
        after.clear();
        for (int i = 0; i < 3; ++i) {
            after << test::httpGet(serve.port(), "/v1/check?rule=api&subject=" + subject).status;
        }
        QCOMPARE(after, (QList<int>{200, 200, 429}));
    }

    // The commands' own words: exit 2 for what cannot go together, a clear line for nothing
    // staged.
    void cliMessages()
    {
        Connection c = m_redis.connect();
        reset(c);
        const QString file = write(u"candidate.json"_s, candidateJson);
        test::CliRun r = test::runCli(
            {u"rules"_s, u"push"_s, file, u"--url"_s, m_redis.url(), u"--stage"_s, u"--preview"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--stage and --preview do not go together"), r.err.constData());
        r = test::runCli({u"rules"_s, u"staged"_s, u"--url"_s, m_redis.url()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("nothing is staged"), r.out.constData());
        r = test::runCli({u"rules"_s, u"discard"_s, u"--url"_s, m_redis.url()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("nothing is staged") && r.err.contains("--stage"),
                 r.err.constData());
        r = test::runCli({u"rules"_s, u"promote"_s, u"now"_s, u"--url"_s, m_redis.url()});
        QCOMPARE(r.exitCode, 2);
        r = test::runCli({u"rules"_s, u"pull"_s, u"--stage"_s, u"--url"_s, m_redis.url()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("--stage does not apply here"), r.err.constData());

        r = test::runCli({u"rules"_s, u"push"_s, file, u"--url"_s, m_redis.url(), u"--stage"_s,
                          u"--message"_s, u"try api at 2"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("staged as version 2"), r.out.constData());
        r = test::runCli({u"rules"_s, u"history"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.out.contains("staged: added search; changed api; removed login (in shadow)") &&
                     r.out.contains("\"try api at 2\""),
                 r.out.constData());
        r = test::runCli({u"rules"_s, u"push"_s, write(u"other.json"_s, enforcedJson), u"--url"_s,
                          m_redis.url()});
        QVERIFY2(r.exitCode == 0 && r.out.contains("no change"), (r.out + r.err).constData());
        r = test::runCli({u"rules"_s, u"discard"_s, u"--url"_s, m_redis.url(), u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object().value(u"discarded_stage"_s).toInteger(),
                 2);
    }
};

QTEST_GUILESS_MAIN(TestStaging)
#include "tst_staging.moc"
