// Other libraries' limiter keys, written by the real thing from Debian 12's archive, run
// unmodified through their own APIs by a driver script each: Rack::Attack in a Rack app with
// its plain Redis store (ruby-rack-attack, ruby-redis: tests/debian-rack-attack.rb), python
// limits' RedisStorage and strategies (python3-limits, python3-redis: tests/debian-limits.py),
// Laravel's throttle middleware on a Redis cache store and its DurationLimiter
// (php-laravel-framework, php-redis: tests/debian-laravel.php). For each: `sluice-cli keys
// audit --json` names the layout and decodes the state; one key's TTL is taken away (PERSIST)
// and the verdict checked; the library is sent one more request, and what it then does with the
// key is what the layout table says a lost TTL does. None of the three keeps a key without TTL
// on purpose. A package that is missing fails the test with the package's name: tools/dev.sh
// installs them.
#include "limiteraudit.h"
#include "testredis.h"

#include <QJsonArray>
#include <QProcess>
#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

struct Library
{
    QString program;   // the interpreter, Debian's own
    QStringList probe; // its arguments that load the library and its Redis client
    const char *packages;
    QString missing; // why it cannot run ("" when it can)
};

QString script(const char *name)
{
    return QStringLiteral(SLUICE_SOURCE_DIR) + u"/tests/"_s + QLatin1String(name);
}

QJsonArray ints(std::initializer_list<int> values)
{
    QJsonArray a;
    for (int v : values) {
        a.append(v);
    }
    return a;
}

QJsonArray bools(std::initializer_list<bool> values)
{
    QJsonArray a;
    for (bool v : values) {
        a.append(v);
    }
    return a;
}

} // namespace

class TestDebianLimiters : public QObject
{
    Q_OBJECT

    QByteArray m_tag;
    Library m_rack{u"/usr/bin/ruby"_s,
                   {u"-e"_s, u"require 'rack'; require 'rack/mock'; require 'rack/attack'; "
                             "require 'redis'"_s},
                   "ruby-rack-attack ruby-rack ruby-redis",
                   {}};
    Library m_limits{u"/usr/bin/python3"_s,
                     {u"-c"_s, u"import limits.storage, redis"_s},
                     "python3-limits python3-redis",
                     {}};
    Library m_laravel{u"/usr/bin/php"_s,
                      {u"-r"_s, u"require '/usr/share/php/Illuminate/autoload.php'; "
                                "exit(class_exists('Illuminate\\Cache\\RateLimiter') && "
                                "extension_loaded('redis') ? 0 : 1);"_s},
                      "php-cli php-laravel-framework php-redis",
                      {}};
    qint64 m_rackPeriod = 3600;

    static void probe(Library &lib)
    {
        QProcess p;
        p.start(lib.program, lib.probe);
        if (!p.waitForFinished(30'000) || p.exitStatus() != QProcess::NormalExit ||
            p.exitCode() != 0) {
            lib.missing =
                u"%1 cannot load the library (install %2; tools/dev.sh installs them): "_s.arg(
                    lib.program, QLatin1String(lib.packages)) +
                QString::fromLocal8Bit(p.readAllStandardError().right(300));
        }
    }

    // Runs a library's driver: `step` and the fixture's Redis, the tag, then `more`.
    QJsonObject drive(const Library &lib, const char *driver, const QString &step,
                      const QStringList &more = {})
    {
        return test::runDriver(
            lib.program,
            QStringList{script(driver), step, test::redisUrl(), QString::fromLatin1(m_tag)} + more);
    }

    QJsonObject rack(const QString &step)
    {
        return drive(m_rack, "debian-rack-attack.rb", step, {QString::number(m_rackPeriod)});
    }

    QJsonObject limits(const QString &step, const QString &strategy)
    {
        return drive(m_limits, "debian-limits.py", step, {strategy});
    }

    QJsonObject laravel(const QString &step)
    {
        return drive(m_laravel, "debian-laravel.php", step);
    }

    // Removes what an earlier case left of one library's keys: a clean slate for its writes.
    void clear(const QByteArray &prefix)
    {
        Connection c = test::connect();
        for (const QByteArray &k : test::keysWithPrefix(c, prefix)) {
            if (k.contains(m_tag)) {
                QVERIFY(c.command({"DEL", k}));
            }
        }
    }

    // A command's reply as text (its integer for an integer reply), or the error in words: a
    // failed command fails the comparison with its reason instead of aborting the test.
    static QByteArray reply(Connection &c, const QList<QByteArray> &command)
    {
        auto r = c.command(command);
        if (!r) {
            return "error: " + r.error().message.toUtf8();
        }
        return r->type == Reply::Type::Integer ? QByteArray::number(r->integer) : r->str;
    }

    static qint64 serverSeconds()
    {
        Connection c = test::connect();
        auto t = c.command({"TIME"});
        return t ? t->elements[0].str.toLongLong() : 0;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_tag = test::keyPrefix() + "deb:";
        probe(m_rack);
        probe(m_limits);
        probe(m_laravel);
        // A throttle period of an hour or a little more that does not end in the next two
        // minutes: the test's requests all count in one period, as Rack::Attack names it.
        const qint64 now = serverSeconds();
        QVERIFY(now > 0);
        while (now % m_rackPeriod > m_rackPeriod - 120) {
            ++m_rackPeriod;
        }
    }

    void cleanupTestCase()
    {
        clear("rack::attack:");
        clear("LIMITER/");
    }

    // Rack::Attack's throttle: INCRBY and EXPIRE, pipelined, with every request. A counter
    // that lost its TTL gets it back with the subject's next request in its period (the table
    // said orphaned; the name holds the period, so a counter whose subject sends nothing more
    // in it stays, and is dead weight).
    void rackAttackThrottle()
    {
        QVERIFY2(m_rack.missing.isEmpty(), qPrintable(m_rack.missing));
        clear("rack::attack:");
        const QJsonObject w = rack(u"write"_s);
        QCOMPARE(w[u"version"_s].toString(), u"6.6.1"_s);
        QCOMPARE(w[u"throttle"_s].toArray(), ints({200, 200, 200}));
        const QByteArray key = w[u"counter"_s].toString().toLatin1();
        QVERIFY(key.startsWith("rack::attack:"));
        const QJsonObject e =
            test::auditThenPersist(key, u"rack_attack_counter"_s, u"heals_on_next_request"_s,
                                   u"3 requests in this window"_s);
        QVERIFY(!e.isEmpty());
        QVERIFY2(e[u"state"_s].toString().contains(u"no TTL (the next request sets one)"_s),
                 qPrintable(e[u"state"_s].toString()));
        const QJsonObject a = rack(u"again"_s);
        QCOMPARE(a[u"counter"_s].toString(), QString::fromLatin1(key)); // the same period
        QCOMPARE(a[u"throttle"_s].toArray(), ints({200}));
        Connection c = test::connect();
        const qint64 t = test::pttl(c, key);
        QVERIFY2(t > 0 && t <= (m_rackPeriod + 1) * 1000, qPrintable(QString::number(t)));
        QCOMPARE(reply(c, {"GET", key}), QByteArray("4"));
    }

    // Fail2Ban's ban: SETEX bantime. A ban without TTL is read as banned for good: every
    // request of the address is refused, and nothing gives the key a TTL back.
    void rackAttackBan()
    {
        QVERIFY2(m_rack.missing.isEmpty(), qPrintable(m_rack.missing));
        clear("rack::attack:");
        const QJsonObject w = rack(u"write"_s);
        QCOMPARE(w[u"logins"_s].toArray(), ints({403, 403}));
        QCOMPARE(w[u"probe"_s].toInt(), 403); // banned
        const QByteArray ban = w[u"ban"_s].toString().toLatin1();
        // The failed logins' count: a counter per findtime, like the throttle's.
        const auto got = test::auditKeys("rack::attack:*:fail2ban:count:" + m_tag + "*");
        QCOMPARE(got.size(), 1);
        test::expectEntry(got.first(), u"rack_attack_counter"_s, u"ok"_s,
                          u"heals_on_next_request"_s);
        QVERIFY(got.first()[u"state"_s].toString().startsWith(u"2 requests in this window"_s));

        QVERIFY(test::persistBlockingKey(ban, u"rack_attack_ban"_s, u"blocked for"_s));
        // Said as a ban, not as a counter.
        const QJsonObject e = test::auditKeys(ban).value(QString::fromLatin1(ban));
        QCOMPARE(e[u"state"_s].toString(), u"blocked for good (no TTL)"_s);
        QVERIFY2(e[u"cause"_s].toString().contains(u"without one the block never ends"_s),
                 qPrintable(e[u"cause"_s].toString()));
        QCOMPARE(rack(u"again"_s)[u"probe"_s].toInt(), 403); // still banned
        Connection c = test::connect();
        QCOMPARE(test::pttl(c, ban), qint64(-1)); // and for good
    }

    // limits' fixed window: one Lua, INCRBY, and EXPIRE only when the INCRBY answers the first
    // hit. A counter without TTL keeps counting and, at its limit, denies its subject for good.
    void limitsFixedWindow()
    {
        QVERIFY2(m_limits.missing.isEmpty(), qPrintable(m_limits.missing));
        const QJsonObject w = limits(u"write"_s, u"fixed"_s);
        QCOMPARE(w[u"version"_s].toString(), u"2.8.0"_s);
        QCOMPARE(w[u"hits"_s].toArray(), bools({true, true, true}));
        const QByteArray key = w[u"key"_s].toString().toLatin1();
        QCOMPARE(key, "LIMITER/" + m_tag + "/fixed/5/1/minute");
        QVERIFY(test::persistBlockingKey(key, u"limits_fixed_window"_s,
                                         u"3 requests in this window"_s));
        // The window from the name: 1 minute.
        QCOMPARE(test::auditKeys(key).value(QString::fromLatin1(key))[u"window_ms"_s].toInt(),
                 60'000);
        QCOMPARE(limits(u"again"_s, u"fixed"_s)[u"hits"_s].toArray(), bools({true, true, false}));
        Connection c = test::connect();
        QCOMPARE(test::pttl(c, key), qint64(-1)); // still none, and counting: it blocks
        QCOMPARE(reply(c, {"GET", key}), QByteArray("6"));
    }

    // The elastic-expiry fixed window writes the same key, and EXPIREs it with every hit: its
    // lost TTL comes back. Nothing in Redis tells the two strategies apart, so the row says
    // what the worse of them does.
    void limitsElasticExpiry()
    {
        QVERIFY2(m_limits.missing.isEmpty(), qPrintable(m_limits.missing));
        const QByteArray key = limits(u"write"_s, u"elastic"_s)[u"key"_s].toString().toLatin1();
        QCOMPARE(key, "LIMITER/" + m_tag + "/elastic/5/1/minute");
        QVERIFY(!test::auditThenPersist(key, u"limits_fixed_window"_s, u"blocks_subject"_s,
                                        u"3 requests in this window"_s)
                     .isEmpty());
        QCOMPARE(limits(u"again"_s, u"elastic"_s)[u"hits"_s].toArray(), bools({true, true, false}));
        Connection c = test::connect();
        const qint64 t = test::pttl(c, key);
        QVERIFY2(t > 0 && t <= 60'000, qPrintable(QString::number(t))); // healed
    }

    // limits' moving window: a LIST of the hits' times (LPUSH, LTRIM to the limit, EXPIRE the
    // window with every admitted hit). A list without TTL gets it back with the next admitted
    // hit; the times in it say who is at the limit, so nobody is blocked for good.
    void limitsMovingWindow()
    {
        QVERIFY2(m_limits.missing.isEmpty(), qPrintable(m_limits.missing));
        const QByteArray key = limits(u"write"_s, u"moving"_s)[u"key"_s].toString().toLatin1();
        QCOMPARE(key, "LIMITER/" + m_tag + "/moving/5/1/minute");
        const QJsonObject e =
            test::auditThenPersist(key, u"limits_moving_window"_s, u"heals_on_next_request"_s,
                                   u"3 timestamps in the last 1 min"_s);
        QVERIFY(!e.isEmpty());
        QCOMPARE(e[u"window_ms"_s].toInt(), 60'000);
        QCOMPARE(limits(u"again"_s, u"moving"_s)[u"hits"_s].toArray(), bools({true, true, false}));
        Connection c = test::connect();
        const qint64 t = test::pttl(c, key);
        QVERIFY2(t > 0 && t <= 60'000, qPrintable(QString::number(t))); // healed
        QCOMPARE(reply(c, {"LLEN", key}), QByteArray("5"));
    }

    // Laravel's throttle middleware (ThrottleRequests on Illuminate\Cache\RateLimiter): a
    // counter and its timer, each added with the decay (SETEX), the counter INCRBY'd; its TTL
    // is set again only when the INCRBY answers 1 on a key it did not add. A counter without
    // TTL is not given one by the next request (the table said it heals): it keeps counting
    // while its timer lasts; at the limit with the timer gone, the limiter deletes it and
    // starts again. Nobody is blocked for good; an idle subject's counter stays.
    void laravelThrottle()
    {
        QVERIFY2(m_laravel.missing.isEmpty(), qPrintable(m_laravel.missing));
        clear(m_tag + "laravel_");
        const QJsonObject w = laravel(u"write"_s);
        QCOMPARE(w[u"version"_s].toString(), u"8.83.26"_s);
        QCOMPARE(w[u"inline"_s].toArray(), ints({200, 200, 200}));
        QCOMPARE(w[u"named"_s].toArray(), ints({200, 200, 200}));
        const QByteArray key = w[u"inlineKey"_s].toString().toLatin1();
        const QByteArray timer = key + ":timer";
        const QByteArray named = w[u"namedKey"_s].toString().toLatin1();
        auto got = test::auditKeys(m_tag + "laravel_*");
        QCOMPARE(got.size(), 5); // two counters, their timers, the duration limiter's hash
        test::expectEntry(got.value(QString::fromLatin1(timer)), u"laravel_timer"_s, u"ok"_s,
                          u"idle_key_kept"_s);
        test::expectEntry(got.value(QString::fromLatin1(named)), u"laravel_counter"_s, u"ok"_s,
                          u"idle_key_kept"_s);
        QVERIFY(!test::auditThenPersist(key, u"laravel_counter"_s, u"idle_key_kept"_s,
                                        u"3 requests in this window"_s)
                     .isEmpty());

        QCOMPARE(laravel(u"again"_s)[u"inline"_s].toArray(), ints({200}));
        Connection c = test::connect();
        QCOMPARE(test::pttl(c, key), qint64(-1)); // not given back by the next request
        QCOMPARE(laravel(u"limit"_s)[u"inline"_s].toArray(), ints({200, 429}));
        QCOMPARE(reply(c, {"GET", key}), QByteArray("5"));
        // The timer ends (as its expiry does it): at its limit, the counter is deleted and
        // counts again from 1, with the decay as its TTL.
        QVERIFY(c.command({"DEL", timer}));
        QCOMPARE(laravel(u"again"_s)[u"inline"_s].toArray(), ints({200}));
        QCOMPARE(reply(c, {"GET", key}), QByteArray("1"));
        const qint64 t = test::pttl(c, key);
        QVERIFY2(t > 0 && t <= 60'000, qPrintable(QString::number(t)));
    }

    // The timer without TTL: the limiter only asks whether it exists, while the counter's own
    // TTL ends the window. It stays, and blocks nobody.
    void laravelTimer()
    {
        QVERIFY2(m_laravel.missing.isEmpty(), qPrintable(m_laravel.missing));
        clear(m_tag + "laravel_");
        const QJsonObject w = laravel(u"write"_s);
        const QByteArray key = w[u"namedKey"_s].toString().toLatin1();
        const QByteArray timer = key + ":timer";
        QVERIFY(!test::auditThenPersist(timer, u"laravel_timer"_s, u"idle_key_kept"_s,
                                        u"available again in"_s)
                     .isEmpty());
        QCOMPARE(laravel(u"again"_s)[u"named"_s].toArray(), ints({200}));
        Connection c = test::connect();
        QCOMPARE(test::pttl(c, timer), qint64(-1)); // kept
        QVERIFY(test::pttl(c, key) > 0);
        QCOMPARE(reply(c, {"GET", key}), QByteArray("4"));
    }

    // Redis::throttle's DurationLimiter: a hash start, end, count; EXPIRE decay x 2 when a
    // window starts. A hash without TTL still counts in its window (its end is in it), and the
    // first request after the end starts a window, with a TTL.
    void laravelDuration()
    {
        QVERIFY2(m_laravel.missing.isEmpty(), qPrintable(m_laravel.missing));
        clear(m_tag + "laravel_");
        const QJsonObject w = laravel(u"write"_s);
        QCOMPARE(w[u"duration"_s].toArray(), bools({true, true, true}));
        const QByteArray key = w[u"durationKey"_s].toString().toLatin1();
        QVERIFY(!test::auditThenPersist(key, u"laravel_duration"_s, u"heals_on_next_request"_s,
                                        u"3 in the window ending in"_s)
                     .isEmpty());
        QJsonObject a = laravel(u"again"_s);
        QCOMPARE(a[u"duration"_s].toArray(), bools({true}));
        Connection c = test::connect();
        const qint64 end = a[u"durationEnd"_s].toInteger();
        if (a[u"now"_s].toInteger() <= end) {
            QCOMPARE(test::pttl(c, key), qint64(-1)); // in its window: counted, no TTL yet
            QCOMPARE(reply(c, {"HGET", key, "count"}), QByteArray("4"));
        }
        // The window's end (3 s): the next request starts a new one, with its TTL.
        QTRY_VERIFY_WITH_TIMEOUT(serverSeconds() > end, 6'000);
        a = laravel(u"again"_s);
        QCOMPARE(a[u"duration"_s].toArray(), bools({true}));
        const qint64 t = test::pttl(c, key);
        QVERIFY2(t > 0 && t <= 6'000, qPrintable(QString::number(t)));
        QCOMPARE(reply(c, {"HGET", key, "count"}), QByteArray("1"));
    }
};

QTEST_GUILESS_MAIN(TestDebianLimiters)
#include "tst_debian_limiters.moc"
