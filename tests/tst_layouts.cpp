// The limiter key layouts Sluice recognises (core/keys/layouts.h): one data
// row per layout of the table, its keys planted in the fixture's Redis as the library writes
// them (from its source), read and judged by KeyAuditor as `keys audit` does (the libraries
// that install here write their own keys in tst_real_limiters). Also: the classic bugs (an INCR
// after expiry, an EXPIRE lost after its INCR) found and repaired, application keys left
// unflagged, sliding logs told from registries of client ids, groups ordered by what a lost
// TTL does, and each adoptable counter's twin doing with a lost TTL what its row says.
#include "runcli.h"
#include "testkit.h"
#include "testredis.h"

#include "core/keys/audit.h"
#include "core/keys/keyreader.h"
#include "core/rules/adoption.h"
#include "core/sim/foreigncounter.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <thread>

using namespace sluice;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

qint64 serverNowUs(Connection &c)
{
    auto t = c.command({"TIME"});
    if (!t || t->elements.size() != 2) {
        return 0;
    }
    return t->elements[0].str.toLongLong() * 1'000'000 + t->elements[1].str.toLongLong();
}

QByteArray num(qint64 v)
{
    return QByteArray::number(v);
}

} // namespace

class TestLayouts : public QObject
{
    Q_OBJECT

    QList<QByteArray> m_planted;
    QSet<QString> m_tested;

    // Reads `keys` as the audit does (TYPE and PTTL from KeyReader, the values by KeyAuditor).
    QList<AuditEntry> judge(Connection &c, const QList<QByteArray> &keys,
                            std::optional<RuleSet> rules = std::nullopt)
    {
        KeyReader reader(std::move(rules));
        auto infos = reader.read(c, keys);
        if (!infos) {
            qWarning() << infos.error().message;
            return {};
        }
        auto entries = KeyAuditor::judge(c, *infos, {});
        if (!entries) {
            qWarning() << entries.error().message;
            return {};
        }
        return *entries;
    }

    void plant(Connection &c, const QList<QByteArray> &command)
    {
        auto r = c.command(command);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
        m_planted << command[1];
    }

private Q_SLOTS:
    // The literal runs a key must hold before a row's expression runs on it: required ones
    // only (never text made optional, inside a group or a class, or beside an alternation).
    void requiredLiteralsOfTheRows()
    {
        using L = std::vector<QByteArray>;
        QCOMPARE(requiredLiterals(R"(rl:.+)"), (L{"rl:"}));
        QCOMPARE(requiredLiterals(R"(.*\{[0-9a-f]{32,64}:[^{}]*\}:hits)"), (L{"{", ":", "}:hits"}));
        QCOMPARE(requiredLiterals(R"(request_rate_limiter\.\{.*\}\.tokens)"),
                 (L{"request_rate_limiter.{", "}.tokens"}));
        QCOMPARE(requiredLiterals(R"(.*_cache_?:[0-9a-f]{32}([0-9a-f]{8})?:timer)"),
                 (L{"_cache", ":", ":timer"}));
        QCOMPARE(requiredLiterals(R"((LIMITS:)?LIMITER/.+)"), (L{"LIMITER/"}));
        QCOMPARE(requiredLiterals(R"(rack::attack:(fail2ban|allow2ban):ban:.+)"),
                 (L{"rack::attack:", ":ban:"}));
        QCOMPARE(requiredLiterals(R"(ab|cd)"), L{});
        QCOMPARE(requiredLiterals(""), L{});
        // Every row's literals are in the keys its expression matches.
        for (const Layout &l : layouts()) {
            for (const QByteArray &literal : requiredLiterals(l.keyRegex)) {
                QVERIFY2(!literal.isEmpty(), l.id);
            }
        }
    }

    // keyFits() walks the rows made only of literal text, `.*` and `.+` as globs over the key's
    // bytes, and runs the expression for the others: the same verdict as the expression on
    // every row, for names that fit, nearly fit, and hold control bytes or invalid UTF-8.
    void keyFitsAsTheExpression()
    {
        const QByteArray hex(64, 'a');
        QList<QByteArray> names{"",
                                "rl:",
                                "rl:x",
                                "rl:10.0.0.1",
                                "xrl:1",
                                "rlflx:a:b",
                                "rate:k",
                                "rate_limit:fw:{10.1}",
                                ":{}",
                                "a:{}",
                                "a:{b}c",
                                "a:{b}:{c}",
                                "a:{\n}",
                                "x:{y}}",
                                "fastify-rate-limit-",
                                "fastify-rate-limit-GET/x-1",
                                "request_rate_limiter.{a}.tokens",
                                "request_rate_limiter.{a}.tokensx",
                                "request_rate_limiterX{a}.tokens",
                                "request_rate_limiter.{a}.timestamp",
                                "{" + hex + ":default}:hits",
                                "ratelimit:a:b:c:1700000000000:minute",
                                "LIMITER/u/5/1/minute",
                                "a_b_1700000000",
                                "x_cache:" + QByteArray(32, 'f') + ":timer",
                                QByteArray("rl:\x00\xff\n", 6),
                                QByteArray("a:{\x00}", 5)};
        for (const Layout &l : layouts()) {
            if (l.keyRegex[0] == '\0') {
                continue;
            }
            const QRegularExpression re(
                QRegularExpression::anchoredPattern(QString::fromLatin1(l.keyRegex)),
                QRegularExpression::DotMatchesEverythingOption);
            for (const QByteArray &name : std::as_const(names)) {
                const bool want = re.match(QString::fromLatin1(name)).hasMatch();
                QVERIFY2(keyFits(l, name) == want,
                         (QByteArray(l.id) + " on " + name.toPercentEncoding()).constData());
            }
        }
    }

    void cleanupTestCase()
    {
        Connection c = test::connect();
        for (const QByteArray &k : std::as_const(m_planted)) {
            (void)c.command({"DEL", k});
        }
    }

    // Every row of the table has a data row below, and the ids are unique and stable-looking.
    void table()
    {
        QSet<QString> ids;
        for (const Layout &l : layouts()) {
            const QString id = QString::fromLatin1(l.id);
            QVERIFY2(!ids.contains(id), qPrintable(id));
            ids << id;
            QVERIFY(QRegularExpression(u"^[a-z0-9_]+$"_s).match(id).hasMatch());
            QVERIFY(*l.explanation != '\0');
            QVERIFY(*l.valueShape != '\0');
        }
        QCOMPARE(findLayout(u"string_counter"_s)->id, std::string_view("string_counter"));
        QVERIFY(findLayout(u"nope"_s) == nullptr);
    }

    // The ids the rule validator knows (core/rules/adoption.h, below core/keys) are the
    // table's, in its order, with the same adoptability; every adoptable counter has a script.
    void validatorKnowsTheTable()
    {
        const auto &ids = adoption::layoutIds();
        QCOMPARE(qsizetype(ids.size()), layouts().size());
        for (qsizetype i = 0; i < layouts().size(); ++i) {
            const Layout &l = layouts()[i];
            QCOMPARE(std::string_view(ids[size_t(i)].id), std::string_view(l.id));
            QCOMPARE(ids[size_t(i)].adoptable, l.adoptable);
            const bool counter = l.adoptable && QByteArray(l.type) == "string";
            QCOMPARE(ids[size_t(i)].script.has_value(), counter);
        }
        QCOMPARE(adoption::adoptableIds(), layoutIds(true));
    }

    void rows_data()
    {
        test::columns<QString, QString, QString>("layout", "health", "state");
        QTest::addColumn<QList<QByteArray>>("command"); // the key is argv[1]
        QTest::addColumn<qint64>("pttl");               // PEXPIRE after planting; -1: none
        QTest::addColumn<QString>("ruleAlgorithm");     // a Sluice rule producing the key

        Connection c = test::connect();
        const qint64 now = serverNowUs(c);
        const QByteArray p = test::keyPrefix();
        const qint64 nowMs = now / 1000;
        const qint64 nowS = now / 1'000'000;
        using L = QList<QByteArray>;

        QTest::newRow("sluice_fixed_window")
            << u"sluice_fixed_window"_s << u"ok"_s << u"count 2"_s
            << L{"HSET", p + "sluice:fw:{1.2.3.4}", "s", num(now - 1'000'000), "c", "2"}
            << qint64(4000) << QString();
        QTest::newRow("sluice_sliding_counter")
            << u"sluice_sliding_counter"_s << u"ok"_s << u"this window 3, previous 1"_s
            << L{"HSET", p + "sluice:sc:{1.2.3.4}", "s", num(now), "c", "3", "p", "1"}
            << qint64(4000) << QString();
        QTest::newRow("sluice_token_bucket")
            << u"sluice_token_bucket"_s << u"never_expires"_s << u"level 5000 ticks"_s
            << L{"HSET", p + "sluice:tb:{1.2.3.4}", "l", "5000", "t", num(now)} << qint64(-1)
            << QString();
        // The leaky bucket shares the token bucket's fields: the rule tells them apart.
        QTest::newRow("sluice_leaky_bucket")
            << u"sluice_leaky_bucket"_s << u"ok"_s << u"queue"_s
            << L{"HSET", p + "r:leaky:{1.2.3.4}", "l", "1000000", "t", num(now)} << qint64(400)
            << u"leaky_bucket"_s;
        QTest::newRow("sluice_sliding_log")
            << u"sluice_sliding_log"_s << u"ok"_s << u"2 entries"_s
            << L{"ZADD", p + "sluice:sl:{1.2.3.4}", num(now), "a", num(now - 10), "b"}
            << qint64(4000) << QString();
        QTest::newRow("sluice_gcra") << u"sluice_gcra"_s << u"ok"_s << u"TAT in"_s
                                     << L{"SET", p + "sluice:g:{1.2.3.4}", num(now + 1'500'000)}
                                     << qint64(4000) << QString();
        // Kong policies: ratelimit:<route>:<service>:<identifier>:<period_date>:<period>,
        // INCRBY then EXPIRE <period's seconds> in one pipeline.
        QTest::newRow("kong_counter")
            << u"kong_counter"_s << u"ok"_s << u"4 requests in this window"_s
            << L{"SET",
                 "ratelimit:route1:svc1:" + p + "1.2.3.4:" + num(nowS / 60 * 60000) + ":minute",
                 "4"}
            << qint64(60'000) << QString();
        // One request: English plurals ("1 request", not "1 requests").
        QTest::newRow("kong_counter one")
            << u"kong_counter"_s << u"ok"_s << u"1 request in this window"_s
            << L{"SET",
                 "ratelimit:route1:svc1:" + p + "9.9.9.9:" + num(nowS / 60 * 60000) + ":minute",
                 "1"}
            << qint64(60'000) << QString();
        // ... and one that got an hour where a minute was meant.
        QTest::newRow("kong_counter too long")
            << u"kong_counter"_s << u"ttl_too_long"_s << u"resets in"_s
            << L{"SET",
                 "ratelimit:route1:svc1:" + p + "5.6.7.8:" + num(nowS / 60 * 60000) + ":minute",
                 "4"}
            << qint64(3'600'000) << QString();
        // Spring Cloud Gateway's request_rate_limiter.lua: SETEX both keys, ttl = 2 x fill time.
        QTest::newRow("spring_gateway_tokens")
            << u"spring_gateway_tokens"_s << u"ok"_s << u"9 tokens left"_s
            << L{"SET", "request_rate_limiter.{" + p + "user1}.tokens", "9"} << qint64(10'000)
            << QString();
        QTest::newRow("spring_gateway_timestamp")
            << u"spring_gateway_timestamp"_s << u"ok"_s << u"last refill"_s
            << L{"SET", "request_rate_limiter.{" + p + "user1}.timestamp", num(nowS)}
            << qint64(10'000) << QString();
        // Redisson RRateLimiter: trySetRate's hash, then {name}:value and {name}:permits (a
        // packed random id + permits per acquisition, scored in ms); no TTL by default.
        QTest::newRow("redisson_config")
            << u"redisson_config"_s << u"by_design"_s << u"10 permits per 1 s (overall)"_s
            << L{"HSET", p + "limiter", "rate", "10", "interval", "1000", "type", "0"} << qint64(-1)
            << QString();
        QTest::newRow("redisson_value")
            << u"redisson_value"_s << u"by_design"_s << u"7 permits available"_s
            << L{"SET", "{" + p + "limiter}:value", "7"} << qint64(-1) << QString();
        QTest::newRow("redisson_permits")
            << u"redisson_permits"_s << u"by_design"_s << u"3 permits taken"_s
            << L{"ZADD",
                 "{" + p + "limiter}:permits",
                 num(nowMs - 300),
                 QByteArray("\x08\x91\x12\xa4\x55\x01\x02\x03\x04\x00\x00\x00\x01", 13),
                 num(nowMs - 200),
                 QByteArray("\x08\x11\x22\x33\x44\x55\x66\x77\x88\x01", 10),
                 num(nowMs - 100),
                 QByteArray("\x08\x99\x22\x33\x44\x55\x66\x77\x88\x01", 10)}
            << qint64(-1) << QString();
        // redis-cell's CL.THROTTLE keeps the TAT in ns as a string, with a TTL.
        QTest::newRow("redis_cell")
            << u"redis_cell"_s << u"ok"_s << u"TAT in"_s
            << L{"SET", p + "cell:user1", num((now + 800'000) * 1000)} << qint64(2000) << QString();
        QTest::newRow("rlflx") << u"rlflx"_s << u"ok"_s << u"3 points consumed"_s
                               << L{"SET", "rlflx:" + p + "planted", "3"} << qint64(60'000)
                               << QString();
        // ExpressBruteFlexible: <prefix>block:<key>, 1 while blocked.
        QTest::newRow("rlflx_block")
            << u"rlflx_block"_s << u"ok"_s << u"1 point consumed"_s
            << L{"SET", "block:" + p + "1.2.3.4", "1"} << qint64(30'000) << QString();
        QTest::newRow("rate_limit_redis")
            << u"rate_limit_redis"_s << u"ok"_s << u"4 requests in this window"_s
            << L{"SET", "rl:" + p + "planted", "4"} << qint64(60'000) << QString();
        // Envoy ratelimit: domain_key_value_..._<window start>, INCRBY + EXPIRE unit.
        QTest::newRow("envoy_counter")
            << u"envoy_counter"_s << u"ok"_s << u"3 requests"_s
            << L{"SET", "mongo_cps_" + p + "database_users_" + num(nowS / 60 * 60), "3"}
            << qint64(60'000) << QString();
        // @nestjs/throttler's Redis storages: {<sha256>:<throttler>}:hits and :blocked.
        const QByteArray sha = QCryptographicHash::hash(p, QCryptographicHash::Sha256).toHex();
        QTest::newRow("nestjs_hits")
            << u"nestjs_hits"_s << u"ok"_s << u"2 requests in this window"_s
            << L{"SET", "{" + sha + ":default}:hits", "2"} << qint64(60'000) << QString();
        QTest::newRow("nestjs_blocked")
            << u"nestjs_blocked"_s << u"ok"_s << u"blocked for"_s
            << L{"SET", "{" + sha + ":default}:blocked", "1"} << qint64(30'000) << QString();
        QTest::newRow("fastify_counter")
            << u"fastify_counter"_s << u"never_expires"_s << u"never resets (no TTL)"_s
            << L{"SET", "fastify-rate-limit-" + p + "127.0.0.1", "7"} << qint64(-1) << QString();
        // go-redis/redis_rate: the TAT in s since 2017-01-01, SET EX.
        QTest::newRow("redis_rate")
            << u"redis_rate"_s << u"ok"_s << u"TAT in"_s
            << L{"SET", "rate:" + p + "user1",
                 QByteArray::number(double(nowS - 1'483'228'800) + 2.25, 'f', 6)}
            << qint64(3000) << QString();
        // Rack::Attack: rack::attack:<now / period>:<name>:<discriminator>; the ban key.
        QTest::newRow("rack_attack_counter")
            << u"rack_attack_counter"_s << u"ok"_s << u"3 requests"_s
            << L{"SET", "rack::attack:" + num(nowS / 60) + ":req/ip:" + p + "1.2.3.4", "3"}
            << qint64(60'000) << QString();
        QTest::newRow("rack_attack_ban")
            << u"rack_attack_ban"_s << u"never_expires"_s << u"blocked for good (no TTL)"_s
            << L{"SET", "rack::attack:fail2ban:ban:" + p + "1.2.3.4", "1"} << qint64(-1)
            << QString();
        // python limits: [LIMITS:]LIMITER/<ids>/<amount>/<multiples>/<granularity>; the window
        // (multiples x granularity) comes from the name: an hour on a minute is too long.
        QTest::newRow("limits_fixed_window")
            << u"limits_fixed_window"_s << u"ok"_s << u"4 requests"_s
            << L{"SET", "LIMITS:LIMITER/" + p + "1.2.3.4/10/1/minute", "4"} << qint64(60'000)
            << QString();
        QTest::newRow("limits_fixed_window too long")
            << u"limits_fixed_window"_s << u"ttl_too_long"_s << u"4 requests"_s
            << L{"SET", "LIMITER/" + p + "1.2.3.4/10/2/minute", "4"} << qint64(3'600'000)
            << QString();
        // ... its moving window: a list of the hits' times (s, with a fraction), newest first.
        QTest::newRow("limits_moving_window")
            << u"limits_moving_window"_s << u"ok"_s << u"2 timestamps in the last 1 min"_s
            << L{"RPUSH", "LIMITER/" + p + "1.2.3.4/10/1/minute", num(nowS) + ".25",
                 num(nowS - 10) + ".5"}
            << qint64(60'000) << QString();
        QTest::newRow("limits_moving_window no TTL")
            << u"limits_moving_window"_s << u"never_expires"_s << u"1 timestamp"_s
            << L{"RPUSH", "LIMITER/" + p + "5.6.7.8/10/1/minute", num(nowS) + ".75"} << qint64(-1)
            << QString();
        // django-ratelimit through Django's RedisCache: :1:rl:<sha256>.
        QTest::newRow("django_ratelimit")
            << u"django_ratelimit"_s << u"ok"_s << u"5 requests"_s
            << L{"SET", p + ":1:rl:" + sha, "5"} << qint64(65'000) << QString();
        // Laravel's RateLimiter under the skeleton's prefixes: the counter and its :timer.
        const QByteArray sha1 = QCryptographicHash::hash(p, QCryptographicHash::Sha1).toHex();
        QTest::newRow("laravel_counter")
            << u"laravel_counter"_s << u"ok"_s << u"2 requests"_s
            << L{"SET", p + "laravel_database_laravel_cache_:" + sha1, "2"} << qint64(60'000)
            << QString();
        QTest::newRow("laravel_timer")
            << u"laravel_timer"_s << u"ok"_s << u"available again in"_s
            << L{"SET", p + "laravel_database_laravel_cache_:" + sha1 + ":timer", num(nowS + 50)}
            << qint64(60'000) << QString();
        QTest::newRow("laravel_duration")
            << u"laravel_duration"_s << u"ok"_s << u"3 in the window ending in"_s
            << L{"HSET",  p + "laravel_database_throttle-mail",
                 "start", num(nowS - 10),
                 "end",   num(nowS + 50),
                 "count", "3"}
            << qint64(120'000) << QString();
        // A Kong counter whose period ended half an hour ago: an orphan by its name alone,
        // whatever its TTL; and Envoy's likewise.
        QTest::newRow("kong_counter orphan")
            << u"kong_counter"_s << u"window_ended"_s << u"4 requests"_s
            << L{"SET",
                 "ratelimit:route1:svc1:" + p + "7.7.7.7:" + num((nowS / 60 - 30) * 60000) +
                     ":minute",
                 "4"}
            << qint64(-1) << QString();
        QTest::newRow("envoy_counter orphan")
            << u"envoy_counter"_s << u"window_ended"_s << u"3 requests"_s
            << L{"SET", "mongo_cps_" + p + "database_users_" + num((nowS / 60 - 30) * 60), "3"}
            << qint64(-1) << QString();
        // The Spring @RateLimiter aspect of the issue: GET/INCR/EXPIRE, EXPIRE lost.
        QTest::newRow("string_counter")
            << u"string_counter"_s << u"never_expires"_s << u"57 requests in this window"_s
            << L{"SET", "rate_limit:" + p + "127.0.0.1-com.example.HelloController-hello", "57"}
            << qint64(-1) << QString();
        for (const char *prefix : {"count_rate_limit:ip:", "limit:", "ratelimit:", "throttle:"}) {
            QTest::newRow(("string_counter " + QByteArray(prefix)).constData())
                << u"string_counter"_s << u"ok"_s << u"2 requests"_s
                << L{"SET", QByteArray(prefix) + p + "1.2.3.4", "2"} << qint64(60'000) << QString();
        }
        // Bucket4j's serialized state (a big-endian int first), without an expiration strategy.
        QByteArray state(48, '\0');
        state[3] = 1;
        state[7] = 1;
        state[20] = char(0x42);
        QTest::newRow("bucket4j") << u"bucket4j"_s << u"by_design"_s
                                  << u"binary bucket state, 48 B"_s
                                  << L{"SET", p + "bucket4j:user42", state} << qint64(-1)
                                  << QString();
        // A sliding-window log: ZADD now now, ZREMRANGEBYSCORE, ZCARD, EXPIRE window.
        QTest::newRow("sorted_set_log") << u"sorted_set_log"_s << u"ok"_s << u"3 timestamps"_s
                                        << L{"ZADD",
                                             p + "sliding:user1",
                                             num(nowMs - 2000),
                                             num(nowMs - 2000),
                                             num(nowMs - 1000),
                                             num(nowMs - 1000),
                                             num(nowMs),
                                             num(nowMs)}
                                        << qint64(60'000) << QString();
    }

    void rows()
    {
        QFETCH(QString, layout);
        QFETCH(QString, health);
        QFETCH(QString, state);
        QFETCH(QList<QByteArray>, command);
        QFETCH(qint64, pttl);
        QFETCH(QString, ruleAlgorithm);
        Connection c = test::connect();
        const QByteArray key = command[1];
        QVERIFY(c.command({"DEL", key}));
        plant(c, command);
        if (pttl > 0) {
            QVERIFY(c.command({"PEXPIRE", key, num(pttl)}));
        }
        std::optional<RuleSet> rules;
        if (!ruleAlgorithm.isEmpty()) {
            RuleSet set;
            set.rules.push_back(Rule::bucket(u"leaky"_s, Algorithm::LeakyBucket,
                                             Rate{10, duration::usPerSecond}, 5, {},
                                             test::keyPrefix() + "r:"));
            rules = set;
        }
        const QList<AuditEntry> got = judge(c, {key}, rules);
        QCOMPARE(got.size(), 1);
        const AuditEntry &e = got.first();
        QCOMPARE(e.layout, layout);
        QCOMPARE(auditHealthName(e.health), health);
        QVERIFY2(e.state.contains(state), qPrintable(e.state));
        if (isFlagged(e.health)) {
            QVERIFY(!e.cause.isEmpty());
        }
        m_tested << layout;
    }

    void everyRowHasATest()
    {
        for (const Layout &l : layouts()) {
            QVERIFY2(m_tested.contains(QString::fromLatin1(l.id)), l.id);
        }
    }

    // An adopted key read by KeyReader::read (the Keys page's once-a-second refresher) is
    // decoded against the adopted limit, as the scan decodes it.
    void adoptedKeyRefreshed()
    {
        Connection c = test::connect();
        const QByteArray p = test::keyPrefix();
        const QByteArray key = p + "spring:127.0.0.1-hello";
        plant(c, {"SET", key, "57"});
        RuleSet set;
        Rule rule = Rule::window(u"hello"_s, Algorithm::FixedWindow, 3, 5 * duration::usPerSecond,
                                 {}, p + "spring:");
        rule.adopt =
            Adopt{p + "spring:*-hello", u"string_counter"_s, 60 * duration::usPerSecond, 100, {}};
        set.rules.push_back(rule);
        KeyReader reader(set);
        auto infos = reader.read(c, {key});
        QVERIFY(infos && infos->size() == 1);
        const KeyInfo &k = infos->first();
        QCOMPARE(k.adoptedAs, u"string_counter"_s);
        QCOMPARE(k.health, Health::NoTtl);
        QCOMPARE(k.maxTtlMs, qint64(60'000));
        QCOMPARE(k.state.describe(), u"57 / 100 in this window, never resets (no TTL)"_s);
    }

    // A key named like a layout's but holding something else looks like it, and is not judged
    // as it: no layout, no state, not flagged.
    void namedLikeALayout()
    {
        Connection c = test::connect();
        const QByteArray key = "rl:" + test::keyPrefix() + "a-hash";
        plant(c, {"HSET", key, "x", "1"});
        const QList<AuditEntry> got = judge(c, {key});
        QCOMPARE(got.size(), 1);
        QVERIFY(got[0].layout.isEmpty());
        QCOMPARE(got[0].looksLike, u"rate_limit_redis"_s);
        QCOMPARE(got[0].health, AuditHealth::LooksLike);
        QVERIFY(!isFlagged(got[0].health));
        QVERIFY(got[0].state.isEmpty());
        QVERIFY2(got[0].cause.contains(u"express-rate-limit"_s), qPrintable(got[0].cause));
        // A list under python limits' name whose items are not times: not a moving window.
        const QByteArray list = "LIMITER/" + test::keyPrefix() + "jobs/10/1/minute";
        plant(c, {"RPUSH", list, "send-mail", "resize"});
        const QList<AuditEntry> other = judge(c, {list});
        QCOMPARE(other.size(), 1);
        QVERIFY(other[0].layout.isEmpty());
        QCOMPARE(other[0].health, AuditHealth::LooksLike);
        QVERIFY(other[0].state.isEmpty());
    }

    // Sessions, configuration, queues: application keys without TTL, never flagged; an integer
    // string named like a limit and matching no layout is a suspect, with the reason.
    void applicationKeysAndSuspects()
    {
        Connection c = test::connect();
        const QByteArray p = test::keyPrefix();
        plant(c, {"SET", p + "session:9f2c", R"({"user":7})"});
        plant(c, {"HSET", p + "config:app", "theme", "dark"});
        plant(c, {"RPUSH", p + "queue:jobs", "a", "b"});
        plant(c, {"SADD", p + "feature-flags", "x"});
        plant(c, {"SET", p + "visits:2026", "12345"});
        plant(c, {"ZADD", p + "leaderboard", "12", "alice"});
        plant(c, {"SET", p + "cache:user:7", "x"});
        QVERIFY(c.command({"PEXPIRE", p + "cache:user:7", "60000"}));
        plant(c, {"SET", p + "api_quota_user_7", "12"});
        const QList<AuditEntry> got = judge(
            c, {p + "session:9f2c", p + "config:app", p + "queue:jobs", p + "feature-flags",
                p + "visits:2026", p + "leaderboard", p + "cache:user:7", p + "api_quota_user_7"});
        QCOMPARE(got.size(), 8);
        for (int i = 0; i < 6; ++i) {
            QCOMPARE(auditHealthName(got[i].health), u"other_no_ttl"_s);
            QVERIFY(!isFlagged(got[i].health));
            QVERIFY(got[i].layout.isEmpty());
        }
        QCOMPARE(got[6].health, AuditHealth::Other);
        QCOMPARE(got[7].health, AuditHealth::Suspect);
        QVERIFY2(got[7].cause.contains(u"\"quota\""_s), qPrintable(got[7].cause));
    }

    // A sliding log's members are times; a registry's are names. The same scores (last seen,
    // in ms, near now) without a time in the member are not a log, whatever the name.
    void slidingLogIsNotARegistry_data()
    {
        test::columns<QByteArray, QByteArray, bool>("oldest", "newest", "log");
        QTest::newRow("ZADD now now")
            << QByteArray("1765000000000") << QByteArray("1765000001000") << true;
        QTest::newRow("now-random")
            << QByteArray("1765000000000-7f3a") << QByteArray("1765000001000-09bc") << true;
        QTest::newRow("sluice member")
            << QByteArray("1765000000000000:0") << QByteArray("1765000001000000:3") << true;
        QTest::newRow("client ids")
            << QByteArray("worker-7f3a:pid-4121") << QByteArray("worker-9c1e:pid-77") << false;
        QTest::newRow("numeric ids") << QByteArray("4121") << QByteArray("77") << false;
        QTest::newRow("uuid") << QByteArray("0f8fad5b-d9cb-469f-a165-70867728950e")
                              << QByteArray("7c9e6679-7425-40de-944b-e07fc1f90ae7") << false;
    }
    void slidingLogIsNotARegistry()
    {
        QFETCH(QByteArray, oldest);
        QFETCH(QByteArray, newest);
        QFETCH(bool, log);
        ForeignRead r;
        r.key = "bull:mail:clients";
        r.type = "zset";
        r.pttlMs = -1;
        r.nowUs = 1'765'000'002'000'000;
        r.zcard = 2;
        // Scores in the member's unit for logs; the registry scores its last-seen ms.
        const bool us = oldest.contains(':') && !oldest.startsWith("worker");
        r.oldest = std::pair{oldest, QByteArray(us ? "1765000000000000" : "1765000000000")};
        r.newest = std::pair{newest, QByteArray(us ? "1765000001000000" : "1765000001000")};
        const Layout *l = matchLayout(r);
        QCOMPARE(l != nullptr && QByteArray(l->id) == "sorted_set_log", log);
        const AuditEntry e = KeyAuditor::classify(r, KeyInfo{}, {});
        QCOMPARE(isFlagged(e.health), log); // a log without TTL is flagged; a registry never
    }

    // `keys audit` lists the flagged groups by what a lost TTL does: a blocked subject first,
    // then idle keys kept, then keys that heal, then orphans; the most flagged within each.
    void groupsOrderedBySeverity()
    {
        AuditReport report;
        auto add = [&](const char *layout, AuditHealth h, int n) {
            const Layout *l = findLayout(QString::fromLatin1(layout));
            for (int i = 0; i < n; ++i) {
                AuditEntry e;
                e.layout = QString::fromLatin1(layout);
                e.health = h;
                e.lostTtl = lostTtlName(l->lostTtl);
                e.severity = severity(l->lostTtl);
                report.add(e);
            }
        };
        add("kong_counter", AuditHealth::Orphan, 50);
        add("rate_limit_redis", AuditHealth::NeverExpires, 30);
        add("rlflx", AuditHealth::ByDesign, 90);
        add("sorted_set_log", AuditHealth::NeverExpires, 3);
        add("fastify_counter", AuditHealth::NeverExpires, 1);
        add("string_counter", AuditHealth::NeverExpires, 2);
        add("envoy_counter", AuditHealth::Ok, 500);
        report.sortGroups();
        QStringList order;
        for (const AuditGroup &g : std::as_const(report.groups)) {
            order << g.layout;
        }
        QCOMPARE(order, (QStringList{u"string_counter"_s, u"fastify_counter"_s, u"sorted_set_log"_s,
                                     u"rate_limit_redis"_s, u"kong_counter"_s, u"envoy_counter"_s,
                                     u"rlflx"_s}));
        QCOMPARE(report.group(u"rlflx"_s)->flagged(), 0); // by design: not flagged
        QCOMPARE(report.flagged(), 50 + 30 + 3 + 1 + 2);
    }

    // The twin each adoptable counter row simulates does with a key without TTL what the row
    // says: blocks_subject keeps counting without one; heals_on_next_request gets one back.
    void twinsFollowTheLostTtl()
    {
        for (const Layout &l : layouts()) {
            const adoption::LayoutId *id = adoption::findLayoutId(QString::fromLatin1(l.id));
            QVERIFY(id != nullptr);
            if (!id->script || *id->script == adoption::CounterScript::Calendar) {
                continue; // not a counter, or a key per window (orphaned_by_window_in_name)
            }
            const sim::ForeignCounter twin{*id->script, 5, 60 * duration::usPerSecond};
            sim::ForeignState s{true, 7, -1, 0}; // over the limit, without TTL
            const sim::ForeignOutcome o = sim::decide(twin, s, 1'000'000);
            if (l.lostTtl == LostTtl::BlocksSubject) {
                QVERIFY2(s.expiresAtMs == -1 && !o.decision.allowed, l.id);
            } else {
                QVERIFY2(s.expiresAtMs > 0, l.id);
                QCOMPARE(l.lostTtl, LostTtl::HealsOnNextRequest);
            }
        }
        QCOMPARE(adoption::findLayoutId(u"fastify_counter"_s)->script,
                 adoption::CounterScript::IncrExpire);
        QCOMPARE(adoption::findLayoutId(u"rate_limit_redis"_s)->script,
                 adoption::CounterScript::IncrRepairTtl);
    }

    // An adopted counter whose library gives a lost TTL back is not said to block.
    void adoptedHealingKey()
    {
        Connection c = test::connect();
        const QByteArray p = test::keyPrefix();
        const QByteArray key = "rl:" + p + "adopted";
        plant(c, {"SET", key, "57"});
        RuleSet set;
        Rule rule = Rule::window(u"api"_s, Algorithm::FixedWindow, 3, 5 * duration::usPerSecond, {},
                                 p + "api:");
        rule.adopt =
            Adopt{"rl:" + p + "*", u"rate_limit_redis"_s, 60 * duration::usPerSecond, 100, {}};
        set.rules.push_back(rule);
        KeyReader reader(set);
        auto infos = reader.read(c, {key});
        QVERIFY(infos && infos->size() == 1);
        const KeyInfo &k = infos->first();
        QCOMPARE(k.health, Health::NoTtl);
        QVERIFY(k.resetsByOwnClock());
        QCOMPARE(k.state.describe(),
                 u"57 / 100 in this window, no TTL (the next request sets one)"_s);
        QVERIFY2(k.explanation().contains(u"heals_on_next_request"_s), qPrintable(k.explanation()));
        QVERIFY(!k.explanation().contains(u"blocks its subject"_s));
    }

    // The classic bug, reproduced: a GET/INCR/EXPIRE limiter whose INCR lands after the key
    // expired (the key comes back as 1, without TTL), and one whose EXPIRE never arrived after
    // its INCR. `keys audit` flags both; `keys fix --ttl` repairs them.
    void classicBug()
    {
        Connection app = test::connect();
        const QByteArray p = test::keyPrefix();
        const QByteArray a = "rate_limit:" + p + "10.0.0.1-com.example.HelloController-hello";
        const QByteArray b = "rate_limit:" + p + "10.0.0.2-com.example.HelloController-hello";
        m_planted << a << b;
        QVERIFY(app.command({"DEL", a, b}));
        // The application's limiter: GET; nil -> SET 1 EX 60; else INCR.
        QVERIFY(app.command({"SET", a, "1", "PX", "100"}));
        auto seen = app.command({"GET", a});
        QVERIFY(seen && !seen->isNil()); // it exists: the next step is an INCR ...
        std::this_thread::sleep_for(std::chrono::milliseconds(200)); // ... after it expired
        QVERIFY(app.command({"INCR", a}));
        QCOMPARE(test::pttl(app, a), qint64(-1));
        // INCR, then the EXPIRE in its own round trip, lost (the process died in between).
        QVERIFY(app.command({"INCR", b}));
        QCOMPARE(test::pttl(app, b), qint64(-1));

        const QString url = test::redisUrl();
        const QString match = QString::fromLatin1("rate_limit:" + p + "10.0.0.*");
        test::CliRun r = test::runCli(
            {u"keys"_s, u"audit"_s, u"--url"_s, url, u"--match"_s, match, u"--json"_s});
        QCOMPARE(r.exitCode, 0);
        const QJsonObject doc = QJsonDocument::fromJson(r.out).object();
        const QJsonArray keys = doc.value(u"keys"_s).toArray();
        QCOMPARE(keys.size(), 2);
        for (const QJsonValue &v : keys) {
            const QJsonObject o = v.toObject();
            QCOMPARE(o.value(u"layout"_s).toString(), u"string_counter"_s);
            QCOMPARE(o.value(u"health"_s).toString(), u"never_expires"_s);
            QCOMPARE(o.value(u"ttl_ms"_s).toInteger(), qint64(-1));
            QCOMPARE(o.value(u"type"_s).toString(), u"string"_s);
            QVERIFY(o.value(u"cause"_s).toString().contains(u"INCR after the key expired"_s));
            QVERIFY(!o.value(u"state"_s).toString().isEmpty());
        }
        QCOMPARE(doc.value(u"flagged"_s).toInteger(), qint64(2));

        r = test::runCli(
            {u"keys"_s, u"fix"_s, u"--url"_s, url, u"--match"_s, match, u"--ttl"_s, u"1m"_s});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("set a TTL of 1 min on 2 keys that had none"), r.out.constData());
        for (const QByteArray &k : {a, b}) {
            const qint64 t = test::pttl(app, k);
            QVERIFY2(t > 50'000 && t <= 60'000, qPrintable(QString::number(t)));
        }
    }
};

QTEST_GUILESS_MAIN(TestLayouts)
#include "tst_layouts.moc"
