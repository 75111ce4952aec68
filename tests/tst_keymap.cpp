#include "core/rules/keymap.h"

#include "testkit.h"

#include <QRandomGenerator>
#include <QTest>

using namespace sluice;
using namespace sluice::rules;

namespace {

Rule rule(const QString &id, const QByteArray &prefix = "rate_limit:")
{
    return Rule::window(id, Algorithm::FixedWindow, 3, 5 * duration::usPerSecond,
                        {Scope::Kind::Ip, {}}, prefix);
}

RuleSet sampleSet()
{
    RuleSet set;
    set.rules = {rule(QStringLiteral("hello-per-ip")), rule(QStringLiteral("a")),
                 rule(QStringLiteral("a.b")), rule(QStringLiteral("x"), "other:"),
                 rule(QStringLiteral("b"), "rate_limit:a:")};
    set.rules[4].enabled = false; // disabled rules still own their keys
    return set;
}

} // namespace

class TestKeyMap : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        test::columns<QString, QByteArray>("ruleId", "subject");
        const QStringList ids{QStringLiteral("hello-per-ip"), QStringLiteral("a"),
                              QStringLiteral("a.b"), QStringLiteral("x"), QStringLiteral("b")};
        const QList<QPair<const char *, QByteArray>> subjects{
            {"ip", "1.2.3.4"},
            {"ipv6", "2001:db8::1"},
            {"colons", "a:b:c:"},
            {"braces", "{x}"},
            {"close-open", "}{"},
            {"lone open", "{"},
            {"lone close", "}"},
            {"nested tag", "a}:{b"},
            {"ends with brace", "x}}"},
            {"empty", ""},
            {"spaces", "  "},
            {"looks like a head", "rate_limit:a:{"},
            {"looks like a key", "rate_limit:a:{1.2.3.4}"},
            {"unicode", QStringLiteral("Zoë 東京 🚀").toUtf8()},
            {"binary", QByteArray("\0\xff\r\n{\x01}", 7)},
            {"long", QByteArray(10000, 'z')},
        };
        for (const QString &id : ids) {
            for (const auto &[name, subject] : subjects) {
                QTest::addRow("%s/%s", qPrintable(id), name) << id << subject;
            }
        }
    }
    void roundTrip()
    {
        QFETCH(QString, ruleId);
        QFETCH(QByteArray, subject);
        const RuleSet set = sampleSet();
        const KeyMap map(set);
        const Rule *r = set.find(ruleId);
        QVERIFY(r);
        const QByteArray key = r->keyFor(subject);
        QVERIFY(key.startsWith(r->keyPrefix));
        const auto m = map.match(key);
        QVERIFY2(m, key.constData());
        QCOMPARE(m->rule, r); // a pointer into the set, not a copy
        QCOMPARE(m->subject, subject);
    }

    void keyLayout()
    {
        // ARCHITECTURE.md "Keys": <key_prefix><rule id>:{<subject>}
        const RuleSet set = sampleSet();
        QCOMPARE(set.rules[0].keyFor("1.2.3.4"), QByteArray("rate_limit:hello-per-ip:{1.2.3.4}"));
        QCOMPARE(set.rules[4].keyFor("s"), QByteArray("rate_limit:a:b:{s}"));
    }

    void randomSubjectsRoundTrip()
    {
        const RuleSet set = sampleSet();
        const KeyMap map(set);
        QRandomGenerator rng(20240601);
        const QByteArray alphabet("{}:ab\0\xff", 8);
        for (int i = 0; i < 2000; ++i) {
            const Rule &r = set.rules[size_t(rng.bounded(int(set.rules.size())))];
            QByteArray subject;
            const int len = rng.bounded(12);
            for (int j = 0; j < len; ++j) {
                subject.append(rng.bounded(2) ? alphabet[rng.bounded(int(alphabet.size()))]
                                              : char(rng.bounded(256)));
            }
            const auto m = map.match(r.keyFor(subject));
            QVERIFY(m);
            QCOMPARE(m->rule, &r);
            QCOMPARE(m->subject, subject);
        }
    }

    void overlappingHeadsLongestWins()
    {
        // Ids cannot contain ':' but prefixes can: prefix "p:x:{" + id "y" makes a head that
        // extends the head of rule "x" under prefix "p:". Such a key belongs to both; the
        // documented choice is the longest head.
        RuleSet set;
        set.rules = {rule(QStringLiteral("x"), "p:"), rule(QStringLiteral("y"), "p:x:{")};
        const KeyMap map(set);
        const QByteArray key = set.rules[1].keyFor("z");
        QCOMPARE(key, QByteArray("p:x:{y:{z}"));
        auto m = map.match(key);
        QVERIFY(m);
        QCOMPARE(m->rule, &set.rules[1]);
        QCOMPARE(m->subject, QByteArray("z"));
        // A key only the shorter head explains still goes to it.
        m = map.match("p:x:{q}");
        QVERIFY(m);
        QCOMPARE(m->rule, &set.rules[0]);
        QCOMPARE(m->subject, QByteArray("q"));
        // Order in the set does not matter.
        RuleSet reversed;
        reversed.rules = {set.rules[1], set.rules[0]};
        const KeyMap map2(reversed);
        m = map2.match(key);
        QVERIFY(m);
        QCOMPARE(m->rule->id, QStringLiteral("y"));
    }

    void idsThatExtendEachOther()
    {
        // "a" and "a.b" (and prefix "rate_limit:a:" + "b"): the ':{' after the id separates them.
        const RuleSet set = sampleSet();
        const KeyMap map(set);
        auto m = map.match("rate_limit:a.b:{s}");
        QVERIFY(m);
        QCOMPARE(m->rule->id, QStringLiteral("a.b"));
        m = map.match("rate_limit:a:{s}");
        QVERIFY(m);
        QCOMPARE(m->rule->id, QStringLiteral("a"));
        m = map.match("rate_limit:a:b:{s}");
        QVERIFY(m);
        QCOMPARE(m->rule->id, QStringLiteral("b"));
        QCOMPARE(m->rule->keyPrefix, QByteArray("rate_limit:a:"));
    }

    void keysOfNoRule_data()
    {
        QTest::addColumn<QByteArray>("key");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("unrelated") << QByteArray("session:abc");
        QTest::newRow("unknown id") << QByteArray("rate_limit:nope:{1.2.3.4}");
        QTest::newRow("no closing brace") << QByteArray("rate_limit:hello-per-ip:{1.2.3.4");
        QTest::newRow("closing brace inside only") << QByteArray("rate_limit:hello-per-ip:{a}b");
        QTest::newRow("head only") << QByteArray("rate_limit:hello-per-ip:{");
        QTest::newRow("no opening brace") << QByteArray("rate_limit:hello-per-ip:1.2.3.4}");
        QTest::newRow("no colon") << QByteArray("rate_limit:hello-per-ip{1.2.3.4}");
        QTest::newRow("prefix only") << QByteArray("rate_limit:");
        QTest::newRow("id only") << QByteArray("rate_limit:hello-per-ip");
        QTest::newRow("case differs") << QByteArray("RATE_LIMIT:hello-per-ip:{x}");
        QTest::newRow("id case differs") << QByteArray("rate_limit:Hello-Per-Ip:{x}");
        QTest::newRow("wrong prefix for x") << QByteArray("rate_limit:x:{s}");
        QTest::newRow("truncated id") << QByteArray("rate_limit:hello-per:{s}");
        QTest::newRow("leading space") << QByteArray(" rate_limit:a:{s}");
    }
    void keysOfNoRule()
    {
        QFETCH(QByteArray, key);
        const RuleSet set = sampleSet();
        const KeyMap map(set);
        QVERIFY(!map.match(key));
    }

    void emptySetMatchesNothing()
    {
        const RuleSet set;
        const KeyMap map(set);
        QVERIFY(!map.match("rate_limit:a:{s}"));
    }
};

QTEST_GUILESS_MAIN(TestKeyMap)
#include "tst_keymap.moc"
