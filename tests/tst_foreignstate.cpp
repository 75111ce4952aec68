// Foreign state (ALGORITHMS.md "Stored state"): a stored field that is not a
// finite whole number in range (nan, inf, -inf, 1e400, huge, negative, a fraction, text, a
// time 2^52 us ahead) is treated as absent by every script and by its twin, so the state
// rebuilds itself. Each value is planted with HSET / SET / ZADD in the fixture's Redis, in each
// state field of each algorithm; then a sequence of calls runs on the script (now_us injected)
// and on the twin (model::storedState of the same stored text): every reply is identical, sane
// (no -2^63, retry >= 0 on a denial that can pass), equal to the reply on an absent key, and
// the first admission leaves whole numbers and a TTL behind.
#include "testdata.h"
#include "testredis.h"

#include "core/limiter/model.h"
#include "core/redis/scriptregistry.h"

#include <QTest>

using namespace sluice;

namespace {

constexpr qint64 s = duration::usPerSecond;
constexpr qint64 now0 = 1'700'000'000'000'000;
const QByteArray ahead = QByteArray::number(now0 + model::maxAheadUs);

// Not numbers, or numbers no state can hold.
const QList<QByteArray> foreignValues{"nan",
                                      "inf",
                                      "-inf",
                                      "1e400",
                                      "-1e400",
                                      "99999999999999999999999",
                                      "9007199254740992",
                                      "-5",
                                      "-0.5",
                                      "1.5",
                                      "abc",
                                      "",
                                      "1 2",
                                      "12abc"};

Policy policyFor(Algorithm a)
{
    return algorithm::isWindow(a) ? Policy::window(a, 5, 10 * s)
                                  : Policy::bucket(a, {5, 10 * s}, 5);
}

// Every field in range: what a client turns into headers without a surprise.
bool sane(const Decision &d, const Policy &p, qint64 cost)
{
    const qint64 cap = d.limit;
    const bool retryOk =
        d.allowed || cost > p.capacity() ? d.retryAfterMs == -1 : d.retryAfterMs >= 0;
    return cap == p.capacity() && d.remaining >= 0 && d.remaining <= cap && retryOk &&
           d.resetAfterMs >= 0 && d.resetAfterMs < (qint64(1) << 53) && d.delayMs >= 0 &&
           d.delayMs < (qint64(1) << 53);
}

// The hash fields of a layout, and a stored state that is valid for them at now0.
QList<QByteArray> fieldNames(Algorithm a)
{
    switch (a) {
    case Algorithm::FixedWindow:
        return {"s", "c"};
    case Algorithm::SlidingCounter:
        return {"s", "c", "p"};
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket:
        return {"l", "t"};
    default:
        return {};
    }
}

QList<QByteArray> validFields(Algorithm a)
{
    const QByteArray t = QByteArray::number(now0 - s);
    switch (a) {
    case Algorithm::FixedWindow:
        return {t, "4"};
    case Algorithm::SlidingCounter:
        return {t, "2", "3"};
    case Algorithm::TokenBucket:
        return {"0", t}; // empty bucket one second ago: 0.5 tokens by now
    case Algorithm::LeakyBucket:
        return {QByteArray::number(5 * 2'000'000 / 1), t}; // full queue (P = 2,000,000)
    default:
        return {};
    }
}

struct Step
{
    qint64 dtUs;
    qint64 cost;
};
// Peek, a cost above capacity, one unit, one more, a later unit: both branches of each script.
const std::vector<Step> steps{{0, 0}, {0, 6}, {0, 1}, {1000, 1}, {3 * s, 1}, {0, 0}};

} // namespace

class TestForeignState : public QObject
{
    Q_OBJECT

    Connection m_c = test::connect();

    // Runs `steps` on the script (the key as planted) and on the twin (what storedState makes
    // of `stored`), and on a fresh absent key for the reference; fails on the first difference.
    void check(Algorithm a, const QByteArray &key, const model::State &stored, bool foreign,
               const QString &what)
    {
        const Policy p = policyFor(a);
        const auto *script = ScriptRegistry::builtin().find(algorithm::name(a));
        QVERIFY(script);
        QVERIFY(ScriptRegistry::ensureLoaded(m_c, *script).ok());
        model::State twin = stored;
        model::State fresh;
        qint64 now = now0;
        bool admitted = false;
        for (const Step &st : steps) {
            now += st.dtUs;
            QList<QByteArray> cmd{"EVALSHA", script->sha, "1", key};
            cmd << p.scriptArgs() << QByteArray::number(st.cost) << QByteArray::number(now);
            auto r = m_c.command(cmd);
            QVERIFY2(r.ok(),
                     qPrintable(what + u": "_qs + (r.ok() ? QString() : r.error().message)));
            QCOMPARE(r->elements.size(), size_t(6));
            const Decision remote{r->elements[0].integer != 0, r->elements[1].integer,
                                  r->elements[2].integer,      r->elements[3].integer,
                                  r->elements[4].integer,      r->elements[5].integer};
            const Decision local = model::apply(p, twin, st.cost, now).decision;
            QVERIFY2(remote == local,
                     qPrintable(QStringLiteral("%1: cost %2 at +%3 us: script %4, twin %5")
                                    .arg(what)
                                    .arg(st.cost)
                                    .arg(now - now0)
                                    .arg(test::describe(remote), test::describe(local))));
            QVERIFY2(sane(remote, p, st.cost),
                     qPrintable(what + u": not sane: "_qs + test::describe(remote)));
            if (foreign) {
                const Decision ref = model::apply(p, fresh, st.cost, now).decision;
                QVERIFY2(remote == ref,
                         qPrintable(QStringLiteral("%1: %2, absent key: %3")
                                        .arg(what, test::describe(remote), test::describe(ref))));
            }
            if (remote.allowed && st.cost > 0 && !admitted) {
                admitted = true;
                const qint64 ttl = test::pttl(m_c, key);
                QVERIFY2(ttl > 0, qPrintable(what + u": no TTL after an admission"_qs));
                if (!fieldNames(a).isEmpty()) {
                    QList<QByteArray> hmget{"HMGET", key};
                    hmget << fieldNames(a);
                    auto h = m_c.command(hmget);
                    QVERIFY(h.ok());
                    for (const Reply &f : h->elements) {
                        QVERIFY2(f.isNil() || model::storedNumber(f.str).value_or(-1) >= 0,
                                 qPrintable(what + u": left "_qs + QString::fromLatin1(f.str)));
                    }
                }
            }
        }
        QVERIFY2(admitted || a == Algorithm::LeakyBucket,
                 qPrintable(what + u": never admitted"_qs));
    }

private Q_SLOTS:
    void cleanupTestCase() { test::cleanup(m_c); }

    // Every hash field of every hash layout, each foreign value, with and without a TTL.
    void hashFields_data()
    {
        QTest::addColumn<int>("algorithm");
        for (Algorithm a : {Algorithm::FixedWindow, Algorithm::SlidingCounter,
                            Algorithm::TokenBucket, Algorithm::LeakyBucket}) {
            QTest::newRow(qPrintable(algorithm::name(a))) << int(a);
        }
    }
    void hashFields()
    {
        const Algorithm a = test::fetchAlgorithm();
        const QList<QByteArray> names = fieldNames(a);
        const QByteArray key = test::keyPrefix() + "h:" + algorithm::name(a).toUtf8();
        int planted = 0;
        // The valid state itself first (field -1): the twin must agree there too.
        for (qsizetype field = -1; field < names.size(); ++field) {
            QList<QByteArray> values{QByteArray()};
            if (field >= 0) {
                values = foreignValues;
                if (names[field] == "s" || names[field] == "t") {
                    values << ahead;
                } else if (names[field] == "l") {
                    values << QByteArray::number(model::maxLevel + 1);
                } else if (a == Algorithm::SlidingCounter) {
                    values << QByteArray::number(model::maxStored / (10 * s) + 1); // c x W
                }
            }
            for (const QByteArray &v : values) {
                QList<QByteArray> fields = validFields(a);
                const bool foreign = field >= 0;
                if (foreign) {
                    fields[field] = v;
                }
                QVERIFY(m_c.command({"DEL", key}).ok());
                QList<QByteArray> hset{"HSET", key};
                QList<std::optional<QByteArray>> stored;
                for (qsizetype i = 0; i < names.size(); ++i) {
                    hset << names[i] << fields[i];
                    stored << fields[i];
                }
                QVERIFY(m_c.command(hset).ok());
                if (planted % 2 == 0) {
                    QVERIFY(m_c.command({"PEXPIRE", key, "600000"}).ok());
                }
                const QString what =
                    QStringLiteral("%1 %2='%3'")
                        .arg(algorithm::name(a),
                             field < 0 ? u"(valid)"_qs : QString::fromLatin1(names[field]),
                             QString::fromLatin1(v));
                check(a, key, model::storedState(a, stored), foreign, what);
                if (QTest::currentTestFailed()) {
                    return;
                }
                ++planted;
            }
        }
        qInfo("%s: %d planted states", qPrintable(algorithm::name(a)), planted);
        QVERIFY(planted >= 2 * 15);
    }

    void gcraString()
    {
        const Algorithm a = Algorithm::Gcra;
        const QByteArray key = test::keyPrefix() + "g";
        QList<QByteArray> values = foreignValues;
        values << ahead << "5+3/0"
               << "5+7/3"
               << "5+3/99999999999999999999"
               << "99999999999999999999+1/2"
               << "abc+1/2"
               << "5+1/2/3"
               << "+1/2";
        // And states a script writes: the twin agrees, and they are not foreign.
        const QList<QByteArray> valid{QByteArray::number(now0 + 500'000),
                                      QByteArray::number(now0 + 500'000) + "+1/2",
                                      QByteArray::number(now0 + 500'000) + "+1/3"};
        for (const QByteArray &v : valid + values) {
            if (v.isEmpty()) {
                continue; // SET key "" is tested below as text
            }
            QVERIFY(m_c.command({"SET", key, v, "PX", "600000"}).ok());
            const bool foreign = !valid.contains(v);
            check(a, key, model::storedState(a, {v}), foreign,
                  u"gcra '"_qs + QString::fromLatin1(v) + u"'"_qs);
            if (QTest::currentTestFailed()) {
                return;
            }
        }
        QVERIFY(m_c.command({"SET", key, ""}).ok()); // no TTL at all
        check(a, key, model::storedState(a, {QByteArray()}), true, u"gcra ''"_qs);
    }

    void slidingLogScores()
    {
        const Algorithm a = Algorithm::SlidingLog;
        const QByteArray key = test::keyPrefix() + "l";
        const QByteArray in = QByteArray::number(now0 - s);
        struct Case
        {
            QList<QByteArray> scores;
            bool foreign;
        };
        const std::vector<Case> cases{
            {{"+inf"}, true},
            {{in, "+inf"}, true},
            {{in, "1e300"}, true},
            {{in, ahead}, true},
            {{"-inf", in}, false},
            {{"-1e300", in, in}, false},
            {{in, QByteArray::number(now0 + model::maxAheadUs - 1)}, false},
        };
        for (const Case &cs : cases) {
            QVERIFY(m_c.command({"DEL", key}).ok());
            int i = 0;
            for (const QByteArray &score : cs.scores) {
                QVERIFY(m_c.command({"ZADD", key, score, "m" + QByteArray::number(i++)}).ok());
            }
            // The twin reads the scores as Redis prints them.
            auto all = m_c.command({"ZRANGE", key, "0", "-1", "WITHSCORES"});
            QVERIFY(all.ok());
            QList<std::optional<QByteArray>> scores;
            for (size_t j = 1; j < all->elements.size(); j += 2) {
                scores << all->elements[j].str;
            }
            check(a, key, model::storedState(a, scores), cs.foreign,
                  u"sliding_log "_qs + QString::fromLatin1(cs.scores.join(' ')));
            if (QTest::currentTestFailed()) {
                return;
            }
        }
    }

    // The parser of stored values is Lua's tonumber(), not a stricter one.
    void storedNumberIsLuaTonumber()
    {
        QCOMPARE(model::storedNumber("12"), std::optional<qint64>(12));
        QCOMPARE(model::storedNumber(" 12 "), std::optional<qint64>(12));
        QCOMPARE(model::storedNumber("1e3"), std::optional<qint64>(1000));
        QCOMPARE(model::storedNumber("0x10"), std::optional<qint64>(16));
        QCOMPARE(model::storedNumber("-5"), std::optional<qint64>(-5));
        QCOMPARE(model::storedNumber(QByteArray("7\0x", 3)), std::optional<qint64>(7));
        for (const char *bad : {"nan", "inf", "-inf", "1e400", "1.5", "abc", "", "1 2", "12abc"}) {
            QVERIFY2(!model::storedNumber(bad), bad);
        }
        // And Redis agrees (EVAL with the same conversion).
        for (const QByteArray v : {"12", " 12 ", "1e3", "0x10", "-5", "1.5", "abc", "1 2"}) {
            auto r = m_c.command({"EVAL",
                                  "local n = tonumber(ARGV[1]) if n == nil then return "
                                  "'nil' end return string.format('%.17g', n)",
                                  "0", v});
            QVERIFY(r.ok());
            const auto mine = model::storedNumber(v);
            const bool luaWhole =
                r->str != "nil" && r->str.toDouble() == qRound64(r->str.toDouble());
            QCOMPARE(bool(mine), luaWhole);
            if (mine) {
                QCOMPARE(QByteArray::number(*mine), r->str);
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestForeignState)
#include "tst_foreignstate.moc"
