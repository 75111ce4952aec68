// Hardening of what serve and the CLI read and print: the override store past the client's
// reply bound and at its cap, a rule store in Redis that does not read (serve starts with what
// it can read and says the rest), the envoy configuration reader (only regular files, linear
// time, bounded messages, a second document said), and no raw control byte from a file, the
// store or a client in a log line or on the terminal.
#include "core/rules/overridestore.h"
#include "core/rules/rulestore.h"
#include "ownredis.h"
#include "runcli.h"
#include "servefixture.h"
#include "testkit.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <sys/stat.h>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

const QByteArray rulesJson = R"({"version": 1, "rules": [
  {"id": "hello", "scope": "global", "algorithm": "fixed_window", "limit": 2, "window": "1m"}]})";

// What a line of output must never hold: a control byte other than the line feed that ends it.
// Returns the first one found, as text, or empty.
QString rawControl(const QByteArray &out)
{
    for (qsizetype i = 0; i < out.size(); ++i) {
        const auto c = uchar(out[i]);
        if ((c < 0x20 && c != '\n') || c == 0x7f) {
            return u"byte 0x%1 at %2 in: %3"_s.arg(c, 2, 16, QLatin1Char('0'))
                .arg(i)
                .arg(QString::fromUtf8(out.mid(std::max<qsizetype>(0, i - 60), 120)));
        }
    }
    return {};
}

// No raw control byte, and no line that starts as a forged one.
void checkClean(const QByteArray &out)
{
    const QString raw = rawControl(out);
    QVERIFY2(raw.isEmpty(), qPrintable(raw));
    for (const QByteArray &line : out.split('\n')) {
        QVERIFY2(!line.startsWith("FORGED") && !line.startsWith("sluice-cli serve: FORGED"),
                 line.constData());
    }
}

// `n` overrides of rule hello planted by one script, copies of the value `add` stored for
// subject "seed" (its subject changed), ending in an hour: far faster than n adds.
void plantOverrides(Connection &c, qint64 from, qint64 n)
{
    const char *lua = R"lua(
local seed = redis.call('GET', KEYS[1])
local t = redis.call('TIME')
local endMs = tonumber(t[1]) * 1000 + 3600000
for i = tonumber(ARGV[1]), tonumber(ARGV[1]) + tonumber(ARGV[2]) - 1 do
  local subject = 's' .. i
  local key = '{sluice}:rules:override:hello:subject:' .. subject
  redis.call('SET', key, (string.gsub(seed, '"seed"', '"' .. subject .. '"')))
  redis.call('PEXPIREAT', key, endMs)
  redis.call('ZADD', KEYS[2], endMs, key)
end
redis.call('PEXPIREAT', KEYS[2], endMs)
return 1)lua";
    for (qint64 at = from; at < from + n; at += 50000) {
        const qint64 count = std::min<qint64>(50000, from + n - at);
        auto r = c.command({"EVAL", lua, "2", "{sluice}:rules:override:hello:subject:seed",
                            "{sluice}:rules:overrides", QByteArray::number(at),
                            QByteArray::number(count)});
        QVERIFY2(r.ok(), r ? "" : qPrintable(r.error().message));
    }
}

} // namespace

class Hardening3Test : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_rules;

    test::CliRun cli(const QStringList &args, int deadlineMs = 60000)
    {
        return test::runCli(args, {}, {}, deadlineMs);
    }

    bool pushRules(const test::OwnRedis &redis)
    {
        const test::CliRun r = cli({u"rules"_s, u"push"_s, m_rules, u"--url"_s, redis.url()});
        return r.exitCode == 0;
    }

    QString write(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
            return {};
        }
        return path;
    }

    // serve --from-redis with the whole /healthz.
    static QStringList fromRedis(const test::OwnRedis &redis)
    {
        return {u"--url"_s,       redis.url(),     u"--from-redis"_s,    u"--listen"_s,
                u"127.0.0.1:0"_s, u"--no-stats"_s, u"--healthz-detail"_s};
    }

    test::CliRun importEnvoy(const QString &path, int deadlineMs = 60000)
    {
        return cli({u"rules"_s, u"import"_s, path, u"--format"_s, u"envoy-ratelimit"_s},
                   deadlineMs);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        m_rules = write(u"rules.json"_s, rulesJson);
    }

    // Past the client's 65,536-element reply bound every stored override is listed and served;
    // at the cap one more is refused with the count; past it (written by hand) serve still
    // starts, applies the cap's worth, and says what it skipped.
    void overridesUpToAndPastTheCap()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        QVERIFY(pushRules(redis));
        const QStringList add{u"overrides"_s, u"add"_s,     u"--url"_s, redis.url(), u"--rule"_s,
                              u"hello"_s,     u"--allow"_s, u"--ttl"_s, u"1h"_s};
        QCOMPARE(cli(add + QStringList{u"--subject"_s, u"seed"_s}).exitCode, 0);
        Connection c = redis.connect();
        plantOverrides(c, 0, 70000);
        test::CliRun r = cli({u"overrides"_s, u"list"_s, u"--url"_s, redis.url(), u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), 70001);
        {
            test::ServeProcess serve;
            QVERIFY2(serve.start(fromRedis(redis)), serve.err().constData());
            // The last one planted (past 65,536) is applied.
            const test::HttpReply h =
                test::httpGet(serve.port(), "/v1/check?rule=hello&subject=s69999");
            QCOMPARE(h.header("X-RateLimit-Reason"), QByteArray("override-allow"));
        }

        // To the cap: the next add is refused, with the count, and nothing is written.
        plantOverrides(c, 70000, rules::OverrideStore::maxStored - 70001);
        r = cli(add + QStringList{u"--subject"_s, u"one-more"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("100000 overrides are stored"), r.err.constData());
        QCOMPARE(c.command({"EXISTS", "{sluice}:rules:override:hello:subject:one-more"})->integer,
                 0);

        // Past it, by hand: listed up to the cap, with a warning; serve starts, degraded.
        plantOverrides(c, 200000, 100);
        r = cli({u"overrides"_s, u"list"_s, u"--url"_s, redis.url(), u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out).array().size(), rules::OverrideStore::maxStored);
        QVERIFY2(r.err.contains("more than 100000 overrides are indexed"), r.err.constData());
        test::ServeProcess serve;
        QVERIFY2(serve.start(fromRedis(redis)), serve.err().constData());
        const QJsonObject health = test::httpGet(serve.port(), "/healthz").json();
        QCOMPARE(health.value(u"status"_s).toString(), u"degraded"_s);
        QVERIFY(health.value(u"rules"_s)
                    .toObject()
                    .value(u"skipped"_s)
                    .toArray()
                    .first()
                    .toString()
                    .contains(u"more than 100000"_s));
    }

    // A store that does not read stops no restart: each fault is skipped and said once, and
    // /healthz says degraded with why; the CLI names the key and how to repair it.
    void corruptStoreStopsNoRestart()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        QVERIFY(pushRules(redis));
        Connection c = redis.connect();
        QVERIFY(c.command({"LPUSH", "{sluice}:rules:history", "garbage\n\x1b[2J"}).ok());
        const test::CliRun history = cli({u"rules"_s, u"history"_s, u"--url"_s, redis.url()});
        QVERIFY2(history.err.contains("entry 0 of {sluice}:rules:history is not the record"),
                 history.err.constData());
        checkClean(history.out + history.err);
        QVERIFY(c.command({"SET", "{sluice}:rules:version", "not-a-number"}).ok());
        QVERIFY(c.command({"SET", "{sluice}:rules:staged", "{garbage"}).ok());
        QVERIFY(c.command({"HSET", "{sluice}:rules", "bad\nFORGED Redis is up again\x1b[2J", "{}"})
                    .ok());
        QVERIFY(c.command({"SET", "{sluice}:rules:overrides", "a string"}).ok());

        const test::CliRun list = cli({u"overrides"_s, u"list"_s, u"--url"_s, redis.url()});
        QCOMPARE(list.exitCode, 1);
        QVERIFY2(list.err.contains("{sluice}:rules:version") && list.err.contains("--force"),
                 list.err.constData());
        checkClean(list.err);

        test::ServeProcess serve;
        QVERIFY2(serve.start(fromRedis(redis)), serve.err().constData());
        const QJsonObject health = test::httpGet(serve.port(), "/healthz").json();
        QCOMPARE(health.value(u"status"_s).toString(), u"degraded"_s);
        const QJsonArray skipped =
            health.value(u"rules"_s).toObject().value(u"skipped"_s).toArray();
        QCOMPARE(skipped.size(), 4);
        // The rule that reads is served.
        QCOMPARE(test::httpGet(serve.port(), "/v1/check?rule=hello&subject=a").status, 200);
        const QByteArray err = serve.err();
        QCOMPARE(err.count("rule store: skipped:"), 4);
        QVERIFY2(err.contains("DEL {sluice}:rules:overrides"), err.constData());
        QVERIFY2(err.contains("sluice-cli rules discard"), err.constData());
        checkClean(err);
    }

    // Only regular files: a device, a symlink to one, and a FIFO are refused by name, at once.
    void envoyReadsOnlyRegularFiles()
    {
        test::CliRun r = importEnvoy(u"/dev/zero"_s, 20000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is a character device, not a regular file"), r.err.constData());

        QTemporaryDir dir;
        QVERIFY(QFile::link(u"/dev/zero"_s, dir.filePath(u"zero.yaml"_s)));
        r = importEnvoy(dir.path(), 20000);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("not a regular file"), r.err.constData());

        const QString fifo = dir.filePath(u"fifo.yaml"_s);
        QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        r = importEnvoy(fifo, 20000);
        QVERIFY(!r.timedOut);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("is a FIFO (named pipe), not a regular file"), r.err.constData());
    }

    // 100,000 descriptors (the documented bound) read well inside the deadline: reading was
    // quadratic in them (a position found from the start of the file for each, and a rule id
    // compared with every one before), over 100 s for these.
    void envoyReadsInLinearTime()
    {
        QByteArray yaml = "domain: big\ndescriptors:\n";
        for (int i = 0; i < 100000; ++i) {
            yaml += "  - key: k" + QByteArray::number(i) +
                    "\n    rate_limit: {unit: second, requests_per_unit: 5}\n";
        }
        const test::CliRun r = importEnvoy(write(u"big.yaml"_s, yaml), 30000);
        QVERIFY2(!r.timedOut, "reading 100,000 descriptors took more than 30 s");
        QVERIFY2(r.exitCode == 0, r.err.right(2000).constData());
        QVERIFY(r.err.contains("100000 rule(s)"));
    }

    // Messages as the rule reader's: at most 100 (and the count of the rest), each value cut;
    // a second document is said with its line.
    void envoyMessagesAreBounded()
    {
        QByteArray yaml = "domain: d\ndescriptors:\n  - key: a\n";
        for (int i = 0; i < 99000; ++i) {
            yaml += "    x" + QByteArray::number(i) + ": 1\n";
        }
        test::CliRun r = importEnvoy(write(u"keys.yaml"_s, yaml));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.count('\n') <= 102, QByteArray::number(r.err.count('\n')).constData());
        QVERIFY2(r.err.size() < 100000, QByteArray::number(r.err.size()).constData());
        QVERIFY(r.err.contains("more error(s); the first 100 are shown"));
        // A 10 MB descriptor key: short lines.
        r = importEnvoy(
            write(u"long.yaml"_s, "domain: d\ndescriptors:\n  - key: " + QByteArray(10 << 20, 'k') +
                                      "\n    rate_limit: {unit: second, "
                                      "requests_per_unit: 5}\n"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.size() < 4000, QByteArray::number(r.err.size()).constData());

        r = importEnvoy(write(
            u"two.yaml"_s, "domain: one\ndescriptors:\n  - key: a\n    rate_limit: {unit: second, "
                           "requests_per_unit: 1}\n---\ndomain: two\n"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("two.yaml:5:") && r.err.contains("a second YAML document"),
                 r.err.constData());
    }

    // --ttl and --expires share one bound, said the same way: 100 years (36500d).
    void ttlAndExpiresShareOneBound()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        QVERIFY(pushRules(redis));
        const QStringList add{u"overrides"_s, u"add"_s,       u"--url"_s,
                              redis.url(),    u"--rule"_s,    u"hello"_s,
                              u"--allow"_s,   u"--subject"_s, u"a"_s};
        test::CliRun r = cli(add + QStringList{u"--expires"_s, u"9999-12-31T23:59:59Z"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("36500d"), r.err.constData());
        r = cli(add + QStringList{u"--ttl"_s, u"1000000d"_s});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("36500d"), r.err.constData());
        r = cli(add + QStringList{u"--ttl"_s, u"36000d"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    // The 413 for a body names POST /json and its bound (it said the service takes no bodies);
    // a flapping Redis makes a bounded number of state lines.
    void serveTextsAndStateLines()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        test::ServeProcess serve;
        QVERIFY2(serve.start({u"--url"_s, redis.url(), u"--rules"_s, m_rules, u"--listen"_s,
                              u"127.0.0.1:0"_s, u"--no-stats"_s}),
                 serve.err().constData());
        const test::HttpReply big = test::httpRequest(
            serve.port(), "POST /json HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n");
        QCOMPARE(big.status, 413);
        QVERIFY2(big.body.contains("POST /json"), big.body.constData());

        Connection c = redis.connect();
        QElapsedTimer t;
        t.start();
        // Kills until the log has held lines back and said so (a kill is seen by the next
        // decision on that connection: not each kill is a change of state), at most 15 s.
        for (int i = 0; i < 400 && t.elapsed() < 15000; ++i) {
            QVERIFY(c.command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}).ok());
            for (int k = 0; k < 6; ++k) {
                (void)test::httpGet(serve.port(), "/v1/check?rule=hello&subject=a");
            }
            if (i % 10 == 9 && serve.err().contains("not logged")) {
                break;
            }
            QThread::msleep(50); // the pool's peek finds Redis up again in between
        }
        const qint64 seconds = t.elapsed() / 1000;
        // Let a held line out (the log writes it within seconds), then count.
        QTRY_VERIFY2_WITH_TIMEOUT(serve.err().contains("not logged"),
                                  serve.err().right(3000).constData(), 15000);
        const qsizetype lines = serve.err().count("sluice-cli serve: Redis is");
        QVERIFY2(lines <= 10 + 3 + seconds / 6, QByteArray::number(lines).constData());
    }

    // redis-benchmark failing once ("All clients disconnected") is run again, not fatal.
    void benchRetriesTheCeiling()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        const QString tool = m_dir.filePath(u"flaky-benchmark"_s);
        const QString once = m_dir.filePath(u"failed-once"_s);
        QVERIFY(
            !write(u"flaky-benchmark"_s, "#!/bin/sh\nif [ ! -e '" + once.toUtf8() +
                                             "' ]; then touch '" + once.toUtf8() +
                                             "'; echo 'All clients disconnected' >&2; exit 1; fi\n"
                                             "exec redis-benchmark \"$@\"\n")
                 .isEmpty());
        QVERIFY(QFile::setPermissions(tool, QFile::ReadOwner | QFile::ExeOwner));
        const test::CliRun r = cli({u"bench"_s, u"--url"_s, redis.url(), u"--redis-benchmark"_s,
                                    tool, u"--seconds"_s, u"0.1"_s, u"--rounds"_s, u"1"_s,
                                    u"--algorithm"_s, u"fixed_window"_s, u"--json"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.err.contains("All clients disconnected") && r.err.contains("running it again"),
                 r.err.constData());
    }

    // check against a server that takes the connection and never answers ends within one
    // deadline (5 s): the cluster probe and SCRIPT LOAD each waited it out (10 s).
    void checkWaitsOneDeadline()
    {
        QTcpServer stalled; // never accepts: the kernel completes the handshake, nothing answers
        QVERIFY(stalled.listen(QHostAddress::LocalHost, 0));
        QElapsedTimer t;
        t.start();
        const test::CliRun r =
            cli({u"check"_s, u"--url"_s, u"redis://127.0.0.1:%1"_s.arg(stalled.serverPort()),
                 u"--algorithm"_s, u"fixed_window"_s, u"--limit"_s, u"5"_s, u"--window"_s, u"1s"_s,
                 u"--subject"_s, u"a"_s});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("did not answer in time"), r.err.constData());
        QVERIFY2(t.elapsed() < 8000, QByteArray::number(t.elapsed()).constData());
    }

    // A newline, NUL, ESC and BEL through every path that prints what a file, the store or a
    // client gave: never raw, never a forged line.
    void noRawControlByte()
    {
        // A rule file's field name.
        const QString file =
            write(u"evil.json"_s,
                  "{\"version\": 1, \"rules\": [{\"id\": \"x\", \"algorithm\": \"fixed_window\", "
                  "\"limit\": 1, \"window\": \"1s\", \"a\\nFORGED\\u0000\\u001b[2J\\u0007\": 1}]}");
        test::CliRun r = cli({u"rules"_s, u"validate"_s, file});
        QCOMPARE(r.exitCode, 2);
        checkClean(r.out + r.err);
        // An envoy configuration key.
        r = importEnvoy(
            write(u"evil.yaml"_s,
                  "domain: d\ndescriptors:\n  - key: a\n    \"b\\nFORGED\\0\\e[2J\\a\": 1\n"));
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("\\x0aFORGED"));
        checkClean(r.err);

        // An override's subject and author, by the CLI; a subject by HTTP, in the keys listing.
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        QVERIFY(pushRules(redis));
        r = cli({u"overrides"_s, u"add"_s, u"--url"_s, redis.url(), u"--rule"_s, u"hello"_s,
                 u"--allow"_s, u"--ttl"_s, u"1h"_s, u"--subject"_s,
                 u"esc\nFORGED\x1b[2J\x1b]0;pwned\x07"_s, u"--author"_s, u"a\nFORGED\x07"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        checkClean(r.out + r.err);
        r = cli({u"overrides"_s, u"list"_s, u"--url"_s, redis.url()});
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.count('\n'), 1);
        checkClean(r.out + r.err);
        // A push's author and message, in the history.
        QByteArray changed = rulesJson;
        changed.replace("\"limit\": 2", "\"limit\": 3");
        r = cli({u"rules"_s, u"push"_s, write(u"changed.json"_s, changed), u"--url"_s, redis.url(),
                 u"--force"_s, u"--author"_s, u"a\nFORGED\x1b[2J"_s, u"--message"_s,
                 u"m\nFORGED\x07"_s});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        r = cli({u"rules"_s, u"history"_s, u"--url"_s, redis.url()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("FORGED\\x1b[2J"), r.out.constData());
        checkClean(r.out + r.err);

        test::ServeProcess serve;
        QVERIFY2(serve.start({u"--url"_s, redis.url(), u"--rules"_s, m_rules, u"--listen"_s,
                              u"127.0.0.1:0"_s, u"--no-stats"_s}),
                 serve.err().constData());
        QCOMPARE(
            test::httpGet(serve.port(), "/v1/check?rule=hello&subject=k%0aFORGED%1b%07").status,
            200);
        r = cli({u"keys"_s, u"--url"_s, redis.url(), u"--rules"_s, m_rules});
        QVERIFY2(r.out.contains("FORGED"), r.out.constData());
        checkClean(r.out + r.err);
    }
};

QTEST_GUILESS_MAIN(Hardening3Test)
#include "tst_hardening3.moc"
