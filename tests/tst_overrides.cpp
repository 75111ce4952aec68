// Per-subject overrides: the file form in JSON and YAML (read, written, read back), every
// bad-input message with its line, column and field path, the matcher's precedence and
// expiry, and (with the fixture's Redis) the decisions of check and serve and the store.
#include "core/rules/codec.h"
#include "core/rules/jsonlocator.h"
#include "core/rules/override.h"
#include "core/rules/overridematcher.h"

#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

QString errorsOf(const rules::Loaded &l)
{
    QStringList lines;
    for (const Diagnostic &d : l.errors) {
        lines.append(d.toString());
    }
    return lines.join(u'\n');
}

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

Override glob(const QString &s, Override::Action a = Override::Action::Allow)
{
    Override o = subject(s, a);
    o.kind = Override::Kind::Glob;
    return o;
}

} // namespace

class TestOverrides : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void readAndWriteBothFormats()
    {
        const QByteArray file = jsonFile(R"([
       {"subject": "10.1.2.3", "allow": true, "note": "health checker"},
       {"cidr": "10.0.0.0/8", "deny": true, "expires": "2099-01-01T00:00:00Z"},
       {"match": "partner-*", "limit": {"limit": 30, "window": "5s"}, "ttl": "1d"}
     ])");
        const rules::Loaded l = rules::parseJson(file, u"r.json"_s);
        QVERIFY2(l.ok(), qPrintable(errorsOf(l)));
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
        QVERIFY2(fromJson.ok(), qPrintable(errorsOf(fromJson)));
        QVERIFY2(fromYaml.ok(), qPrintable(errorsOf(fromYaml)));
        QCOMPARE(fromJson.set, l.set);
        QCOMPARE(fromYaml.set, l.set);
        QCOMPARE(rules::toJson(fromYaml.set), json);

        // The store's compact rule JSON keeps them too.
        const rules::Loaded one = rules::ruleFromJson(rules::ruleToJson(r), u"stored"_s);
        QVERIFY2(one.ok(), qPrintable(errorsOf(one)));
        QCOMPARE(one.set.rules.at(0), r);

        // A bucket rule's override limit is rate + burst.
        const rules::Loaded bucket = rules::parseYaml(
            "version: 1\nrules:\n  - id: api\n    scope: user\n    algorithm: token_bucket\n"
            "    rate: 10/s\n    burst: 20\n    overrides:\n"
            "      - match: partner-*\n        limit: {rate: 100/s, burst: 200}\n"
            "        expires: 2099-01-01T00:00:00+01:00\n",
            u"b.yaml"_s);
        QVERIFY2(bucket.ok(), qPrintable(errorsOf(bucket)));
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
        QTest::addColumn<QByteArray>("overrides");
        QTest::addColumn<QByteArray>("scope");
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
                                       .arg(errorsOf(l))));
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
        QVERIFY2(found, qPrintable(errorsOf(l)));
    }

    void longPatternsAreShortenedInMessages()
    {
        const QByteArray huge(5000, 'x');
        const rules::Loaded l = rules::parseJson(
            jsonFile("[{\"cidr\": \"" + huge + "/8\", \"deny\": true}]"), u"long.json"_s);
        QVERIFY(!l.ok());
        QVERIFY2(errorsOf(l).size() < 1000, qPrintable(errorsOf(l).left(300)));
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

    void globs_data()
    {
        QTest::addColumn<QByteArray>("glob");
        QTest::addColumn<QByteArray>("subject");
        QTest::addColumn<bool>("matches");
        QTest::newRow("prefix") << QByteArray("partner-*") << QByteArray("partner-acme") << true;
        QTest::newRow("prefix, empty rest")
            << QByteArray("partner-*") << QByteArray("partner-") << true;
        QTest::newRow("prefix, other") << QByteArray("partner-*") << QByteArray("partne") << false;
        QTest::newRow("suffix") << QByteArray("*-eu") << QByteArray("acme-eu") << true;
        QTest::newRow("middle") << QByteArray("a*b*c") << QByteArray("axxbyyc") << true;
        QTest::newRow("middle, backtrack") << QByteArray("a*bc") << QByteArray("abcbc") << true;
        QTest::newRow("middle, no") << QByteArray("a*b*c") << QByteArray("axxbyy") << false;
        QTest::newRow("one") << QByteArray("user-?") << QByteArray("user-7") << true;
        QTest::newRow("one, too many") << QByteArray("user-?") << QByteArray("user-77") << false;
        QTest::newRow("escaped star") << QByteArray("a\\*") << QByteArray("a*") << true;
        QTest::newRow("escaped star, no") << QByteArray("a\\*") << QByteArray("ab") << false;
        QTest::newRow("case") << QByteArray("Partner-*") << QByteArray("partner-x") << false;
    }

    void globs()
    {
        QFETCH(QByteArray, glob);
        QFETCH(QByteArray, subject);
        QFETCH(bool, matches);
        QCOMPARE(rules::globMatches(glob, subject), matches);
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
        Override g = glob(u"10.*"_s, Override::Action::Deny);
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
        const rules::OverrideMatcher globsOnly({glob(u"partner-*"_s, Override::Action::Allow),
                                                glob(u"*-eu"_s, Override::Action::Deny)},
                                               0);
        QCOMPARE(globsOnly.indexOf(globsOnly.find("partner-eu", 1)), 0);
        QCOMPARE(globsOnly.indexOf(globsOnly.find("acme-eu", 1)), 1);
    }

    void expiry()
    {
        Override ends = subject(u"bob"_s, Override::Action::Deny);
        ends.expiresUs = 1000;
        Override ttl = glob(u"b*"_s, Override::Action::Allow);
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
