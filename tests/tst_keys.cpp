// core/keys: decoding every state layout, the health rules, scanning a real keyspace planted by
// the real scripts (plus the broken keys seen in the wild), the fixer, a 200,000-key scan with
// cancel, a connection dropped and a server restarted mid-scan, the plain-command fallback,
// and the worker that keeps the GUI thread free.
#include "ownredis.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/keys/keyfixer.h"
#include "core/keys/keyhealth.h"
#include "core/keys/keyreader.h"
#include "core/keys/keyscanner.h"
#include "core/keys/keysworker.h"
#include "core/keys/statedecoder.h"
#include "core/limiter/redislimiter.h"
#include "core/redis/keyspace.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QLocale>
#include <QSet>
#include <QSignalSpy>
#include <QTest>

#include <QThread>
#include <QTimer>
#include <limits>

#include <atomic>
#include <functional>
#include <thread>

using namespace sluice;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

Q_DECLARE_METATYPE(sluice::Rule)
Q_DECLARE_METATYPE(sluice::keys::RawRead)
Q_DECLARE_METATYPE(sluice::keys::KeyState::Kind)
Q_DECLARE_METATYPE(sluice::keys::Health)

namespace {

constexpr qint64 sec = duration::usPerSecond;
constexpr qint64 ms = duration::usPerMs;
constexpr qint64 t0 = 1'700'000'000'000'000; // a fixed "now" for the pure decoding tests
const Scope ip{Scope::Kind::Ip, {}};

RawRead hashRead(std::initializer_list<std::optional<QByteArray>> fields, qint64 now = t0)
{
    RawRead r;
    r.type = "hash";
    r.pttlMs = 1000;
    r.nowUs = now;
    r.stateRead = true;
    r.hlen = qint64(fields.size());
    for (const auto &f : fields) {
        r.fields << f;
        r.fieldLength << 0;
    }
    return r;
}

RawRead stringRead(const QByteArray &value, qint64 strlen = -1, qint64 now = t0)
{
    RawRead r;
    r.type = "string";
    r.pttlMs = 1000;
    r.nowUs = now;
    r.stateRead = true;
    r.strlen = strlen < 0 ? value.size() : strlen;
    r.head = value.left(256);
    return r;
}

QByteArray num(qint64 v)
{
    return QByteArray::number(v);
}

qint64 infoField(Connection &c, const QByteArray &section, const QByteArray &field)
{
    auto r = c.command({"INFO", section});
    if (!r) {
        return -1;
    }
    const qsizetype at = r->str.indexOf(field + ':');
    if (at < 0) {
        return -1;
    }
    const qsizetype end = r->str.indexOf('\r', at);
    return r->str.mid(at + field.size() + 1, end - at - field.size() - 1).toLongLong();
}

// `n` fixed-window states "<prefix>big:{<i>}" with a 60 s TTL (a 60 s window's), planted by one Lua
// loop per 50,000 keys (the test's own planting, not the code under test).
bool plantFixedWindows(Connection &c, const QByteArray &prefix, qint64 from, qint64 n)
{
    return test::plantFixedWindows(c, prefix, from, n, 60'000);
}

// The set-up of the tests that break a scan midway: a private server holding `n` fixed-window
// keys "p:big:{<i>}", the rule that reads them, a control connection and one for the scan.
struct BrokenScan
{
    test::OwnRedis server;
    std::optional<Connection> control;
    std::optional<Connection> scan;
    RuleSet set;

    bool start(qint64 n)
    {
        if (!server.start()) {
            return false;
        }
        auto c = Connection::open(server.endpoint());
        auto s = Connection::open(server.endpoint());
        if (!c || !s) {
            return false;
        }
        control.emplace(std::move(*c));
        scan.emplace(std::move(*s));
        set.rules = {Rule::window(u"big"_s, Algorithm::FixedWindow, 10, 60 * sec, ip, "p:")};
        return plantFixedWindows(*control, "p:", 0, n);
    }
    // Pages of 100 keys.
    static KeyScanner::Options options(std::chrono::milliseconds reconnectDelay)
    {
        KeyScanner::Options o;
        o.initialCount = o.maxCount = 100;
        o.reconnectDelay = reconnectDelay;
        return o;
    }
    // The planted keys scanned on `scan` as options() says: each page counted into `delivered`,
    // then given to `onPage` with its number (the first is 1).
    ScanSummary scanPages(std::chrono::milliseconds reconnectDelay,
                          const std::function<void(const QList<KeyInfo> &, int)> &onPage)
    {
        KeyScanner scanner{KeyReader(set)};
        int pages = 0;
        return scanner.run(*scan, options(reconnectDelay),
                           [&](const QList<KeyInfo> &page, const ScanProgress &) {
                               delivered += page.size();
                               onPage(page, ++pages);
                           });
    }
    qint64 delivered = 0;
};

// A connection as the ACL user `name` (password "pw", every key) with `commands` on top of
// `reset on`: created by `admin`, which deletes it with ACL DELUSER when done.
Result<Connection> connectAsAclUser(Connection &admin, const QByteArray &name,
                                    const QList<QByteArray> &commands)
{
    auto made = admin.command(
        QList<QByteArray>{"ACL", "SETUSER", name, "reset", "on", ">pw", "~*"} + commands);
    if (!made) {
        return made.error();
    }
    Endpoint e = test::redisEndpoint();
    e.user = QString::fromLatin1(name);
    e.password = u"pw"_s;
    return Connection::open(e);
}

} // namespace

class TestKeys : public QObject
{
    Q_OBJECT

    QByteArray m_prefix;
    RuleSet m_rules;
    QByteArray m_huge; // the 20 MB value

    const Rule &rule(const char *id) const { return *m_rules.find(QString::fromLatin1(id)); }
    QByteArray key(const char *id, const QByteArray &subject) const
    {
        return rule(id).keyFor(subject);
    }
    // The rule of the scans of many keys: plantFixedWindows(c, m_prefix, ...) writes its keys.
    Rule bigRule() const
    {
        return Rule::window(u"big"_s, Algorithm::FixedWindow, 10, 60 * sec, ip, m_prefix);
    }

    // Every key under the test's prefix, scanned, by key.
    QHash<QByteArray, KeyInfo> scanAll(KeyReader reader, ScanSummary *summaryOut = nullptr)
    {
        Connection c = test::connect();
        KeyScanner scanner(std::move(reader));
        KeyScanner::Options o;
        o.patterns = {m_prefix + '*'};
        QHash<QByteArray, KeyInfo> out;
        const ScanSummary s =
            scanner.run(c, o, [&](const QList<KeyInfo> &page, const ScanProgress &) {
                for (const KeyInfo &k : page) {
                    out.insert(k.key, k);
                }
            });
        if (summaryOut) {
            *summaryOut = s;
        }
        return out;
    }

    // The planted keyspace: every algorithm through the real scripts, plus broken keys.
    // Plants the keys every listing test reads: false when a step failed (the test stops).
    bool plant()
    {
        return test::passed([this] { plantKeys(); });
    }
    void plantKeys()
    {
        Connection c = test::cleanSlate();
        RedisLimiter limiter(test::connect());
        const QList<QByteArray> subjects{"1.2.3.4", QByteArray("line\nbreak"),
                                         QByteArray("\x00\xff{}:bin", 9)};
        for (const Rule &r : m_rules.rules) {
            const Policy p = r.policy();
            for (const QByteArray &s : subjects) {
                for (int i = 0; i < 2; ++i) {
                    auto d = limiter.decide(Request{&p, p.keyFor(s), 1, std::nullopt, 0});
                    QVERIFY2(d.ok() && d->allowed, qPrintable(r.id));
                }
            }
        }
        // An INCR-after-expiry leftover: a fixed-window hash written without a TTL.
        QVERIFY(c.command({"HSET", key("fw", "noexp"), "s",
                           num(QDateTime::currentMSecsSinceEpoch() * 1000), "c", "2"}));
        // The ms-vs-s bug: a token bucket whose TTL is 1000x too long.
        QVERIFY(c.command({"PEXPIRE", key("tb", "1.2.3.4"), num(maxTtlMs(rule("tb")) * 1000)}));
        // An orphan: state of a rule that no longer exists, no TTL.
        QVERIFY(c.command({"HSET", m_prefix + "deleted-rule:{9.9.9.9}", "s", "1", "c", "1"}));
        // A zset where the fixed window keeps a hash.
        QVERIFY(c.command({"ZADD", key("fw", "zset"), "1", "m"}));
        // 20 MB where the GCRA keeps a few bytes.
        QVERIFY(c.command({"SET", key("g", "huge"), m_huge}));
        // A key outside the pattern scanned.
        QVERIFY(c.command({"SET", "t:elsewhere:" + m_prefix, "1", "PX", "60000"}));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_prefix = test::keyPrefix();
        m_rules.rules = {
            // Slow enough that nothing planted expires while a test function runs.
            Rule::window(u"fw"_s, Algorithm::FixedWindow, 3, 60 * sec, ip, m_prefix),
            Rule::window(u"sl"_s, Algorithm::SlidingLog, 3, 60 * sec, ip, m_prefix),
            Rule::window(u"sc"_s, Algorithm::SlidingCounter, 3, 60 * sec, ip, m_prefix),
            Rule::bucket(u"tb"_s, Algorithm::TokenBucket, Rate{1, 10 * sec}, 20, ip, m_prefix),
            Rule::bucket(u"lb"_s, Algorithm::LeakyBucket, Rate{1, 10 * sec}, 5, ip, m_prefix),
            Rule::bucket(u"g"_s, Algorithm::Gcra, Rate{1, 10 * sec}, 5, ip, m_prefix),
        };
        m_huge = QByteArray(20 << 20, 'x');
    }

    void cleanupTestCase()
    {
        Connection c = test::cleanSlate();
        (void)c.command({"DEL", "t:elsewhere:" + m_prefix});
    }

    // --- pure: no Redis ---------------------------------------------------------------------

    void maxTtl_data()
    {
        test::columns<Rule, qint64>("rule", "expected");
        QTest::newRow("fixed W") << Rule::window(u"a"_s, Algorithm::FixedWindow, 3, 5 * sec, ip)
                                 << qint64(5000);
        QTest::newRow("log W") << Rule::window(u"a"_s, Algorithm::SlidingLog, 3, 1500 * ms, ip)
                               << qint64(1500);
        QTest::newRow("counter 2W")
            << Rule::window(u"a"_s, Algorithm::SlidingCounter, 3, 5 * sec, ip) << qint64(10000);
        QTest::newRow("window 1.5 us")
            << Rule::window(u"a"_s, Algorithm::FixedWindow, 3, 1500, ip) << qint64(2);
        QTest::newRow("token B/r")
            << Rule::bucket(u"a"_s, Algorithm::TokenBucket, Rate{10, sec}, 20, ip) << qint64(2000);
        QTest::newRow("leaky B/r")
            << Rule::bucket(u"a"_s, Algorithm::LeakyBucket, Rate{10, sec}, 5, ip) << qint64(500);
        // 1 token at 3/s: 333,333.3 us, rounded up.
        QTest::newRow("token 3/s")
            << Rule::bucket(u"a"_s, Algorithm::TokenBucket, Rate{3, sec}, 1, ip) << qint64(334);
        QTest::newRow("gcra (b+1)/r")
            << Rule::bucket(u"a"_s, Algorithm::Gcra, Rate{2, sec}, 5, ip) << qint64(3000);
        QTest::newRow("gcra 3/s b1")
            << Rule::bucket(u"a"_s, Algorithm::Gcra, Rate{3, sec}, 1, ip) << qint64(667);
        QTest::newRow("gcra 5/10s")
            << Rule::bucket(u"a"_s, Algorithm::Gcra, Rate{5, 10 * sec}, 9, ip) << qint64(20000);
    }

    void maxTtl()
    {
        QFETCH(Rule, rule);
        QFETCH(qint64, expected);
        QCOMPARE(maxTtlMs(rule), expected);
    }

    void classify_data()
    {
        test::columns<qint64, bool, bool, bool, Health>("pttl", "hasRule", "haveRules", "readable",
                                                        "expected");
        QTest::newRow("ok") << qint64(4000) << true << true << true << Health::Ok;
        QTest::newRow("at the max") << qint64(5000) << true << true << true << Health::Ok;
        QTest::newRow("within slack") << qint64(5001) << true << true << true << Health::Ok;
        QTest::newRow("above") << qint64(5002) << true << true << true << Health::TtlExceedsRule;
        QTest::newRow("1000x") << qint64(5'000'000) << true << true << true
                               << Health::TtlExceedsRule;
        QTest::newRow("no ttl") << qint64(-1) << true << true << true << Health::NoTtl;
        QTest::newRow("orphan") << qint64(-1) << false << true << true << Health::Orphan;
        QTest::newRow("wrong type") << qint64(-1) << true << true << false << Health::WrongType;
        QTest::newRow("no rules, no ttl") << qint64(-1) << false << false << true << Health::NoTtl;
        QTest::newRow("no rules, ttl")
            << qint64(99'999'999) << false << false << true << Health::Ok;
    }

    void classify()
    {
        QFETCH(qint64, pttl);
        QFETCH(bool, hasRule);
        QFETCH(bool, haveRules);
        QFETCH(bool, readable);
        QFETCH(Health, expected);
        const Rule r = Rule::window(u"a"_s, Algorithm::FixedWindow, 3, 5 * sec, ip);
        QCOMPARE(keys::classify(pttl, hasRule ? &r : nullptr, haveRules, readable), expected);
    }

    void decode_data()
    {
        test::columns<Rule, RawRead, KeyState::Kind, qint64, qint64, qint64, QString>(
            "rule", "raw", "kind", "count", "remaining", "resetMs", "text");
        using K = KeyState::Kind;
        const Rule fw = Rule::window(u"fw"_s, Algorithm::FixedWindow, 3, 5 * sec, ip);
        QTest::newRow("fixed live")
            << fw << hashRead({num(t0 - 1300 * ms), "2"}) << K::FixedWindow << qint64(2)
            << qint64(1) << qint64(3700) << u"2 / 3 in this window, resets in 3.7 s"_s;
        QTest::newRow("fixed over limit")
            << fw << hashRead({num(t0), "5"}) << K::FixedWindow << qint64(5) << qint64(0)
            << qint64(5000) << u"5 / 3 in this window (full), resets in 5 s"_s;
        QTest::newRow("fixed over")
            << fw << hashRead({num(t0 - 6 * sec), "3"}) << K::FixedWindow << qint64(0) << qint64(3)
            << qint64(0) << u"0 / 3: the window is over"_s;
        QTest::newRow("fixed no c")
            << fw << hashRead({num(t0 - sec), std::nullopt}) << K::FixedWindow << qint64(0)
            << qint64(3) << qint64(4000) << u"0 / 3 in this window, resets in 4 s"_s;
        QTest::newRow("fixed no s")
            << fw << hashRead({std::nullopt, "2"}) << K::Unreadable << qint64(0) << qint64(0)
            << qint64(-1) << u"a hash without field s (the window start)"_s;
        QTest::newRow("fixed bad s")
            << fw << hashRead({"12ab", "2"}) << K::Unreadable << qint64(0) << qint64(0)
            << qint64(-1) << u"field s is '12ab', not a whole number below 2^53"_s;
        RawRead bigField = hashRead({std::nullopt, "1"});
        bigField.fieldLength[0] = 3 << 20;
        QTest::newRow("fixed huge field")
            << fw << bigField << K::Unreadable << qint64(0) << qint64(0) << qint64(-1)
            << u"field s holds 3.0 MB, not a number"_s;
        RawRead zset;
        zset.type = "zset";
        zset.pttlMs = -1;
        zset.nowUs = t0;
        QTest::newRow("fixed in a zset")
            << fw << zset << K::Unreadable << qint64(0) << qint64(0) << qint64(-1)
            << u"a zset where fixed_window keeps a hash"_s;

        const Rule sc = Rule::window(u"sc"_s, Algorithm::SlidingCounter, 3, 5 * sec, ip);
        // Rolled once: previous = 3 weighs 4/5, current 0: ~2.4; remaining floor(0.6) = 0.
        QTest::newRow("counter rolled")
            << sc << hashRead({num(t0 - 6 * sec), "3", "1"}) << K::SlidingCounter << qint64(0)
            << qint64(0) << qint64(4000)
            << u"~2.4 / 3 (this window 0, previous 3), resets in 4 s"_s;
        QTest::newRow("counter live") << sc << hashRead({num(t0 - sec), "1", "2"})
                                      << K::SlidingCounter << qint64(1) << qint64(0) << qint64(9000)
                                      << u"~2.6 / 3 (this window 1, previous 2), resets in 9 s"_s;
        QTest::newRow("counter over")
            << sc << hashRead({num(t0 - 11 * sec), "3", "3"}) << K::SlidingCounter << qint64(0)
            << qint64(3) << qint64(0) << u"0 / 3: both windows are over"_s;

        // 10/s: P = 100,000 ticks a token, 1 tick a us.
        const Rule tb = Rule::bucket(u"tb"_s, Algorithm::TokenBucket, Rate{10, sec}, 20, ip);
        QTest::newRow("token refilled")
            << tb << hashRead({"500000", num(t0 - 500 * ms)}) << K::TokenBucket << qint64(0)
            << qint64(10) << qint64(1000) << u"10 tokens of 20, full in 1 s"_s;
        QTest::newRow("token fraction")
            << tb << hashRead({"1420000", num(t0)}) << K::TokenBucket << qint64(0) << qint64(14)
            << qint64(580) << u"14.2 tokens of 20, full in 580 ms"_s;
        QTest::newRow("token full") << tb << hashRead({"0", num(t0 - 3 * sec)}) << K::TokenBucket
                                    << qint64(0) << qint64(20) << qint64(0) << u"full: 20 tokens"_s;
        const Rule lb = Rule::bucket(u"lb"_s, Algorithm::LeakyBucket, Rate{10, sec}, 5, ip);
        QTest::newRow("leaky drained")
            << lb << hashRead({"300000", num(t0 - 100 * ms)}) << K::LeakyBucket << qint64(0)
            << qint64(3) << qint64(200) << u"queue 2 of 5, wait 200 ms"_s;
        QTest::newRow("leaky empty")
            << lb << hashRead({"300000", num(t0 - sec)}) << K::LeakyBucket << qint64(0) << qint64(5)
            << qint64(0) << u"queue empty (room for 5)"_s;
        QTest::newRow("bucket no t")
            << lb << hashRead({"300000", std::nullopt}) << K::Unreadable << qint64(0) << qint64(0)
            << qint64(-1) << u"a hash without fields l and t (level and last update)"_s;

        // 2/s, burst 5: T = 0.5 s, DVT = 3 s.
        const Rule g = Rule::bucket(u"g"_s, Algorithm::Gcra, Rate{2, sec}, 5, ip);
        QTest::newRow("gcra half")
            << g << stringRead(num(t0 + 1500 * ms)) << K::Gcra << qint64(0) << qint64(3)
            << qint64(1500) << u"GCRA: 3 of 6 available, full in 1.5 s"_s;
        QTest::newRow("gcra past") << g << stringRead(num(t0 - sec)) << K::Gcra << qint64(0)
                                   << qint64(6) << qint64(0) << u"GCRA: all 6 available"_s;
        // 3/s: c = 3, TAT with a remainder of 1/3 us.
        const Rule g3 = Rule::bucket(u"g3"_s, Algorithm::Gcra, Rate{3, sec}, 2, ip);
        QTest::newRow("gcra remainder")
            << g3 << stringRead(num(t0 + 666666) + "+2/3") << K::Gcra << qint64(0) << qint64(1)
            << qint64(667) << u"GCRA: 1 of 3 available, full in 667 ms"_s;
        QTest::newRow("gcra garbage")
            << g << stringRead("hello") << K::Unreadable << qint64(0) << qint64(0) << qint64(-1)
            << u"'hello' is not a GCRA state (a GCRA state is \"<tat_us>\" or "
               "\"<tat_us>+<rem>/<c>\")"_s;
        QTest::newRow("gcra bad remainder")
            << g << stringRead(num(t0) + "+5/3") << K::Unreadable << qint64(0) << qint64(0)
            << qint64(-1)
            << u"'1700000000000000+5/3' is not a GCRA state (a GCRA state is \"<tat_us>\" or "
               "\"<tat_us>+<rem>/<c>\")"_s;
        QTest::newRow("gcra 20 MB")
            << g << stringRead(QByteArray(256, 'x'), 20 << 20) << K::Unreadable << qint64(0)
            << qint64(0) << qint64(-1)
            << u"a string of 20 MB, too long to be a GCRA state (a GCRA state is \"<tat_us>\" "
               "or \"<tat_us>+<rem>/<c>\")"_s;

        const Rule sl = Rule::window(u"sl"_s, Algorithm::SlidingLog, 3, 5 * sec, ip);
        RawRead log;
        log.type = "zset";
        log.pttlMs = 4800;
        log.nowUs = t0;
        log.stateRead = true;
        log.zcard = 4;
        log.zInWindow = 2;
        log.oldestScore = num(t0 - sec);
        log.newestScore = num(t0 - 200 * ms);
        QTest::newRow("log") << sl << log << K::SlidingLog << qint64(2) << qint64(1) << qint64(4800)
                             << u"2 / 3 in the window, next frees in 4 s, 2 old entries not "
                                "trimmed yet"_s;
        RawRead badLog = log;
        badLog.oldestScore = QByteArray("1.5");
        QTest::newRow("log bad score")
            << sl << badLog << K::Unreadable << qint64(0) << qint64(0) << qint64(-1)
            << u"scores are not whole microseconds below 2^53"_s;
        // Found by fuzz_statedecoder: a count no server sends overflowed limit - count.
        RawRead hostileLog = log;
        hostileLog.zInWindow = std::numeric_limits<qint64>::min() + 3;
        QTest::newRow("log impossible counts")
            << sl << hostileLog << K::Unreadable << qint64(0) << qint64(0) << qint64(-1)
            << u"sorted-set counts -9223372036854775805 in window of 4 are not possible"_s;
    }

    void decode()
    {
        QFETCH(Rule, rule);
        QFETCH(RawRead, raw);
        QFETCH(KeyState::Kind, kind);
        QFETCH(qint64, count);
        QFETCH(qint64, remaining);
        QFETCH(qint64, resetMs);
        QFETCH(QString, text);
        const KeyState s = keys::decode(rule, raw);
        QCOMPARE(s.describe(), text);
        QCOMPARE(s.kind, kind);
        QCOMPARE(s.atUs, t0);
        if (kind != KeyState::Kind::Unreadable) {
            QCOMPARE(s.count, count);
            QCOMPARE(s.remaining, remaining);
            QCOMPARE(s.resetMs, resetMs);
        }
    }

    void decodeAgreesWithTheScripts()
    {
        // The decoded remaining and reset are the script's own peek (cost 0) at the same now.
        Connection c = test::connect();
        RedisLimiter limiter(test::connect());
        KeyReader reader(m_rules);
        for (const Rule &r : m_rules.rules) {
            const Policy p = r.policy();
            const QByteArray k = p.keyFor("agree");
            const qint64 now = t0 + 7 * ms;
            for (int i = 0; i < 2; ++i) {
                QVERIFY(limiter.decide(Request{&p, k, 1, now, 0}));
            }
            const qint64 later = now + 123'457;
            auto peek = limiter.decide(Request{&p, k, 0, later, 0});
            QVERIFY(peek);
            // Read the stored state as it is, and decode it at the peek's time.
            auto infos = reader.read(c, {k});
            QVERIFY(infos);
            RawRead raw;
            raw.type = infos->first().type;
            raw.pttlMs = 1000;
            raw.nowUs = later;
            raw.stateRead = true;
            if (r.algorithm == Algorithm::Gcra) {
                raw.head = c.command({"GET", k})->str;
                raw.strlen = raw.head.size();
            } else if (r.algorithm == Algorithm::SlidingLog) {
                raw.zcard = c.command({"ZCARD", k})->integer;
                raw.zInWindow =
                    c.command({"ZCOUNT", k, '(' + num(later - r.windowUs), "+inf"})->integer;
                raw.oldestScore = raw.newestScore =
                    c.command({"ZRANGE", k, "-1", "-1", "WITHSCORES"})->elements[1].str;
            } else {
                raw.hlen = 3;
                for (const QByteArray &f : hashFields(r.algorithm)) {
                    raw.fields << c.command({"HGET", k, f})->str;
                    raw.fieldLength << 0;
                }
            }
            const KeyState s = keys::decode(r, raw);
            QCOMPARE(s.kind, kindOf(r.algorithm));
            QVERIFY2(s.remaining == peek->remaining, qPrintable(r.id));
            QVERIFY2(s.resetMs == peek->resetAfterMs, qPrintable(r.id));
            QCOMPARE(s.delayMs, peek->delayMs);
            QCOMPARE(s.limit, peek->limit);
            (void)c.command({"DEL", k});
        }
    }

    void formatting_data()
    {
        test::columns<qint64, QString>("ms", "text");
        QTest::newRow("0") << qint64(0) << u"0 ms"_s;
        QTest::newRow("999") << qint64(999) << u"999 ms"_s;
        QTest::newRow("1000") << qint64(1000) << u"1 s"_s;
        QTest::newRow("1201 up") << qint64(1201) << u"1.3 s"_s;
        QTest::newRow("9950") << qint64(9950) << u"10 s"_s;
        QTest::newRow("59001") << qint64(59001) << u"1 min"_s;
        QTest::newRow("61000") << qint64(61000) << u"1 min 1 s"_s;
        QTest::newRow("1h") << qint64(3'600'000) << u"1 h"_s;
        QTest::newRow("5000000") << qint64(5'000'000) << u"1 h 23 min"_s;
        QTest::newRow("3d") << qint64(3 * 86'400'000 + 4 * 3'600'000) << u"3 d 4 h"_s;
        QTest::newRow("never") << qint64(-1) << u"never"_s;
    }

    void formatting()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(formatDurationMs(ms), text);
    }

    void headline()
    {
        HealthSummary h;
        QCOMPARE(h.headline(), u"no limiter keys"_s);
        h.keys = h.limiterKeys = h.ok = 1234;
        QCOMPARE(h.headline(), u"all 1,234 limiter keys are healthy"_s);
        h.noTtl = 37;
        h.ttlExceedsRule = 1;
        h.orphans = 2;
        QCOMPARE(h.headline(), u"37 limiter keys never expire: once one reaches the limit it "
                               "blocks its subject until someone deletes it; 1 key has a TTL "
                               "longer than its rule can need; 2 keys match no rule"_s);
        QCOMPARE(h.fixable(), qint64(38));
        // Keys of Sluice's own layouts record their time: their limit resets, nobody is blocked,
        // and the headline says that instead of "blocks" beside a row that "resets in 1.2 s".
        h.noTtlOwnClock = 36;
        QCOMPARE(h.noTtlBlocking(), qint64(1));
        QVERIFY2(h.headline().startsWith(u"1 limiter key never expires: once it reaches the "
                                         "limit it blocks its subject until someone deletes it; "
                                         "36 limiter keys never expire: their state records its "
                                         "own time, so their limits still reset"_s),
                 qPrintable(h.headline()));
        h.noTtlOwnClock = 37;
        QVERIFY2(!h.headline().contains(u"blocks"_s), qPrintable(h.headline()));
    }

    void defaultPatterns()
    {
        QCOMPARE(KeyReader().defaultPatterns(), QList<QByteArray>{"rate_limit:*"});
        RuleSet set;
        set.rules = {Rule::window(u"a"_s, Algorithm::FixedWindow, 1, sec, ip, "rl:"),
                     Rule::window(u"b"_s, Algorithm::FixedWindow, 1, sec, ip, "rl:v2:"),
                     Rule::window(u"c"_s, Algorithm::FixedWindow, 1, sec, ip, "odd*[x]?\\:")};
        QCOMPARE(KeyReader(set).defaultPatterns(),
                 (QList<QByteArray>{"odd\\*\\[x\\]\\?\\\\:*", "rl:*"}));
        QCOMPARE(KeyScanner::cursorFraction("0"), 0.0);
        QCOMPARE(KeyScanner::cursorFraction("1"), 0.5); // reverse-binary: bit 0 is the half
        QCOMPARE(KeyScanner::cursorFraction("3"), 0.75);
    }

    // --- Redis ------------------------------------------------------------------------------

    void scanPlantedKeyspace()
    {
        QVERIFY(plant());
        Connection c = test::connect();
        const qint64 outBefore = infoField(c, "stats", "total_net_output_bytes");
        ScanSummary summary;
        const auto found = scanAll(KeyReader(m_rules), &summary);
        const qint64 outAfter = infoField(c, "stats", "total_net_output_bytes");
        QCOMPARE(summary.status, ScanSummary::Status::Completed);
        QVERIFY(!summary.error);
        // 6 rules x 3 subjects, plus noexp, orphan, zset, huge; the key elsewhere is not listed.
        QCOMPARE(found.size(), 22);
        QCOMPARE(summary.progress.keys, qint64(22));
        QVERIFY(!found.contains("t:elsewhere:" + m_prefix));
        // The 20 MB value never crossed the wire: the whole scan sent well under 1 MB.
        QVERIFY2(outAfter - outBefore < (1 << 20),
                 qPrintable(u"%1 bytes sent"_s.arg(outAfter - outBefore)));

        // Healthy state of every algorithm, decoded; odd subjects parsed back byte for byte.
        for (const Rule &r : m_rules.rules) {
            for (const QByteArray &s : {QByteArray("1.2.3.4"), QByteArray("line\nbreak"),
                                        QByteArray("\x00\xff{}:bin", 9)}) {
                const KeyInfo k = found.value(r.keyFor(s));
                QVERIFY2(k.exists(), qPrintable(r.id));
                QCOMPARE(k.ruleId, r.id);
                QCOMPARE(k.subject, s);
                QCOMPARE(k.type, expectedType(r.algorithm));
                QCOMPARE(k.state.kind, kindOf(r.algorithm));
                QCOMPARE(k.maxTtlMs, maxTtlMs(r));
                QVERIFY(k.state.atUs > 0);
                if (r.id == u"tb"_s && s == "1.2.3.4") {
                    continue; // the 1000x one, below
                }
                QVERIFY2(k.health == Health::Ok, qPrintable(r.id + k.explanation()));
                QVERIFY(k.pttlMs > 0 && k.pttlMs <= k.maxTtlMs);
            }
        }
        // Two admitted requests each, read back.
        const KeyInfo fw = found.value(key("fw", "1.2.3.4"));
        QCOMPARE(fw.state.count, qint64(2));
        QCOMPARE(fw.state.remaining, qint64(1));
        QVERIFY(fw.state.describe().startsWith(u"2 / 3 in this window, resets in "_s));
        const KeyInfo sl = found.value(key("sl", "1.2.3.4"));
        QCOMPARE(sl.state.count, qint64(2));
        QCOMPARE(sl.state.entries, qint64(2));
        QCOMPARE(found.value(key("sc", "1.2.3.4")).state.count, qint64(2));
        const KeyInfo lb = found.value(key("lb", "1.2.3.4"));
        QVERIFY(lb.state.level > 1.0 && lb.state.level <= 2.0);
        QVERIFY(lb.state.describe().startsWith(u"queue "_s));
        const KeyInfo g = found.value(key("g", "1.2.3.4"));
        QCOMPARE(g.state.limit, qint64(6));
        QCOMPARE(g.state.remaining, qint64(4)); // two of 6 taken (T = 10 s)
        QVERIFY(g.state.describe().startsWith(u"GCRA: 4 of 6 available, full in "_s));

        // The broken ones.
        const KeyInfo tb = found.value(key("tb", "1.2.3.4"));
        QCOMPARE(tb.health, Health::TtlExceedsRule);
        QVERIFY(tb.pttlMs > 1000 * 1000);
        QVERIFY(tb.explanation().contains(u"seconds where milliseconds"_s));
        QVERIFY(tb.state.level > 17.9 && tb.state.level <= 20.0);
        const KeyInfo noexp = found.value(key("fw", "noexp"));
        QCOMPARE(noexp.health, Health::NoTtl);
        QCOMPARE(noexp.pttlMs, qint64(-1));
        QCOMPARE(noexp.state.count, qint64(2));
        // Sluice's own hash records the window's start: the limit resets, the next admission
        // sets the TTL again (lua/fixed_window.lua), so nothing claims it blocks.
        QVERIFY(noexp.resetsByOwnClock());
        QVERIFY2(noexp.explanation().contains(u"its limit still resets"_s),
                 qPrintable(noexp.explanation()));
        QVERIFY(!noexp.explanation().contains(u"blocks"_s));
        const KeyInfo orphan = found.value(m_prefix + "deleted-rule:{9.9.9.9}");
        QCOMPARE(orphan.health, Health::Orphan);
        QVERIFY(!orphan.hasRule());
        QCOMPARE(orphan.state.kind, KeyState::Kind::None);
        const KeyInfo zset = found.value(key("fw", "zset"));
        QCOMPARE(zset.health, Health::WrongType);
        QCOMPARE(zset.state.problem, u"a zset where fixed_window keeps a hash"_s);
        const KeyInfo huge = found.value(key("g", "huge"));
        QCOMPARE(huge.health, Health::WrongType);
        QCOMPARE(huge.state.valueBytes, qint64(20 << 20));
        QVERIFY(huge.state.problem.startsWith(u"a string of 20 MB"_s));

        QCOMPARE(summary.health.noTtl, qint64(1));
        QCOMPARE(summary.health.ttlExceedsRule, qint64(1));
        QCOMPARE(summary.health.orphans, qint64(1));
        QCOMPARE(summary.health.wrongType, qint64(2));
        QCOMPARE(summary.health.ok, qint64(17));
        QCOMPARE(summary.health.noTtlOwnClock, qint64(1));
        QVERIFY2(summary.health.headline().startsWith(
                     u"1 limiter key never expires: its state records its own time, so its "
                     "limit still resets"_s),
                 qPrintable(summary.health.headline()));

        // A narrower pattern lists only its keys.
        KeyScanner scanner{KeyReader(m_rules)};
        KeyScanner::Options o;
        o.patterns = {m_prefix + "sl:*"};
        qint64 n = 0;
        const ScanSummary narrow =
            scanner.run(c, o, [&](const QList<KeyInfo> &page, const ScanProgress &) {
                for (const KeyInfo &k : page) {
                    QCOMPARE(k.ruleId, u"sl"_s);
                    ++n;
                }
            });
        QCOMPARE(narrow.status, ScanSummary::Status::Completed);
        QCOMPARE(n, qint64(3));

        // Without rules: judged by TTL only.
        const auto bare = scanAll(KeyReader());
        QCOMPARE(bare.size(), 22);
        QCOMPARE(bare.value(key("fw", "noexp")).health, Health::NoTtl);
        QCOMPARE(bare.value(m_prefix + "deleted-rule:{9.9.9.9}").health, Health::NoTtl);
        QCOMPARE(bare.value(key("tb", "1.2.3.4")).health, Health::Ok);
        QVERIFY(!bare.value(key("fw", "1.2.3.4")).hasRule());
    }

    void plainReadsMatchTheScript()
    {
        // A user without @scripting: the reader falls back to plain commands, same verdicts.
        QVERIFY(plant());
        Connection admin = test::connect();
        auto reader = connectAsAclUser(admin, "sluice-keys-reader", {"+@all", "-@scripting"});
        QVERIFY(reader);
        KeyReader viaScript(m_rules);
        KeyReader plain(m_rules);
        QVERIFY(plain.prepare(*reader));
        QCOMPARE(plain.mode(), KeyReader::Mode::Plain);
        QVERIFY(viaScript.prepare(admin));
        QCOMPARE(viaScript.mode(), KeyReader::Mode::Script);

        KeyScanner scanner(plain);
        KeyScanner::Options o;
        o.patterns = {m_prefix + '*'};
        QHash<QByteArray, KeyInfo> found;
        const qint64 outBefore = infoField(admin, "stats", "total_net_output_bytes");
        const ScanSummary s =
            scanner.run(*reader, o, [&](const QList<KeyInfo> &page, const ScanProgress &) {
                for (const KeyInfo &k : page) {
                    found.insert(k.key, k);
                }
            });
        const qint64 outAfter = infoField(admin, "stats", "total_net_output_bytes");
        QCOMPARE(s.status, ScanSummary::Status::Completed);
        QVERIFY(outAfter - outBefore < (1 << 20)); // GETRANGE guards the 20 MB string here too
        // Scans read with plain commands by default: the script's verdicts, forced, are the
        // reference here.
        const auto expected = scanAll(KeyReader(m_rules, {KeyReader::Mode::Script}));
        QCOMPARE(found.size(), expected.size());
        for (const KeyInfo &k : expected) {
            const KeyInfo p = found.value(k.key);
            QVERIFY2(p.health == k.health, k.key.constData());
            QCOMPARE(p.type, k.type);
            QCOMPARE(p.ruleId, k.ruleId);
            QCOMPARE(p.state.kind, k.state.kind);
            QCOMPARE(p.state.count, k.state.count);
            QCOMPARE(p.state.limit, k.state.limit);
            QCOMPARE(p.state.problem, k.state.problem);
        }
        (void)admin.command({"ACL", "DELUSER", "sluice-keys-reader"});
    }

    // Inside a limiter's keys: a rule's key_prefix starts the key (the console asks for the
    // typed count for the others). An empty prefix matches nothing.
    void scansReadWithPlainCommands()
    {
        // A scan reads TYPE, PTTL and the layout's reads as plain pipelined commands (the
        // cheapest for Redis), never through the read script unless it is forced; the
        // refresher of visible rows keeps the script (its atomic snapshot and guards).
        BrokenScan b;
        QVERIFY2(b.start(300), b.server.output().constData());
        auto scanned = [&](KeyReader reader) {
            QVERIFY(b.control->command({"CONFIG", "RESETSTAT"}));
            KeyScanner scanner(std::move(reader));
            qint64 n = 0;
            const ScanSummary s =
                scanner.run(*b.scan, BrokenScan::options(std::chrono::milliseconds(1)),
                            [&](const QList<KeyInfo> &page, const ScanProgress &) {
                                for (const KeyInfo &k : page) {
                                    n += k.state.kind == KeyState::Kind::FixedWindow ? 1 : 0;
                                }
                            });
            QCOMPARE(s.status, ScanSummary::Status::Completed);
            QCOMPARE(n, qint64(300));
        };
        auto stats = [&] { return b.control->command({"INFO", "commandstats"})->str; };
        scanned(KeyReader(b.set));
        QVERIFY2(!stats().contains("cmdstat_evalsha") && !stats().contains("cmdstat_hstrlen:") &&
                     stats().contains("cmdstat_hmget:calls=300,"),
                 stats().constData());
        scanned(KeyReader(b.set, {KeyReader::Mode::Script}));
        QVERIFY2(stats().contains("cmdstat_evalsha") && stats().contains("cmdstat_hstrlen:"),
                 stats().constData());
        KeyReader refresher(b.set);
        QVERIFY(refresher.read(*b.scan, {"p:big:{1}"}));
        QCOMPARE(refresher.mode(), KeyReader::Mode::Script);
    }

    void insideRulePrefix()
    {
        RuleSet rules;
        rules.rules = {
            Rule::window(u"a"_s, Algorithm::FixedWindow, 1, duration::usPerSecond, {},
                         "rate_limit:"),
            Rule::window(u"b"_s, Algorithm::FixedWindow, 1, duration::usPerSecond, {}, "app2:"),
            Rule::window(u"c"_s, Algorithm::FixedWindow, 1, duration::usPerSecond, {},
                         QByteArray())};
        QVERIFY(KeyFixer::isInsideRulePrefix("rate_limit:a:{1.2.3.4}", rules));
        QVERIFY(KeyFixer::isInsideRulePrefix("rate_limit:orphan", rules)); // no rule id: inside
        QVERIFY(KeyFixer::isInsideRulePrefix("app2:x", rules));
        QVERIFY(!KeyFixer::isInsideRulePrefix("session:user42", rules));
        QVERIFY(!KeyFixer::isInsideRulePrefix("c:{x}", rules));
        QVERIFY(!KeyFixer::isInsideRulePrefix("rate_limit:a:x", RuleSet{}));
        KeyInfo in;
        in.key = "app2:b:{x}";
        KeyInfo out;
        out.key = "session:1";
        QCOMPARE(KeyFixer::keysOutsideRulePrefixes({in, out, in}, rules),
                 QList<QByteArray>{"session:1"});
    }

    // The details pane's read: a 20 MB member of a hash, a list, a sorted set and a set is cut
    // to 1 KiB on the server, never transferred whole (the server's own output counter).
    void valueDetailsAreCutOnTheServer()
    {
        Connection c = test::connect();
        const QByteArray big(20 * 1024 * 1024, 'v');
        const QByteArray base = test::keyPrefix() + "big:";
        QVERIFY(c.command({"HSET", base + "h", "small", "1", "huge", big}));
        QVERIFY(c.command({"RPUSH", base + "l", big, "x"}));
        QVERIFY(c.command({"ZADD", base + "z", "1", big}));
        QVERIFY(c.command({"SADD", base + "s", big}));
        QVERIFY(c.command({"SET", base + "str", big}));
        auto sent = [&] {
            const QByteArray info = c.command({"INFO", "stats"})->str;
            const qsizetype at = info.indexOf("total_net_output_bytes:");
            return info.mid(at + 23).split('\r').value(0).toLongLong();
        };
        for (const char *suffix : {"h", "l", "z", "s", "str"}) {
            const QByteArray key = base + suffix;
            const qint64 before = sent();
            const KeysWorker::RawValue v = KeysWorker::readValue(c, key);
            const qint64 transferred = sent() - before;
            QVERIFY2(v.error.isEmpty(), qPrintable(v.error));
            QVERIFY(v.serverSideCut);
            QVERIFY2(transferred < 64 * 1024, qPrintable(QString::number(transferred)));
            QVERIFY(!v.entries.isEmpty());
            bool sawBig = false;
            for (qsizetype i = 0; i < v.entries.size(); ++i) {
                QVERIFY(v.entries[i].first.size() <= 1024 && v.entries[i].second.size() <= 1024);
                sawBig = sawBig || v.entryLengths[i].first == big.size() ||
                         v.entryLengths[i].second == big.size();
            }
            QVERIFY2(sawBig, key.constData());
        }
        QCOMPARE(KeysWorker::readValue(c, base + "h").size, qint64(2));
        QCOMPARE(KeysWorker::readValue(c, base + "str").size, qint64(big.size()));
        test::deleteByPrefix(c, base);
    }

    // The scan budget: 8,000 keys at 4,000/s take at least 2 s: the keys SCAN walked (at least
    // the 8,000) at 4,000/s. Only lower bounds on time (a loaded machine is slower, never
    // faster), and the back-off is off so that only the budget paces.
    void scanBudgetPaces()
    {
        test::OwnRedis server;
        QVERIFY2(server.start(), server.output().constData());
        Connection c = Connection::open(server.endpoint()).value();
        constexpr qint64 n = 8'000;
        constexpr double budget = 4'000;
        RuleSet set;
        set.rules = {Rule::window(u"pace"_s, Algorithm::FixedWindow, 10, 60 * sec, ip, m_prefix)};
        QVERIFY(plantFixedWindows(c, m_prefix + "pace:", 0, n));
        KeyScanner scanner{KeyReader(set)};
        KeyScanner::Options o;
        o.patterns = {m_prefix + "pace:*"};
        o.latencyFactor = 0;
        o.maxKeysPerSecond = 0;
        QElapsedTimer t;
        t.start();
        ScanSummary free = scanner.run(c, o, {});
        const qint64 freeMs = t.elapsed();
        QCOMPARE(free.progress.keys, n);
        QCOMPARE(free.progress.pausedMs, qint64(0)); // no budget: never waits
        o.maxKeysPerSecond = budget;
        t.restart();
        ScanSummary paced = scanner.run(c, o, {});
        const qint64 pacedMs = t.elapsed();
        const qint64 budgetMs = qint64(double(paced.progress.keysWalked) / budget * 1000);
        qInfo("8,000 keys: %lld ms without a budget, %lld ms at 4,000/s (%lld keys walked: %lld "
              "ms at the budget; paused %lld ms)",
              freeMs, pacedMs, paced.progress.keysWalked, budgetMs, paced.progress.pausedMs);
        QCOMPARE(paced.progress.keys, n);
        QVERIFY(paced.progress.keysWalked >= n);
        QVERIFY2(pacedMs >= budgetMs * 9 / 10, qPrintable(QString::number(pacedMs)));
        // It waited for the budget, unless this machine is too slow to need to (no pause is
        // due when the keys take longer to read than the budget allows).
        QVERIFY2(paced.progress.pausedMs > 0 || freeMs * 2 >= budgetMs,
                 qPrintable(QString::number(freeMs)));
        // And not for much longer than the budget asks (a unit mistake would be 1000x).
        QVERIFY2(paced.progress.pausedMs <= 2 * budgetMs + 5000,
                 qPrintable(QString::number(paced.progress.pausedMs)));
    }

    // Back-off: once the scan started, another client keeps the server busy (DEBUG SLEEP
    // 100 ms, over and over); the PING probes see it, and the scan slows down to its floor
    // instead of adding to it; once the other client stops, the pace recovers. No step depends
    // on how fast this machine is: each phase lasts until its effect is seen (or 60 s pass),
    // and what is compared is the scan's own state, not a time. The latency floor is 10 ms
    // here (2 ms by default) so that a loaded machine's idle PING is never "slow", while a
    // probe behind a 100 ms sleep is slower than that nine times in ten.
    void scanBacksOffWhenTheServerIsSlow()
    {
        test::OwnRedis server;
        QVERIFY2(server.start({u"--enable-debug-command"_s, u"yes"_s}),
                 server.output().constData());
        Connection c = Connection::open(server.endpoint()).value();
        constexpr qint64 n = 50'000;
        RuleSet set;
        set.rules = {Rule::window(u"slow"_s, Algorithm::FixedWindow, 10, 60 * sec, ip, m_prefix)};
        QVERIFY(plantFixedWindows(c, m_prefix + "slow:", 0, n));
        std::atomic<bool> busy{false}; // the other client sleeps the server while set
        std::atomic<bool> stop{false};
        std::thread other([&] {
            Connection b = Connection::open(server.endpoint()).value();
            while (!stop) {
                if (busy) {
                    (void)b.command({"DEBUG", "SLEEP", "0.1"});
                } else {
                    std::this_thread::sleep_for(std::chrono::milliseconds(1));
                }
            }
        });
        KeyScanner scanner{KeyReader(set)};
        KeyScanner::Options o;
        o.patterns = {m_prefix + "slow:*"};
        o.maxKeysPerSecond = 0; // no budget: only the back-off slows it
        o.minKeysPerSecond = 2000;
        o.latencyFloor = std::chrono::milliseconds(10);
        std::atomic<bool> cancel{false};
        o.cancel = &cancel;
        enum Phase { Idle, Slow, Recovering, Done } phase = Idle;
        qint64 idlePages = 0, idleBackoffs = 0;
        qint64 slowBackoffs = 0, slowWorstLatencyUs = 0, floorCount = 0;
        double recoveredPace = -1;
        QElapsedTimer t;
        t.start();
        const ScanSummary s = scanner.run(c, o, [&](const QList<KeyInfo> &, const ScanProgress &p) {
            switch (phase) {
            case Idle: // a few pages of an idle server: the pace stays unlimited
                idleBackoffs = p.backoffs;
                if (++idlePages == 3) {
                    phase = Slow;
                    busy = true;
                }
                break;
            case Slow: // until the pace is down to its floor
                slowBackoffs = p.backoffs - idleBackoffs;
                slowWorstLatencyUs = std::max(slowWorstLatencyUs, p.latencyUs);
                if (p.paceKeysPerS == o.minKeysPerSecond) {
                    floorCount = p.count;
                    phase = Recovering;
                    busy = false;
                }
                break;
            case Recovering: // until it speeds up again (0: no limit at all)
                if (p.paceKeysPerS == 0 || p.paceKeysPerS > o.minKeysPerSecond) {
                    recoveredPace = p.paceKeysPerS;
                    phase = Done;
                    cancel = true;
                }
                break;
            case Done:
                break;
            }
            if (t.elapsed() > 60'000) {
                cancel = true;
            }
        });
        stop = true;
        other.join();
        qInfo("idle: %lld pages, %lld back-offs; slow: %lld back-offs, worst probe %lld us (idle "
              "%lld us), COUNT %lld at the floor; recovered to %.0f keys/s; %lld keys in %lld ms",
              idlePages, idleBackoffs, slowBackoffs, slowWorstLatencyUs,
              s.progress.baselineLatencyUs, floorCount, recoveredPace, s.progress.keys,
              s.progress.elapsedMs);
        QVERIFY2(s.status == ScanSummary::Status::Cancelled, "the scan ended before the phases");
        QVERIFY2(phase == Done, qPrintable(u"stuck in phase %1 after 60 s"_s.arg(int(phase))));
        QVERIFY(slowBackoffs > 0);
        QVERIFY(slowWorstLatencyUs > 2 * s.progress.baselineLatencyUs);
        QVERIFY(slowWorstLatencyUs > 10'000);
        QVERIFY(recoveredPace == 0 || recoveredPace > o.minKeysPerSecond);
    }

    void deleteByPrefixTakesThePrefixLiterally()
    {
        // redis::deleteByPrefix: glob characters in the prefix match only themselves, and an
        // empty prefix (the whole database) is refused.
        Connection c = test::connect();
        const QByteArray base = test::keyPrefix() + "del:";
        const QByteArray odd = base + "a*[b]?\\:";
        QVERIFY(c.command({"SET", odd + "1", "x"}));
        QVERIFY(c.command({"SET", odd + "2", "x"}));
        QVERIFY(c.command({"SET", base + "aZbQ:3", "x"})); // what an unescaped glob matches
        QCOMPARE(redis::deleteByPrefix(c, odd).value(), qint64(2));
        QCOMPARE(test::keysWithPrefix(c, base), QList<QByteArray>{base + "aZbQ:3"});
        const Result<qint64> all = redis::deleteByPrefix(c, QByteArray());
        QVERIFY(!all);
        QCOMPARE(all.error().kind, Error::Kind::Invalid);
        QCOMPARE(redis::deleteByPrefix(c, base).value(), qint64(1));
    }

    // A scan cancelled while the back-off paces it, right after the next round trip went out
    // ahead of the page's callback (the overlap): that round trip's replies must be read before
    // the scan returns, or the caller's next command on the connection reads them (the Keys
    // worker's fix after a cancelled scan got a TYPE reply for its own command). A factor and
    // floor near zero make the first probe "slow" for sure, so the pace is set in the very
    // iteration whose round trip is in flight, and the cancel lands in the budget's wait.
    void cancelInTheBackoffAfterAnOverlapLeavesNoReplyDue()
    {
        test::OwnRedis server;
        QVERIFY(server.start());
        Connection c = Connection::open(server.endpoint()).value();
        constexpr qint64 n = 20'000;
        RuleSet set;
        set.rules = {Rule::window(u"ov"_s, Algorithm::FixedWindow, 10, 60 * sec, ip, m_prefix)};
        QVERIFY(plantFixedWindows(c, m_prefix + "ov:", 0, n));
        QVERIFY(c.command({"SET", "probe-value", "42"}));
        KeyScanner scanner{KeyReader(set)};
        KeyScanner::Options o;
        o.patterns = {m_prefix + "ov:*"};
        o.maxKeysPerSecond = 0;
        o.initialCount = 1000;
        o.latencyFactor = 1e-9;
        o.latencyFloor = std::chrono::microseconds(0);
        o.minKeysPerSecond = 1;
        o.pageNeedsConnection = [] { return false; };
        std::atomic<bool> cancel{false};
        o.cancel = &cancel;
        qint64 pages = 0;
        const ScanSummary s = scanner.run(c, o, [&](const QList<KeyInfo> &, const ScanProgress &) {
            ++pages;
            cancel = true;
        });
        QCOMPARE(s.status, ScanSummary::Status::Cancelled);
        QCOMPARE(pages, qint64(1));
        QVERIFY2(s.progress.backoffs >= 1, "the first probe did not slow the scan");
        // The connection answers the next commands with their own replies.
        auto pong = c.command({"PING"});
        QVERIFY(pong);
        QCOMPARE(pong->str, QByteArray("PONG"));
        auto v = c.command({"GET", "probe-value"});
        QVERIFY(v);
        QCOMPARE(v->str, QByteArray("42"));
    }

    void scanDeniedByAnAclIsAuth()
    {
        // SCAN refused by an ACL: NOPERM is an auth error of the one taxonomy
        // (core/redis/errors.cpp), not a generic reply error, and the message says what to do.
        Connection admin = test::connect();
        auto c = connectAsAclUser(admin, "sluice-keys-noscan", {"+@all", "-scan"});
        QVERIFY(c);
        KeyReader reader(m_rules);
        QVERIFY(reader.prepare(*c));
        KeyScanner scanner(reader);
        KeyScanner::Options o;
        o.patterns = {m_prefix + '*'};
        const ScanSummary s = scanner.run(*c, o, {});
        (void)admin.command({"ACL", "DELUSER", "sluice-keys-noscan"});
        QCOMPARE(s.status, ScanSummary::Status::Failed);
        QVERIFY(s.error);
        QCOMPARE(s.error->kind, Error::Kind::Auth);
        QVERIFY2(s.error->message.contains(u"refused SCAN"_s), qPrintable(s.error->message));
        QVERIFY2(s.error->message.contains(u"NOPERM"_s), qPrintable(s.error->message));
    }

    void fixDryRunThenForReal()
    {
        QVERIFY(plant());
        Connection c = test::connect();
        const auto found = scanAll(KeyReader(m_rules));
        QList<KeyInfo> flagged;
        for (const KeyInfo &k : found) {
            if (k.health != Health::Ok) {
                flagged << k;
            }
        }
        QCOMPARE(flagged.size(), 5);
        const QByteArray noexp = key("fw", "noexp");
        const QByteArray tb = key("tb", "1.2.3.4");
        const qint64 tbBefore = test::pttl(c, tb);

        // Dry run: decisions reported, nothing written.
        KeyFixer::Options dry;
        dry.dryRun = true;
        const KeyFixer::Report d = KeyFixer::run(c, flagged, KeyFixer::Action::SetTtl, dry);
        QVERIFY(!d.error);
        QCOMPARE(d.outcomes.size(), 5);
        QCOMPARE(d.count(KeyFixer::Status::WouldDo), qint64(2));
        QCOMPARE(d.count(KeyFixer::Status::Skipped), qint64(3));
        QCOMPARE(test::pttl(c, noexp), qint64(-1));
        QVERIFY(test::pttl(c, tb) > tbBefore - 5000);
        QCOMPARE(test::pttl(c, m_prefix + "deleted-rule:{9.9.9.9}"), qint64(-1));

        // Meanwhile a third flagged key got a short TTL of its own: it must not be extended.
        QVERIFY(c.command({"HSET", key("fw", "late"), "s", "1", "c", "1"}));
        const auto again = scanAll(KeyReader(m_rules));
        QCOMPARE(again.value(key("fw", "late")).health, Health::NoTtl);
        flagged << again.value(key("fw", "late"));
        QVERIFY(c.command({"PEXPIRE", key("fw", "late"), "1500"}));
        // And one is deleted before the fix.
        QVERIFY(c.command({"HSET", key("fw", "vanishing"), "s", "1", "c", "1"}));
        flagged << scanAll(KeyReader(m_rules)).value(key("fw", "vanishing"));
        QCOMPARE(flagged.last().health, Health::NoTtl);
        QVERIFY(c.command({"DEL", key("fw", "vanishing")}));

        KeyFixer::Options small;
        small.batch = 2; // several round trips
        const KeyFixer::Report r = KeyFixer::run(c, flagged, KeyFixer::Action::SetTtl, small);
        QVERIFY(!r.error);
        QCOMPARE(r.outcomes.size(), 7);
        QCOMPARE(r.count(KeyFixer::Status::Done), qint64(2));
        QCOMPARE(r.count(KeyFixer::Status::AlreadyFine), qint64(1));
        QCOMPARE(r.count(KeyFixer::Status::Gone), qint64(1));
        QCOMPARE(r.count(KeyFixer::Status::Skipped), qint64(3));
        const qint64 fwMax = maxTtlMs(rule("fw"));
        const qint64 noexpTtl = test::pttl(c, noexp);
        QVERIFY(noexpTtl > fwMax - 5000 && noexpTtl <= fwMax);
        const qint64 tbTtl = test::pttl(c, tb);
        QVERIFY(tbTtl > 0 && tbTtl <= maxTtlMs(rule("tb")));
        QVERIFY(test::pttl(c, key("fw", "late")) <= 1500); // not extended to 60 s
        QCOMPARE(test::pttl(c, m_prefix + "deleted-rule:{9.9.9.9}"), qint64(-1));
        QCOMPARE(test::pttl(c, key("fw", "zset")), qint64(-1));
        QCOMPARE(test::pttl(c, key("g", "huge")), qint64(-1));
        for (const KeyFixer::Outcome &o : r.outcomes) {
            if (o.key == noexp) {
                QCOMPARE(o.status, KeyFixer::Status::Done);
                QCOMPARE(o.pttlBefore, qint64(-1));
                QCOMPARE(o.ttlMs, fwMax);
            }
            if (o.key == key("fw", "late")) {
                QCOMPARE(o.status, KeyFixer::Status::AlreadyFine);
                QVERIFY(o.pttlBefore > 0 && o.pttlBefore <= 1500);
            }
        }
        // Fixed: a new scan finds only the orphan and the two wrong_type keys.
        ScanSummary after;
        (void)scanAll(KeyReader(m_rules), &after);
        QCOMPARE(after.health.fixable(), qint64(0));
        QCOMPARE(after.health.orphans + after.health.wrongType, qint64(3));

        // The script cache flushed behind the fixer's back: loaded again, and the fix done.
        QVERIFY(c.command({"HSET", key("fw", "after-flush"), "s", "1", "c", "1"}));
        const KeyInfo late = scanAll(KeyReader(m_rules)).value(key("fw", "after-flush"));
        QCOMPARE(late.health, Health::NoTtl);
        QVERIFY(c.command({"SCRIPT", "FLUSH"}));
        const KeyFixer::Report f = KeyFixer::run(c, {late}, KeyFixer::Action::SetTtl);
        QVERIFY(!f.error);
        QCOMPARE(f.count(KeyFixer::Status::Done), qint64(1));
        QVERIFY(test::pttl(c, key("fw", "after-flush")) > 0);
    }

    void deleteAction()
    {
        QVERIFY(plant());
        Connection c = test::connect();
        const auto found = scanAll(KeyReader(m_rules));
        const QByteArray noexp = key("fw", "noexp");
        const QByteArray orphan = m_prefix + "deleted-rule:{9.9.9.9}";
        const QByteArray huge = key("g", "huge");
        QList<KeyInfo> selection{found.value(noexp), found.value(orphan), found.value(huge),
                                 found.value(key("fw", "1.2.3.4"))};
        // The no_ttl one gets a fitting TTL before the delete: still flagged? No: kept.
        QVERIFY(c.command({"PEXPIRE", noexp, "3000"}));
        KeyFixer::Options dry;
        dry.dryRun = true;
        const KeyFixer::Report d = KeyFixer::run(c, selection, KeyFixer::Action::Delete, dry);
        QCOMPARE(d.count(KeyFixer::Status::WouldDo), qint64(3));
        QCOMPARE(d.count(KeyFixer::Status::AlreadyFine), qint64(1));
        QCOMPARE(test::pttl(c, orphan), qint64(-1));

        const KeyFixer::Report r = KeyFixer::run(c, selection, KeyFixer::Action::Delete);
        QVERIFY(!r.error);
        QCOMPARE(r.count(KeyFixer::Status::Done), qint64(3));
        QCOMPARE(r.count(KeyFixer::Status::AlreadyFine), qint64(1));
        QVERIFY(test::pttl(c, noexp) > 0);                         // kept: it is fine now
        QCOMPARE(test::pttl(c, orphan), qint64(-2));               // selected: deleted
        QCOMPARE(test::pttl(c, huge), qint64(-2));                 // 20 MB, unlinked
        QCOMPARE(test::pttl(c, key("fw", "1.2.3.4")), qint64(-2)); // selected healthy: deleted
    }

    void sweepDeletesAllFlagged()
    {
        QVERIFY(plant());
        Connection c = test::connect();
        KeyScanner scanner{KeyReader(m_rules)};
        KeyScanner::Options o;
        o.patterns = {m_prefix + '*'};
        o.initialCount = o.maxCount = 5; // several pages, fixed as they come
        KeyFixer::Options dry;
        dry.dryRun = true;
        const KeyFixer::Sweep d = KeyFixer::sweep(c, scanner, o, KeyFixer::Action::Delete, dry);
        QCOMPARE(d.scan.status, ScanSummary::Status::Completed);
        QVERIFY(d.scan.progress.pages > 2);
        QCOMPARE(d.fixes.outcomes.size(), 5); // every key that is not ok, reported
        QCOMPARE(d.fixes.count(KeyFixer::Status::WouldDo), qint64(2));
        QCOMPARE(test::pttl(c, key("fw", "noexp")), qint64(-1));

        const KeyFixer::Sweep r =
            KeyFixer::sweep(c, scanner, o, KeyFixer::Action::Delete, KeyFixer::Options{});
        QVERIFY(!r.fixes.error);
        QCOMPARE(r.fixes.count(KeyFixer::Status::Done), qint64(2));
        QCOMPARE(r.fixes.count(KeyFixer::Status::Skipped), qint64(3));
        QCOMPARE(test::pttl(c, key("fw", "noexp")), qint64(-2));
        QCOMPARE(test::pttl(c, key("tb", "1.2.3.4")), qint64(-2));
        // Not flagged: left, although a selection could delete them.
        QCOMPARE(test::pttl(c, m_prefix + "deleted-rule:{9.9.9.9}"), qint64(-1));
        QCOMPARE(test::pttl(c, key("fw", "zset")), qint64(-1));
        QCOMPARE(test::pttl(c, key("g", "huge")), qint64(-1));
        QVERIFY(test::pttl(c, key("fw", "1.2.3.4")) > 0);
    }

    void refresher()
    {
        QVERIFY(plant());
        Connection c = test::connect();
        KeyReader reader(m_rules);
        const QByteArray fw = key("fw", "1.2.3.4");
        const QByteArray gone = key("fw", "never-there");
        (void)reader.prepare(c);
        QVERIFY(c.command({"CONFIG", "RESETSTAT"}));
        auto first = reader.read(c, {fw, gone, key("g", "1.2.3.4")});
        QVERIFY(first);
        QCOMPARE(first->size(), 3);
        QCOMPARE((*first)[0].state.count, qint64(2));
        QVERIFY(!(*first)[1].exists());
        QCOMPARE((*first)[1].pttlMs, qint64(-2));
        QCOMPARE((*first)[2].state.kind, KeyState::Kind::Gcra);
        // One round trip: the batch's TIME and one EVALSHA reading the three keys; the GCRA
        // string read with GETRANGE, never GET.
        auto stats = c.command({"INFO", "commandstats"});
        QVERIFY(stats);
        QVERIFY2(stats->str.contains("cmdstat_evalsha_ro:calls=1,") &&
                     stats->str.contains("cmdstat_time:calls=1,") &&
                     stats->str.contains("cmdstat_type:calls=3,"),
                 stats->str.constData());
        QVERIFY(!stats->str.contains("cmdstat_get:"));

        RedisLimiter limiter(test::connect());
        const Policy p = rule("fw").policy();
        QVERIFY(limiter.decide(Request{&p, fw, 1, std::nullopt, 0}));
        auto second = reader.read(c, {fw});
        QVERIFY(second);
        QCOMPARE(second->first().state.count, qint64(3));
        QCOMPARE(second->first().state.remaining, qint64(0));
        QVERIFY(second->first().state.describe().contains(u"(full)"_s));

        // A SCRIPT FLUSH behind the reader's back: reloaded, read again.
        QVERIFY(c.command({"SCRIPT", "FLUSH"}));
        auto third = reader.read(c, {fw});
        QVERIFY2(third, third ? "" : qPrintable(third.error().message));
        QCOMPARE(third->first().state.count, qint64(3));
    }

    void bigScanPagesAndCancel()
    {
        Connection c = test::cleanSlate();
        constexpr qint64 n = 200'000;
        const RuleSet set = test::setOf({bigRule()});
        QVERIFY(plantFixedWindows(c, m_prefix, 0, n));

        KeyScanner scanner{KeyReader(set)};
        KeyScanner::Options o;
        o.patterns = {m_prefix + "big:*"};
        QSet<QByteArray> seen;
        qint64 pages = 0;
        double lastFraction = 0;
        bool monotone = true;
        const ScanSummary all =
            scanner.run(c, o, [&](const QList<KeyInfo> &page, const ScanProgress &p) {
                pages += page.isEmpty() ? 0 : 1;
                monotone = monotone && p.fraction >= lastFraction && p.fraction <= 1.0;
                lastFraction = p.fraction;
                for (const KeyInfo &k : page) {
                    seen.insert(k.key);
                    if (k.health != Health::Ok) {
                        monotone = false;
                    }
                }
            });
        QVERIFY2(all.status == ScanSummary::Status::Completed,
                 qPrintable(all.error ? all.error->message : QString()));
        QCOMPARE(all.progress.keys, n);
        QCOMPARE(qint64(seen.size()), n); // each exactly once
        QCOMPARE(all.health.ok, n);
        QVERIFY(monotone);
        QCOMPARE(all.progress.fraction, 1.0);
        QVERIFY2(pages >= 20, qPrintable(QString::number(pages))); // paged, not one burst
        // One round trip per page (plus the setup and the latency probes, a PING each).
        QVERIFY(all.progress.roundTrips <= all.progress.pages + all.progress.latencyProbes + 4);
        QVERIFY(all.progress.dbSize >= n);

        // Cancelled after three pages: it stops there.
        std::atomic<bool> cancel{false};
        o.cancel = &cancel;
        qint64 delivered = 0;
        int pagesSeen = 0;
        const ScanSummary cut =
            scanner.run(c, o, [&](const QList<KeyInfo> &page, const ScanProgress &) {
                delivered += page.size();
                if (!page.isEmpty() && ++pagesSeen == 3) {
                    cancel = true;
                }
            });
        QCOMPARE(cut.status, ScanSummary::Status::Cancelled);
        QCOMPARE(pagesSeen, 3);
        QCOMPARE(cut.progress.keys, delivered);
        QVERIFY(delivered > 0 && delivered < n / 2);
        QVERIFY(test::unplantFixedWindows(c, m_prefix, 0, n));
    }

    void connectionDroppedMidScanResumes()
    {
        BrokenScan b;
        QVERIFY2(b.start(3000), b.server.output().constData());
        QSet<QByteArray> seen;
        const ScanSummary s = b.scanPages(std::chrono::milliseconds(50), [&](const QList<KeyInfo>
                                                                                 &page,
                                                                             int n) {
            for (const KeyInfo &k : page) {
                seen.insert(k.key);
            }
            if (n == 3) {
                QVERIFY(b.control->command({"CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes"}));
            }
        });
        QVERIFY2(s.status == ScanSummary::Status::Completed,
                 s.error ? qPrintable(s.error->message) : "");
        QCOMPARE(s.reconnects, qint64(1));
        QCOMPARE(b.delivered, qint64(3000)); // nothing lost, nothing twice
        QCOMPARE(seen.size(), 3000);
    }

    void serverRestartedMidScanStops()
    {
        BrokenScan b;
        QVERIFY2(b.start(3000), b.server.output().constData());
        bool restarted = false;
        const ScanSummary s =
            b.scanPages(std::chrono::milliseconds(50), [&](const QList<KeyInfo> &, int n) {
                if (n == 3) {
                    restarted = b.server.restart();
                }
            });
        QVERIFY(restarted);
        QCOMPARE(s.status, ScanSummary::Status::Failed);
        QVERIFY(s.serverRestarted);
        QVERIFY(s.error);
        const QString m = s.error->message;
        QVERIFY2(m.contains(u"restarted during the scan"_s) && m.contains(u"cursor is lost"_s) &&
                     m.contains(u"listed so far are kept"_s),
                 qPrintable(m));
        QVERIFY(b.delivered > 0 && b.delivered < 3000);
        QCOMPARE(s.progress.keys, b.delivered);
        QVERIFY(m.contains(QLocale(QLocale::English).toString(b.delivered)));
    }

    void serverGoneMidScanStops()
    {
        BrokenScan b;
        QVERIFY2(b.start(2000), b.server.output().constData());
        const ScanSummary s =
            b.scanPages(std::chrono::milliseconds(20), [&](const QList<KeyInfo> &, int n) {
                if (n == 2) {
                    b.server.stop();
                }
            });
        QCOMPARE(s.status, ScanSummary::Status::Failed);
        QVERIFY(!s.serverRestarted);
        QVERIFY(s.error && s.error->isConnectionLoss());
        QVERIFY2(s.error->message.contains(u"could not reconnect"_s), qPrintable(s.error->message));
        QVERIFY(b.delivered > 0);
        QCOMPARE(s.progress.keys, b.delivered);
    }

    void scriptFlushMidScanIsSurvived()
    {
        Connection c = test::cleanSlate();
        const RuleSet set = test::setOf({bigRule()});
        QVERIFY(plantFixedWindows(c, m_prefix, 0, 2000));
        Connection scanConn = test::connect();
        // The script forced: a scan reads with plain commands by default, which no flush stops.
        KeyScanner scanner{KeyReader(set, {KeyReader::Mode::Script})};
        KeyScanner::Options o;
        o.patterns = {m_prefix + "big:*"};
        o.initialCount = o.maxCount = 100;
        QSet<QByteArray> seen;
        int pages = 0;
        const ScanSummary s =
            scanner.run(scanConn, o, [&](const QList<KeyInfo> &page, const ScanProgress &) {
                for (const KeyInfo &k : page) {
                    seen.insert(k.key);
                }
                if (++pages == 3) {
                    QVERIFY(c.command({"SCRIPT", "FLUSH"}));
                }
            });
        QVERIFY2(s.status == ScanSummary::Status::Completed,
                 s.error ? qPrintable(s.error->message) : "");
        QCOMPARE(seen.size(), 2000);
        QCOMPARE(s.progress.keys, qint64(2000));
        QVERIFY(test::unplantFixedWindows(c, m_prefix, 0, 2000));
    }

    // However fast the scan, a batch handed to the page holds at most pageMaxKeys keys (and
    // the SCAN page that crossed it): a scan at 200,000 keys/s handed the Keys page 20,000 rows
    // every 100 ms, and merging them held the GUI thread 60 to 70 ms each time.
    void workerBatchesAreBounded()
    {
        Connection c = test::cleanSlate();
        constexpr qint64 n = 20'000;
        QVERIFY(plantFixedWindows(c, m_prefix, 0, n));
        KeysWorker::Options options;
        options.pageIntervalMs = 60'000; // time alone would hand everything over at the end
        options.pageMaxKeys = 2000;
        options.scanner.initialCount = options.scanner.maxCount = 500;
        KeysWorker worker(test::redisEndpoint(), test::setOf({bigRule()}), options);
        QSignalSpy pages(&worker, &KeysWorker::pageReady);
        QSignalSpy finished(&worker, &KeysWorker::scanFinished);
        worker.scan({m_prefix + "big:*"});
        QCOMPARE(finished.size(), 1);
        qint64 delivered = 0;
        for (const auto &args : std::as_const(pages)) {
            const qsizetype size = args.first().value<QList<KeyInfo>>().size();
            QVERIFY2(size < 2000 + 1000, qPrintable(QString::number(size)));
            delivered += size;
        }
        QCOMPARE(delivered, n);
        QVERIFY2(pages.size() >= n / 3000, qPrintable(QString::number(pages.size())));
        QVERIFY(test::unplantFixedWindows(c, m_prefix, 0, n));
    }

    void workerKeepsTheGuiThreadFree()
    {
        Connection c = test::cleanSlate();
        constexpr qint64 n = 60'000;
        const RuleSet set = test::setOf({bigRule()});
        QVERIFY(plantFixedWindows(c, m_prefix, 0, n));

        QThread thread;
        KeysWorker::Options options;
        options.scanner.initialCount = options.scanner.maxCount = 200; // many pages
        auto *worker = new KeysWorker(test::redisEndpoint(), set, options);
        worker->moveToThread(&thread);
        connect(&thread, &QThread::finished, worker, &QObject::deleteLater);
        thread.start();
        // Joined on every way out of this function, failed checks included.
        const std::unique_ptr<QThread, void (*)(QThread *)> join(&thread, [](QThread *t) {
            t->quit();
            t->wait();
        });

        QSignalSpy pages(worker, &KeysWorker::pageReady);
        QSignalSpy finished(worker, &KeysWorker::scanFinished);
        QSignalSpy refreshed(worker, &KeysWorker::refreshed);
        // The GUI thread ticks while the worker scans: its event loop never stalls.
        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&] { ++ticks; });
        ticker.start(5);

        const QList<QByteArray> patterns{m_prefix + "big:*"};
        const QByteArray visible = m_prefix + "big:{7}";
        worker->setVisibleKeys({visible});
        QMetaObject::invokeMethod(worker, [worker] { worker->startRefreshing(); });
        QMetaObject::invokeMethod(worker, [worker, patterns] { worker->scan(patterns); });
        QVERIFY(finished.wait(30'000));
        ticker.stop();
        const auto summary = finished.first().first().value<ScanSummary>();
        QCOMPARE(summary.status, ScanSummary::Status::Completed);
        qint64 delivered = 0;
        for (const auto &args : std::as_const(pages)) {
            delivered += args.first().value<QList<KeyInfo>>().size();
        }
        QCOMPARE(delivered, n);
        QVERIFY(ticks > 0);
        // Pages are batched (about 10 a second), not one signal per SCAN page.
        QVERIFY(pages.size() < summary.progress.pages);
        QVERIFY(refreshed.size() > 0 || refreshed.wait(3000));
        const auto rows = refreshed.last().first().value<QList<KeyInfo>>();
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().key, visible);
        QCOMPARE(rows.first().state.count, qint64(1));

        // Cancel from the GUI thread: the scan stops early.
        pages.clear();
        finished.clear();
        // As soon as the GUI thread hears that the scan started, it cancels (a direct call).
        connect(worker, &KeysWorker::scanStarted, this, [worker] { worker->cancel(); });
        QMetaObject::invokeMethod(worker, [worker, patterns] { worker->scan(patterns); });
        QVERIFY(finished.wait(30'000));
        const auto cut = finished.first().first().value<ScanSummary>();
        QCOMPARE(cut.status, ScanSummary::Status::Cancelled);
        QVERIFY(cut.progress.keys < n);

        // A fix through the worker.
        QSignalSpy fixed(worker, &KeysWorker::fixFinished);
        KeyInfo k = rows.first();
        k.health = Health::NoTtl;
        QVERIFY(c.command({"PERSIST", visible}));
        QMetaObject::invokeMethod(worker, [worker, k] { worker->fix({k}, false, false); });
        QVERIFY(fixed.wait(10'000));
        const auto report = fixed.first().first().value<KeyFixer::Report>();
        QCOMPARE(report.count(KeyFixer::Status::Done), qint64(1));
        QVERIFY(test::pttl(c, visible) > 0);

        // "Fix all from rules" through the worker: one key without TTL among the 60,000.
        fixed.clear();
        QVERIFY(c.command({"PERSIST", m_prefix + "big:{123}"}));
        QMetaObject::invokeMethod(
            worker, [worker, patterns] { worker->fixAllFlagged(patterns, false, false); });
        QVERIFY(fixed.wait(30'000));
        const auto all = fixed.first().first().value<KeyFixer::Report>();
        QVERIFY(!all.error);
        QCOMPARE(all.outcomes.size(), 1);
        QCOMPARE(all.outcomes.first().key, m_prefix + "big:{123}");
        QCOMPARE(all.outcomes.first().status, KeyFixer::Status::Done);
        QVERIFY(test::pttl(c, m_prefix + "big:{123}") > 0);

        QVERIFY(test::unplantFixedWindows(c, m_prefix, 0, n));
    }
};

QTEST_GUILESS_MAIN(TestKeys)
#include "tst_keys.moc"
