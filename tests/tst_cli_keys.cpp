// sluice-cli keys and keys fix as a user runs them (FORMATS.md): real process, real Redis, real
// scripts; exit codes, the --json shape, --no-ttl, binary-safe keys, fix with and without
// --dry-run, rules from a file and from Redis.
#include "runcli.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/keys/keyhealth.h"
#include "core/limiter/redislimiter.h"
#include "core/rules/codec.h"
#include "core/rules/rulestore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

QJsonObject byKey(const QJsonArray &a, const QString &key)
{
    for (const QJsonValue &v : a) {
        if (v.toObject()[u"key"_s].toString() == key) {
            return v.toObject();
        }
    }
    return {};
}

} // namespace

class TestCliKeys : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_rulesFile;
    RuleSet m_rules;
    QByteArray m_prefix;

    QString url() const { return test::redisUrl(); }
    QString shown(const QByteArray &key) const
    {
        // As cli::printable spells it for these keys: \ and control bytes as \xNN.
        QString out;
        for (char ch : key) {
            const auto c = static_cast<unsigned char>(ch);
            out += (c >= 0x20 && c < 0x7f && c != '\\')
                       ? QString(QLatin1Char(ch))
                       : u"\\x%1"_s.arg(c, 2, 16, QLatin1Char('0'));
        }
        return out;
    }
    QByteArray key(const char *id, const QByteArray &subject) const
    {
        return m_rules.find(QString::fromLatin1(id))->keyFor(subject);
    }

    // Plants the keys every listing test reads: false when a step failed (the test stops).
    bool plant()
    {
        return test::passed([this] { plantKeys(); });
    }
    void plantKeys()
    {
        Connection c = test::cleanSlate();
        RedisLimiter limiter(test::connect());
        for (const Rule &r : m_rules.rules) {
            const Policy p = r.policy();
            for (const QByteArray &s : {QByteArray("1.2.3.4"), QByteArray("new\nline")}) {
                QVERIFY(limiter.decide(Request{&p, p.keyFor(s), 1, std::nullopt, 0}));
            }
        }
        QVERIFY(c.command({"HSET", key("fw", "noexp"), "s", "1", "c", "4"}));
        QVERIFY(c.command({"PEXPIRE", key("g", "1.2.3.4"), "30000000"})); // 1000x
        QVERIFY(c.command({"HSET", m_prefix + "gone-rule:{x}", "c", "1"}));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_prefix = test::keyPrefix();
        Rule fw;
        fw.id = u"fw"_s;
        fw.scope.kind = Scope::Kind::Ip;
        fw.algorithm = Algorithm::FixedWindow;
        fw.limit = 3;
        fw.windowUs = 60 * duration::usPerSecond; // nothing expires while a test runs
        fw.keyPrefix = m_prefix;
        Rule g = fw;
        g.id = u"g"_s;
        g.algorithm = Algorithm::Gcra;
        g.limit = 0;
        g.windowUs = 0;
        g.rate = Rate{1, 10 * duration::usPerSecond};
        g.burst = 2;
        m_rules.rules = {fw, g};
        m_rulesFile = m_dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(m_rulesFile, rules::toJson(m_rules)));
    }

    void noBackoffSendsNoProbe()
    {
        // The latency back-off probes with PINGs between round trips; --no-backoff sends none.
        Connection c = test::connect();
        auto pings = [&] {
            const QByteArray stats = c.command({"INFO", "commandstats"})->str;
            const qsizetype at = stats.indexOf("cmdstat_ping:calls=");
            return at < 0 ? 0 : stats.mid(at + 19, stats.indexOf(',', at) - at - 19).toInt();
        };
        for (const bool backoff : {true, false}) {
            QVERIFY(c.command({"CONFIG", "RESETSTAT"}));
            QStringList args{u"keys"_s, u"--url"_s, url(), u"--match"_s,
                             QString::fromUtf8(m_prefix + '*')};
            if (!backoff) {
                args << u"--no-backoff"_s;
            }
            const test::CliRun r = test::runCli(args);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QVERIFY2(backoff ? pings() >= 3 : pings() == 0, qPrintable(QString::number(pings())));
        }
    }

    void jsonRowsAreQtsWriting()
    {
        // `keys --json` writes its rows itself (app/cli/keyrows.cpp): each must be byte for
        // byte what QJsonDocument writes for the same object, over every state kind, a double
        // (tokens, weighted count, queue), unreadable and orphan keys, and subjects that need
        // escapes: quotes, backslashes, controls, UTF-8 up to 4 bytes, bytes that are not UTF-8.
        Connection c = test::cleanSlate();
        const Scope ip{Scope::Kind::Ip, {}};
        RuleSet set;
        const qint64 minute = 60 * duration::usPerSecond;
        set.rules = {
            Rule::window(u"fw"_s, Algorithm::FixedWindow, 3, minute, ip, m_prefix),
            Rule::window(u"sl"_s, Algorithm::SlidingLog, 3, minute, ip, m_prefix),
            Rule::window(u"sc"_s, Algorithm::SlidingCounter, 3, minute, ip, m_prefix),
            Rule::bucket(u"tb"_s, Algorithm::TokenBucket, Rate{1, 7 * duration::usPerSecond}, 20,
                         ip, m_prefix),
            Rule::bucket(u"lb"_s, Algorithm::LeakyBucket, Rate{1, 7 * duration::usPerSecond}, 5, ip,
                         m_prefix),
            Rule::bucket(u"g"_s, Algorithm::Gcra, Rate{1, 7 * duration::usPerSecond}, 5, ip,
                         m_prefix),
        };
        RedisLimiter limiter(test::connect());
        const QList<QByteArray> subjects{"1.2.3.4", "say \"hi\"", "back\\slash", "tab\tand\x01",
                                         "caf\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80",
                                         QByteArray("\xff\xfe\x00", 3),
                                         // Past eight units (the writer's SSE2 step) before
                                         // and between the escapes and the UTF-8.
                                         "a subject longer than a step \"quoted\" then "
                                         "caf\xc3\xa9, a \\ and\ta tab, then \xe4\xb8\xad "
                                         "and \xf0\x9f\x98\x80 to its end, well past eight"};
        for (const Rule &r : set.rules) {
            const Policy p = r.policy();
            for (const QByteArray &s : subjects) {
                QVERIFY(limiter.decide(Request{&p, p.keyFor(s), 2, std::nullopt, 0}));
            }
        }
        QVERIFY(c.command({"ZADD", set.rules[0].keyFor("zset"), "1", "m"})); // wrong type
        QVERIFY(c.command({"HSET", set.rules[0].keyFor("bad"), "s", "x"}));  // unreadable
        QVERIFY(c.command({"HSET", m_prefix + "orphan:{\"}", "c", "1"}));
        const QString file = m_dir.filePath(u"all.json"_s);
        QVERIFY(test::writeFile(file, rules::toJson(set)));
        for (const bool withRules : {true, false}) {
            QStringList args{
                u"keys"_s,  u"--url"_s, url(), u"--match"_s, QString::fromUtf8(m_prefix + '*'),
                u"--json"_s};
            if (withRules) {
                args << u"--rules"_s << file;
            }
            const test::CliRun r = test::runCli(args);
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QList<QByteArray> lines = r.out.split('\n');
            QCOMPARE(lines.first(), QByteArray("["));
            QCOMPARE(lines.takeLast(), QByteArray());
            QCOMPARE(lines.takeLast(), QByteArray("]"));
            lines.removeFirst();
            QCOMPARE(lines.size(), 6 * 7 + 3);
            QSet<QString> kinds;
            for (QByteArray line : std::as_const(lines)) {
                if (line.endsWith(',')) {
                    line.chop(1);
                }
                QJsonParseError pe;
                const QJsonDocument doc = QJsonDocument::fromJson(line, &pe);
                QVERIFY2(pe.error == QJsonParseError::NoError && doc.isObject(), line.constData());
                QCOMPARE(doc.toJson(QJsonDocument::Compact), line);
                kinds << doc.object()[u"state"_s].toObject()[u"algorithm"_s].toString();
            }
            if (withRules) {
                QCOMPARE(kinds.size(), 7 + 1); // six algorithms, unreadable, and no state
            }
        }
        test::cleanup(c);
    }

    void badUsage_data()
    {
        test::columns<QStringList, QString>("args", "message");
        const QString u = u"redis://127.0.0.1:6379"_s;
        QTest::newRow("no url") << QStringList{u"keys"_s} << u"--url is required"_s;
        QTest::newRow("bad url") << QStringList{u"keys"_s, u"--url"_s, u"http://x"_s}
                                 << u"--url: "_s;
        QTest::newRow("unknown flag")
            << QStringList{u"keys"_s, u"--url"_s, u, u"--bogus"_s} << u"unknown option --bogus"_s;
        QTest::newRow("dry run on list") << QStringList{u"keys"_s, u"--url"_s, u, u"--dry-run"_s}
                                         << u"--dry-run applies to `keys fix` only"_s;
        QTest::newRow("positional") << QStringList{u"keys"_s, u"--url"_s, u, u"extra"_s}
                                    << u"unexpected argument 'extra'"_s;
        QTest::newRow("empty match") << QStringList{u"keys"_s, u"--url"_s, u, u"--match"_s, u""_s}
                                     << u"--match needs a glob"_s;
        QTest::newRow("two rule sources")
            << QStringList{u"keys"_s, u"--url"_s, u, u"--rules"_s, u"x.json"_s, u"--from-redis"_s}
            << u"either --rules FILE or --from-redis"_s;
        QTest::newRow("missing rule file")
            << QStringList{u"keys"_s, u"--url"_s, u, u"--rules"_s, u"/nonexistent/r.json"_s}
            << u"is not a valid rule file"_s;
        QTest::newRow("fix without rules") << QStringList{u"keys"_s, u"fix"_s, u"--url"_s, u}
                                           << u"either --rules FILE or --from-redis"_s;
        QTest::newRow("a health that does not exist")
            << QStringList{u"keys"_s, u"--url"_s, u, u"--health"_s, u"never_expires,expired"_s}
            << u"--health 'expired' is not a key health; the health ids are ok, never_expires, "
               "ttl_too_long, no_rule, wrong_type, unreadable"_s;
        QTest::newRow("fix with health")
            << QStringList{u"keys"_s,         u"fix"_s,      u"--url"_s, u,
                           u"--from-redis"_s, u"--health"_s, u"ok"_s}
            << u"--health does not apply here"_s;
        QTest::newRow("audit with health")
            << QStringList{u"keys"_s, u"audit"_s, u"--url"_s, u, u"--health"_s, u"ok"_s}
            << u"--health does not apply to `keys audit`"_s;
        QTest::newRow("fix with no-ttl")
            << QStringList{u"keys"_s, u"fix"_s, u"--url"_s, u, u"--from-redis"_s, u"--no-ttl"_s}
            << u"--no-ttl does not apply here"_s;
    }

    void badUsage()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        test::checkUsageError(args, message);
    }

    void unreachableRedis()
    {
        const QString dead = u"redis://127.0.0.1:%1"_s.arg(test::freeLoopbackPort());
        test::CliRun r = test::runCli({u"keys"_s, u"--url"_s, dead});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("cannot connect to Redis"), r.err.constData());
        r = test::runCli({u"keys"_s, u"fix"_s, u"--url"_s, dead, u"--rules"_s, m_rulesFile});
        QCOMPARE(r.exitCode, 1);
    }

    void listJson()
    {
        QVERIFY(plant());
        const test::CliRun r =
            test::runCli({u"keys"_s, u"--url"_s, url(), u"--rules"_s, m_rulesFile, u"--match"_s,
                          QString::fromUtf8(m_prefix + '*'), u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError pe;
        const QJsonDocument doc = QJsonDocument::fromJson(r.out, &pe);
        QVERIFY2(pe.error == QJsonParseError::NoError, r.out.constData());
        QVERIFY(doc.isArray());
        const QJsonArray a = doc.array();
        QCOMPARE(a.size(), 6); // 2 rules x 2 subjects, noexp, the orphan
        for (const QJsonValue &v : a) {
            const QJsonObject o = v.toObject();
            for (const char *field :
                 {"key", "type", "ttl_ms", "rule", "subject", "health", "max_ttl_ms", "state"}) {
                QVERIFY2(o.contains(QLatin1String(field)), field);
            }
        }
        const QJsonObject fw = byKey(a, shown(key("fw", "1.2.3.4")));
        QCOMPARE(fw[u"type"_s].toString(), u"hash"_s);
        QCOMPARE(fw[u"rule"_s].toString(), u"fw"_s);
        QCOMPARE(fw[u"subject"_s].toString(), u"1.2.3.4"_s);
        QCOMPARE(fw[u"health"_s].toString(), u"ok"_s);
        QCOMPARE(fw[u"max_ttl_ms"_s].toInt(), 60000);
        QVERIFY(fw[u"ttl_ms"_s].toInt() > 0 && fw[u"ttl_ms"_s].toInt() <= 60000);
        QVERIFY(!fw.contains(u"cause"_s));
        const QJsonObject st = fw[u"state"_s].toObject();
        QCOMPARE(st[u"algorithm"_s].toString(), u"fixed_window"_s);
        QCOMPARE(st[u"count"_s].toInt(), 1);
        QCOMPARE(st[u"limit"_s].toInt(), 3);
        QCOMPARE(st[u"remaining"_s].toInt(), 2);
        QVERIFY(st[u"text"_s].toString().startsWith(u"1 / 3 in this window, resets in "_s));

        // The newline subject, escaped in the key and the subject.
        const QJsonObject nl = byKey(a, shown(key("fw", "new\nline")));
        QVERIFY(!nl.isEmpty());
        QCOMPARE(nl[u"subject"_s].toString(), u"new\\x0aline"_s);

        const QJsonObject g = byKey(a, shown(key("g", "1.2.3.4")));
        QCOMPARE(g[u"health"_s].toString(), u"ttl_too_long"_s);
        QCOMPARE(g[u"max_ttl_ms"_s].toInt(), 30000);
        QVERIFY(g[u"cause"_s].toString().contains(u"seconds where milliseconds"_s));
        QCOMPARE(g[u"state"_s].toObject()[u"algorithm"_s].toString(), u"gcra"_s);
        QVERIFY(g[u"state"_s].toObject()[u"available"_s].toInt() >= 2);

        const QJsonObject noexp = byKey(a, shown(key("fw", "noexp")));
        QCOMPARE(noexp[u"health"_s].toString(), u"never_expires"_s);
        QCOMPARE(noexp[u"ttl_ms"_s].toInt(), -1);
        // Sluice's own hash records its window's start: the cause says its limit still resets.
        QVERIFY2(noexp[u"cause"_s].toString().contains(u"its limit still resets"_s),
                 qPrintable(noexp[u"cause"_s].toString()));

        const QJsonObject orphan = byKey(a, shown(m_prefix + "gone-rule:{x}"));
        QCOMPARE(orphan[u"health"_s].toString(), u"no_rule"_s);
        QVERIFY(orphan[u"rule"_s].isNull());
        QVERIFY(orphan[u"subject"_s].isNull());
        QVERIFY(orphan[u"state"_s].isNull());

        // --no-ttl: only the keys that never expire.
        const test::CliRun n =
            test::runCli({u"keys"_s, u"--url"_s, url(), u"--rules"_s, m_rulesFile, u"--match"_s,
                          QString::fromUtf8(m_prefix + '*'), u"--no-ttl"_s, u"--json"_s});
        QCOMPARE(n.exitCode, 0);
        const QJsonArray never = QJsonDocument::fromJson(n.out).array();
        QCOMPARE(never.size(), 2);
        for (const QJsonValue &v : never) {
            QCOMPARE(v.toObject()[u"ttl_ms"_s].toInt(), -1);
        }

        // Nothing matches: an empty array, still a document.
        const test::CliRun none =
            test::runCli({u"keys"_s, u"--url"_s, url(), u"--match"_s,
                          QString::fromUtf8(m_prefix + "nothing:*"), u"--json"_s});
        QCOMPARE(none.exitCode, 0);
        QCOMPARE(QJsonDocument::fromJson(none.out).array().size(), 0);
    }

    void listHuman()
    {
        QVERIFY(plant());
        const test::CliRun r =
            test::runCli({u"keys"_s, u"--url"_s, url(), u"--rules"_s, m_rulesFile, u"--match"_s,
                          QString::fromUtf8(m_prefix + '*')});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.split('\n');
        QVERIFY(lines[0].startsWith("KEY"));
        // Six key rows, each on its own line (the newline subject is escaped).
        int rows = 0;
        for (const QByteArray &l : lines) {
            rows += l.startsWith(m_prefix) ? 1 : 0;
        }
        QCOMPARE(rows, 6);
        QVERIFY(r.out.contains("new\\x0aline"));
        // fw:{noexp} is Sluice's own hash, whose window start is long past: its limit resets by
        // its own clock, so the text says so and does not claim it blocks its subject.
        QVERIFY2(r.out.contains("1 limiter key never expires: its state records its own time, "
                                "so its limit still resets"),
                 r.out.constData());
        QVERIFY2(r.out.contains("why: Sluice's own state records its time"), r.out.constData());
        QVERIFY2(!r.out.contains("blocks its subject"), r.out.constData());
        QVERIFY(r.out.contains("1 key has a TTL longer than its rule can need"));
        QVERIFY(r.out.contains("1 key matches no rule"));
        QVERIFY(r.out.contains("sluice-cli keys fix"));
        QVERIFY(r.out.contains("6 keys in "));

        // Without rules: TTL only, and it says so.
        const test::CliRun bare = test::runCli(
            {u"keys"_s, u"--url"_s, url(), u"--match"_s, QString::fromUtf8(m_prefix + '*')});
        QCOMPARE(bare.exitCode, 0);
        QVERIFY(bare.out.contains("no rules given"));
        QVERIFY(bare.out.contains("2 limiter keys never expire"));
    }

    // --health filters by the health ids; the previous release's ids still filter, with a
    // warning that names the new one.
    void healthFilter()
    {
        QVERIFY(plant());
        const QStringList base{u"keys"_s,
                               u"--url"_s,
                               url(),
                               u"--rules"_s,
                               m_rulesFile,
                               u"--match"_s,
                               QString::fromUtf8(m_prefix + '*'),
                               u"--json"_s};
        auto healths = [](const QByteArray &out) {
            QStringList got;
            for (const QJsonValue &v : QJsonDocument::fromJson(out).array()) {
                got << v[u"health"_s].toString();
            }
            got.sort();
            return got;
        };
        test::CliRun r =
            test::runCli(base + QStringList{u"--health"_s, u"never_expires,no_rule"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.isEmpty(), r.err.constData());
        QCOMPARE(healths(r.out), (QStringList{u"never_expires"_s, u"no_rule"_s}));

        r = test::runCli(base + QStringList{u"--health"_s, u"no_ttl"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(healths(r.out), QStringList{u"never_expires"_s});
        QVERIFY2(r.err.contains("--health no_ttl is deprecated: it is now never_expires"),
                 r.err.constData());
        r = test::runCli(base + QStringList{u"--health"_s, u"orphan,ttl_exceeds_rule"_s});
        QCOMPARE(healths(r.out), (QStringList{u"no_rule"_s, u"ttl_too_long"_s}));

        // The text table says the same ids, and how many it kept.
        r = test::runCli(QStringList{u"keys"_s, u"--url"_s, url(), u"--rules"_s, m_rulesFile,
                                     u"--match"_s, QString::fromUtf8(m_prefix + '*'), u"--health"_s,
                                     u"never_expires"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains(" never_expires "), r.out.constData());
        QVERIFY2(r.out.contains("1 never_expires, of 6 keys in "), r.out.constData());
    }

    void fixDryRunThenForReal()
    {
        QVERIFY(plant());
        Connection c = test::connect();
        const QStringList base{
            u"keys"_s,    u"fix"_s,    u"--url"_s,   url(),
            u"--rules"_s, m_rulesFile, u"--match"_s, QString::fromUtf8(m_prefix + '*')};
        test::CliRun r = test::runCli(base + QStringList{u"--dry-run"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[u"dry_run"_s].toBool(), true);
        QCOMPARE(o[u"complete"_s].toBool(), true);
        QCOMPARE(o[u"would_set_ttl"_s].toInt(), 2);
        QCOMPARE(o[u"no_rule"_s].toInt(), 1);
        QCOMPARE(o[u"orphans"_s].toInt(), 1); // the deprecated name, for one release
        QCOMPARE(o[u"scanned"_s].toInt(), 6);
        QCOMPARE(o[u"keys"_s].toArray().size(), 3);
        QCOMPARE(test::pttl(c, key("fw", "noexp")), qint64(-1));
        QVERIFY(test::pttl(c, key("g", "1.2.3.4")) > 30000);

        r = test::runCli(base + QStringList{u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o[u"dry_run"_s].toBool(), false);
        QCOMPARE(o[u"set_ttl"_s].toInt(), 2);
        QCOMPARE(o[u"no_rule"_s].toInt(), 1);
        const QJsonArray ks = o[u"keys"_s].toArray();
        const QJsonObject noexp = byKey(ks, shown(key("fw", "noexp")));
        QCOMPARE(noexp[u"status"_s].toString(), u"done"_s);
        QCOMPARE(noexp[u"ttl_ms_before"_s].toInt(), -1);
        QCOMPARE(noexp[u"ttl_ms"_s].toInt(), 60000);
        QCOMPARE(byKey(ks, shown(m_prefix + "gone-rule:{x}"))[u"status"_s].toString(),
                 u"skipped"_s);
        const qint64 t = test::pttl(c, key("fw", "noexp"));
        QVERIFY(t > 0 && t <= 60000);
        const qint64 g = test::pttl(c, key("g", "1.2.3.4"));
        QVERIFY(g > 0 && g <= 30000);
        QCOMPARE(test::pttl(c, m_prefix + "gone-rule:{x}"), qint64(-1)); // orphan untouched

        // Again: nothing left to fix; the human summary says so and names the orphan.
        r = test::runCli(base);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("set the TTL of 0 keys from their rule; 1 key with no rule left "
                                "as it is"),
                 r.out.constData());
    }

    void rulesFromRedis()
    {
        QVERIFY(plant());
        Connection c = test::connect();
        for (const char *k :
             {"{sluice}:rules", "{sluice}:rules:version", "{sluice}:rules:history"}) {
            (void)c.command({"DEL", k});
        }
        QVERIFY(rules::RuleStore().push(c, m_rules, true));
        const test::CliRun r =
            test::runCli({u"keys"_s, u"fix"_s, u"--url"_s, url(), u"--from-redis"_s, u"--match"_s,
                          QString::fromUtf8(m_prefix + '*'), u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).object()[u"set_ttl"_s].toInt(), 2);
        for (const char *k :
             {"{sluice}:rules", "{sluice}:rules:version", "{sluice}:rules:history"}) {
            (void)c.command({"DEL", k});
        }
    }
};

QTEST_GUILESS_MAIN(TestCliKeys)
#include "tst_cli_keys.moc"
