// Least privilege: one Redis 7 ACL user per feature, exactly as docs/REFERENCE.md writes them, on a
// redis-server of the test's own. Each feature works under exactly its user (through
// sluice-cli and the core APIs); without one permission it fails with a message that names it
// and what to grant, never a wrong health and never silence.
#include "ownredis.h"
#include "runcli.h"
#include "testdata.h"

#include "core/keys/keyinfo.h"
#include "core/keys/keyreader.h"
#include "core/redis/connection.h"
#include "core/rules/rulewatcher.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsreader.h"
#include "core/stats/statsrecorder.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

// docs/REFERENCE.md's lines ("Least privilege"), without the password, which the test adds.
const QHash<QByteArray, QByteArray> users = {
    {"sluice-decide",
     "~rate_limit:* ~sluice:load:* resetchannels -@all +evalsha +script|load +ping "
     "+time +get +set +hmget +hset +hincrby +pexpire +pttl +zadd +zcount +zrange +zrangebyscore "
     "+zremrangebyscore (~sluice:load:* +scan +unlink)"},
    {"sluice-keys-read",
     "%R~rate_limit:* resetchannels -@all +scan +evalsha_ro +evalsha +script|load +time +ping "
     "+type +pttl +hstrlen +hmget +zcard +zcount +zrangebyscore +zrange +strlen +getrange"},
    {"sluice-keys-fix",
     "~rate_limit:* resetchannels -@all +scan +evalsha_ro +evalsha +script|load +time +ping "
     "+type +pttl +hstrlen +hmget +zcard +zcount +zrangebyscore +zrange +strlen +getrange "
     "+pexpire +unlink"},
    {"sluice-rules-read",
     "%R~{sluice}:rules* &{sluice}:rules:changed -@all +evalsha_ro +evalsha +script|load +get "
     "+hgetall +lrange +time +ping +subscribe +zrange +pttl"},
    {"sluice-rules-push",
     "~{sluice}:rules* &{sluice}:rules:changed -@all +evalsha_ro +evalsha +script|load +get "
     "+hgetall +lrange +time +ping +type +del +hset +incr +lpush +ltrim +publish +zrange +pttl "
     "+exists +set +pexpireat +persist +zadd +zrem +zcard +zremrangebyscore"},
    {"sluice-stats-write",
     "~{sluice}:stats:* ~{sluice}:flush:* resetchannels -@all +multi +exec +hincrby +expire "
     "+zincrby +zremrangebyrank +set +watch +unwatch +exists +ping"},
    {"sluice-keys-audit",
     "%R~* resetchannels -@all +scan +time +ping +info +dbsize +command|info +type +pttl "
     "+getrange +strlen +hscan +zrange +zcard +llen +lindex"},
    {"sluice-monitor",
     "%R~{sluice}:stats:* %R~rate_limit:* resetchannels -@all +hmget +hgetall +zrange +scan "
     "+evalsha_ro "
     "+evalsha +script|load +time +ping +type +pttl +hstrlen +zcard +zcount +zrangebyscore "
     "+strlen +getrange"},
};

} // namespace

// One decision of rule "s" recorded at `now` and flushed as `writer`: how the flush went.
stats::StatsFlusher::Status flushOneDecision(const Endpoint &writer, qint64 now)
{
    stats::StatsRecorder recorder;
    stats::StatsFlusher flusher(writer, &recorder);
    flusher.start();
    recorder.record(u"s"_s, "7.7.7.7", Decision{true, 5, 4, -1, 0, 0}, false, now);
    flusher.stop();
    return flusher.status();
}

class TestAcl : public QObject
{
    Q_OBJECT
    test::OwnRedis m_redis;
    QTemporaryDir m_dir;
    QString m_rules;
    QString m_changed; // m_rules with "a" at limit 6
    std::optional<Connection> m_admin;

    QString url(const QByteArray &user) const
    {
        return u"redis://%1:pw@127.0.0.1:%2"_s.arg(QString::fromUtf8(user)).arg(m_redis.port());
    }
    // A user as docs/REFERENCE.md writes it, maybe with one permission taken out or changed.
    void createUser(const QByteArray &name, const QByteArray &rules)
    {
        QList<QByteArray> argv{"ACL", "SETUSER", name, "reset", "on", ">pw"};
        // Words, a selector "(...)" as one.
        for (qsizetype at = 0; at < rules.size();) {
            const qsizetype end =
                rules.at(at) == '(' ? rules.indexOf(')', at) + 1 : rules.indexOf(' ', at);
            argv << rules.mid(at, end < 0 ? -1 : end - at);
            at = end < 0 ? rules.size() : end + 1;
        }
        auto r = m_admin->command(argv);
        QVERIFY2(r, qPrintable(r ? QString() : r.error().message));
    }
    void createUserWithout(const QByteArray &name, const QByteArray &base,
                           const QByteArray &removed)
    {
        QByteArray rules = users.value(base);
        rules.replace(' ' + removed, QByteArray());
        createUser(name, rules);
    }
    test::CliRun cli(const QStringList &args) { return test::runCli(args, {}, {}, 30'000); }

    // A decision of `rule` for `subject` as the admin: a state key with its TTL.
    void decideAsAdmin(const QString &rule, const QString &subject)
    {
        const test::CliRun r = cli({u"check"_s, u"--url"_s, m_redis.url(), u"--rules"_s, m_rules,
                                    u"--rule"_s, rule, u"--subject"_s, subject});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
    // The rule store holds m_rules for a case that needs rules there: pushed by rulesPushAndPull
    // when it ran before, else here by the admin (each case passes run alone).
    void ensureRulesStored()
    {
        if (m_admin->command({"EXISTS", "{sluice}:rules:version"})->integer != 0) {
            return;
        }
        const test::CliRun r = cli({u"rules"_s, u"push"_s, m_rules, u"--url"_s, m_redis.url()});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    }

    // A fixed window's state without a TTL: no_ttl, which `keys fix` repairs.
    void plantNoTtl(const QByteArray &key)
    {
        const qint64 nowUs = QDateTime::currentMSecsSinceEpoch() * 1000;
        const qint64 hourUs = qint64(3600) * 1'000'000;
        QVERIFY(m_admin->command(
            {"HSET", key, "s", QByteArray::number(nowUs - nowUs % hourUs), "c", "3"}));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_redis.start(), m_redis.output().constData());
        auto c = Connection::open(m_redis.endpoint());
        QVERIFY(c);
        m_admin.emplace(std::move(*c));
        for (auto it = users.begin(); it != users.end(); ++it) {
            createUser(it.key(), it.value());
        }
        QVERIFY(m_dir.isValid());
        m_rules = m_dir.filePath(u"rules.json"_s);
        QVERIFY(test::writeFile(m_rules, R"({"version": 1, "rules": [
            {"id": "a", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1h"},
            {"id": "g", "scope": "ip", "algorithm": "gcra", "rate": "1/s", "burst": 3}]})"));
        m_changed = m_dir.filePath(u"changed.json"_s);
        QVERIFY(test::writeFile(m_changed, R"({"version": 1, "rules": [
            {"id": "a", "scope": "ip", "algorithm": "fixed_window", "limit": 6, "window": "1h"}]})"));
        // State keys of both rules, written by the admin.
        for (const QString &rule : {u"a"_s, u"g"_s}) {
            for (const QString &subject : {u"1.1.1.1"_s, u"2.2.2.2"_s}) {
                decideAsAdmin(rule, subject);
            }
        }
    }

    void decide()
    {
        const test::CliRun r =
            cli({u"check"_s, u"--url"_s, url("sluice-decide"), u"--rules"_s, m_rules, u"--rule"_s,
                 u"a"_s, u"--subject"_s, u"3.3.3.3"_s, u"--count"_s, u"2"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(m_admin->command({"HGET", "rate_limit:a:{3.3.3.3}", "c"})->str, QByteArray("2"));
        // load: run-scoped keys (sluice:load:*), which the user may write.
        const test::CliRun l =
            cli({u"load"_s, u"--url"_s, url("sluice-decide"), u"--rules"_s, m_rules, u"--pattern"_s,
                 u"burst:4"_s, u"--duration"_s, u"200ms"_s, u"--json"_s});
        QVERIFY2(l.exitCode == 0, l.err.constData());
        QCOMPARE(QJsonDocument::fromJson(l.out).object().value(u"errors").toInteger(), 0);
        // ... and removes them at the end (the selector's SCAN and UNLINK), touching nothing else.
        QVERIFY2(!l.err.contains("could not remove"), l.err.constData());
        QVERIFY(m_admin->command({"KEYS", "sluice:load:*"})->elements.empty());
    }

    void decideWithoutACommandNamesIt()
    {
        createUserWithout("sluice-decide-x", "sluice-decide", "+hset");
        const test::CliRun r = cli({u"check"_s, u"--url"_s, url("sluice-decide-x"), u"--rules"_s,
                                    m_rules, u"--rule"_s, u"a"_s, u"--subject"_s, u"4.4.4.4"_s});
        QVERIFY(r.exitCode != 0);
        // Redis says only "can't run this command"; the message names what the script calls.
        QVERIFY2(r.err.contains("NOPERM") && r.err.contains("+hset") &&
                     r.err.contains("ACL SETUSER"),
                 r.err.constData());
    }

    // Read-only key permissions (%R~): a scan's plain reads and the refresher's EVALSHA_RO
    // read them; every key is healthy, none is wrong_type. Without scripting at all: plain
    // reads, the same verdicts.
    void keysRead()
    {
        const auto evalshaRoCalls = [&] {
            const QByteArray s = m_admin->command({"INFO", "commandstats"})->str;
            const qsizetype at = s.indexOf("cmdstat_evalsha_ro:calls=");
            return at < 0 ? 0 : s.mid(at + 25).split(',').value(0).toLongLong();
        };
        const qint64 before = evalshaRoCalls();
        test::CliRun r = cli(
            {u"keys"_s, u"--url"_s, url("sluice-keys-read"), u"--rules"_s, m_rules, u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(!r.out.contains("wrong_type\"") || r.out.contains("\"wrong_type\":0"),
                 r.out.constData());
        QVERIFY2(r.out.contains("rate_limit:a:{1.1.1.1}") && !r.out.contains("unreadable\""),
                 r.out.constData());
        QVERIFY(r.out.contains("\"ok\""));
        QCOMPARE(evalshaRoCalls(), before); // a scan reads with plain commands
        // The refresher of visible rows reads through the script, as EVALSHA_RO.
        Endpoint e = m_redis.endpoint();
        e.user = u"sluice-keys-read"_s;
        e.password = u"pw"_s;
        auto c = Connection::open(e);
        QVERIFY(c);
        keys::KeyReader refresher;
        auto read = refresher.read(*c, {"rate_limit:a:{1.1.1.1}"});
        QVERIFY2(read && read->size() == 1 && read->first().exists() &&
                     read->first().health == keys::Health::Ok,
                 read ? "" : qPrintable(read.error().message));
        QCOMPARE(refresher.mode(), keys::KeyReader::Mode::Script);
        QVERIFY(evalshaRoCalls() > before);

        createUserWithout("sluice-keys-noscript", "sluice-keys-read", "+evalsha_ro");
        r = cli({u"keys"_s, u"--url"_s, url("sluice-keys-noscript"), u"--rules"_s, m_rules,
                 u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("rate_limit:a:{1.1.1.1}") && !r.out.contains("unreadable\""),
                 r.out.constData());
    }

    // A user that may read some of the keys a scan lists: the refused chunk switches to plain
    // reads; the others are read, the refused one is "unreadable (permission)", never
    // wrong_type and never gone.
    void keysPartlyReadable()
    {
        QByteArray rules = users.value("sluice-keys-read");
        rules.replace("%R~rate_limit:*", "%R~rate_limit:a:{1.1.1.1}");
        createUser("sluice-keys-part", rules);
        const test::CliRun r = cli({u"keys"_s, u"--url"_s, url("sluice-keys-part"), u"--rules"_s,
                                    m_rules, u"--match"_s, u"rate_limit:a:*"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("unreadable (permission)") && !r.out.contains("wrong_type"),
                 r.out.constData());
        const QList<QByteArray> lines = r.out.split('\n');
        for (const QByteArray &line : lines) {
            if (line.contains("{1.1.1.1}")) {
                QVERIFY2(line.contains(" ok"), line.constData());
            }
            if (line.contains("{2.2.2.2}")) {
                QVERIFY2(line.contains("unreadable"), line.constData());
            }
        }
    }

    // keys fix counts the keys the ACL refused to read, in its JSON summary and its text, and
    // leaves them as they are.
    void fixCountsRefusedKeys()
    {
        QByteArray rules = users.value("sluice-keys-read");
        rules.replace("%R~rate_limit:*", "%R~rate_limit:a:{1.1.1.1}");
        createUser("sluice-keys-part3", rules);
        const QStringList args{u"keys"_s,     u"fix"_s, u"--url"_s,   url("sluice-keys-part3"),
                               u"--rules"_s,  m_rules,  u"--match"_s, u"rate_limit:a:*"_s,
                               u"--dry-run"_s};
        const test::CliRun r = cli(args + QStringList{u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY2(o[u"unreadable"_s].toInt() >= 1, r.out.constData());
        QCOMPARE(o[u"unreadable_permission"_s].toInt(), o[u"unreadable"_s].toInt());
        const test::CliRun text = cli(args);
        QVERIFY2(text.exitCode == 0, text.err.constData());
        QVERIFY2(text.out.contains(u"that could not be read (%1 refused by the ACL) left as is"_s
                                       .arg(o[u"unreadable"_s].toInt())
                                       .toUtf8()),
                 text.out.constData());
    }

    // The same without rules: a key that could not be read is unreadable, not "ok" (its TTL,
    // all there is to judge without rules, was not read either); the summary says how many
    // and what to grant.
    void keysPartlyReadableWithoutRules()
    {
        // Two keys at least that it may not read, whatever ran before (decide() adds 3.3.3.3):
        // 2.2.2.2 and one of its own. All of rule a's but 1.1.1.1 are refused.
        decideAsAdmin(u"a"_s, u"9.9.9.9"_s);
        const qsizetype refused =
            qsizetype(m_admin->command({"KEYS", "rate_limit:a:*"})->elements.size()) - 1;
        QByteArray rules = users.value("sluice-keys-read");
        rules.replace("%R~rate_limit:*", "%R~rate_limit:a:{1.1.1.1}");
        createUser("sluice-keys-part2", rules);
        const test::CliRun r = cli(
            {u"keys"_s, u"--url"_s, url("sluice-keys-part2"), u"--match"_s, u"rate_limit:a:*"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const QByteArray &line : r.out.split('\n')) {
            if (line.contains("{2.2.2.2}")) {
                QVERIFY2(line.contains("unreadable") && !line.contains(" ok"), line.constData());
            }
        }
        QVERIFY2(r.out.contains(u"%1 keys are unreadable (permission)"_s.arg(refused).toUtf8()) &&
                     r.out.contains("grant: ACL SETUSER <user> ~<prefix>*"),
                 r.out.constData());
    }

    void keysWithoutScanNamesIt()
    {
        createUserWithout("sluice-keys-noscan", "sluice-keys-read", "+scan");
        const test::CliRun r =
            cli({u"keys"_s, u"--url"_s, url("sluice-keys-noscan"), u"--rules"_s, m_rules});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("'scan'") && r.err.contains("+scan"), r.err.constData());
    }

    // A user named without a password is that user or nobody: never the default user (which
    // may do everything) because no AUTH was sent.
    void aUserWithoutAPasswordIsThatUser()
    {
        Endpoint e = m_redis.endpoint();
        e.user = u"sluice-keys-read"_s; // has a password
        auto refused = Connection::open(e);
        QVERIFY(!refused);
        QCOMPARE(refused.error().kind, Error::Kind::Auth);
        QVERIFY2(refused.error().message.contains(u"of user 'sluice-keys-read'"_s),
                 qPrintable(refused.error().message));
        QVERIFY(m_admin->command({"ACL", "SETUSER", "sluice-nopass", "reset", "on", "nopass",
                                  "-@all", "+ping", "+acl|whoami"}));
        e.user = u"sluice-nopass"_s;
        auto c = Connection::open(e);
        QVERIFY2(c, qPrintable(c ? QString() : c.error().message));
        QCOMPARE(c->command({"ACL", "WHOAMI"})->str, QByteArray("sluice-nopass"));
    }

    void keysFix()
    {
        plantNoTtl("rate_limit:a:{5.5.5.5}");
        test::CliRun r =
            cli({u"keys"_s, u"fix"_s, u"--url"_s, url("sluice-keys-fix"), u"--rules"_s, m_rules});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        QVERIFY(m_admin->command({"PTTL", "rate_limit:a:{5.5.5.5}"})->integer > 0);

        createUserWithout("sluice-keys-fix-x", "sluice-keys-fix", "+pexpire");
        plantNoTtl("rate_limit:a:{6.6.6.6}");
        r = cli({u"keys"_s, u"fix"_s, u"--url"_s, url("sluice-keys-fix-x"), u"--rules"_s, m_rules});
        QVERIFY(r.exitCode != 0);
        QVERIFY2((r.out + r.err).contains("+pexpire"), (r.out + r.err).constData());
        QCOMPARE(m_admin->command({"PTTL", "rate_limit:a:{6.6.6.6}"})->integer, qint64(-1));
    }

    void rulesPushAndPull()
    {
        // An empty rule store, whatever ran before: this push is version 1.
        const auto stored = m_admin->command({"KEYS", "{sluice}:rules*"});
        QVERIFY(stored);
        for (const auto &key : stored->elements) {
            QVERIFY(m_admin->command({"DEL", key.str}));
        }
        test::CliRun r = cli(
            {u"rules"_s, u"push"_s, m_rules, u"--url"_s, url("sluice-rules-push"), u"--json"_s});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        // Pulled with read-only key permissions: EVALSHA_RO.
        r = cli({u"rules"_s, u"pull"_s, u"--url"_s, url("sluice-rules-read")});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("\"a\"") && r.out.contains("\"g\""), r.out.constData());
        // The history and a stored version, read with the same user (LRANGE in the script).
        r = cli({u"rules"_s, u"history"_s, u"--url"_s, url("sluice-rules-read")});
        QVERIFY2(r.exitCode == 0 && r.out.contains("version 1"), (r.out + r.err).constData());
        r = cli(
            {u"rules"_s, u"diff"_s, u"redis@1"_s, m_rules, u"--url"_s, url("sluice-rules-read")});
        QVERIFY2(r.exitCode == 0 && r.out.contains("no differences"), (r.out + r.err).constData());
        createUserWithout("sluice-rules-read-nolrange", "sluice-rules-read", "+lrange");
        r = cli({u"rules"_s, u"history"_s, u"--url"_s, url("sluice-rules-read-nolrange")});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("lrange"), r.err.constData());

        createUserWithout("sluice-rules-push-x", "sluice-rules-push", "+publish");
        r = cli({u"rules"_s, u"push"_s, m_changed, u"--url"_s, url("sluice-rules-push-x"),
                 u"--force"_s});
        QVERIFY(r.exitCode != 0);
        QVERIFY2((r.out + r.err).contains("+publish"), (r.out + r.err).constData());
        // ... before it wrote anything (checked first: a script is not rolled back).
        r = cli({u"rules"_s, u"pull"_s, u"--url"_s, m_redis.url()});
        QVERIFY2(r.exitCode == 0 && r.out.contains("\"g\""), r.out.constData());
        QCOMPARE(m_admin->command({"GET", "{sluice}:rules:version"})->str, QByteArray("1"));

        QByteArray noKeys = users.value("sluice-rules-read");
        noKeys.replace("%R~{sluice}:rules*", "%R~{sluice}:other*");
        createUser("sluice-rules-read-x", noKeys);
        r = cli({u"rules"_s, u"pull"_s, u"--url"_s, url("sluice-rules-read-x")});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("NOPERM") && r.err.contains("%R~"), r.err.constData());
    }

    // Overrides: added and removed under the rule store's push user, listed and followed under
    // its read user; without PEXPIREAT an add writes nothing (never a key without its end).
    void overridesUnderTheRuleStoreUsers()
    {
        ensureRulesStored(); // rule a
        test::CliRun r =
            cli({u"overrides"_s, u"add"_s, u"--url"_s, url("sluice-rules-push"), u"--rule"_s,
                 u"a"_s, u"--subject"_s, u"10.1.1.1"_s, u"--deny"_s, u"--ttl"_s, u"1h"_s});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        r = cli({u"overrides"_s, u"list"_s, u"--url"_s, url("sluice-rules-read"), u"--json"_s});
        QVERIFY2(r.exitCode == 0 && r.out.contains("10.1.1.1"), (r.out + r.err).constData());
        createUserWithout("sluice-rules-push-noexp", "sluice-rules-push", "+pexpireat");
        r = cli({u"overrides"_s, u"add"_s, u"--url"_s, url("sluice-rules-push-noexp"), u"--rule"_s,
                 u"a"_s, u"--subject"_s, u"10.2.2.2"_s, u"--deny"_s, u"--ttl"_s, u"1h"_s});
        QVERIFY(r.exitCode != 0);
        QVERIFY2(r.err.contains("+pexpireat") && r.err.contains("nothing was written"),
                 r.err.constData());
        QCOMPARE(
            m_admin->command({"EXISTS", "{sluice}:rules:override:a:subject:10.2.2.2"})->integer, 0);
        r = cli({u"overrides"_s, u"remove"_s, u"--url"_s, url("sluice-rules-push"), u"--rule"_s,
                 u"a"_s, u"--subject"_s, u"10.1.1.1"_s});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
    }

    // The rule watcher (serve --from-redis, the console) under the rule store's read user, which
    // may not CLIENT SETNAME: the name is best effort, the rules arrive, and so does a push.
    void ruleWatcherWithoutClientSetname()
    {
        ensureRulesStored(); // "a" at limit 5
        Endpoint e = m_redis.endpoint();
        e.user = u"sluice-rules-read"_s;
        e.password = u"pw"_s;
        rules::RuleWatcher watcher(e);
        QSignalSpy changed(&watcher, &rules::RuleWatcher::rulesChanged);
        QSignalSpy failed(&watcher, &rules::RuleWatcher::errorOccurred);
        watcher.start();
        QVERIFY(changed.wait(10000));
        const auto first = changed.takeFirst().at(0).value<RuleSet>();
        QVERIFY(first.find(u"a"_s) != nullptr);
        // The set rulesPushAndPull could not push (limit 6), pushed by the admin.
        const test::CliRun r =
            cli({u"rules"_s, u"push"_s, m_changed, u"--url"_s, m_redis.url(), u"--force"_s});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        if (changed.isEmpty() && !changed.wait(10000)) {
            for (const auto &f : failed) {
                qWarning() << f.at(0).toString();
            }
            QFAIL("no second rulesChanged");
        }
        QCOMPARE(changed.takeFirst().at(0).value<RuleSet>().find(u"a"_s)->limit, qint64(6));
        watcher.stop();
        QVERIFY2(failed.isEmpty(),
                 failed.isEmpty() ? "" : qPrintable(failed.at(0).at(0).toString()));
    }

    // A server without EVALSHA_RO (as Redis < 7; here it is renamed away): the reads fall back
    // to EVALSHA, with the same verdicts, for the keys and the rule store.
    void readsFallBackToEvalshaWithoutEvalshaRo()
    {
        test::OwnRedis old;
        QVERIFY2(old.start({u"--rename-command"_s, u"EVALSHA_RO"_s, QString()}),
                 old.output().constData());
        test::CliRun r = cli({u"rules"_s, u"push"_s, m_rules, u"--url"_s, old.url()});
        QVERIFY2(r.exitCode == 0, (r.out + r.err).constData());
        r = cli({u"check"_s, u"--url"_s, old.url(), u"--rules"_s, m_rules, u"--rule"_s, u"a"_s,
                 u"--subject"_s, u"8.8.8.8"_s, u"--no-stats"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({u"rules"_s, u"pull"_s, u"--url"_s, old.url()});
        QVERIFY2(r.exitCode == 0 && r.out.contains("\"a\""), r.err.constData());
        r = cli({u"keys"_s, u"--url"_s, old.url(), u"--rules"_s, m_rules});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("{8.8.8.8}") && r.out.contains(" ok") &&
                     !r.out.contains("wrong_type") && !r.out.contains("unreadable"),
                 r.out.constData());
        auto c = Connection::open(old.endpoint());
        QVERIFY(c);
        const QByteArray stats = c->command({"INFO", "commandstats"})->str;
        QVERIFY2(stats.contains("cmdstat_evalsha:"), stats.constData());
    }

    // Statistics under their own user (core API: the flusher serve, check and load use), read
    // back under the Monitor's.
    // keys audit and keys top, as the read-only audit user: every layout's read (a string, a
    // hash, a sorted set, a list) allowed, so no command is refused (ACL LOG stays empty) and
    // every planted key is attributed.
    void keysAuditAndTop()
    {
        QVERIFY(m_admin->command({"SET", "rl:10.0.0.1", "3", "EX", "60"}));
        QVERIFY(m_admin->command({"HSET", "rate_limit:other:h", "tokens", "5", "ts", "1"}));
        QVERIFY(m_admin->command({"ZADD", "ratelimit:log:u1", "1", "a", "2", "b"}));
        QVERIFY(m_admin->command({"RPUSH", "LIMITER/u1/5/1/minute", "1700000000"}));
        QVERIFY(m_admin->command({"EXPIRE", "LIMITER/u1/5/1/minute", "60"}));
        QVERIFY(m_admin->command({"ACL", "LOG", "RESET"}));
        const test::CliRun audit =
            cli({u"keys"_s, u"audit"_s, u"--url"_s, url("sluice-keys-audit"), u"--json"_s});
        QVERIFY2(audit.exitCode == 0, audit.err.constData());
        for (const char *key : {"rl:10.0.0.1", "LIMITER/u1/5/1/minute", "rate_limit:a:{1.1.1.1}"}) {
            QVERIFY2(audit.out.contains(key), key);
        }
        const test::CliRun top = cli({u"keys"_s, u"top"_s, u"--url"_s, url("sluice-keys-audit"),
                                      u"--interval"_s, u"1"_s, u"--json"_s});
        QVERIFY2(top.exitCode == 0, top.err.constData());
        auto log = m_admin->command({"ACL", "LOG"});
        QVERIFY(log);
        QVERIFY2(log->elements.empty(), "a command of keys audit or keys top was refused");
        for (const char *key :
             {"rl:10.0.0.1", "rate_limit:other:h", "ratelimit:log:u1", "LIMITER/u1/5/1/minute"}) {
            QVERIFY(m_admin->command({"DEL", key}));
        }
    }

    void statsWriteAndMonitorRead()
    {
        Endpoint writer = m_redis.endpoint();
        writer.user = u"sluice-stats-write"_s;
        writer.password = u"pw"_s;
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        {
            const stats::StatsFlusher::Status s = flushOneDecision(writer, now);
            QVERIFY2(s.redisOk && s.flushes > 0, qPrintable(s.lastError));
        }
        Endpoint monitor = m_redis.endpoint();
        monitor.user = u"sluice-monitor"_s;
        monitor.password = u"pw"_s;
        auto c = Connection::open(monitor);
        QVERIFY(c);
        auto series = stats::readSeries(*c, {u"s"_s}, 60, now + 1);
        QVERIFY2(series, qPrintable(series ? QString() : series.error().message));
        stats::Counts sum;
        for (const stats::Counts &x : (*series)[0].seconds) {
            sum += x;
        }
        QCOMPARE(sum.allowed, qint64(1));
        auto top = stats::readTopSubjects(*c, u"s"_s, 60, now + 1, 5);
        QVERIFY2(top, qPrintable(top ? QString() : top.error().message));
        QCOMPARE(top->size(), 1);

        createUserWithout("sluice-stats-x", "sluice-stats-write", "+zincrby");
        writer.user = u"sluice-stats-x"_s;
        const stats::StatsFlusher::Status s = flushOneDecision(writer, now);
        QVERIFY(!s.redisOk);
        QVERIFY2(s.lastError.contains(u"+zincrby"), qPrintable(s.lastError));
    }
};

QTEST_GUILESS_MAIN(TestAcl)
#include "tst_acl.moc"
