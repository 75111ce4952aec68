// Per-subject overrides: the file form in JSON and YAML (read, written, read back), every
// bad-input message with its line, column and field path, the matcher's precedence and
// expiry, and (with the fixture's Redis) the decisions of check and serve and the store.
#include "app/serve/checkservice.h"

#include "core/common/glob.h"
#include "core/limiter/redislimiter.h"
#include "core/rules/codec.h"
#include "core/rules/jsonlocator.h"
#include "core/rules/keymap.h"
#include "core/rules/override.h"
#include "core/rules/overridematcher.h"
#include "core/rules/overridestore.h"
#include "core/rules/rulestore.h"
#include "core/sim/simulator.h"
#include "inprocessservice.h"
#include "ownredis.h"
#include "runcli.h"
#include "servefixture.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace sluice::serve;
using namespace Qt::StringLiterals;

namespace {

// A rule file of one rule with `overrides` (JSON text of the array) in it, the array starting
// on line 5.
QByteArray
jsonFile(const QByteArray &overrides, const QByteArray &scope = "ip",
         const QByteArray &params = R"("algorithm": "fixed_window", "limit": 3, "window": "5s")")
{
    return "{\n  \"version\": 1,\n  \"rules\": [\n    {\"id\": \"hello\", \"scope\": \"" + scope +
           "\", " + params + ",\n     \"overrides\": " + overrides + "}\n  ]\n}\n";
}

// Line and column (1-based) of the first `needle` in `text`, counted here.
std::pair<int, int> where(const QByteArray &text, const QByteArray &needle)
{
    const qsizetype at = text.indexOf(needle);
    const int line = int(text.left(at).count('\n')) + 1;
    const qsizetype lineStart = text.lastIndexOf('\n', at - 1) + 1;
    return {line, int(at - lineStart) + 1};
}

Override subject(const QString &s, Override::Action a = Override::Action::Allow)
{
    Override o;
    o.kind = Override::Kind::Subject;
    o.pattern = s;
    o.action = a;
    return o;
}

Override cidr(const QString &s, Override::Action a = Override::Action::Allow)
{
    Override o = subject(s, a);
    o.kind = Override::Kind::Cidr;
    return o;
}

Override globOverride(const QString &s, Override::Action a = Override::Action::Allow)
{
    Override o = subject(s, a);
    o.kind = Override::Kind::Glob;
    return o;
}

using HttpResponse = test::HttpReply;

// The service runs in this process: its answers come while the event loop spins.
HttpResponse get(quint16 port, const QByteArray &target)
{
    return test::inProcessGet(port, target);
}

// A rule set of the test's own key prefix: fixed window 2 per minute per IP, with `overrides`.
RuleSet ipRules(const QByteArray &overrides)
{
    const QByteArray text = "{\"version\": 1, \"rules\": [{\"id\": \"hello\", \"scope\": "
                            "\"ip\", \"algorithm\": \"fixed_window\", \"limit\": 2, "
                            "\"window\": \"1m\", \"key_prefix\": \"" +
                            test::keyPrefix() + "\", \"overrides\": " + overrides + "}]}";
    const rules::Loaded l = rules::parseJson(text, u"test.json"_s);
    if (!l.ok()) {
        qFatal("bad test rules: %s", qPrintable(l.errors.first().toString()));
    }
    return l.set;
}

const QByteArray standardOverrides = R"([
    {"subject": "10.9.9.9", "allow": true},
    {"cidr": "203.0.113.0/24", "deny": true},
    {"subject": "10.5.5.5", "limit": {"limit": 5, "window": "2m"}}])";

// The rule store and the override store under a namespace of the test's own; push() stores
// ipRules("[]"), whose one rule is `rule`. The stored rule set goes with it (the overrides
// are the test's to remove).
struct StoredRules
{
    Connection c = test::connect();
    const QByteArray ns = test::keyPrefix() + "{store}:";
    const rules::RuleStore store{ns};
    const rules::OverrideStore overrides{ns};
    const Rule rule = ipRules("[]").rules.at(0);

    bool push() { return store.push(c, ipRules("[]"), true).ok(); }
    ~StoredRules()
    {
        c.command({"DEL", store.hashKey(), store.versionKey(), store.historyKey()}).ok();
    }
};

} // namespace

class TestOverrides : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { test::cleanup(); }

    void serveAnswersOverrides()
    {
        auto c = test::connect();
        CheckService::Options o;
        o.endpoint = test::redisEndpoint();
        CheckService service(o);
        service.setRules(ipRules(standardOverrides), 1, u"test.json"_s);
        QVERIFY(service.listen(QHostAddress::LocalHost, 0).ok());
        const quint16 port = service.port();
        const QByteArray prefix = test::keyPrefix();

        // Allowed: far past the rule's limit of 2, and no key is written.
        for (int i = 0; i < 5; ++i) {
            const HttpResponse r = get(port, "/v1/check?rule=hello&subject=10.9.9.9");
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("Sluice-Source"), QByteArray("override"));
            QCOMPARE(r.header("X-RateLimit-Reason"), QByteArray("override-allow"));
            QCOMPARE(r.json().value(u"override"_s).toObject().value(u"action"_s).toString(),
                     u"allow"_s);
        }
        QCOMPARE(test::keysWithPrefix(c, prefix).size(), 0);

        // Denied: 429 at once, with the reason, and no key either.
        const HttpResponse denied = get(port, "/v1/check?rule=hello&subject=203.0.113.7");
        QCOMPARE(denied.status, 429);
        QCOMPARE(denied.header("X-RateLimit-Reason"), QByteArray("override-deny"));
        QCOMPARE(denied.header("Sluice-Decision"), QByteArray("denied"));
        const QJsonObject d = denied.json();
        QCOMPARE(d.value(u"allowed"_s).toBool(), false);
        QCOMPARE(d.value(u"override"_s).toObject().value(u"match"_s).toString(),
                 u"cidr 203.0.113.0/24"_s);
        QCOMPARE(test::keysWithPrefix(c, prefix).size(), 0);

        // An override limit: its own key, exactly its 5, and the rule's counter untouched.
        for (int i = 0; i < 5; ++i) {
            const HttpResponse r = get(port, "/v1/check?rule=hello&subject=10.5.5.5");
            QCOMPARE(r.status, 200);
            QCOMPARE(r.header("X-RateLimit-Reason"), QByteArray("override-limit"));
            QCOMPARE(r.header("RateLimit-Policy"), QByteArray("\"hello\";q=5;w=120"));
        }
        const HttpResponse sixth = get(port, "/v1/check?rule=hello&subject=10.5.5.5");
        QCOMPARE(sixth.status, 429);
        QCOMPARE(sixth.header("Sluice-Source"), QByteArray("redis"));
        const QByteArray key = prefix + "hello:override:{10.5.5.5}";
        QCOMPARE(sixth.json().value(u"key"_s).toString(), QString::fromUtf8(key));
        QCOMPARE(test::keysWithPrefix(c, prefix), QList<QByteArray>{key});
        QVERIFY(test::pttl(c, key) > 0);

        // Any other subject: the rule's 2, under the rule's key.
        QCOMPARE(get(port, "/v1/check?rule=hello&subject=10.1.1.1").status, 200);
        QCOMPARE(get(port, "/v1/check?rule=hello&subject=10.1.1.1").status, 200);
        const HttpResponse third = get(port, "/v1/check?rule=hello&subject=10.1.1.1");
        QCOMPARE(third.status, 429);
        QVERIFY(third.header("X-RateLimit-Reason").isEmpty());
        QVERIFY(!third.json().contains(u"override"_s));

        // /metrics counts the allow and deny overrides under source="override".
        const QByteArray metrics = get(port, "/metrics").body;
        QVERIFY2(
            metrics.contains(
                R"(sluice_decisions_total{rule="hello",decision="allowed",source="override"} 5)"),
            metrics.constData());
        QVERIFY2(
            metrics.contains(
                R"(sluice_decisions_total{rule="hello",decision="denied",source="override"} 1)"),
            metrics.constData());
    }

    void denyCacheDoesNotAnswerForAnOverride()
    {
        // A subject denied by the rule (and so in the deny cache) is then allowed by an
        // override: the new table answers by the override, not by the cached denial.
        CheckService::Options o;
        o.endpoint = test::redisEndpoint();
        CheckService service(o);
        service.setRules(ipRules("[]"), 1, u"test.json"_s);
        QVERIFY(service.listen(QHostAddress::LocalHost, 0).ok());
        const quint16 port = service.port();
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(get(port, "/v1/check?rule=hello&subject=10.7.7.7").status, 200);
        }
        QCOMPARE(get(port, "/v1/check?rule=hello&subject=10.7.7.7").status, 429);
        QCOMPARE(get(port, "/v1/check?rule=hello&subject=10.7.7.7").header("Sluice-Source"),
                 QByteArray("cache"));
        service.setRules(ipRules(R"([{"subject": "10.7.7.7", "allow": true}])"), 2, u"test.json"_s);
        const HttpResponse r = get(port, "/v1/check?rule=hello&subject=10.7.7.7");
        QCOMPARE(r.status, 200);
        QCOMPARE(r.header("Sluice-Source"), QByteArray("override"));
    }

    void checkCommandAnswersOverrides()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(file, rules::toJson(ipRules(standardOverrides))));
        auto c = test::connect();
        const QStringList base = {u"check"_s,  u"--url"_s, test::redisUrl(), u"--rules"_s, file,
                                  u"--rule"_s, u"hello"_s, u"--no-stats"_s,  u"--json"_s};
        const test::CliRun allowed =
            test::runCli(base + QStringList{u"--subject"_s, u"10.9.9.9"_s, u"--count"_s, u"4"_s});
        QCOMPARE(allowed.exitCode, 0);
        const QJsonArray a = QJsonDocument::fromJson(allowed.out).array();
        QCOMPARE(a.size(), 4);
        for (const QJsonValue &v : a) {
            QCOMPARE(v.toObject().value(u"allowed"_s).toBool(), true);
            QCOMPARE(v.toObject().value(u"override"_s).toObject().value(u"action"_s).toString(),
                     u"allow"_s);
        }
        const test::CliRun denied =
            test::runCli(base + QStringList{u"--subject"_s, u"203.0.113.200"_s});
        QCOMPARE(denied.exitCode, 0);
        const QJsonObject d = QJsonDocument::fromJson(denied.out).object();
        QCOMPARE(d.value(u"allowed"_s).toBool(), false);
        QCOMPARE(d.value(u"override"_s).toObject().value(u"action"_s).toString(), u"deny"_s);
        QCOMPARE(test::keysWithPrefix(c, test::keyPrefix()).size(), 0);

        const test::CliRun limited =
            test::runCli(base + QStringList{u"--subject"_s, u"10.5.5.5"_s, u"--count"_s, u"6"_s});
        QCOMPARE(limited.exitCode, 0);
        const QJsonArray l = QJsonDocument::fromJson(limited.out).array();
        QCOMPARE(l.size(), 6);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(l[i].toObject().value(u"allowed"_s).toBool(), i < 5);
            QCOMPARE(l[i].toObject().value(u"limit"_s).toInteger(), 5);
        }
        QCOMPARE(test::keysWithPrefix(c, test::keyPrefix()),
                 QList<QByteArray>{test::keyPrefix() + "hello:override:{10.5.5.5}"});

        // keys decodes it as the rule's under the override: against the override's limit,
        // its TTL judged by the override's window (2m, longer than the rule's 1m: by the
        // rule's it would be ttl_too_long).
        const test::CliRun keys =
            test::runCli({u"keys"_s, u"--url"_s, test::redisUrl(), u"--rules"_s, file, u"--match"_s,
                          QString::fromUtf8(test::keyPrefix()) + u"*"_s, u"--json"_s});
        QVERIFY2(keys.exitCode == 0, keys.err.constData());
        const QJsonArray rows = QJsonDocument::fromJson(keys.out).array();
        QCOMPARE(rows.size(), 1);
        const QJsonObject row = rows[0].toObject();
        QCOMPARE(row.value(u"limited_by"_s).toString(), u"override"_s);
        QCOMPARE(row.value(u"rule"_s).toString(), u"hello"_s);
        QCOMPARE(row.value(u"subject"_s).toString(), u"10.5.5.5"_s);
        QCOMPARE(row.value(u"health"_s).toString(), u"ok"_s);
        QCOMPARE(row.value(u"state"_s).toObject().value(u"limit"_s).toInteger(), 5);
        QCOMPARE(row.value(u"state"_s).toObject().value(u"count"_s).toInteger(), 5);
    }

    void storeAddListRemoveAndExpiry()
    {
        StoredRules stored;
        QVERIFY(stored.push());
        auto &[c, ns, store, overrides, rule] = stored;

        // No end and not permanent: refused, nothing written.
        auto none = overrides.add(c, rule, subject(u"10.1.1.1"_s), {});
        QVERIFY(!none);
        QVERIFY(none.error().message.contains(u"needs an end"_s));
        QCOMPARE(test::keysWithPrefix(c, ns + "rules:override:").size(), 0);

        Override ttl = subject(u"10.1.1.1"_s);
        ttl.ttlUs = 300 * duration::usPerMs;
        auto added = overrides.add(c, rule, ttl, {});
        QVERIFY2(added, qPrintable(added ? QString() : added.error().message));
        const qint64 t = test::pttl(c, added->key);
        // 300 ms from the server's clock, its end rounded up to whole milliseconds.
        QVERIFY2(t > 0 && t <= 301, qPrintable(QString::number(t)));

        // The second writer of the same override is refused with what is stored.
        auto again = overrides.add(c, rule, ttl, {});
        QVERIFY(!again);
        QCOMPARE(again.error().kind, Error::Kind::Conflict);
        QVERIFY(again.error().message.contains(u"already has an override for subject 10.1.1.1"_s));

        Override forever = cidr(u"10.0.0.0/8"_s, Override::Action::Deny);
        rules::OverrideStore::AddOptions permanent;
        permanent.permanent = true;
        auto p = overrides.add(c, rule, forever, permanent);
        QVERIFY(p);
        QCOMPARE(test::pttl(c, p->key), qint64(-1)); // asked for: no TTL
        QCOMPARE(p->pttlMs, qint64(-1));
        // The index lives as long as its longest member: none while a permanent one is in it.
        QCOMPARE(test::pttl(c, overrides.indexKey()), qint64(-1));

        RuleSet set = ipRules("[]");
        auto listed = overrides.list(c, set);
        QVERIFY(listed);
        QCOMPARE(listed->size(), 2);
        QCOMPARE(listed->at(0).override.kind, Override::Kind::Subject); // ranked
        QCOMPARE(listed->at(1).override.pattern, u"10.0.0.0/8"_s);

        // Expiry is Redis': after the TTL the key is gone and the list has one.
        QVERIFY(QTest::qWaitFor([&] { return test::pttl(c, added->key) == -2; }, 5000));
        listed = overrides.list(c, set);
        QVERIFY(listed);
        QCOMPARE(listed->size(), 1);

        Override hour = subject(u"10.3.3.3"_s);
        hour.ttlUs = duration::usPerHour;
        QVERIFY(overrides.add(c, rule, hour, {}).ok());
        QCOMPARE(*overrides.remove(c, rule.id, Override::Kind::Cidr, u"10.0.0.0/8"_s), true);
        QCOMPARE(*overrides.remove(c, rule.id, Override::Kind::Cidr, u"10.0.0.0/8"_s), false);
        // The permanent one gone, the index ends with the hour's override (its end rounded up
        // to whole milliseconds).
        const qint64 indexTtl = test::pttl(c, overrides.indexKey());
        QVERIFY2(indexTtl > 3500'000 && indexTtl <= 3600'001,
                 qPrintable(QString::number(indexTtl)));
        QCOMPARE(*overrides.remove(c, rule.id, Override::Kind::Subject, u"10.3.3.3"_s), true);
        QCOMPARE(test::pttl(c, overrides.indexKey()), qint64(-2));
        QCOMPARE(overrides.list(c, set)->size(), 0);
    }

    void serveFollowsStoredOverrides()
    {
        StoredRules stored;
        QVERIFY(stored.push());
        auto &[c, ns, store, overrides, rule] = stored;

        CheckService service(test::onFixtureRedis());
        QVERIFY(test::followAndListen(service, store));
        const quint16 port = service.port();
        QCOMPARE(get(port, "/v1/check?rule=hello&subject=10.2.2.2").header("Sluice-Source"),
                 QByteArray("redis"));

        // Added live: served as an override within a round trip, with no new rule version.
        Override deny = subject(u"10.2.2.2"_s, Override::Action::Deny);
        deny.ttlUs = 60 * duration::usPerSecond;
        QVERIFY(overrides.add(c, rule, deny, {}).ok());
        QVERIFY(QTest::qWaitFor(
            [&] {
                return get(port, "/v1/check?rule=hello&subject=10.2.2.2")
                           .header("X-RateLimit-Reason") == "override-deny";
            },
            10000));
        QCOMPARE(service.rules()->version(), qint64(1));

        // Removed live: the rule decides again.
        QVERIFY(*overrides.remove(c, rule.id, Override::Kind::Subject, u"10.2.2.2"_s));
        QVERIFY(QTest::qWaitFor(
            [&] {
                return get(port, "/v1/check?rule=hello&subject=10.2.2.2").header("Sluice-Source") ==
                       "redis";
            },
            10000));
    }

    void cliAddListRemove()
    {
        // The CLI on a Redis of its own: the default namespace is the store's.
        test::OwnRedis redis;
        QVERIFY(redis.start());
        auto c = Connection::open(redis.endpoint());
        QVERIFY(c);
        QVERIFY(rules::RuleStore().push(*c, ipRules("[]"), true).ok());
        const QString url = redis.url();
        const auto cli = [&](QStringList args) {
            return test::runCli(QStringList{u"overrides"_s} + args + QStringList{u"--url"_s, url});
        };
        const test::CliRun unknown = cli({u"add"_s, u"--rule"_s, u"nope"_s, u"--subject"_s,
                                          u"1.2.3.4"_s, u"--allow"_s, u"--ttl"_s, u"1h"_s});
        QCOMPARE(unknown.exitCode, 2);
        QVERIFY2(unknown.err.contains("--rule 'nope' names no rule") &&
                     unknown.err.contains("it has: hello"),
                 unknown.err.constData());
        const test::CliRun shape =
            cli({u"add"_s, u"--rule"_s, u"hello"_s, u"--subject"_s, u"1.2.3.4"_s, u"--rate"_s,
                 u"10/s"_s, u"--burst"_s, u"5"_s, u"--ttl"_s, u"1h"_s});
        QCOMPARE(shape.exitCode, 2);
        QVERIFY2(shape.err.contains("--rate does not apply: rule 'hello' is fixed_window"),
                 shape.err.constData());
        const test::CliRun hostBits = cli({u"add"_s, u"--rule"_s, u"hello"_s, u"--cidr"_s,
                                           u"10.1.2.3/8"_s, u"--deny"_s, u"--ttl"_s, u"1h"_s});
        QCOMPARE(hostBits.exitCode, 2);
        QVERIFY2(hostBits.err.contains("--cidr: '10.1.2.3/8' has host bits set"),
                 hostBits.err.constData());
        const test::CliRun noEnd =
            cli({u"add"_s, u"--rule"_s, u"hello"_s, u"--subject"_s, u"1.2.3.4"_s, u"--allow"_s});
        QCOMPARE(noEnd.exitCode, 2);
        QVERIFY2(noEnd.err.contains("--permanent"), noEnd.err.constData());

        const test::CliRun add = cli({u"add"_s, u"--rule"_s, u"hello"_s, u"--subject"_s,
                                      u"1.2.3.4"_s, u"--limit"_s, u"50"_s, u"--window"_s, u"1m"_s,
                                      u"--ttl"_s, u"1h"_s, u"--note"_s, u"partner"_s, u"--json"_s});
        QVERIFY2(add.exitCode == 0, add.err.constData());
        const QJsonObject stored = QJsonDocument::fromJson(add.out).object();
        QCOMPARE(stored.value(u"permanent"_s).toBool(), false);
        const QByteArray key = stored.value(u"key"_s).toString().toUtf8();
        const qint64 t = c->command({"PTTL", key})->integer;
        QVERIFY2(t > 3500'000 && t <= 3600'001, qPrintable(QString::number(t)));

        const test::CliRun list = cli({u"list"_s, u"--json"_s});
        QCOMPARE(list.exitCode, 0);
        const QJsonArray a = QJsonDocument::fromJson(list.out).array();
        QCOMPARE(a.size(), 1);
        const QJsonObject ov = a[0].toObject().value(u"override"_s).toObject();
        QCOMPARE(ov.value(u"subject"_s).toString(), u"1.2.3.4"_s);
        QCOMPARE(ov.value(u"limit"_s).toObject().value(u"limit"_s).toInteger(), 50);
        QCOMPARE(ov.value(u"note"_s).toString(), u"partner"_s);

        // check --from-redis decides by it (its own key, its limit of 50).
        const test::CliRun checked =
            test::runCli({u"check"_s, u"--url"_s, url, u"--from-redis"_s, u"--rule"_s, u"hello"_s,
                          u"--subject"_s, u"1.2.3.4"_s, u"--no-stats"_s, u"--json"_s});
        QVERIFY2(checked.exitCode == 0, checked.err.constData());
        const QJsonObject d = QJsonDocument::fromJson(checked.out).object();
        QCOMPARE(d.value(u"limit"_s).toInteger(), 50);
        QVERIFY(d.value(u"key"_s).toString().contains(u"hello:override:{1.2.3.4}"_s));

        const test::CliRun removed =
            cli({u"remove"_s, u"--rule"_s, u"hello"_s, u"--subject"_s, u"1.2.3.4"_s});
        QCOMPARE(removed.exitCode, 0);
        QCOMPARE(c->command({"EXISTS", key})->integer, 0);
        const test::CliRun twice =
            cli({u"remove"_s, u"--rule"_s, u"hello"_s, u"--subject"_s, u"1.2.3.4"_s});
        QCOMPARE(twice.exitCode, 2);
    }

    void simulateTwinsAgree()
    {
        // Ten requests each: an allowed subject, a denied one, one under an override limit
        // of 5 and one under the rule's 2. In process and on Redis the same decisions; on
        // Redis only the two limited subjects have keys, the override's its own.
        sim::Scenario sc;
        sc.name = u"overrides"_s;
        sc.durationUs = duration::usPerSecond;
        sc.binUs = 100 * duration::usPerMs;
        for (const char *subject : {"10.9.9.9", "203.0.113.5", "10.5.5.5", "10.1.1.1"}) {
            sim::TrafficPattern p;
            p.kind = sim::TrafficPattern::Kind::Burst;
            p.count = 10;
            p.atUs = 0;
            p.spreadUs = 500 * duration::usPerMs;
            p.subject = subject;
            sc.traffic.push_back(p);
        }
        sc.rules = ipRules(standardOverrides).rules;
        auto simulator = sim::Simulator::create(sc);
        QVERIFY2(simulator, qPrintable(simulator ? QString() : simulator.error().message));
        QList<std::pair<QByteArray, bool>> localDecisions;
        sim::RunOptions options;
        options.onDecision = [&](const sim::DecisionEvent &e) {
            localDecisions << std::pair{simulator->traffic().subjects.name(e.subject),
                                        e.decision.allowed};
        };
        auto local = simulator->runLocal(options);
        QVERIFY(local);
        QCOMPARE(local->rules.at(0).admitted, 10 + 0 + 5 + 2);
        QCOMPARE(local->rules.at(0).rejected, 0 + 10 + 5 + 8);

        auto c = Connection::open(test::redisEndpoint());
        QVERIFY(c);
        RedisLimiter limiter(std::move(*c));
        QList<std::pair<QByteArray, bool>> redisDecisions;
        sim::RunOptions onRedis;
        onRedis.keyPrefix = test::keyPrefix();
        onRedis.minTtlMs = 60000;
        onRedis.onDecision = [&](const sim::DecisionEvent &e) {
            redisDecisions << std::pair{simulator->traffic().subjects.name(e.subject),
                                        e.decision.allowed};
        };
        auto remote = simulator->run(limiter, onRedis, u"redis"_s);
        QVERIFY2(remote, qPrintable(remote ? QString() : remote.error().message));
        QCOMPARE(redisDecisions, localDecisions);
        auto check = test::connect();
        QList<QByteArray> keys = test::keysWithPrefix(check, test::keyPrefix());
        std::sort(keys.begin(), keys.end());
        QCOMPARE(keys, (QList<QByteArray>{test::keyPrefix() + "hello:override:{10.5.5.5}",
                                          test::keyPrefix() + "hello:{10.1.1.1}"}));
    }

    void loadAppliesOverrides()
    {
        // 100/s for 2 s on the one generated subject 10.0.0.1, a rule of 2 per minute: allowed
        // by an override, all 200 pass; denied by one, none does.
        for (const bool allow : {true, false}) {
            QTemporaryDir dir;
            const QString file = dir.filePath(u"rules.json"_s);
            QVERIFY(test::writeFile(
                file, rules::toJson(ipRules(allow ? R"([{"subject": "10.0.0.1", "allow": true}])"
                                                  : R"([{"cidr": "10.0.0.0/8", "deny": true}])"))));
            const test::CliRun r = test::runCli(
                {u"load"_s, u"--url"_s, test::redisUrl(), u"--rules"_s, file, u"--rule"_s,
                 u"hello"_s, u"--pattern"_s, u"constant:100/s"_s, u"--duration"_s, u"2s"_s,
                 u"--subjects"_s, u"1"_s, u"--no-stats"_s, u"--json"_s});
            QVERIFY2(r.exitCode == 0, r.err.constData());
            const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
            QCOMPARE(doc.value(u"sent"_s).toInteger(), qint64(200));
            QCOMPARE(doc.value(u"allowed"_s).toInteger(), allow ? qint64(200) : qint64(0));
            QCOMPARE(doc.value(u"denied"_s).toInteger(), allow ? qint64(0) : qint64(200));
            QCOMPARE(doc.value(u"errors"_s).toInteger(), qint64(0));
        }
    }

    void readAndWriteBothFormats()
    {
        const QByteArray file = jsonFile(R"([
       {"subject": "10.1.2.3", "allow": true, "note": "health checker"},
       {"cidr": "10.0.0.0/8", "deny": true, "expires": "2099-01-01T00:00:00Z"},
       {"match": "partner-*", "limit": {"limit": 30, "window": "5s"}, "ttl": "1d"}
     ])");
        const rules::Loaded l = rules::parseJson(file, u"r.json"_s);
        QVERIFY2(l.ok(), qPrintable(test::errorsOf(l)));
        const Rule &r = l.set.rules.at(0);
        QCOMPARE(r.overrides.size(), size_t(3));
        QCOMPARE(r.overrides[0].kind, Override::Kind::Subject);
        QCOMPARE(r.overrides[0].pattern, u"10.1.2.3"_s);
        QCOMPARE(r.overrides[0].action, Override::Action::Allow);
        QCOMPARE(r.overrides[0].note, u"health checker"_s);
        QCOMPARE(r.overrides[1].kind, Override::Kind::Cidr);
        QCOMPARE(r.overrides[1].action, Override::Action::Deny);
        QCOMPARE(r.overrides[1].expiresUs, qint64(4070908800) * 1000000);
        QCOMPARE(r.overrides[2].kind, Override::Kind::Glob);
        QCOMPARE(r.overrides[2].action, Override::Action::Limit);
        QCOMPARE(r.overrides[2].limit, 30);
        QCOMPARE(r.overrides[2].windowUs, 5 * duration::usPerSecond);
        QCOMPARE(r.overrides[2].ttlUs, duration::usPerDay);

        // Written, the overrides come back equal from both formats, and the writers agree.
        const QByteArray json = rules::toJson(l.set);
        const QByteArray yaml = rules::toYaml(l.set);
        QVERIFY2(
            json.contains(
                R"({"match": "partner-*", "limit": {"limit": 30, "window": "5s"}, "ttl": "1d"})"),
            json.constData());
        QVERIFY2(
            yaml.contains("    overrides:\n      - {\"subject\": \"10.1.2.3\", \"allow\": true, "
                          "\"note\": \"health checker\"}\n"),
            yaml.constData());
        const rules::Loaded fromJson = rules::parseJson(json, u"w.json"_s);
        const rules::Loaded fromYaml = rules::parseYaml(yaml, u"w.yaml"_s);
        QVERIFY2(fromJson.ok(), qPrintable(test::errorsOf(fromJson)));
        QVERIFY2(fromYaml.ok(), qPrintable(test::errorsOf(fromYaml)));
        QCOMPARE(fromJson.set, l.set);
        QCOMPARE(fromYaml.set, l.set);
        QCOMPARE(rules::toJson(fromYaml.set), json);

        // The store's compact rule JSON keeps them too.
        const rules::Loaded one = rules::ruleFromJson(rules::ruleToJson(r), u"stored"_s);
        QVERIFY2(one.ok(), qPrintable(test::errorsOf(one)));
        QCOMPARE(one.set.rules.at(0), r);

        // A bucket rule's override limit is rate + burst.
        const rules::Loaded bucket = rules::parseYaml(
            "version: 1\nrules:\n  - id: api\n    scope: user\n    algorithm: token_bucket\n"
            "    rate: 10/s\n    burst: 20\n    overrides:\n"
            "      - match: partner-*\n        limit: {rate: 100/s, burst: 200}\n"
            "        expires: 2099-01-01T00:00:00+01:00\n",
            u"b.yaml"_s);
        QVERIFY2(bucket.ok(), qPrintable(test::errorsOf(bucket)));
        const Override &b = bucket.set.rules.at(0).overrides.at(0);
        QCOMPARE(b.rate, (Rate{100, duration::usPerSecond}));
        QCOMPARE(b.burst, 200);
        QCOMPARE(b.expiresUs, (qint64(4070908800) - 3600) * 1000000);
        QVERIFY(
            rules::toYaml(bucket.set)
                .contains(
                    R"({"match": "partner-*", "limit": {"rate": "100/s", "burst": 200}, "expires": "2098-12-31T23:00:00Z"})"));
    }

    void rulesWithoutOverridesAreWrittenAsBefore()
    {
        const QByteArray file = "{\"version\": 1, \"rules\": [{\"id\": \"a\", \"scope\": \"ip\", "
                                "\"algorithm\": \"fixed_window\", \"limit\": 3, \"window\": "
                                "\"5s\"}]}";
        const rules::Loaded l = rules::parseJson(file, u"a.json"_s);
        QVERIFY(l.ok());
        QVERIFY(!rules::toJson(l.set).contains("overrides"));
        QVERIFY(!rules::toYaml(l.set).contains("overrides"));
    }

    void badInput_data()
    {
        test::columns<QByteArray, QByteArray>("overrides", "scope");
        QTest::addColumn<QByteArray>("at"); // the text the error points at
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("message"); // a part of it

        QTest::newRow("no match") << QByteArray(R"([{"allow": true}])") << QByteArray("ip")
                                  << QByteArray(R"({"allow")") << u"rules[0].overrides[0]"_s
                                  << u"one of subject"_s;
        QTest::newRow("two matches")
            << QByteArray(R"([{"subject": "1.2.3.4", "cidr": "1.2.0.0/16", "allow": true}])")
            << QByteArray("ip") << QByteArray(R"("cidr")") << u"rules[0].overrides[0].cidr"_s
            << u"both subject and cidr"_s;
        QTest::newRow("no action") << QByteArray(R"([{"subject": "1.2.3.4"}])") << QByteArray("ip")
                                   << QByteArray(R"({"subject")") << u"rules[0].overrides[0]"_s
                                   << u"allow: true or deny"_s;
        QTest::newRow("two actions")
            << QByteArray(R"([{"subject": "1.2.3.4", "allow": true, "deny": true}])")
            << QByteArray("ip") << QByteArray(R"("deny")") << u"rules[0].overrides[0].deny"_s
            << u"both allow and deny"_s;
        QTest::newRow("allow false") << QByteArray(R"([{"subject": "1.2.3.4", "allow": false}])")
                                     << QByteArray("ip") << QByteArray(R"("allow")")
                                     << u"rules[0].overrides[0].allow"_s << u"false does nothing"_s;
        QTest::newRow("other algorithm's shape")
            << QByteArray(R"([{"subject": "1.2.3.4", "limit": {"rate": "10/s", "burst": 5}}])")
            << QByteArray("ip") << QByteArray(R"("rate")") << u"rules[0].overrides[0].limit.rate"_s
            << u"'rate' is not a parameter of fixed_window"_s;
        QTest::newRow("limit not positive")
            << QByteArray(R"([{"subject": "1.2.3.4", "limit": {"limit": 0, "window": "5s"}}])")
            << QByteArray("ip") << QByteArray(R"("limit": 0)")
            << u"rules[0].overrides[0].limit.limit"_s << u"positive"_s;
        QTest::newRow("expired")
            << QByteArray(
                   R"([{"subject": "1.2.3.4", "deny": true, "expires": "2020-01-01T00:00:00Z"}])")
            << QByteArray("ip") << QByteArray(R"("expires")") << u"rules[0].overrides[0].expires"_s
            << u"expired at 2020-01-01T00:00:00Z"_s;
        QTest::newRow("time without zone")
            << QByteArray(
                   R"([{"subject": "1.2.3.4", "deny": true, "expires": "2099-01-01T00:00:00"}])")
            << QByteArray("ip") << QByteArray(R"("expires")") << u"rules[0].overrides[0].expires"_s
            << u"with its zone"_s;
        QTest::newRow("expires and ttl")
            << QByteArray(
                   R"([{"subject": "1.2.3.4", "deny": true, "expires": "2099-01-01T00:00:00Z", "ttl": "1h"}])")
            << QByteArray("ip") << QByteArray(R"("ttl")") << u"rules[0].overrides[0].ttl"_s
            << u"not both"_s;
        QTest::newRow("cidr on user scope")
            << QByteArray(R"([{"cidr": "10.0.0.0/8", "deny": true}])") << QByteArray("user")
            << QByteArray(R"("cidr")") << u"rules[0].overrides[0].cidr"_s
            << u"would match nothing"_s;
        QTest::newRow("invalid cidr")
            << QByteArray(R"([{"cidr": "10.0.0.300/8", "deny": true}])") << QByteArray("ip")
            << QByteArray(R"("cidr")") << u"rules[0].overrides[0].cidr"_s
            << u"'10.0.0.300' is not an IP address"_s;
        QTest::newRow("prefix too long")
            << QByteArray(R"([{"cidr": "10.0.0.0/33", "deny": true}])") << QByteArray("ip")
            << QByteArray(R"("cidr")") << u"rules[0].overrides[0].cidr"_s << u"from 0 to 32"_s;
        QTest::newRow("host bits")
            << QByteArray(R"([{"cidr": "10.1.2.3/8", "deny": true}])") << QByteArray("ip")
            << QByteArray(R"("cidr")") << u"rules[0].overrides[0].cidr"_s
            << u"write the network, 10.0.0.0/8"_s;
        QTest::newRow("empty glob") << QByteArray(R"([{"match": "", "deny": true}])")
                                    << QByteArray("ip") << QByteArray(R"("match")")
                                    << u"rules[0].overrides[0].match"_s << u"would match nothing"_s;
        QTest::newRow("same subject twice")
            << QByteArray(
                   R"([{"subject": "1.2.3.4", "allow": true}, {"subject": "1.2.3.4", "deny": true}])")
            << QByteArray("ip") << QByteArray(R"("subject": "1.2.3.4", "deny")")
            << u"rules[0].overrides[1].subject"_s
            << u"overrides[0] already matches the subject '1.2.3.4': it wins"_s;
        QTest::newRow("same network twice")
            << QByteArray(
                   R"([{"cidr": "10.0.0.0/8", "allow": true}, {"cidr": "10.0.0.0/8", "deny": true}])")
            << QByteArray("ip") << QByteArray(R"("cidr": "10.0.0.0/8", "deny")")
            << u"rules[0].overrides[1].cidr"_s << u"overrides[0] already matches the network"_s;
        QTest::newRow("glob without wildcard under a subject")
            << QByteArray(R"([{"subject": "bob", "allow": true}, {"match": "bob", "deny": true}])")
            << QByteArray("user") << QByteArray(R"("match")") << u"rules[0].overrides[1].match"_s
            << u"exact subject is more specific than a glob"_s;
        QTest::newRow("unknown field")
            << QByteArray(R"([{"subject": "1.2.3.4", "allow": true, "expire": "1h"}])")
            << QByteArray("ip") << QByteArray(R"("expire")") << u"rules[0].overrides[0].expire"_s
            << u"did you mean 'expires'"_s;
        QTest::newRow("not a list") << QByteArray(R"({"subject": "1.2.3.4"})") << QByteArray("ip")
                                    << QByteArray(R"("overrides")") << u"rules[0].overrides"_s
                                    << u"expected an array of overrides"_s;
        QTest::newRow("repeated field")
            << QByteArray(R"([{"subject": "1.2.3.4", "allow": true, "subject": "5.6.7.8"}])")
            << QByteArray("ip") << QByteArray(R"("subject": "5.6.7.8")")
            << u"rules[0].overrides[0].subject"_s << u"appears twice"_s;
    }

    void badInput()
    {
        QFETCH(QByteArray, overrides);
        QFETCH(QByteArray, scope);
        QFETCH(QByteArray, at);
        QFETCH(QString, path);
        QFETCH(QString, message);
        const QByteArray file = jsonFile(overrides, scope);
        const rules::Loaded l = rules::parseJson(file, u"bad.json"_s);
        QVERIFY(!l.ok());
        const auto [line, column] = where(file, at);
        bool found = false;
        for (const Diagnostic &d : l.errors) {
            if (d.path == path && d.message.contains(message)) {
                QCOMPARE(d.file, u"bad.json"_s);
                QCOMPARE(d.line, line);
                QCOMPARE(d.column, column);
                found = true;
            }
        }
        QVERIFY2(found, qPrintable(u"wanted %1 '%2' at %3:%4, got:\n%5"_s.arg(path, message)
                                       .arg(line)
                                       .arg(column)
                                       .arg(test::errorsOf(l))));
    }

    void badInputInYamlHasPositions()
    {
        const QByteArray yaml = "version: 1\nrules:\n  - id: hello\n    scope: ip\n"
                                "    algorithm: fixed_window\n    limit: 3\n    window: 5s\n"
                                "    overrides:\n      - subject: 1.2.3.4\n"
                                "        limit: {rate: 10/s, burst: 5}\n";
        const rules::Loaded l = rules::parseYaml(yaml, u"bad.yaml"_s);
        QVERIFY(!l.ok());
        const auto [line, column] = where(yaml, "rate:");
        bool found = false;
        for (const Diagnostic &d : l.errors) {
            if (d.path == u"rules[0].overrides[0].limit.rate"_s) {
                QCOMPARE(d.line, line);
                QCOMPARE(d.column, column);
                found = true;
            }
        }
        QVERIFY2(found, qPrintable(test::errorsOf(l)));
    }

    void longPatternsAreShortenedInMessages()
    {
        const QByteArray huge(5000, 'x');
        const rules::Loaded l = rules::parseJson(
            jsonFile("[{\"cidr\": \"" + huge + "/8\", \"deny\": true}]"), u"long.json"_s);
        QVERIFY(!l.ok());
        QVERIFY2(test::errorsOf(l).size() < 1000, qPrintable(test::errorsOf(l).left(300)));
    }

    void overrideJsonAlone()
    {
        Rule r = Rule::window(u"hello"_s, Algorithm::FixedWindow, 3, 5 * duration::usPerSecond,
                              Scope{Scope::Kind::Ip, {}});
        Override o = cidr(u"10.0.0.0/8"_s, Override::Action::Limit);
        o.limit = 30;
        o.windowUs = 5 * duration::usPerSecond;
        o.note = u"office"_s;
        const QByteArray json = rules::overrideToJson(r, o);
        QCOMPARE(
            json,
            QByteArray(
                R"({"cidr": "10.0.0.0/8", "limit": {"limit": 30, "window": "5s"}, "note": "office"})"));
        auto back = rules::overrideFromJson(r, json, u"k"_s);
        QVERIFY2(back.ok(), qPrintable(back ? QString() : back.error().message));
        QCOMPARE(*back, o);
        // Read against a rule of another shape, or scope, it is refused with the field named.
        Rule bucket = Rule::bucket(u"hello"_s, Algorithm::TokenBucket, Rate{1, 1000000}, 5,
                                   Scope{Scope::Kind::Ip, {}});
        QList<Diagnostic> errors;
        QVERIFY(!rules::overrideFromJson(bucket, json, u"k"_s, &errors));
        QVERIFY(std::any_of(errors.cbegin(), errors.cend(), [](const Diagnostic &d) {
            return d.path == u"limit.limit"_s &&
                   d.message.contains(u"not a parameter of token_bucket"_s);
        }));
        Rule user = r;
        user.scope = Scope{Scope::Kind::User, {}};
        errors.clear();
        QVERIFY(!rules::overrideFromJson(user, json, u"k"_s, &errors));
        QCOMPARE(errors.value(0).path, u"cidr"_s);
    }

    void keyMapTellsOverrideKeys()
    {
        const RuleSet set = ipRules("[]");
        const rules::KeyMap map(set);
        const auto own = map.match(test::keyPrefix() + "hello:{10.1.2.3}");
        QVERIFY(own && !own->override);
        const auto over = map.match(test::keyPrefix() + "hello:override:{10.1.2.3}");
        QVERIFY(over);
        QVERIFY(over->override);
        QCOMPARE(over->subject, QByteArray("10.1.2.3"));
        QCOMPARE(rules::overrideKeyFor(set.rules.at(0), "10.1.2.3"),
                 test::keyPrefix() + "hello:override:{10.1.2.3}");
    }

    // One matcher (core/common/glob.h) in both syntaxes: an override's match (no sets) and
    // SCAN MATCH's for adopt.match (sets, ranges, negation).
    void globs_data()
    {
        test::columns<QByteArray, QByteArray, bool, bool>("pattern", "subject", "redis", "matches");
        const auto both = [](const char *name, const QByteArray &g, const QByteArray &s, bool m) {
            QTest::newRow(name) << g << s << false << m;
            QTest::newRow(qPrintable(QStringLiteral("%1 (redis)").arg(QLatin1String(name))))
                << g << s << true << m;
        };
        both("prefix", "partner-*", "partner-acme", true);
        both("prefix, empty rest", "partner-*", "partner-", true);
        both("prefix, other", "partner-*", "partne", false);
        both("suffix", "*-eu", "acme-eu", true);
        both("middle", "a*b*c", "axxbyyc", true);
        both("middle, backtrack", "a*bc", "abcbc", true);
        both("middle, no", "a*b*c", "axxbyy", false);
        both("one", "user-?", "user-7", true);
        both("one, too many", "user-?", "user-77", false);
        both("escaped star", "a\\*", "a*", true);
        both("escaped star, no", "a\\*", "ab", false);
        both("trailing backslash is itself", "a\\", "a\\", true);
        both("case", "Partner-*", "partner-x", false);
        both("stars only", "**", "", true);
        both("empty matches only empty", "", "x", false);
        // Sets: SCAN MATCH's, literal in an override's match.
        QTest::newRow("set literal")
            << QByteArray("ip-[12]") << QByteArray("ip-[12]") << false << true;
        QTest::newRow("set literal, no")
            << QByteArray("ip-[12]") << QByteArray("ip-1") << false << false;
        QTest::newRow("set") << QByteArray("ip-[12]") << QByteArray("ip-2") << true << true;
        QTest::newRow("set, no") << QByteArray("ip-[12]") << QByteArray("ip-3") << true << false;
        QTest::newRow("negated set")
            << QByteArray("ip-[^12]") << QByteArray("ip-3") << true << true;
        QTest::newRow("range") << QByteArray("k[a-c]") << QByteArray("kb") << true << true;
        QTest::newRow("range either order")
            << QByteArray("k[c-a]") << QByteArray("kb") << true << true;
        QTest::newRow("escaped in a set")
            << QByteArray("k[\\]]") << QByteArray("k]") << true << true;
        QTest::newRow("set after a star")
            << QByteArray("rl:*:[0-9]") << QByteArray("rl:a:b:7") << true << true;
        QTest::newRow("open set runs to the end")
            << QByteArray("k[ab") << QByteArray("ka") << true << true;
        // A pattern that a recursive matcher (core/keys/layouts.cpp had one) takes exponential
        // time over: answered at once, both ways.
        const QByteArray stars = QByteArray("a*").repeated(24) + 'b';
        QTest::newRow("many stars, no") << stars << QByteArray(4000, 'a') << true << false;
        QTest::newRow("many stars, yes") << stars << QByteArray(4000, 'a') + 'b' << true << true;
    }

    void globs()
    {
        QFETCH(QByteArray, pattern);
        QFETCH(QByteArray, subject);
        QFETCH(bool, redis);
        QFETCH(bool, matches);
        const auto syntax = redis ? sluice::glob::Syntax::Redis : sluice::glob::Syntax::Subject;
        QCOMPARE(sluice::glob::matches(pattern, subject, syntax), matches);
        QCOMPARE(sluice::glob::hasWildcards(pattern, syntax),
                 pattern.contains('*') || pattern.contains('?') || pattern.contains('\\') ||
                     (redis && pattern.contains('[')));
    }

    void addresses()
    {
        QCOMPARE(rules::addressBytes("10.1.2.3"), QByteArray("\x0a\x01\x02\x03", 4));
        QCOMPARE(rules::addressBytes("::ffff:10.1.2.3"), QByteArray("\x0a\x01\x02\x03", 4));
        QCOMPARE(rules::addressBytes("2001:db8::1").size(), 16);
        QVERIFY(rules::addressBytes("010.1.2.3").isEmpty()); // no octal guesses
        QVERIFY(rules::addressBytes("10.1.2").isEmpty());
        QVERIFY(rules::addressBytes("10.1.2.256").isEmpty());
        QVERIFY(rules::addressBytes("alice").isEmpty());
        QString error;
        const auto n = rules::parseNetwork(u"2001:db8::/32"_s, &error);
        QVERIFY2(n, qPrintable(error));
        QCOMPARE(n->prefix, 32);
        QVERIFY(!n->isV4());
    }

    void precedence()
    {
        // File order deliberately against the ranking: glob, /8, /16, exact.
        Override g = globOverride(u"10.*"_s, Override::Action::Deny);
        Override wide = cidr(u"10.0.0.0/8"_s, Override::Action::Deny);
        Override narrow = cidr(u"10.1.0.0/16"_s, Override::Action::Allow);
        Override exact = subject(u"10.1.2.3"_s, Override::Action::Limit);
        Override six = cidr(u"2001:db8::/32"_s, Override::Action::Deny);
        const rules::OverrideMatcher m({g, wide, narrow, exact, six}, 0);
        QCOMPARE(m.size(), 5);
        const auto at = [&](const char *s) { return m.indexOf(m.find(s, 1)); };
        QCOMPARE(at("10.1.2.3"), 3);  // exact first
        QCOMPARE(at("10.1.9.9"), 2);  // the longest prefix
        QCOMPARE(at("10.2.0.1"), 1);  // the shorter one
        QCOMPARE(at("10.x"), 0);      // not an address: the glob
        QCOMPARE(at("11.0.0.1"), -1); // nothing: the rule's limit
        QCOMPARE(at("2001:db8::5"), 4);
        QCOMPARE(at("::ffff:10.1.2.3"), 2); // a mapped v4 address is the v4 address
        QVERIFY(m.find("11.0.0.1", 1) == nullptr);

        // Two globs: the first in the list wins.
        const rules::OverrideMatcher globsOnly(
            {globOverride(u"partner-*"_s, Override::Action::Allow),
             globOverride(u"*-eu"_s, Override::Action::Deny)},
            0);
        QCOMPARE(globsOnly.indexOf(globsOnly.find("partner-eu", 1)), 0);
        QCOMPARE(globsOnly.indexOf(globsOnly.find("acme-eu", 1)), 1);
    }

    void expiry()
    {
        Override ends = subject(u"bob"_s, Override::Action::Deny);
        ends.expiresUs = 1000;
        Override ttl = globOverride(u"b*"_s, Override::Action::Allow);
        ttl.ttlUs = 500; // from loadedAtUs
        const rules::OverrideMatcher m({ends, ttl}, 2000);
        QCOMPARE(m.indexOf(m.find("bob", 999)), 0);
        // The exact one ended: the glob applies now, until its own end (2000 + 500).
        QCOMPARE(m.indexOf(m.find("bob", 1000)), 1);
        QCOMPARE(m.indexOf(m.find("bob", 2499)), 1);
        QVERIFY(m.find("bob", 2500) == nullptr);
        QCOMPARE(m.endUs(m.find("bob", 2000)), 2500);
    }
};

QTEST_GUILESS_MAIN(TestOverrides)
#include "tst_overrides.moc"
