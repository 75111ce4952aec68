// A rule's count_rejected (FORMATS.md) beyond the oracle tests (golden, differential and
// exactness hold the scripts and twins to it): the field read and written in JSON and YAML,
// diffed, kept by the rule store through a push, a stage and a rollback; refused on the bucket
// algorithms naming the rule and why; the scripts' ARGV[8]; what the Envoy and Kong exports
// say of it; and `rules import --format envoy-ratelimit` choosing it for envoy's default.
#include "runcli.h"
#include "servefixture.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/limiter/localmodel.h"
#include "core/redis/scriptregistry.h"
#include "core/rules/codec.h"
#include "core/rules/exporter.h"
#include "core/rules/rulediff.h"
#include "core/rules/rulestore.h"
#include "core/sim/redisrun.h"
#include "core/sim/scenario.h"
#include "core/sim/simulator.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace sluice;
using namespace sluice::sim;
using namespace Qt::StringLiterals;

namespace {

QByteArray ruleFile(const QByteArray &algorithmAndParameters, const QByteArray &countRejected)
{
    return "{\n  \"version\": 1,\n  \"rules\": [\n    {\"id\": \"login\", \"scope\": \"ip\",\n"
           "     " +
           algorithmAndParameters + ",\n     \"count_rejected\": " + countRejected + "}\n  ]\n}\n";
}

RuleSet twoRules(bool firstCounts, bool secondCounts)
{
    const Scope ip{Scope::Kind::Ip, {}};
    Rule a = Rule::window(u"a"_s, Algorithm::FixedWindow, 10, duration::usPerMinute, ip);
    a.countRejected = firstCounts;
    Rule b = Rule::window(u"b"_s, Algorithm::FixedWindow, 20, duration::usPerHour, ip);
    b.countRejected = secondCounts;
    RuleSet set;
    set.rules = {a, b};
    return set;
}

QString joined(const QList<rules::Export::Skipped> &skipped)
{
    QStringList out;
    for (const rules::Export::Skipped &s : skipped) {
        out << s.ruleId + u": "_s + s.reason;
    }
    return out.join(u'\n');
}

} // namespace

class TestCountRejected : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readWrittenAndDiffed_data()
    {
        test::columns<QByteArray>("parameters");
        QTest::newRow("fixed_window")
            << QByteArray(R"("algorithm": "fixed_window", "limit": 5, "window": "1m")");
        QTest::newRow("sliding_log")
            << QByteArray(R"("algorithm": "sliding_log", "limit": 5, "window": "1m")");
        QTest::newRow("sliding_counter")
            << QByteArray(R"("algorithm": "sliding_counter", "limit": 5, "window": "1m")");
    }
    void readWrittenAndDiffed()
    {
        QFETCH(QByteArray, parameters);
        const rules::Loaded on = rules::parseJson(ruleFile(parameters, "true"), u"r.json"_s);
        QVERIFY2(on.ok(), qPrintable(on.ok() ? QString() : on.errors.first().toString()));
        QVERIFY(on.set.rules.at(0).countRejected);
        QVERIFY(on.set.rules.at(0).policy().countRejected);
        QCOMPARE(on.set.rules.at(0).policy().versionArgs().last(), QByteArray("1"));
        // Written only when true; read back the same from JSON and from YAML.
        const QByteArray json = rules::toJson(on.set);
        QVERIFY(json.contains("\"count_rejected\": true"));
        QCOMPARE(rules::parseJson(json, u"w.json"_s).set, on.set);
        const QByteArray yaml = rules::toYaml(on.set);
        QVERIFY2(yaml.contains("count_rejected: true"), yaml.constData());
        QCOMPARE(rules::parseYaml(yaml, u"w.yaml"_s).set, on.set);
        const rules::Loaded off = rules::parseJson(ruleFile(parameters, "false"), u"r.json"_s);
        QVERIFY(off.ok() && !off.set.rules.at(0).countRejected);
        QVERIFY(!rules::toJson(off.set).contains("count_rejected"));
        QCOMPARE(off.set.rules.at(0).policy().versionArgs().size(), qsizetype(3));
        // A change of the switch alone is a change of the rule, field by field, and not of the
        // rule version (the states stay as they are).
        const rules::RuleDiff d = rules::diffRules(off.set, on.set);
        QCOMPARE(d.changed.size(), qsizetype(1));
        QCOMPARE(d.changed.at(0).values.size(), qsizetype(1));
        QCOMPARE(d.changed.at(0).values.at(0).name, u"count_rejected"_s);
        QCOMPARE(on.set.rules.at(0).policy().version(), off.set.rules.at(0).policy().version());
        // Not a boolean: the field path and what is expected.
        const rules::Loaded bad = rules::parseJson(ruleFile(parameters, "\"yes\""), u"b.json"_s);
        QCOMPARE(bad.errors.size(), qsizetype(1));
        QVERIFY2(bad.errors.at(0).toString().contains(u"rules[0].count_rejected"_s),
                 qPrintable(bad.errors.at(0).toString()));
    }

    void refusedByTheBuckets_data()
    {
        test::columns<QByteArray, QString>("parameters", "why");
        QTest::newRow("token_bucket")
            << QByteArray(R"("algorithm": "token_bucket", "rate": "5/s", "burst": 10)")
            << u"token_bucket cannot count a denied request"_s;
        QTest::newRow("leaky_bucket")
            << QByteArray(R"("algorithm": "leaky_bucket", "rate": "5/s", "burst": 10)")
            << u"leaky_bucket cannot count a denied request"_s;
        QTest::newRow("gcra") << QByteArray(R"("algorithm": "gcra", "rate": "5/s", "burst": 10)")
                              << u"gcra cannot count a denied request"_s;
    }
    void refusedByTheBuckets()
    {
        QFETCH(QByteArray, parameters);
        QFETCH(QString, why);
        const rules::Loaded l = rules::parseJson(ruleFile(parameters, "true"), u"bad.json"_s);
        QCOMPARE(l.errors.size(), qsizetype(1));
        const QString e = l.errors.at(0).toString();
        QVERIFY2(e.startsWith(u"bad.json:"_s), qPrintable(e));
        QVERIFY2(e.contains(u"rules[0].count_rejected: rule 'login': "_s + why), qPrintable(e));
        QVERIFY2(e.contains(u"sliding_log or sliding_counter"_s), qPrintable(e));
        // The same from YAML, at its line.
        const rules::Loaded y =
            rules::parseYaml("version: 1\nrules:\n  - id: login\n    scope: ip\n    " +
                                 QByteArray(parameters).replace("\"", "").replace(", ", "\n    ") +
                                 "\n    count_rejected: true\n",
                             u"bad.yaml"_s);
        QCOMPARE(y.errors.size(), qsizetype(1));
        QVERIFY2(y.errors.at(0).toString().contains(u"rules[0].count_rejected: rule 'login'"_s),
                 qPrintable(y.errors.at(0).toString()));
        // false is the default, and fine for any algorithm.
        const rules::Loaded fine = rules::parseJson(ruleFile(parameters, "false"), u"ok.json"_s);
        QVERIFY(fine.ok());
        // A policy built in code is refused by the twin, and reaches no script's ARGV.
        const Rule &rule = fine.set.rules.at(0);
        Policy p = rule.policy();
        p.countRejected = true;
        ManualClock clock;
        LocalModel twin(clock);
        auto d = twin.decide({&p, "k", 1, 0, 0});
        QVERIFY(!d.ok());
        QVERIFY2(d.error().message.startsWith(u"count_rejected: "_s + why),
                 qPrintable(d.error().message));
        QCOMPARE(p.versionArgs().size(), qsizetype(3));
    }

    void badArgvNamesTheSlot_data()
    {
        test::columns<int>("algorithm");
        for (Algorithm a : algorithm::all) {
            if (algorithm::countsRejected(a)) {
                QTest::newRow(qPrintable(algorithm::name(a))) << int(a);
            }
        }
    }
    void badArgvNamesTheSlot()
    {
        QFETCH(int, algorithm);
        const auto a = Algorithm(algorithm);
        const Policy p = Policy::window(a, 3, duration::usPerSecond, u"argv"_s);
        Connection c = test::connect();
        auto r = test::runScript(c, p, test::keyPrefix() + "argv8",
                                 {"1", "", "", p.version(), "keep_used", "yes"});
        QVERIFY(!r.ok());
        QVERIFY2(r.error().message.contains(u"ARGV[8] count_rejected must be '1', '0' or '', got "
                                            "'yes'"_s),
                 qPrintable(r.error().message));
        // '0' and '' are off: a full window denies and writes nothing more.
        for (const QByteArray &off : {QByteArray("0"), QByteArray()}) {
            QVERIFY(test::runScript(c, p, test::keyPrefix() + "argv8:off",
                                    {"3", "1700000000000000", "", p.version(), "keep_used", off})
                        .ok());
        }
    }

    // The rule store keeps the switch through a push, a stage, its promotion, the history's
    // diff and a rollback.
    void keptByTheRuleStore()
    {
        Connection c = test::connect();
        const rules::RuleStore store(test::keyPrefix() + "store:");
        const RuleSet off = twoRules(false, false);
        auto first = store.push(c, off, true);
        QVERIFY2(first.ok(), qPrintable(first.ok() ? QString() : first.error().message));
        RuleSet on = twoRules(true, false);
        on.basedOn = first->version;
        auto staged = store.stage(c, on, {});
        QVERIFY2(staged.ok(), qPrintable(staged.ok() ? QString() : staged.error().message));
        QCOMPARE(staged->changed, QStringList{u"a"_s});
        auto stage = store.staged(c);
        QVERIFY(stage.ok() && stage->has_value());
        QVERIFY((*stage)->set.rules.at(0).countRejected);
        auto promoted = store.promote(c, {});
        QVERIFY2(promoted.ok(), qPrintable(promoted.ok() ? QString() : promoted.error().message));
        auto pulled = store.pull(c);
        QVERIFY(pulled.ok());
        QVERIFY(pulled->set.rules.at(0).countRejected);
        QVERIFY(!pulled->set.rules.at(1).countRejected);
        auto back = store.rollback(c, first->version, {});
        QVERIFY2(back.ok(), qPrintable(back.ok() ? QString() : back.error().message));
        auto again = store.pull(c);
        QVERIFY(again.ok());
        QVERIFY(!again->set.rules.at(0).countRejected);
    }

    void envoyExportSaysTheProcessWideSwitch()
    {
        // Every rule counts: envoy's default, nothing to list.
        const rules::Export all =
            rules::exportRules(twoRules(true, true), rules::ExportFormat::Envoy);
        QVERIFY2(all.text.contains("leave STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT unset"),
                 all.text.constData());
        QVERIFY2(all.skipped.isEmpty(), qPrintable(joined(all.skipped)));
        // None counts: the variable set.
        const rules::Export none =
            rules::exportRules(twoRules(false, false), rules::ExportFormat::Envoy);
        QVERIFY2(none.text.contains("STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true"),
                 none.text.constData());
        QVERIFY2(none.skipped.isEmpty(), qPrintable(joined(none.skipped)));
        // Mixed: one switch for the whole process; a tie counts (envoy's default), and the
        // rule that asks otherwise is named.
        const rules::Export mixed =
            rules::exportRules(twoRules(true, false), rules::ExportFormat::Envoy);
        QVERIFY2(mixed.text.contains("leave STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT unset"),
                 mixed.text.constData());
        QCOMPARE(mixed.skipped.size(), qsizetype(1));
        QCOMPARE(mixed.skipped.at(0).ruleId, u"b count_rejected"_s);
        QVERIFY2(mixed.skipped.at(0).reason.contains(u"not per rule"_s),
                 qPrintable(mixed.skipped.at(0).reason));
        QVERIFY2(mixed.text.contains("b count_rejected: false"), mixed.text.constData());
    }

    void kongExportCannotCountDenials()
    {
        const rules::Export kong =
            rules::exportRules(twoRules(true, false), rules::ExportFormat::Kong);
        QCOMPARE(kong.skipped.size(), qsizetype(1));
        QCOMPARE(kong.skipped.at(0).ruleId, u"a count_rejected"_s);
        QVERIFY2(kong.skipped.at(0).reason.contains(u"counts only the requests it lets through"_s),
                 qPrintable(kong.skipped.at(0).reason));
    }

    // The simulator decides through the twins and through the scripts alike under
    // count_rejected: constant traffic at 3 times the limit for 6 s, each sliding algorithm
    // with and without it. The counting sliding log admits its first 10 and nothing after
    // (every denial keeps the log full); the counting sliding counter far fewer than the one
    // that does not count.
    void simulatorDecidesAlike()
    {
        const QByteArray rule = R"({"id": "%1", "scope": "global", "algorithm": "%2",
                                    "limit": 10, "window": "1s", "count_rejected": %3})";
        QByteArray rules;
        for (const char *a : {"sliding_log", "sliding_counter"}) {
            for (const bool counts : {true, false}) {
                const QByteArray id = QByteArray(a) + (counts ? "-counted" : "");
                rules += (rules.isEmpty() ? "" : ",") +
                         QByteArray(rule).replace("%1", id).replace("%2", a).replace(
                             "%3", counts ? "true" : "false");
            }
        }
        const scenario::Loaded l = scenario::parseJson(
            R"({"name": "retries", "duration": "6s", "seed": 1, "bin": "100ms",
                "measure_window": "1s", "subjects": 1,
                "traffic": [{"pattern": "constant", "rate": "30/s"}], "rules": [)" +
                rules + "]}",
            u"retries.json"_s);
        QVERIFY2(l.ok(), qPrintable(l.ok() ? QString() : l.errors.first().toString()));
        auto sim = Simulator::create(l.scenario);
        QVERIFY2(sim.ok(), qPrintable(sim.ok() ? QString() : sim.error().message));
        auto local = sim->runLocal();
        QVERIFY(local.ok());
        auto redis = runOnRedis(*sim, test::redisEndpoint());
        QVERIFY2(redis.ok(), qPrintable(redis.ok() ? QString() : redis.error().message));
        QCOMPARE(redis->digest, local->digest); // decision for decision
        QHash<QString, qint64> admitted;
        for (const RuleResult &r : local->rules) {
            admitted.insert(r.rule, r.admitted);
        }
        QCOMPARE(admitted.value(u"sliding_log-counted"_s), qint64(10));
        QVERIFY2(admitted.value(u"sliding_log"_s) >= 50,
                 qPrintable(QString::number(admitted.value(u"sliding_log"_s))));
        QVERIFY2(admitted.value(u"sliding_counter-counted"_s) * 2 <
                     admitted.value(u"sliding_counter"_s),
                 qPrintable(QStringLiteral("%1 counted, %2 not")
                                .arg(admitted.value(u"sliding_counter-counted"_s))
                                .arg(admitted.value(u"sliding_counter"_s))));
    }

    // A real serve, a client retrying every 50 ms for 3 s against a sliding log of 2 per
    // 2 s (Redis' clock): with count_rejected only its first two requests pass; without, the
    // first admitted request leaving the window lets it in again. The service's deny cache
    // answers denials without Redis until their retry time, and so must not answer for a rule
    // that counts them (its client was admitted at that retry time).
    void serveCountsEveryDenial_data()
    {
        test::columns<bool>("countRejected");
        QTest::newRow("count_rejected") << true;
        QTest::newRow("not counted") << false;
    }
    void serveCountsEveryDenial()
    {
        QFETCH(bool, countRejected);
        QTemporaryDir dir;
        const QString rules = dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(
            rules, "{\"version\": 1, \"rules\": [{\"id\": \"retry\", \"scope\": \"ip\", "
                   "\"algorithm\": \"sliding_log\", \"limit\": 2, \"window\": \"2s\", "
                   "\"key_prefix\": \"" +
                       test::keyPrefix() + (countRejected ? "counted:" : "plain:") +
                       "\", \"count_rejected\": " + (countRejected ? "true" : "false") + "}]}"));
        test::ServeProcess serve;
        QVERIFY2(serve.start(test::serveArgs(rules, test::redisUrl())), serve.err().constData());
        int allowed = 0, denied = 0, cached = 0;
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < 3000) {
            const test::HttpReply r =
                test::httpGet(serve.port(), "/v1/check?rule=retry&subject=10.0.0.1");
            QVERIFY2(r.status == 200 || r.status == 429, r.body.constData());
            r.status == 200 ? ++allowed : ++denied;
            cached += r.header("sluice-source") == "cache" ? 1 : 0;
            QThread::msleep(50); // the client's pace, not an assertion
        }
        QVERIFY2(denied >= 20, qPrintable(QStringLiteral("only %1 denials").arg(denied)));
        if (countRejected) {
            QCOMPARE(allowed, 2);
            QCOMPARE(cached, 0);
        } else {
            QVERIFY2(allowed > 2, qPrintable(QStringLiteral("admitted %1").arg(allowed)));
            QVERIFY(cached > 0); // the cache still serves the rules that do not count
        }
    }

    // envoy ratelimit counts denied requests unless STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT is
    // set: the import keeps what the deployment does, and says which it chose.
    void importChoosesEnvoysDefault()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath(u"config.yaml"_s);
        QVERIFY(test::writeFile(config, "domain: edge\n"
                                        "descriptors:\n"
                                        "  - key: remote_address\n"
                                        "    rate_limit:\n"
                                        "      unit: minute\n"
                                        "      requests_per_unit: 10\n"));
        const test::CliRun counted =
            test::runCli({u"rules"_s, u"import"_s, config, u"--format"_s, u"envoy-ratelimit"_s});
        QCOMPARE(counted.exitCode, 0);
        const rules::Loaded a = rules::parseJson(counted.out, u"stdout"_s);
        QVERIFY2(a.ok() && a.set.rules.size() == 1, counted.out.constData());
        QVERIFY(a.set.rules.at(0).countRejected);
        QVERIFY2(counted.err.contains("count_rejected true: denied requests count"),
                 counted.err.constData());

        const test::CliRun stopped =
            test::runCli({u"rules"_s, u"import"_s, config, u"--format"_s, u"envoy-ratelimit"_s,
                          u"--stop-cache-key-increment-when-overlimit"_s});
        QCOMPARE(stopped.exitCode, 0);
        const rules::Loaded b = rules::parseJson(stopped.out, u"stdout"_s);
        QVERIFY2(b.ok() && b.set.rules.size() == 1, stopped.out.constData());
        QVERIFY(!b.set.rules.at(0).countRejected);
        QVERIFY2(stopped.err.contains("count_rejected false"), stopped.err.constData());
        // Round trip: exported back to envoy, the rule asks for envoy's default again.
        const rules::Export back = rules::exportRules(a.set, rules::ExportFormat::Envoy);
        QVERIFY(back.text.contains("leave STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT unset"));
        // The flag belongs to import only.
        test::checkUsageError(
            {u"rules"_s, u"validate"_s, config, u"--stop-cache-key-increment-when-overlimit"_s},
            u"--stop-cache-key-increment-when-overlimit does not apply here"_s);
    }
};

QTEST_GUILESS_MAIN(TestCountRejected)
#include "tst_countrejected.moc"
