// envoy ratelimit's configuration read into Sluice rules (core/rules/envoyformat.h): real YAML
// files in a temporary directory, the rules they give, every construct Sluice cannot express
// and every error envoy ratelimit itself refuses named at its file:line:column; `sluice-cli
// rules import` end to end; and the Envoy export (core/rules/export_envoy.cpp) read back by the
// import, so that what Sluice writes for envoy ratelimit is what envoy ratelimit reads.

#include "core/rules/codec.h"
#include "core/rules/envoyformat.h"
#include "core/rules/exporter.h"
#include "runcli.h"
#include "testdata.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace sluice::rules;

namespace {

using test::writeFile;

const Rule *findRule(const envoy::Config &c, const QString &id)
{
    for (const Rule &r : c.set.rules) {
        if (r.id == id) {
            return &r;
        }
    }
    return nullptr;
}

QString all(const QList<Diagnostic> &list)
{
    QStringList out;
    for (const Diagnostic &d : list) {
        out << d.toString();
    }
    return out.join(QLatin1Char('\n'));
}

// Line 1 is "domain: shop".
const QByteArray shopYaml = R"(domain: shop
descriptors:
  - key: generic_key
    value: checkout
    rate_limit:
      unit: minute
      requests_per_unit: 10
    descriptors:
      - key: remote_address
        rate_limit:
          unit: second
          requests_per_unit: 2
          algorithm: gcra
          burst: 4
        shadow_mode: true
  - key: remote_address
    value: 10.0.0.1
    rate_limit:
      unlimited: true
  - key: user
    detailed_metric: true
    rate_limit:
      name: per_user
      unit: hour
      requests_per_unit: 1000
      algorithm: sliding_counter
  - key: path
    value: /api/*
    rate_limit: {unit: second, requests_per_unit: 5}
  - key: tenant
    rate_limit:
      unit: year
      requests_per_unit: 100000
  - key: zero
    rate_limit:
      unit: day
      requests_per_unit: 0
  - key: weekly
    rate_limit:
      unit: WEEK
      requests_per_unit: 7
      replaces:
        - name: per_user
)";

} // namespace

class TestEnvoyImport : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rulesFromTheDescriptors()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("shop.yaml"));
        QVERIFY(writeFile(file, shopYaml));
        const envoy::Config c = envoy::load(dir.path());
        QVERIFY2(c.ok(), qPrintable(all(c.errors)));
        QCOMPARE(c.domains, QStringList{QStringLiteral("shop")});
        QCOMPARE(c.files, QStringList{file});

        const Rule *checkout = findRule(c, QStringLiteral("shop.generic_key_checkout"));
        QVERIFY(checkout != nullptr);
        QCOMPARE(checkout->algorithm, Algorithm::FixedWindow);
        QCOMPARE(checkout->limit, 10);
        QCOMPARE(checkout->windowUs, 60'000'000);
        QVERIFY(!checkout->shadow);
        QVERIFY(checkout->enabled);

        const Rule *perIp = findRule(c, QStringLiteral("shop.generic_key_checkout.remote_address"));
        QVERIFY(perIp != nullptr);
        QCOMPARE(perIp->algorithm, Algorithm::Gcra);
        QCOMPARE(perIp->rate, (Rate{2, 1'000'000}));
        QCOMPARE(perIp->burst, 4);
        QVERIFY(perIp->shadow);
        QCOMPARE(perIp->scope.kind, Scope::Kind::Ip);

        // unlimited: a disabled rule (not limited); the dots of the value become '-'.
        const Rule *exempt = findRule(c, QStringLiteral("shop.remote_address_10-0-0-1"));
        QVERIFY(exempt != nullptr);
        QVERIFY(!exempt->enabled);

        const Rule *perUser = findRule(c, QStringLiteral("shop.user"));
        QVERIFY(perUser != nullptr);
        QCOMPARE(perUser->algorithm, Algorithm::SlidingCounter);
        QCOMPARE(perUser->limit, 1000);
        QCOMPARE(perUser->windowUs, 3'600'000'000);
        QVERIFY(perUser->description.contains(QStringLiteral("per_user")));

        const Rule *weekly = findRule(c, QStringLiteral("shop.weekly"));
        QVERIFY(weekly != nullptr); // WEEK: units in any case, as envoy ratelimit reads them
        QCOMPARE(weekly->windowUs, 7 * 86'400'000'000);

        // Left out: the wildcard, the year, requests_per_unit 0.
        QCOMPARE(c.set.rules.size(), size_t(5));
        QVERIFY(findRule(c, QStringLiteral("shop.tenant")) == nullptr);
        QVERIFY(findRule(c, QStringLiteral("shop.zero")) == nullptr);
        // The limits keep what serving them needs.
        QCOMPARE(c.limits.size(), c.set.rules.size());
        QCOMPARE(c.limits[1].path.size(), 2);
        QCOMPARE(c.limits[1].path[1].first, QStringLiteral("remote_address"));
        QVERIFY(c.limits[1].path[1].second.isEmpty());
        QCOMPARE(c.limits[4].replaces, QStringList{QStringLiteral("per_user")});
        // The rule set is a valid Sluice rule file.
        const rules::Loaded back = rules::parseJson(rules::toJson(c.set), QStringLiteral("x"));
        QVERIFY2(back.ok(), qPrintable(all(back.errors)));
        QCOMPARE(back.set.rules, c.set.rules);

        // What could not be expressed, each at its place, in the order of the file.
        const QStringList expected{
            file + QStringLiteral(":21:22: descriptors[2].detailed_metric: detailed_metric cannot "
                                  "be expressed"),
            file + QStringLiteral(":28:12: descriptors[3].value: the wildcard value '/api/*'"),
            file + QStringLiteral(":32:13: descriptors[4].rate_limit.unit: the calendar unit "
                                  "'year' cannot be expressed"),
            file + QStringLiteral(":37:26: descriptors[5].rate_limit.requests_per_unit: "
                                  "requests_per_unit 0"),
            file + QStringLiteral(":43:9: descriptors[6].rate_limit.replaces: replaces cannot be "
                                  "expressed"),
        };
        QCOMPARE(c.notes.size(), expected.size());
        for (qsizetype i = 0; i < expected.size(); ++i) {
            QVERIFY2(
                c.notes[i].toString().startsWith(expected[i]),
                qPrintable(c.notes[i].toString() + QStringLiteral("\nexpected: ") + expected[i]));
        }
    }

    void errorsAtTheirPlace_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("expected"); // after "FILE:"
        QTest::newRow("duplicate descriptor")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: k\n"
                          "    value: v\n"
                          "    rate_limit: {unit: second, requests_per_unit: 1}\n"
                          "  - key: k\n"
                          "    value: v\n"
                          "    rate_limit: {unit: minute, requests_per_unit: 1}\n")
            << QStringLiteral("6:5: descriptors[1]: duplicate descriptor composite key 'd.k_v' "
                              "(first at line 3, column 5)");
        QTest::newRow("duplicate nested")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: a\n"
                          "    descriptors:\n"
                          "      - key: b\n"
                          "        rate_limit: {unit: second, requests_per_unit: 1}\n"
                          "      - key: b\n"
                          "        rate_limit: {unit: second, requests_per_unit: 2}\n")
            << QStringLiteral("7:9: descriptors[0].descriptors[1]: duplicate descriptor "
                              "composite key 'd.b'");
        QTest::newRow("unknown unit")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: k\n"
                          "    rate_limit:\n"
                          "      unit: fortnight\n"
                          "      requests_per_unit: 1\n")
            << QStringLiteral("5:13: descriptors[0].rate_limit.unit: invalid rate limit unit "
                              "'fortnight'");
        QTest::newRow("cycle through replaces")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: a\n"
                          "    rate_limit:\n"
                          "      name: first\n"
                          "      unit: second\n"
                          "      requests_per_unit: 1\n"
                          "      replaces: [{name: second}]\n"
                          "  - key: b\n"
                          "    rate_limit:\n"
                          "      name: second\n"
                          "      unit: second\n"
                          "      requests_per_unit: 1\n"
                          "      replaces: [{name: first}]\n")
            << QStringLiteral("10:5: rate_limit.replaces: a cycle through replaces: ");
        QTest::newRow("replaces itself")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: a\n"
                          "    rate_limit:\n"
                          "      name: me\n"
                          "      unit: second\n"
                          "      requests_per_unit: 1\n"
                          "      replaces:\n"
                          "        - name: me\n")
            << QStringLiteral("9:17: descriptors[0].rate_limit.replaces[0].name: replaces should "
                              "not contain the name of the same descriptor ('me')");
        QTest::newRow("unknown key")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: a\n"
                          "    rate-limit: {unit: second, requests_per_unit: 1}\n")
            << QStringLiteral("4:5: descriptors[0]: unknown key 'rate-limit'");
        QTest::newRow("no domain") << QByteArray("descriptors: []\n")
                                   << QStringLiteral("1:1: domain: config file cannot have an "
                                                     "empty domain");
        QTest::newRow("empty key") << QByteArray("domain: d\n"
                                                 "descriptors:\n"
                                                 "  - value: v\n")
                                   << QStringLiteral("3:5: descriptors[0].key: descriptor has an "
                                                     "empty key");
        QTest::newRow("unit with unlimited")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: a\n"
                          "    rate_limit: {unlimited: true, unit: second}\n")
            << QStringLiteral("4:41: descriptors[0].rate_limit.unit: should not specify a rate "
                              "limit unit when unlimited");
        QTest::newRow("not a number")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: a\n"
                          "    rate_limit: {unit: second, requests_per_unit: lots}\n")
            << QStringLiteral("4:51: descriptors[0].rate_limit.requests_per_unit: 'lots' is not "
                              "a whole number");
        QTest::newRow("alias") << QByteArray("domain: &d d\n")
                               << QStringLiteral("1:9: a YAML anchor");
        QTest::newRow("invalid UTF-8")
            << QByteArray("domain: d\xff\n") << QStringLiteral("1:10: invalid UTF-8 (byte 0xFF)");
        QTest::newRow("syntax") << QByteArray("domain: d\ndescriptors: [\n")
                                << QStringLiteral("YAML syntax error");
        QTest::newRow("unknown algorithm")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: a\n"
                          "    rate_limit: {unit: second, requests_per_unit: 1, algorithm: "
                          "magic}\n")
            << QStringLiteral("4:65: descriptors[0].rate_limit.algorithm: unknown algorithm "
                              "'magic'");
        QTest::newRow("rule id too long")
            << QByteArray("domain: d\n"
                          "descriptors:\n"
                          "  - key: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
                          "aaaaaaaaaa\n"
                          "    rate_limit: {unit: second, requests_per_unit: 1}\n")
            << QStringLiteral("4:5: rate_limit (rule d.aaaa");
    }

    void errorsAtTheirPlace()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("bad.yaml"));
        QVERIFY(writeFile(file, yaml));
        const envoy::Config c = envoy::load(file);
        QVERIFY(!c.ok());
        const QString first = c.errors.first().toString();
        QVERIFY2(first.startsWith(file + QLatin1Char(':') + expected) ||
                     (!expected.front().isDigit() && first.contains(expected)),
                 qPrintable(all(c.errors)));
    }

    void twoFilesOfOneDomain()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("a.yaml")), "domain: d\ndescriptors: []\n"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("b.yml")), "\ndomain: d\n"));
        QVERIFY(writeFile(dir.filePath(QStringLiteral("c.txt")), "not read"));
        const envoy::Config c = envoy::load(dir.path());
        QCOMPARE(c.errors.size(), 1);
        QVERIFY2(
            c.errors[0].toString().startsWith(dir.filePath(QStringLiteral("b.yml")) +
                                              QStringLiteral(":2:9: domain: duplicate domain 'd'")),
            qPrintable(all(c.errors)));
        QCOMPARE(c.files.size(), 2);
    }

    // The gRPC service walks requests with the byte form of the id parts: it must name every
    // descriptor as the rule ids do (a different '-' count would leave a configured key of
    // non-ASCII text unmatched).
    void idPartsOnBytesAsOnText()
    {
        const char *texts[] = {
            "remote_address", "a b.c/d", "Grüße",    "中文_key", "emoji😀x",
            "\x7f\x01",       "",        "-_09AZaz", "é😀é",      "ключ=значение"};
        for (const char *t : texts) {
            std::string out = "x";
            envoy::appendIdPart(out, t);
            QCOMPARE(QString::fromStdString(out),
                     QStringLiteral("x") + envoy::ruleIdPart(QString::fromUtf8(t)));
        }
    }

    void boundedWork()
    {
        // 10,000 descriptors read; nested past the depth bound refused, at its place.
        QByteArray wide = "domain: d\ndescriptors:\n";
        for (int i = 0; i < 10'000; ++i) {
            wide += "  - {key: k, value: v" + QByteArray::number(i) +
                    ", rate_limit: {unit: second, requests_per_unit: 1}}\n";
        }
        envoy::Config c;
        envoy::parse(wide, QStringLiteral("wide.yaml"), c);
        QVERIFY2(c.ok(), qPrintable(all(c.errors)));
        QCOMPARE(c.set.rules.size(), size_t(10'000));

        QByteArray deep = "domain: d\ndescriptors:\n";
        QByteArray indent = "  ";
        for (int i = 0; i < envoy::maxDepth + 2; ++i) {
            deep += indent + "- key: k\n" + indent + "  descriptors:\n";
            indent += "    ";
        }
        envoy::Config d;
        envoy::parse(deep, QStringLiteral("deep.yaml"), d);
        QVERIFY(!d.ok());
        QVERIFY2(all(d.errors).contains(QStringLiteral("nested more than 32 deep")),
                 qPrintable(all(d.errors)));
    }

    // What `rules export --format envoy` writes is read back by the import, limit for limit.
    void theEnvoyExportReadsBack()
    {
        const QByteArray rulesJson = R"({"version": 1, "rules": [
            {"id": "login", "scope": "ip", "algorithm": "fixed_window", "limit": 5,
             "window": "1m"},
            {"id": "api", "scope": "header:X-Api-Key", "algorithm": "fixed_window",
             "limit": 1000, "window": "1h", "shadow": true},
            {"id": "all", "scope": "global", "algorithm": "fixed_window", "limit": 100,
             "window": "1s"}]})";
        const rules::Loaded in = rules::parseJson(rulesJson, QStringLiteral("in.json"));
        QVERIFY(in.ok());
        const rules::Export out = rules::exportRules(in.set, rules::ExportFormat::Envoy);
        QVERIFY(out.skipped.isEmpty());
        envoy::Config c;
        envoy::parse(out.text, QStringLiteral("export.yaml"), c);
        QVERIFY2(c.ok(),
                 qPrintable(all(c.errors) + QLatin1Char('\n') + QString::fromUtf8(out.text)));
        QVERIFY(c.notes.isEmpty());
        const Rule *login = findRule(c, QStringLiteral("sluice.generic_key_login.remote_address"));
        QVERIFY2(login != nullptr, out.text.constData());
        QCOMPARE(login->limit, 5);
        QCOMPARE(login->windowUs, 60'000'000);
        const Rule *api = findRule(c, QStringLiteral("sluice.generic_key_api.X-Api-Key"));
        QVERIFY(api != nullptr);
        QVERIFY(api->shadow);
        QCOMPARE(api->limit, 1000);
        const Rule *global = findRule(c, QStringLiteral("sluice.generic_key_all"));
        QVERIFY(global != nullptr);
        QCOMPARE(global->windowUs, 1'000'000);
    }

    void cliImport()
    {
        QTemporaryDir dir;
        QVERIFY(writeFile(dir.filePath(QStringLiteral("shop.yaml")), shopYaml));
        const QString out = dir.filePath(QStringLiteral("rules.yaml"));
        auto r = test::runCli({QStringLiteral("rules"), QStringLiteral("import"),
                               QStringLiteral("--format"), QStringLiteral("envoy-ratelimit"),
                               dir.path(), QStringLiteral("--out"), out});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("not imported: " +
                                QFile::encodeName(dir.filePath(QStringLiteral("shop.yaml"))) +
                                ":28:12: descriptors[3].value: the wildcard value"),
                 r.err.constData());
        QVERIFY2(r.err.contains("5 rule(s) from 1 file(s), 1 domain(s); 5 construct(s) not "
                                "imported"),
                 r.err.constData());
        // A rule file the rest of Sluice reads.
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("validate"), out});
        QVERIFY2(r.exitCode == 0, r.err.constData());

        QVERIFY(writeFile(dir.filePath(QStringLiteral("bad.yaml")),
                          "domain: other\ndescriptors:\n  - key: k\n    rate_limit: {unit: "
                          "century}\n"));
        r = test::runCli({QStringLiteral("rules"), QStringLiteral("import"),
                          QStringLiteral("--format"), QStringLiteral("envoy-ratelimit"),
                          dir.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("bad.yaml:4:24: descriptors[0].rate_limit.unit: invalid rate "
                                "limit unit 'century'"),
                 r.err.constData());
        QVERIFY(r.err.contains("nothing was imported"));
        QVERIFY(r.out.isEmpty());

        r = test::runCli({QStringLiteral("rules"), QStringLiteral("import"),
                          QStringLiteral("--format"), QStringLiteral("istio"), dir.path()});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains("--format 'istio' is unknown; expected envoy-ratelimit"));
    }
};

QTEST_GUILESS_MAIN(TestEnvoyImport)
#include "tst_envoy_import.moc"
