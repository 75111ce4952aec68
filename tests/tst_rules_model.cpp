// The rule model and its validation: every field's bad values, through both codecs (a JSON
// document is also a YAML flow document, so each row runs through parseJson and parseYaml and
// must give the same single error, at the same path), validate() on models built in code, and
// the small value types (Scope, OnRedisError, describe, policy, Diagnostic::toString).
#include "core/rules/codec.h"
#include "core/rules/rule.h"

#include "testkit.h"

#include <QTest>

#include <utility>

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

using Fields = QList<std::pair<QByteArray, QByteArray>>; // name -> raw JSON value

const Fields windowRule = {{"id", "\"r\""},
                           {"scope", "\"ip\""},
                           {"algorithm", "\"fixed_window\""},
                           {"limit", "3"},
                           {"window", "\"5s\""}};
const Fields bucketRule = {{"id", "\"r\""},
                           {"scope", "\"ip\""},
                           {"algorithm", "\"token_bucket\""},
                           {"rate", "\"100/s\""},
                           {"burst", "200"}};

// `base` with `changes` applied: a change replaces the field's value, an empty value removes
// the field, a new name is appended.
QByteArray rule(Fields base, const Fields &changes)
{
    for (const auto &[name, value] : changes) {
        auto it =
            std::find_if(base.begin(), base.end(), [&](const auto &f) { return f.first == name; });
        if (it == base.end()) {
            base.append({name, value});
        } else if (value.isEmpty()) {
            base.erase(it);
        } else {
            it->second = value;
        }
    }
    QByteArray out = "{";
    for (const auto &[name, value] : base) {
        out += (out.size() > 1 ? ", \"" : "\"") + name + "\": " + value;
    }
    return out + '}';
}

QByteArray document(const QByteArray &rules)
{
    return "{\"version\": 1, \"rules\": [" + rules + "]}";
}

} // namespace

class TestRulesModel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void badField_data()
    {
        QTest::addColumn<QByteArray>("rules"); // the inside of "rules": [...]
        test::columns<QString, QString>("path", "says");
        const auto w = [](const Fields &c) { return rule(windowRule, c); };
        const auto b = [](const Fields &c) { return rule(bucketRule, c); };
        const QByteArray long65 = '"' + QByteArray(65, 'a') + '"';

        // id
        QTest::newRow("id empty") << w({{"id", "\"\""}}) << u"rules[0].id"_s
                                  << u"the id is empty"_s;
        QTest::newRow("id 65 chars")
            << w({{"id", long65}}) << u"rules[0].id"_s << u"is 65 characters long"_s;
        QTest::newRow("id with a control char")
            << w({{"id", "\"a\\u0007\""}}) << u"rules[0].id"_s << u"contains U+0007"_s;
        QTest::newRow("id with a space") << w({{"id", "\"hello world\""}}) << u"rules[0].id"_s
                                         << u"'hello world' contains U+0020"_s;
        QTest::newRow("id with a slash")
            << w({{"id", "\"a/b\""}}) << u"rules[0].id"_s << u"contains '/'"_s;
        QTest::newRow("id not a string")
            << w({{"id", "7"}}) << u"rules[0].id"_s << u"got the number 7"_s;
        QTest::newRow("id missing")
            << w({{"id", ""}}) << u"rules[0].id"_s << u"required field 'id' is missing"_s;
        QTest::newRow("id duplicate") << w({}) + ", " + b({}) << u"rules[1].id"_s
                                      << u"duplicate id 'r': rules[0] and rules[1]"_s;
        // description, route
        QTest::newRow("description too long")
            << w({{"description", '"' + QByteArray(1025, 'd') + '"'}}) << u"rules[0].description"_s
            << u"1025 characters long; at most 1024"_s;
        QTest::newRow("description with newline")
            << w({{"description", "\"two\\nlines\""}}) << u"rules[0].description"_s
            << u"control character U+000A"_s;
        QTest::newRow("description not a string")
            << w({{"description", "[]"}}) << u"rules[0].description"_s << u"expected a string"_s;
        QTest::newRow("route too long") << w({{"route", '"' + QByteArray(257, 'r') + '"'}})
                                        << u"rules[0].route"_s << u"at most 256"_s;
        // algorithm
        QTest::newRow("algorithm unknown")
            << w({{"algorithm", "\"fixed-window\""}}) << u"rules[0].algorithm"_s
            << u"unknown algorithm 'fixed-window'"_s;
        // The parameters of an unknown algorithm are not judged (no "rate is not a parameter of
        // fixed_window" from the default the model falls back to).
        QTest::newRow("algorithm unknown, bucket parameters")
            << b({{"algorithm", "\"tokenbucket\""}}) << u"rules[0].algorithm"_s
            << u"unknown algorithm 'tokenbucket'; expected fixed_window, sliding_log"_s;
        QTest::newRow("algorithm missing") << w({{"algorithm", ""}}) << u"rules[0].algorithm"_s
                                           << u"required field 'algorithm' is missing"_s;
        QTest::newRow("algorithm not a string")
            << w({{"algorithm", "1"}}) << u"rules[0].algorithm"_s << u"expected an algorithm"_s;
        // limit
        QTest::newRow("limit 0") << w({{"limit", "0"}}) << u"rules[0].limit"_s
                                 << u"must be a positive integer below 2^53, got 0"_s;
        QTest::newRow("limit -1") << w({{"limit", "-1"}}) << u"rules[0].limit"_s << u"got -1"_s;
        QTest::newRow("limit \"3\"") << w({{"limit", "\"3\""}}) << u"rules[0].limit"_s
                                     << u"got the string \"3\" (write 3 without quotes)"_s;
        QTest::newRow("limit 2.5") << w({{"limit", "2.5"}}) << u"rules[0].limit"_s
                                   << u"expected a positive integer, got the number 2.5"_s;
        QTest::newRow("limit 2^53")
            << w({{"limit", "9007199254740992"}}) << u"rules[0].limit"_s << u"below 2^53"_s;
        QTest::newRow("limit true")
            << w({{"limit", "true"}}) << u"rules[0].limit"_s << u"got true"_s;
        QTest::newRow("limit missing")
            << w({{"limit", ""}}) << u"rules[0].limit"_s << u"required field 'limit' is missing"_s;
        // window
        QTest::newRow("window 0s")
            << w({{"window", "\"0s\""}}) << u"rules[0].window"_s << u"'0s' must be positive"_s;
        QTest::newRow("window \"5\"")
            << w({{"window", "\"5\""}}) << u"rules[0].window"_s << u"'5' is not a duration"_s;
        QTest::newRow("window 5x")
            << w({{"window", "\"5x\""}}) << u"rules[0].window"_s << u"'5x' is not a duration"_s;
        QTest::newRow("window number")
            << w({{"window", "5"}}) << u"rules[0].window"_s << u"expected a duration with a unit"_s;
        QTest::newRow("window 4000d")
            << w({{"window", "\"4000d\""}}) << u"rules[0].window"_s << u"at most 3650d"_s;
        QTest::newRow("window missing") << w({{"window", ""}}) << u"rules[0].window"_s
                                        << u"required field 'window' is missing"_s;
        // rate
        QTest::newRow("rate 0/s") << b({{"rate", "\"0/s\""}}) << u"rules[0].rate"_s
                                  << u"the count '0' must be a positive integer"_s;
        QTest::newRow("rate abc") << b({{"rate", "\"abc\""}}) << u"rules[0].rate"_s
                                  << u"'abc' is not a rate"_s;
        QTest::newRow("rate 5/0s")
            << b({{"rate", "\"5/0s\""}}) << u"rules[0].rate"_s << u"must be positive"_s;
        QTest::newRow("rate number")
            << b({{"rate", "100"}}) << u"rules[0].rate"_s << u"expected a rate N/<duration>"_s;
        QTest::newRow("rate missing")
            << b({{"rate", ""}}) << u"rules[0].rate"_s << u"required field 'rate' is missing"_s;
        // burst
        QTest::newRow("burst 0") << b({{"burst", "0"}}) << u"rules[0].burst"_s
                                 << u"must be a positive integer below 2^53, got 0"_s;
        QTest::newRow("burst \"5\"")
            << b({{"burst", "\"5\""}}) << u"rules[0].burst"_s << u"got the string \"5\""_s;
        QTest::newRow("burst missing")
            << b({{"burst", ""}}) << u"rules[0].burst"_s << u"required field 'burst' is missing"_s;
        // parameters of the other family
        QTest::newRow("window on token_bucket")
            << b({{"window", "\"5s\""}}) << u"rules[0].window"_s
            << u"'window' is not a parameter of token_bucket; token_bucket takes rate and burst"_s;
        QTest::newRow("limit on gcra") << b({{"algorithm", "\"gcra\""}, {"limit", "3"}})
                                       << u"rules[0].limit"_s << u"not a parameter of gcra"_s;
        QTest::newRow("rate on fixed_window")
            << w({{"rate", "\"1/s\""}}) << u"rules[0].rate"_s
            << u"'rate' is not a parameter of fixed_window; fixed_window takes limit and window"_s;
        QTest::newRow("burst on sliding_log")
            << w({{"algorithm", "\"sliding_log\""}, {"burst", "5"}}) << u"rules[0].burst"_s
            << u"not a parameter of sliding_log"_s;
        // exact arithmetic (Policy::validate)
        QTest::newRow("sliding_counter too large")
            << w({{"algorithm", "\"sliding_counter\""}, {"limit", "1000000"}, {"window", "\"1d\""}})
            << u"rules[0].limit"_s << u"too large for exact arithmetic"_s;
        QTest::newRow("token_bucket too large")
            << b({{"rate", "\"7/d\""}, {"burst", "1000000"}}) << u"rules[0].rate"_s
            << u"too large for exact arithmetic"_s;
        // scope
        QTest::newRow("scope header: empty") << w({{"scope", "\"header:\""}}) << u"rules[0].scope"_s
                                             << u"'header:' needs a header name"_s;
        QTest::newRow("scope cookie:x") << w({{"scope", "\"cookie:x\""}}) << u"rules[0].scope"_s
                                        << u"'cookie:x' is not a scope; expected global, ip"_s;
        QTest::newRow("scope header with space")
            << w({{"scope", "\"header:X Api\""}}) << u"rules[0].scope"_s
            << u"'X Api' is not an HTTP header name: U+0020"_s;
        QTest::newRow("scope header with colon")
            << w({{"scope", "\"header:X:Y\""}}) << u"rules[0].scope"_s << u"':' is not allowed"_s;
        QTest::newRow("scope header name too long")
            << w({{"scope", "\"header:" + QByteArray(129, 'h') + '"'}}) << u"rules[0].scope"_s
            << u"header name is 129 characters long; at most 128 are allowed"_s;
        QTest::newRow("scope param name too long")
            << w({{"scope", "\"param:" + QByteArray(129, 'p') + '"'}}) << u"rules[0].scope"_s
            << u"parameter name is 129 characters long; at most 128 are allowed"_s;
        QTest::newRow("scope param: empty") << w({{"scope", "\"param:\""}}) << u"rules[0].scope"_s
                                            << u"needs a query parameter name"_s;
        QTest::newRow("scope param with =")
            << w({{"scope", "\"param:a=b\""}}) << u"rules[0].scope"_s
            << u"not a query parameter name: '=' is not allowed"_s;
        QTest::newRow("scope uppercase")
            << w({{"scope", "\"IP\""}}) << u"rules[0].scope"_s << u"did you mean 'ip'?"_s;
        QTest::newRow("scope missing")
            << w({{"scope", ""}}) << u"rules[0].scope"_s << u"required field 'scope' is missing"_s;
        // key prefix
        QTest::newRow("key_prefix control char")
            << w({{"key_prefix", "\"app\\u0001:\""}}) << u"rules[0].key_prefix"_s
            << u"control character U+0001 at byte 3"_s;
        QTest::newRow("key_prefix newline")
            << w({{"key_prefix", "\"a\\nb\""}}) << u"rules[0].key_prefix"_s << u"U+000A"_s;
        QTest::newRow("key_prefix DEL")
            << w({{"key_prefix", "\"a\\u007f\""}}) << u"rules[0].key_prefix"_s << u"U+007F"_s;
        QTest::newRow("key_prefix brace")
            << w({{"key_prefix", "\"a{b}:\""}}) << u"rules[0].key_prefix"_s
            << u"contains '{' at byte 1"_s;
        QTest::newRow("key_prefix 129 bytes")
            << w({{"key_prefix", '"' + QByteArray(129, 'k') + '"'}}) << u"rules[0].key_prefix"_s
            << u"129 bytes long"_s;
        QTest::newRow("key_prefix empty") << w({{"key_prefix", "\"\""}}) << u"rules[0].key_prefix"_s
                                          << u"the key prefix is empty"_s;
        QTest::newRow("key_prefix number")
            << w({{"key_prefix", "5"}}) << u"rules[0].key_prefix"_s << u"expected a string"_s;
        // on_redis_error, shadow, enabled
        QTest::newRow("on_redis_error maybe")
            << w({{"on_redis_error", "\"maybe\""}}) << u"rules[0].on_redis_error"_s
            << u"'maybe' is not a choice; expected allow"_s;
        QTest::newRow("shadow \"yes\"") << w({{"shadow", "\"yes\""}}) << u"rules[0].shadow"_s
                                        << u"expected true or false, got the string \"yes\""_s;
        QTest::newRow("shadow \"true\"") << w({{"shadow", "\"true\""}}) << u"rules[0].shadow"_s
                                         << u"write true without quotes"_s;
        QTest::newRow("enabled 1") << w({{"enabled", "1"}}) << u"rules[0].enabled"_s
                                   << u"expected true or false, got the number 1"_s;
        QTest::newRow("enabled null")
            << w({{"enabled", "null"}}) << u"rules[0].enabled"_s << u"got null"_s;
        // unknown and repeated fields, a rule that is not an object
        QTest::newRow("unknown field limt") << w({{"limt", "3"}}) << u"rules[0].limt"_s
                                            << u"unknown field 'limt' (did you mean 'limit'?)"_s;
        QTest::newRow("unknown field keyPrefix")
            << w({{"keyPrefix", "\"x\""}}) << u"rules[0].keyPrefix"_s
            << u"did you mean 'key_prefix'?"_s;
        QTest::newRow("unknown field, odd name")
            << w({{"my field", "1"}}) << u"rules[0][\"my field\"]"_s
            << u"a rule has the fields id, description"_s;
        QTest::newRow("field twice")
            << QByteArray("{\"id\": \"r\", \"scope\": \"ip\", \"algorithm\": \"gcra\", "
                          "\"rate\": \"1/s\", \"burst\": 1, \"burst\": 2}")
            << u"rules[0].burst"_s << u"the field 'burst' appears twice"_s;
        QTest::newRow("rule not an object")
            << QByteArray("3") << u"rules[0]"_s << u"expected a rule"_s;
    }
    void badField()
    {
        QFETCH(QByteArray, rules);
        QFETCH(QString, path);
        QFETCH(QString, says);
        const QByteArray text = document(rules);
        const rules::Loaded json = rules::parseJson(text, u"t.json"_s);
        const rules::Loaded yaml = rules::parseYaml(text, u"t.yaml"_s);
        for (const rules::Loaded *l : {&json, &yaml}) {
            QVERIFY2(!l->ok(), text.constData());
            QVERIFY2(l->errors.size() == 1, qPrintable(test::errorsOf(*l))); // one cause, one error
            const Diagnostic &d = l->errors.constFirst();
            QCOMPARE(d.path, path);
            QVERIFY2(d.message.contains(says), qPrintable(d.message));
            QCOMPARE(d.line, 1);
            QVERIFY(d.column > 1);
            QVERIFY(!l->set.rules.empty()); // built anyway, for the editor
        }
        // Both point at the same character (the field's name, or the rule).
        QCOMPARE(json.errors.constFirst().column, yaml.errors.constFirst().column);
    }

    void documentErrors_data()
    {
        test::columns<QByteArray, QString, QString>("text", "path", "says");
        QTest::newRow("version missing")
            << QByteArray("{\"rules\": []}") << u"version"_s << u"the format version is missing"_s;
        QTest::newRow("version 2") << QByteArray("{\"version\": 2, \"rules\": []}") << u"version"_s
                                   << u"unsupported format version 2"_s;
        QTest::newRow("version \"1\"") << QByteArray("{\"version\": \"1\", \"rules\": []}")
                                       << u"version"_s << u"expected the integer 1"_s;
        QTest::newRow("based_on -1")
            << QByteArray("{\"version\": 1, \"based_on\": -1, \"rules\": []}") << u"based_on"_s
            << u"expected an integer >= 0"_s;
        QTest::newRow("based_on string")
            << QByteArray("{\"version\": 1, \"based_on\": \"7\", \"rules\": []}") << u"based_on"_s
            << u"write 7 without quotes"_s;
        QTest::newRow("rules missing")
            << QByteArray("{\"version\": 1}") << u"rules"_s << u"the list of rules is missing"_s;
        QTest::newRow("rules an object")
            << QByteArray("{\"version\": 1, \"rules\": {}}") << u"rules"_s << u"of rules, got"_s;
        QTest::newRow("unknown top-level field")
            << QByteArray("{\"version\": 1, \"rules\": [], \"name\": \"x\"}") << u"name"_s
            << u"unknown field 'name'; a rule file has the fields version, based_on, rules"_s;
        QTest::newRow("not an object") << QByteArray("[]") << u""_s << u"expected a rule set"_s;
    }
    void documentErrors()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, path);
        QFETCH(QString, says);
        for (const rules::Loaded &l :
             {rules::parseJson(text, u"t.json"_s), rules::parseYaml(text, u"t.yaml"_s)}) {
            QVERIFY2(l.errors.size() == 1, qPrintable(test::errorsOf(l)));
            QCOMPARE(l.errors.constFirst().path, path);
            QVERIFY2(l.errors.constFirst().message.contains(says),
                     qPrintable(l.errors.constFirst().message));
            QVERIFY(l.errors.constFirst().line == 1);
        }
    }

    // Several errors in one file: all of them, in the order of the file, each at its line.
    void allErrorsReported()
    {
        const QByteArray text =
            "{\n"
            "  \"version\": 1,\n"
            "  \"rules\": [\n"
            "    {\"id\": \"a b\", \"scope\": \"ip\", \"algorithm\": \"fixed_window\",\n"
            "     \"limit\": 0, \"window\": \"5x\"},\n"
            "    {\"id\": \"ok\", \"scope\": \"cookie:x\", \"algorithm\": \"gcra\",\n"
            "     \"rate\": \"abc\", \"burst\": 0, \"shadow\": \"yes\"},\n"
            "    {\"id\": \"ok\", \"scope\": \"user\", \"algorithm\": \"token_bucket\",\n"
            "     \"rate\": \"1/s\", \"burst\": 1, \"limt\": 3}\n"
            "  ]\n"
            "}\n";
        const rules::Loaded l = rules::parseJson(text, u"many.json"_s);
        QStringList got;
        for (const Diagnostic &d : l.errors) {
            got.append(u"%1:%2 %3"_s.arg(d.line).arg(d.column).arg(d.path));
        }
        const QStringList expected = {
            u"4:6 rules[0].id"_s,      u"5:6 rules[0].limit"_s, u"5:18 rules[0].window"_s,
            u"6:18 rules[1].scope"_s,  u"7:6 rules[1].rate"_s,  u"7:21 rules[1].burst"_s,
            u"7:33 rules[1].shadow"_s, u"8:6 rules[2].id"_s,    u"9:33 rules[2].limt"_s,
        };
        QCOMPARE(got, expected);
        QVERIFY(l.errors.at(7).message.contains(u"rules[1] and rules[2]"_s));
        QCOMPARE(l.errors.at(0).toString(),
                 u"many.json:4:6: rules[0].id: 'a b' contains U+0020; expected 1 to 64 characters "
                 "from A-Z, a-z, 0-9, '.', '_' and '-', e.g. hello-per-ip"_s);
        // Every rule is still built, index for index, for the editor.
        QCOMPARE(int(l.set.rules.size()), 3);
        QCOMPARE(l.set.rules[2].id, u"ok"_s);
    }

    // validate() on a model built in code: the editor's path, no positions.
    void validateModel()
    {
        RuleSet set;
        Rule good;
        good.id = u"good"_s;
        good.scope = {Scope::Kind::Header, u"X-Api-Key"_s};
        good.algorithm = Algorithm::SlidingLog;
        good.limit = 10;
        good.windowUs = 60 * duration::usPerSecond;
        set.rules.push_back(good);
        QVERIFY(rules::validate(set).isEmpty());

        Rule bad = good;
        bad.id = u"good"_s;                     // duplicate
        bad.algorithm = Algorithm::TokenBucket; // keeps limit and window: not its parameters
        bad.scope = {Scope::Kind::Ip, u"stale"_s};
        bad.keyPrefix = "a\tb";
        set.rules.push_back(bad);
        set.version = 3;
        set.basedOn = -2;
        const QList<Diagnostic> d = rules::validate(set, u"editor"_s);
        QStringList paths;
        for (const Diagnostic &x : d) {
            paths.append(x.path);
            QCOMPARE(x.file, u"editor"_s);
            QCOMPARE(x.line, 0);
        }
        // Every problem, including both parameters of the bucket (each checked on its own).
        QCOMPARE(paths,
                 (QStringList{u"version"_s, u"based_on"_s, u"rules[1].scope"_s, u"rules[1].limit"_s,
                              u"rules[1].window"_s, u"rules[1].rate"_s, u"rules[1].burst"_s,
                              u"rules[1].key_prefix"_s, u"rules[1].id"_s}));
        QVERIFY(d[2].message.contains(u"scope ip takes no name"_s));
        QVERIFY(d[3].message.contains(u"'limit' is not a parameter of token_bucket"_s));
        QVERIFY(d[5].message.contains(u"rate count must be a positive integer"_s));
        QCOMPARE(
            d.last().toString(),
            u"editor: rules[1].id: duplicate id 'good': rules[0] and rules[1] both use it; ids "
            "must be unique"_s);

        // validateRule: paths under the given prefix, "" for a rule on its own.
        const QList<Diagnostic> alone = rules::validateRule(bad, {});
        QVERIFY(!alone.isEmpty());
        QCOMPARE(alone.first().path, u"scope"_s);
    }

    void keyPrefixAllowed_data()
    {
        QTest::addColumn<QByteArray>("prefix");
        QTest::newRow("default") << QByteArray("rate_limit:");
        QTest::newRow("spaces") << QByteArray("my app: v2 ");
        QTest::newRow("non-ASCII") << QByteArray("größe:");
        QTest::newRow("128 bytes") << QByteArray(128, 'k');
        QTest::newRow("punctuation") << QByteArray("a|b*c?[d]#%:");
    }
    void keyPrefixAllowed()
    {
        QFETCH(QByteArray, prefix);
        Rule r;
        r.id = u"hello"_s;
        r.scope.kind = Scope::Kind::Ip;
        r.limit = 3;
        r.windowUs = 5 * duration::usPerSecond;
        r.keyPrefix = prefix;
        const QList<Diagnostic> d = rules::validateRule(r, u"rules[0]"_s);
        QVERIFY2(d.isEmpty(), qPrintable(d.value(0).toString()));
        QCOMPARE(r.keyFor("1.2.3.4"), prefix + "hello:{1.2.3.4}");
    }

    void scopes_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind"); // -1: invalid
        QTest::addColumn<QString>("name");
        QTest::newRow("global") << u"global"_s << int(Scope::Kind::Global) << QString();
        QTest::newRow("ip") << u"ip"_s << int(Scope::Kind::Ip) << QString();
        QTest::newRow("user") << u"user"_s << int(Scope::Kind::User) << QString();
        QTest::newRow("header") << u"header:X-Api-Key"_s << int(Scope::Kind::Header)
                                << u"X-Api-Key"_s;
        QTest::newRow("header, every tchar")
            << u"header:!#$%&'*+-.^_`|~09AZaz"_s << int(Scope::Kind::Header)
            << u"!#$%&'*+-.^_`|~09AZaz"_s;
        QTest::newRow("param") << u"param:api_key"_s << int(Scope::Kind::Param) << u"api_key"_s;
        QTest::newRow("param, non-ASCII") << u"param:clé"_s << int(Scope::Kind::Param) << u"clé"_s;
        QTest::newRow("empty") << QString() << -1 << QString();
        QTest::newRow("Global") << u"Global"_s << -1 << QString();
        QTest::newRow("ip:x") << u"ip:x"_s << -1 << QString();
        QTest::newRow("header:") << u"header:"_s << -1 << QString();
        QTest::newRow("header: X") << u"header: X"_s << -1 << QString();
        QTest::newRow("header non-ASCII") << u"header:Größe"_s << -1 << QString();
        QTest::newRow("header 129") << u"header:"_s + QString(129, u'h') << -1 << QString();
        QTest::newRow("param:") << u"param:"_s << -1 << QString();
        QTest::newRow("param with space") << u"param:a b"_s << -1 << QString();
        QTest::newRow("param with &") << u"param:a&b"_s << -1 << QString();
        QTest::newRow("cookie") << u"cookie:x"_s << -1 << QString();
    }
    void scopes()
    {
        QFETCH(QString, text);
        QFETCH(int, kind);
        QFETCH(QString, name);
        const Result<Scope> s = Scope::parse(text);
        if (kind < 0) {
            QVERIFY(!s.ok());
            QVERIFY(s.error().message.contains(u"header"_s) ||
                    s.error().message.contains(u"param"_s) ||
                    s.error().message.contains(u"did you mean"_s));
            return;
        }
        QVERIFY2(s.ok(), qPrintable(s.ok() ? QString() : s.error().message));
        QCOMPARE(int(s->kind), kind);
        QCOMPARE(s->name, name);
        QCOMPARE(s->toString(), text); // round trip
    }

    void onRedisError()
    {
        for (OnRedisError e : {OnRedisError::Allow, OnRedisError::Deny, OnRedisError::Local}) {
            QCOMPARE(onRedisErrorFromName(onRedisErrorName(e)), std::optional(e));
        }
        QCOMPARE(onRedisErrorName(OnRedisError::Local), u"local"_s);
        QVERIFY(!onRedisErrorFromName(u"Allow"_s));
        QVERIFY(!onRedisErrorFromName(u"maybe"_s));
    }

    void describe_data()
    {
        test::columns<QString, QString, QString>("scope", "algorithm", "expected");
        QTest::newRow("window per IP") << u"ip"_s << u"fixed_window"_s << u"3 per 5s per IP"_s;
        QTest::newRow("window global") << u"global"_s << u"sliding_log"_s << u"3 per 5s, global"_s;
        QTest::newRow("window per header")
            << u"header:X-Api-Key"_s << u"sliding_counter"_s << u"3 per 5s per header X-Api-Key"_s;
        QTest::newRow("bucket global")
            << u"global"_s << u"token_bucket"_s << u"100/s, burst 200, global"_s;
        QTest::newRow("bucket per user")
            << u"user"_s << u"leaky_bucket"_s << u"100/s, burst 200, per user"_s;
        QTest::newRow("gcra per param")
            << u"param:api_key"_s << u"gcra"_s << u"100/s, burst 200, per param api_key"_s;
    }
    void describe()
    {
        QFETCH(QString, scope);
        QFETCH(QString, algorithm);
        QFETCH(QString, expected);
        Rule r;
        r.id = u"x"_s;
        r.scope = *Scope::parse(scope);
        r.algorithm = *algorithm::fromName(algorithm);
        if (algorithm::isWindow(r.algorithm)) {
            r.limit = 3;
            r.windowUs = 5 * duration::usPerSecond;
        } else {
            r.rate = {100, duration::usPerSecond};
            r.burst = 200;
        }
        QCOMPARE(r.describe(), expected);
    }

    void policy()
    {
        Rule r;
        r.id = u"hello-per-ip"_s;
        r.algorithm = Algorithm::FixedWindow;
        r.limit = 3;
        r.windowUs = 5 * duration::usPerSecond;
        r.keyPrefix = "my app: ";
        const Policy p = r.policy();
        QCOMPARE(p.id, r.id);
        QCOMPARE(p.keyPrefix, QByteArray("my app: "));
        QCOMPARE(p.algorithm, Algorithm::FixedWindow);
        QCOMPARE(p.scriptArgs(), (QList<QByteArray>{"3", "5000000"}));
        QCOMPARE(r.keyFor("1.2.3.4"), QByteArray("my app: hello-per-ip:{1.2.3.4}"));
        QVERIFY(p.validate().ok());

        // A bucket rule carrying stale window values: the policy has the bucket's only.
        r.algorithm = Algorithm::Gcra;
        r.rate = {5, 10 * duration::usPerSecond};
        r.burst = 4;
        const Policy g = r.policy();
        QCOMPARE(g.limit, 0);
        QCOMPARE(g.windowUs, 0);
        QCOMPARE(g.scriptArgs(), (QList<QByteArray>{"5", "10000000", "4"}));
        QCOMPARE(g.capacity(), 5);
    }

    void find()
    {
        RuleSet set;
        Rule a;
        a.id = u"a"_s;
        Rule b;
        b.id = u"b"_s;
        set.rules = {a, b};
        QVERIFY(set.find(u"b"_s) == &set.rules[1]);
        QVERIFY(set.find(u"c"_s) == nullptr);
        QVERIFY(set.find(QString()) == nullptr);
    }

    void diagnosticToString_data()
    {
        test::columns<QString, int, int, QString, QString>("file", "line", "column", "path",
                                                           "expected");
        const QString p = u"rules[2].rate"_s;
        QTest::newRow("everything")
            << u"rules.json"_s << 14 << 7 << p << u"rules.json:14:7: rules[2].rate: bad"_s;
        QTest::newRow("no column")
            << u"rules.json"_s << 14 << 0 << p << u"rules.json:14: rules[2].rate: bad"_s;
        QTest::newRow("no line") << u"rules.json"_s << 0 << 0 << p
                                 << u"rules.json: rules[2].rate: bad"_s;
        QTest::newRow("no file") << QString() << 3 << 1 << p << u"3:1: rules[2].rate: bad"_s;
        QTest::newRow("no path") << u"rules.json"_s << 1 << 1 << QString()
                                 << u"rules.json:1:1: bad"_s;
        QTest::newRow("message only") << QString() << 0 << 0 << QString() << u"bad"_s;
    }
    void diagnosticToString()
    {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, path);
        QFETCH(QString, expected);
        Diagnostic d;
        d.file = file;
        d.line = line;
        d.column = column;
        d.path = path;
        d.message = u"bad"_s;
        QCOMPARE(d.toString(), expected);
    }
};

QTEST_GUILESS_MAIN(TestRulesModel)
#include "tst_rules_model.moc"
