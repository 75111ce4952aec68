#include "core/rules/codec.h"
#include "core/rules/exporter.h"
#include "servefixture.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

using namespace sluice;
using namespace Qt::StringLiterals;
using namespace sluice::rules;

namespace {

constexpr qint64 s = duration::usPerSecond;

// "ip", "header:X-Api-Key", ...: the scopes of the sample, known to parse.
Scope scope(const char *text)
{
    return *Scope::parse(QString::fromLatin1(text));
}

// The sample: every mapping decision of the three exporters is exercised by some rule.
RuleSet sampleSet()
{
    RuleSet set;
    set.basedOn = 7;
    auto add = [&](Rule r, const char *route = "", const char *description = "") {
        r.route = QString::fromUtf8(route);
        r.description = QString::fromUtf8(description);
        set.rules.push_back(std::move(r));
        return &set.rules.back();
    };
    add(Rule::window(QStringLiteral("login-per-ip"), Algorithm::FixedWindow, 5, 60 * s,
                     scope("ip")),
        "POST /login", "5 sign-in attempts per minute per client IP")
        ->onRedisError = OnRedisError::Deny;
    add(Rule::window(QStringLiteral("hello-per-ip"), Algorithm::FixedWindow, 3, 5 * s, scope("ip")),
        "GET /hello", "GET /hello: 3 per 5 s per client IP");
    add(Rule::window(QStringLiteral("api-key-hourly"), Algorithm::FixedWindow, 1000, 3600 * s,
                     scope("header:X-Api-Key")),
        "GET /api")
        ->shadow = true;
    add(Rule::window(QStringLiteral("partner-hourly"), Algorithm::FixedWindow, 500, 3600 * s,
                     scope("header:X-Partner")),
        "", "partners\u2029descriptors: []");
    add(Rule::window(QStringLiteral("search-per-user-day"), Algorithm::FixedWindow, 10000,
                     86400 * s, scope("user")),
        "GET /search");
    add(Rule::window(QStringLiteral("global-per-second"), Algorithm::FixedWindow, 1000, s,
                     scope("global")));
    add(Rule::window(QStringLiteral("reports-per-tenant"), Algorithm::SlidingLog, 100, 60 * s,
                     scope("param:tenant")),
        "GET /reports");
    add(Rule::window(QStringLiteral("smooth-per-ip"), Algorithm::SlidingCounter, 100, 60 * s,
                     scope("ip")));
    add(Rule::bucket(QStringLiteral("api-global"), Algorithm::TokenBucket, Rate{100, s}, 200,
                     scope("global")),
        "GET /api", "everyone together: 100/s, bursts of 200");
    add(Rule::bucket(QStringLiteral("export-queue"), Algorithm::LeakyBucket, Rate{10, s}, 50,
                     scope("user")),
        "POST /export");
    add(Rule::bucket(QStringLiteral("upload-queue"), Algorithm::LeakyBucket, Rate{7, 10 * s}, 5,
                     scope("header:X-Client-Id")),
        "POST /upload", "7 per 10 s = 42r/m, queue of 5");
    add(Rule::bucket(QStringLiteral("burst-gcra"), Algorithm::Gcra, Rate{1, 60 * s}, 2,
                     scope("ip")),
        "GET /slow", "first line\u2028limit_req_zone $injected zone=evil:1m rate=1r/s;");
    add(Rule::bucket(QStringLiteral("search-param"), Algorithm::Gcra, Rate{10, s}, 5,
                     scope("param:q")),
        "GET /search")
        ->shadow = true;
    add(Rule::bucket(QStringLiteral("odd-rate"), Algorithm::Gcra, Rate{1, 7 * s}, 1, scope("ip")));
    add(Rule::bucket(QStringLiteral("slow-hourly"), Algorithm::LeakyBucket, Rate{1, 3600 * s}, 3,
                     scope("ip")));
    add(Rule::bucket(QStringLiteral("strict-one"), Algorithm::LeakyBucket, Rate{2, s}, 1,
                     scope("ip")));
    add(Rule::bucket(QStringLiteral("legacy.v1"), Algorithm::Gcra, Rate{5, s}, 1, scope("ip")));
    add(Rule::bucket(QStringLiteral("legacy-v1"), Algorithm::Gcra, Rate{5, s}, 1, scope("ip")));
    add(Rule::bucket(QStringLiteral("paused"), Algorithm::TokenBucket, Rate{5, s}, 5, scope("ip")))
        ->enabled = false;
    return set;
}

QString goldenPath(const QString &name)
{
    return QStringLiteral(SLUICE_SOURCE_DIR "/tests/golden/export/") + name;
}

// Byte comparison with the golden file; SLUICE_UPDATE_GOLDEN=1 rewrites it instead.
bool matchesGolden(const QByteArray &actual, const QString &name, QString *why)
{
    const QString path = goldenPath(name);
    if (qEnvironmentVariableIntValue("SLUICE_UPDATE_GOLDEN") == 1) {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
            f.write(actual) != actual.size()) {
            *why = QStringLiteral("cannot write ") + path;
            return false;
        }
        qInfo("updated %s", qPrintable(path));
        return true;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        *why = QStringLiteral("missing golden file %1 (run with SLUICE_UPDATE_GOLDEN=1)").arg(path);
        return false;
    }
    const QByteArray expected = f.readAll();
    if (expected == actual) {
        return true;
    }
    const QList<QByteArray> a = actual.split('\n');
    const QList<QByteArray> e = expected.split('\n');
    for (qsizetype i = 0; i < std::max(a.size(), e.size()); ++i) {
        const QByteArray al = i < a.size() ? a[i] : QByteArray("<end>");
        const QByteArray el = i < e.size() ? e[i] : QByteArray("<end>");
        if (al != el) {
            *why = QStringLiteral("%1 line %2 differs:\n  expected: %3\n  actual:   %4\n(rerun "
                                  "with SLUICE_UPDATE_GOLDEN=1 if the change is intended)")
                       .arg(name)
                       .arg(i + 1)
                       .arg(QString::fromUtf8(el), QString::fromUtf8(al));
            break;
        }
    }
    return false;
}

QMap<QString, QString> skippedMap(const Export &e)
{
    QMap<QString, QString> out;
    for (const auto &s : e.skipped) {
        out.insert(s.ruleId, s.reason);
    }
    return out;
}

// One HTTP/1.0 GET to 127.0.0.1:port (nginx answers and closes); the status code, or -1.
int httpStatus(quint16 port, const QByteArray &path)
{
    return test::httpGet(port, path, {}, true).status;
}

// The statuses of `n` GETs of `path` one after the other.
QList<int> statusesOf(quint16 port, const QByteArray &path, int n)
{
    QList<int> statuses;
    for (int i = 0; i < n; ++i) {
        statuses << httpStatus(port, path);
    }
    return statuses;
}

// The lines the nginx export shows in its comments for each zone: "limit_req ...;" and
// "limit_req_dry_run on;", grouped by the zone they follow.
QList<QPair<QString, QStringList>> locationLines(const QByteArray &conf)
{
    static const QRegularExpression zoneRe(QStringLiteral("^limit_req_zone .* zone=([^:]+):"));
    static const QRegularExpression useRe(QStringLiteral(
        "^#\\s+(limit_req(_dry_run)? .*;|if \\(\\$sluice_deny_\\w+\\) \\{ return 429; \\})$"));
    QList<QPair<QString, QStringList>> out;
    for (const QByteArray &raw : conf.split('\n')) {
        const QString line = QString::fromUtf8(raw);
        if (auto m = zoneRe.match(line); m.hasMatch()) {
            out.append({m.captured(1), {}});
        } else if (auto u = useRe.match(line); u.hasMatch() && !out.isEmpty()) {
            out.back().second << u.captured(1);
        }
    }
    return out;
}

struct NginxDir
{
    QTemporaryDir dir;
    quint16 port = 0;
    QString conf() const { return dir.filePath(QStringLiteral("nginx.conf")); }
};

// nginx in the foreground on `d`'s configuration, stopped when this goes out of scope.
class RunningNginx
{
public:
    explicit RunningNginx(const NginxDir &d)
        : m_port(d.port)
    {
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        m_process.start(test::nginxBinary(),
                        {QStringLiteral("-p"), d.dir.path() + QLatin1Char('/'),
                         QStringLiteral("-e"), d.dir.filePath(QStringLiteral("error.log")),
                         QStringLiteral("-c"), d.conf(), QStringLiteral("-g"),
                         QStringLiteral("daemon off; master_process off;")});
        m_process.waitForStarted(5000);
    }
    ~RunningNginx()
    {
        m_process.terminate();
        if (!m_process.waitForFinished(5000)) {
            m_process.kill();
            m_process.waitForFinished();
        }
    }
    // The status of the first answer to `path` within 5 s (-1: none, nginx gone or not up).
    int firstStatus(const char *path)
    {
        QElapsedTimer t;
        t.start();
        int first = -1;
        while (t.elapsed() < 5000 && m_process.state() == QProcess::Running) {
            first = httpStatus(m_port, path);
            if (first > 0) {
                break;
            }
            QTest::qWait(50);
        }
        return first;
    }
    QByteArray output() { return m_process.readAll(); }

private:
    quint16 m_port;
    QProcess m_process;
};

// A minimal nginx.conf that includes `exported` in http {} and puts each zone's limit_req lines
// in a location of its own (/<zone>), served from a static file: limit_req runs in the
// preaccess phase, so a `return` (rewrite phase) would bypass it.
bool writeNginxConf(NginxDir &d, const QByteArray &exported)
{
    const QString p = d.dir.path();
    QDir(p).mkpath(QStringLiteral("www"));
    QFile ok(p + QStringLiteral("/www/ok.txt"));
    QFile exp(p + QStringLiteral("/export.conf"));
    if (!ok.open(QIODevice::WriteOnly) || !exp.open(QIODevice::WriteOnly)) {
        return false;
    }
    ok.write("ok\n");
    exp.write(exported);
    d.port = test::freeLoopbackPort();
    QString locations;
    for (const auto &[zone, lines] : locationLines(exported)) {
        locations += QStringLiteral("        location = /%1 {\n").arg(zone);
        for (const QString &l : lines) {
            locations += QStringLiteral("            %1\n").arg(l);
        }
        locations += QStringLiteral("            try_files /ok.txt =404;\n        }\n");
    }
    const QString conf = test::nginxConfHead(p) + QStringLiteral("    default_type text/plain;\n"
                                                                 "    include %1/export.conf;\n"
                                                                 "    server {\n"
                                                                 "        listen 127.0.0.1:%2;\n"
                                                                 "        root %1/www;\n"
                                                                 "%3"
                                                                 "    }\n"
                                                                 "}\n")
                                                      .arg(p)
                                                      .arg(d.port)
                                                      .arg(locations);
    QFile f(d.conf());
    return f.open(QIODevice::WriteOnly) && f.write(conf.toUtf8()) > 0;
}

// nginx -t on the config; exit code and output.
QPair<int, QString> nginxTest(const NginxDir &d)
{
    QProcess p;
    p.setProcessChannelMode(QProcess::MergedChannels);
    p.start(test::nginxBinary(),
            {QStringLiteral("-t"), QStringLiteral("-q"), QStringLiteral("-p"),
             d.dir.path() + QLatin1Char('/'), QStringLiteral("-e"),
             d.dir.filePath(QStringLiteral("error.log")), QStringLiteral("-c"), d.conf()});
    if (!p.waitForFinished(20000)) {
        p.kill();
        p.waitForFinished();
        return {-1, QStringLiteral("nginx -t did not finish")};
    }
    return {p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1,
            QString::fromLocal8Bit(p.readAll())};
}

} // namespace

class TestExporters : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void formatNames()
    {
        for (ExportFormat f : {ExportFormat::Json, ExportFormat::Yaml, ExportFormat::Nginx,
                               ExportFormat::Envoy, ExportFormat::Kong}) {
            QCOMPARE(exportFormatFromName(exportFormatName(f)), f);
        }
        QCOMPARE(exportFormatName(ExportFormat::Nginx), QStringLiteral("nginx"));
        QCOMPARE(exportFormatFromName(QStringLiteral("yml")), ExportFormat::Yaml);
        QCOMPARE(exportFormatFromName(QStringLiteral("KONG")), ExportFormat::Kong);
        QVERIFY(!exportFormatFromName(QStringLiteral("haproxy")));
        QVERIFY(!exportFormatFromName(QString()));
    }

    void golden_data()
    {
        test::columns<int, QString>("format", "file");
        QTest::newRow("nginx") << int(ExportFormat::Nginx) << QStringLiteral("rules.nginx.conf");
        QTest::newRow("envoy") << int(ExportFormat::Envoy) << QStringLiteral("rules.envoy.yaml");
        QTest::newRow("kong") << int(ExportFormat::Kong) << QStringLiteral("rules.kong.json");
    }
    void golden()
    {
        QFETCH(int, format);
        QFETCH(QString, file);
        const Export e = exportRules(sampleSet(), ExportFormat(format));
        QString why;
        QVERIFY2(matchesGolden(e.text, file, &why), qPrintable(why));
        // Deterministic: the same set gives the same bytes.
        QCOMPARE(exportRules(sampleSet(), ExportFormat(format)).text, e.text);
    }

    void nginxSkipsWhatItCannotExpress()
    {
        const Export e = exportRules(sampleSet(), ExportFormat::Nginx);
        const auto skipped = skippedMap(e);
        const QMap<QString, QString> expected{
            {QStringLiteral("login-per-ip"), QStringLiteral("fixed_window")},
            {QStringLiteral("hello-per-ip"), QStringLiteral("cannot count 3 requests per 5s")},
            {QStringLiteral("api-key-hourly"), QStringLiteral("fixed_window")},
            {QStringLiteral("partner-hourly"), QStringLiteral("fixed_window")},
            {QStringLiteral("search-per-user-day"), QStringLiteral("fixed_window")},
            {QStringLiteral("global-per-second"), QStringLiteral("fixed_window")},
            {QStringLiteral("reports-per-tenant"), QStringLiteral("sliding_log")},
            {QStringLiteral("smooth-per-ip"), QStringLiteral("sliding_counter")},
            {QStringLiteral("export-queue"), QStringLiteral("scope user")},
            {QStringLiteral("odd-rate"), QStringLiteral("not a whole number")},
            {QStringLiteral("slow-hourly"), QStringLiteral("slower than 1 request per minute")},
            {QStringLiteral("paused"), QStringLiteral("disabled")},
        };
        QCOMPARE(skipped.keys(), expected.keys());
        for (auto it = expected.cbegin(); it != expected.cend(); ++it) {
            QVERIFY2(skipped.value(it.key()).contains(it.value()),
                     qPrintable(it.key() + QStringLiteral(": ") + skipped.value(it.key())));
        }
        const QString text = QString::fromUtf8(e.text);
        // Every skipped rule is also named in the file itself.
        for (const QString &id : expected.keys()) {
            QVERIFY2(text.contains(QStringLiteral("#   %1: ").arg(id)), qPrintable(id));
        }
    }

    // The two nginx forms (limit_req and auth_request) name a rule's subject through one
    // mapping: the same scopes are skipped for the same reason, and what nginx does to a
    // header with '_' is said in both.
    void bothNginxFormsNameSubjectsAlike()
    {
        RuleSet set;
        const char *scopes[] = {"global",           "ip",       "user", "header:X_Tenant",
                                "header:X-Api-Key", "param:key"};
        int i = 0;
        for (const char *sc : scopes) {
            Rule r = Rule::bucket(QStringLiteral("r%1").arg(i), Algorithm::Gcra, Rate{10, s}, 5,
                                  scope(sc));
            r.route = QStringLiteral("GET /p%1").arg(i++);
            set.rules.push_back(r);
        }
        NginxAuthOptions options;
        options.service = QStringLiteral("http://127.0.0.1:8081");
        options.upstream = QStringLiteral("http://127.0.0.1:9000");
        const Export limitReq = exportRules(set, ExportFormat::Nginx);
        const Export auth = exportNginxAuth(set, options);
        QCOMPARE(skippedMap(auth), skippedMap(limitReq));
        QCOMPARE(skippedMap(auth).keys(), QStringList{QStringLiteral("r2")}); // scope user
        for (const Export *e : {&limitReq, &auth}) {
            const QString text = QString::fromUtf8(e->text);
            QVERIFY2(text.contains(QStringLiteral("underscores_in_headers")), e->text.constData());
            QVERIFY(text.contains(QStringLiteral("$http_x_tenant")));
            QVERIFY(text.contains(QStringLiteral("$arg_key")));
        }
        // What differs is the use's: a zone keys by the binary address, a header carries text.
        QVERIFY(limitReq.text.contains("$binary_remote_addr"));
        QVERIFY(auth.text.contains("Sluice-Subject $remote_addr;"));
    }

    void nginxMapping()
    {
        const QString text = QString::fromUtf8(exportRules(sampleSet(), ExportFormat::Nginx).text);
        QVERIFY(text.startsWith(QStringLiteral("# Generated by Sluice")));
        QVERIFY(text.contains(QStringLiteral("rule store version 7")));
        QVERIFY(text.contains(QStringLiteral("\nlimit_req_status 429;\n")));
        // token bucket capacity 200 = burst=199 nodelay, global = constant key
        QVERIFY(text.contains(
            QStringLiteral("limit_req_zone \"sluice_api_global\" zone=sluice_api_global:1m "
                           "rate=100r/s;")));
        QVERIFY(text.contains(QStringLiteral("#   limit_req zone=sluice_api_global burst=199 "
                                             "nodelay;")));
        // leaky bucket: burst = capacity - 1, delayed (no nodelay); 7/10s = 42r/m exactly
        QVERIFY(text.contains(QStringLiteral("limit_req_zone $http_x_client_id "
                                             "zone=sluice_upload_queue:10m rate=42r/m;")));
        QVERIFY(text.contains(QStringLiteral("#   limit_req zone=sluice_upload_queue burst=4;\n")));
        // gcra: burst as is, nodelay; 1/m: nginx's own rounding is said
        QVERIFY(text.contains(QStringLiteral("zone=sluice_burst_gcra:10m rate=1r/m;")));
        QVERIFY(text.contains(QStringLiteral("#   limit_req zone=sluice_burst_gcra burst=2 "
                                             "nodelay;")));
        QVERIFY(text.contains(QStringLiteral("1r/m runs as 0.016 r/s")));
        // param scope, shadow -> dry run
        QVERIFY(text.contains(QStringLiteral("limit_req_zone $arg_q zone=sluice_search_param")));
        QVERIFY(text.contains(QStringLiteral("#   limit_req zone=sluice_search_param burst=5 "
                                             "nodelay;\n#   limit_req_dry_run on;\n")));
        // capacity 1: no burst at all
        QVERIFY(text.contains(QStringLiteral("#   limit_req zone=sluice_strict_one;\n")));
        // ids that sanitize alike get distinct zones
        QVERIFY(text.contains(QStringLiteral("zone=sluice_legacy_v1:10m")));
        QVERIFY(text.contains(QStringLiteral("zone=sluice_legacy_v1_2:10m")));
        // a line break in a description cannot smuggle a directive out of its comment
        QVERIFY(text.contains(QStringLiteral("# first line limit_req_zone $injected")));
        QVERIFY(!text.contains(QChar::LineSeparator));
    }

    void nginxRates_data()
    {
        QTest::addColumn<QString>("rate");
        QTest::addColumn<QString>("nginx"); // empty: skipped
        QTest::addColumn<QString>("reasonOrNote");
        QTest::newRow("per second")
            << QStringLiteral("100/s") << QStringLiteral("100r/s") << QString();
        QTest::newRow("per minute, whole r/s")
            << QStringLiteral("120/m") << QStringLiteral("2r/s") << QString();
        QTest::newRow("5/10s") << QStringLiteral("5/10s") << QStringLiteral("30r/m") << QString();
        QTest::newRow("7/10s") << QStringLiteral("7/10s") << QStringLiteral("42r/m") << QString();
        QTest::newRow("1/3s") << QStringLiteral("1/3s") << QStringLiteral("20r/m")
                              << QStringLiteral("0.333 r/s");
        QTest::newRow("10/m") << QStringLiteral("10/m") << QStringLiteral("10r/m")
                              << QStringLiteral("0.166 r/s");
        QTest::newRow("per ms") << QStringLiteral("3/ms") << QStringLiteral("3000r/s") << QString();
        QTest::newRow("per 3us") << QStringLiteral("1/3us") << QStringLiteral("20000000r/m")
                                 << QStringLiteral("333333.333 r/s");
        QTest::newRow("1/7s") << QStringLiteral("1/7s") << QString()
                              << QStringLiteral("not a whole number");
        QTest::newRow("2/61s") << QStringLiteral("2/61s") << QString()
                               << QStringLiteral("not a whole number");
        QTest::newRow("1/61s") << QStringLiteral("1/61s") << QString()
                               << QStringLiteral("slower than 1 request per minute");
        QTest::newRow("1/h") << QStringLiteral("1/h") << QString()
                             << QStringLiteral("slower than 1 request per minute");
        QTest::newRow("huge") << QStringLiteral("4000000000/s") << QString()
                              << QStringLiteral("more than nginx counts");
    }
    void nginxRates()
    {
        QFETCH(QString, rate);
        QFETCH(QString, nginx);
        QFETCH(QString, reasonOrNote);
        auto parsed = duration::parseRate(rate);
        QVERIFY(parsed.ok());
        RuleSet set;
        set.rules.push_back(Rule::bucket(QStringLiteral("r"), Algorithm::Gcra,
                                         Rate{parsed->count, parsed->periodUs}, 1, scope("ip")));
        const Export e = exportRules(set, ExportFormat::Nginx);
        const QString text = QString::fromUtf8(e.text);
        if (nginx.isEmpty()) {
            QCOMPARE(e.skipped.size(), 1);
            QVERIFY2(e.skipped[0].reason.contains(reasonOrNote), qPrintable(e.skipped[0].reason));
            QVERIFY(!text.contains(QStringLiteral("\nlimit_req_zone")));
        } else {
            QVERIFY(e.skipped.isEmpty());
            QVERIFY2(text.contains(QStringLiteral(" rate=%1;\n").arg(nginx)), qPrintable(text));
            QCOMPARE(text.contains(QStringLiteral("nginx keeps rates")), !reasonOrNote.isEmpty());
            if (!reasonOrNote.isEmpty()) {
                QVERIFY(text.contains(reasonOrNote));
            }
        }
    }

    void envoySkipsAndMaps()
    {
        const Export e = exportRules(sampleSet(), ExportFormat::Envoy);
        const auto skipped = skippedMap(e);
        QCOMPARE(skipped.keys(),
                 (QStringList{QStringLiteral("api-global"), QStringLiteral("burst-gcra"),
                              QStringLiteral("export-queue"), QStringLiteral("hello-per-ip"),
                              QStringLiteral("legacy-v1"), QStringLiteral("legacy.v1"),
                              QStringLiteral("odd-rate"), QStringLiteral("paused"),
                              QStringLiteral("reports-per-tenant"), QStringLiteral("search-param"),
                              QStringLiteral("slow-hourly"), QStringLiteral("smooth-per-ip"),
                              QStringLiteral("strict-one"), QStringLiteral("upload-queue")}));
        QVERIFY(
            skipped.value(QStringLiteral("hello-per-ip")).contains(QStringLiteral("window 5s")));
        QVERIFY(
            skipped.value(QStringLiteral("api-global")).contains(QStringLiteral("token_bucket")));
        QVERIFY(skipped.value(QStringLiteral("paused")).contains(QStringLiteral("disabled")));
        const QString text = QString::fromUtf8(e.text);
        QVERIFY(text.startsWith(QStringLiteral("# Generated by Sluice")));
        QVERIFY(text.contains(QStringLiteral("\ndomain: \"sluice\"\ndescriptors:\n")));
        QVERIFY(text.contains(QStringLiteral("- key: \"remote_address\"\n")));
        QVERIFY(text.contains(QStringLiteral("unit: \"minute\"\n")));
        QVERIFY(text.contains(QStringLiteral("shadow_mode: true\n")));
        QVERIFY(text.contains(QStringLiteral("failure_mode_deny: true")));
        QCOMPARE(text.count(QStringLiteral("shadow_mode")), 1);
        // YAML 1.1 reads U+2029 as a line break: it never reaches the file.
        QVERIFY(text.contains(QStringLiteral("# partners descriptors: []")));
        QVERIFY(!text.contains(QChar::ParagraphSeparator));
        QCOMPARE(text.count(QStringLiteral("requests_per_unit")), 5);
    }

    void invalidRulesAreSkipped_data() { everyRuleIsExportedOrSkipped_data(); }
    void invalidRulesAreSkipped()
    {
        // A set built in code may hold rules a file could not: they are never rendered.
        QFETCH(int, format);
        RuleSet set;
        Rule injected = Rule::window(QStringLiteral("injected"), Algorithm::FixedWindow, 5, 60 * s,
                                     scope("ip"));
        injected.description =
            QStringLiteral("x\nlimit_req_zone $injected zone=evil:1m rate=1r/s;");
        set.rules.push_back(injected);
        set.rules.push_back(Rule::window(QStringLiteral("zero-limit"), Algorithm::FixedWindow, 0,
                                         60 * s, scope("ip")));
        set.rules.push_back(
            Rule::bucket(QStringLiteral("zero-rate"), Algorithm::Gcra, Rate{0, s}, 1, scope("ip")));
        const Export e = exportRules(set, ExportFormat(format));
        QCOMPARE(e.skipped.size(), 3);
        for (const auto &sk : e.skipped) {
            QVERIFY2(sk.reason.startsWith(QStringLiteral("invalid rule: ")), qPrintable(sk.reason));
            QVERIFY2(!sk.reason.contains(QLatin1Char('\n')), qPrintable(sk.reason));
        }
        for (const QByteArray &line : e.text.split('\n')) {
            QVERIFY2(!line.trimmed().startsWith("limit_req_zone $injected"), line.constData());
        }
    }

    void envoyWithNothingToExportIsStillValid()
    {
        RuleSet set;
        set.rules.push_back(Rule::bucket(QStringLiteral("only-bucket"), Algorithm::TokenBucket,
                                         Rate{1, s}, 1, scope("ip")));
        const Export e = exportRules(set, ExportFormat::Envoy);
        QCOMPARE(e.skipped.size(), 1);
        QVERIFY(e.text.endsWith("domain: \"sluice\"\ndescriptors: []\n"));
        QVERIFY(e.text.contains("not pulled from a rule store"));
    }

    void kongSkipsAndMaps()
    {
        const Export e = exportRules(sampleSet(), ExportFormat::Kong);
        const auto skipped = skippedMap(e);
        QVERIFY(skipped.value(QStringLiteral("api-key-hourly")).contains(QStringLiteral("shadow")));
        QVERIFY(
            skipped.value(QStringLiteral("hello-per-ip")).contains(QStringLiteral("window 5s")));
        QVERIFY(skipped.value(QStringLiteral("paused")).contains(QStringLiteral("disabled")));
        QVERIFY(skipped.value(QStringLiteral("smooth-per-ip"))
                    .contains(QStringLiteral("sliding_counter")));
        QVERIFY(!skipped.contains(QStringLiteral("login-per-ip")));

        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(e.text, &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        QVERIFY(doc.isArray());
        const QJsonArray plugins = doc.array();
        QCOMPARE(plugins.size(), 4); // login, partner, search-per-user-day, global-per-second
        QCOMPARE(plugins.size() + skipped.size(), qsizetype(sampleSet().rules.size()));
        const QStringList periods{QStringLiteral("second"), QStringLiteral("minute"),
                                  QStringLiteral("hour"),   QStringLiteral("day"),
                                  QStringLiteral("month"),  QStringLiteral("year")};
        QMap<QString, QJsonObject> byRule;
        for (const QJsonValue &v : plugins) {
            const QJsonObject p = v.toObject();
            QCOMPARE(p.value(QLatin1String("name")).toString(), QStringLiteral("rate-limiting"));
            const QJsonObject c = p.value(QLatin1String("config")).toObject();
            int n = 0;
            for (const QString &period : periods) {
                n += c.contains(period) ? 1 : 0;
            }
            QCOMPARE(n, 1);
            QCOMPARE(c.value(QLatin1String("policy")).toString(), QStringLiteral("local"));
            for (const QString &k : c.keys()) {
                QVERIFY2(!k.startsWith(QStringLiteral("redis")), qPrintable(k));
            }
            const QJsonArray tags = p.value(QLatin1String("tags")).toArray();
            QVERIFY(tags.contains(QStringLiteral("sluice")));
            for (const QJsonValue &t : tags) {
                if (t.toString().startsWith(QStringLiteral("sluice-rule:"))) {
                    byRule.insert(t.toString().mid(12), c);
                }
            }
        }
        const QJsonObject login = byRule.value(QStringLiteral("login-per-ip"));
        QCOMPARE(login.value(QLatin1String("minute")).toInt(), 5);
        QCOMPARE(login.value(QLatin1String("limit_by")).toString(), QStringLiteral("ip"));
        const QJsonObject partner = byRule.value(QStringLiteral("partner-hourly"));
        QCOMPARE(partner.value(QLatin1String("hour")).toInt(), 500);
        QCOMPARE(partner.value(QLatin1String("limit_by")).toString(), QStringLiteral("header"));
        QCOMPARE(partner.value(QLatin1String("header_name")).toString(),
                 QStringLiteral("X-Partner"));
        const QJsonObject user = byRule.value(QStringLiteral("search-per-user-day"));
        QCOMPARE(user.value(QLatin1String("day")).toInt(), 10000);
        QCOMPARE(user.value(QLatin1String("limit_by")).toString(), QStringLiteral("consumer"));
        const QJsonObject global = byRule.value(QStringLiteral("global-per-second"));
        QCOMPARE(global.value(QLatin1String("second")).toInt(), 1000);
        QCOMPARE(global.value(QLatin1String("limit_by")).toString(), QStringLiteral("service"));
    }

    void everyRuleIsExportedOrSkipped_data()
    {
        QTest::addColumn<int>("format");
        QTest::newRow("nginx") << int(ExportFormat::Nginx);
        QTest::newRow("envoy") << int(ExportFormat::Envoy);
        QTest::newRow("kong") << int(ExportFormat::Kong);
    }
    void everyRuleIsExportedOrSkipped()
    {
        QFETCH(int, format);
        const RuleSet set = sampleSet();
        const Export e = exportRules(set, ExportFormat(format));
        const auto skipped = skippedMap(e);
        for (const Rule &r : set.rules) {
            if (skipped.contains(r.id)) {
                QVERIFY2(!skipped.value(r.id).trimmed().isEmpty(), qPrintable(r.id));
            } else {
                // Exported rules are named in the output (a zone, a descriptor, a tag).
                QString name = r.id;
                if (ExportFormat(format) == ExportFormat::Nginx) {
                    name.replace(QLatin1Char('-'), QLatin1Char('_'))
                        .replace(QLatin1Char('.'), QLatin1Char('_'));
                }
                QVERIFY2(QString::fromUtf8(e.text).contains(name), qPrintable(r.id));
            }
        }
    }

    void noConnectionDetails_data() { everyRuleIsExportedOrSkipped_data(); }
    void noConnectionDetails()
    {
        QFETCH(int, format);
        const QByteArray text = exportRules(sampleSet(), ExportFormat(format)).text.toLower();
        for (const char *secret : {"password", "redis://", "rediss://", "requirepass", "redis_host",
                                   "redis_port", "6379"}) {
            QVERIFY2(!text.contains(secret), secret);
        }
    }

    void jsonAndYamlAreTheNormalizedFile()
    {
        const RuleSet set = sampleSet();
        const Export j = exportRules(set, ExportFormat::Json);
        QCOMPARE(j.text, toJson(set));
        QVERIFY(j.skipped.isEmpty());
        const Export y = exportRules(set, ExportFormat::Yaml);
        QCOMPARE(y.text, toYaml(set));
        QVERIFY(y.skipped.isEmpty());
    }

    void nginxAcceptsTheExport()
    {
        if (test::nginxBinary().isEmpty()) {
            QFAIL("nginx is not installed (bash tools/dev.sh test installs nginx-light)");
        }
        NginxDir d;
        QVERIFY(d.dir.isValid());
        const QByteArray exported = exportRules(sampleSet(), ExportFormat::Nginx).text;
        QVERIFY(writeNginxConf(d, exported));
        QCOMPARE(locationLines(exported).size(), 7); // one location per exported rule
        const auto [code, output] = nginxTest(d);
        QVERIFY2(code == 0, qPrintable(output));
    }

    void nginxRejectsABrokenExport()
    {
        // The check above can fail: a damaged export does not pass nginx -t.
        if (test::nginxBinary().isEmpty()) {
            QFAIL("nginx is not installed (bash tools/dev.sh test installs nginx-light)");
        }
        QByteArray broken = exportRules(sampleSet(), ExportFormat::Nginx).text;
        QVERIFY(broken.contains(" rate=100r/s;"));
        broken.replace(" rate=100r/s;", " rate=100r/h;");
        NginxDir d;
        QVERIFY(writeNginxConf(d, broken));
        const auto [code, output] = nginxTest(d);
        QVERIFY2(code != 0, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("invalid rate")), qPrintable(output));
    }

    void nginxEnforcesTheGcraBurst()
    {
        // The exported gcra rule (1/m, burst 2 -> burst=2 nodelay) in a real nginx on loopback:
        // 3 requests pass at once, the 4th gets 429. At 1r/m the bucket cannot drain meanwhile.
        if (test::nginxBinary().isEmpty()) {
            QFAIL("nginx is not installed (bash tools/dev.sh test installs nginx-light)");
        }
        NginxDir d;
        QVERIFY(writeNginxConf(d, exportRules(sampleSet(), ExportFormat::Nginx).text));
        RunningNginx nginx(d);
        const int first = nginx.firstStatus("/sluice_strict_one");
        QVERIFY2(first == 200, nginx.output().constData());
        QCOMPARE(statusesOf(d.port, "/sluice_burst_gcra", 5),
                 (QList<int>{200, 200, 200, 429, 429}));
    }

    // A rule's on_change other than keep_used cannot be said to nginx, envoy ratelimit or Kong
    // (each meets a new limit with its running counters as they are): the rule is exported, the
    // field is named as left out; keep_used, the default, is what they do and is not listed.
    void onChangeNamedWhereLeftOut_data() { everyRuleIsExportedOrSkipped_data(); }
    void onChangeNamedWhereLeftOut()
    {
        QFETCH(int, format);
        // nginx's limit_req is GCRA; envoy ratelimit and Kong count fixed windows.
        const QByteArray limits =
            ExportFormat(format) == ExportFormat::Nginx
                ? R"("algorithm": "gcra", "rate": "10/s", "burst": 5)"
                : R"("algorithm": "fixed_window", "limit": 10, "window": "1m")";
        const rules::Loaded l = rules::parseJson(
            R"({"version": 1, "rules": [{"id": "hello", "route": "GET /hello", "scope": "ip", )" +
                limits + R"(, "on_change": "proportional"},
            {"id": "plain", "route": "GET /plain", "scope": "ip", )" +
                limits + "}]}",
            QStringLiteral("c.json"));
        QVERIFY2(l.ok(), qPrintable(l.errors.value(0).toString()));
        const Export e = exportRules(l.set, ExportFormat(format));
        const auto skipped = skippedMap(e);
        QVERIFY2(skipped.value(u"hello on_change"_s).startsWith(u"proportional: "_s),
                 qPrintable(skipped.keys().join(u", "_s)));
        QVERIFY(!skipped.contains(u"hello"_s)); // the rule itself is exported
        QVERIFY(!skipped.contains(u"plain on_change"_s));
        if (ExportFormat(format) != ExportFormat::Kong) { // JSON: no comment to say it in
            QVERIFY(QString::fromUtf8(e.text).contains(u"hello on_change"_s));
        }
    }

    void overridesInEveryTarget()
    {
        const rules::Loaded l = rules::parseJson(R"({"version": 1, "rules": [
            {"id": "hello", "route": "GET /hello", "scope": "ip", "algorithm": "gcra",
             "rate": "10/s", "burst": 5, "overrides": [
               {"subject": "10.1.2.3", "allow": true},
               {"cidr": "203.0.113.0/24", "deny": true},
               {"match": "10.*", "allow": true},
               {"subject": "10.5.5.5", "limit": {"rate": "100/s", "burst": 5}}]},
            {"id": "api", "route": "GET /api", "scope": "user", "algorithm": "fixed_window",
             "limit": 100, "window": "1m", "overrides": [
               {"subject": "partner", "limit": {"limit": 1000, "window": "1m"}},
               {"subject": "abuser", "deny": true},
               {"subject": "health", "allow": true},
               {"match": "bot-*", "deny": true}]}]})",
                                                 QStringLiteral("o.json"));
        QVERIFY2(l.ok(), qPrintable(l.errors.value(0).toString()));
        const auto skippedOf = [](const Export &e) {
            QStringList out;
            for (const auto &s : e.skipped) {
                out << s.ruleId;
            }
            return out;
        };
        // nginx: a geo marks the allowed address for an empty key, another the denied network.
        const Export nginx = exportRules(l.set, ExportFormat::Nginx);
        const QByteArray n = nginx.text;
        QVERIFY2(n.contains("geo $sluice_allow_sluice_hello {\n    default 0;\n    10.1.2.3 1;\n}\n"
                            "map $sluice_allow_sluice_hello $sluice_key_sluice_hello {\n"
                            "    1 \"\";\n    default $binary_remote_addr;\n}\n"),
                 n.constData());
        QVERIFY(n.contains(
            "geo $sluice_deny_sluice_hello {\n    default 0;\n    203.0.113.0/24 1;\n}\n"));
        QVERIFY(n.contains("limit_req_zone $sluice_key_sluice_hello zone=sluice_hello:10m"));
        QVERIFY(n.contains("#   if ($sluice_deny_sluice_hello) { return 429; }"));
        QCOMPARE(skippedOf(nginx),
                 (QStringList{u"hello overrides[2]"_s, u"hello overrides[3]"_s, u"api"_s}));
        // envoy: descriptor values before the key alone.
        const Export envoy = exportRules(l.set, ExportFormat::Envoy);
        QVERIFY2(envoy.text.contains("      - key: \"user\"\n        value: \"partner\"\n"
                                     "        rate_limit:\n          unit: \"minute\"\n"
                                     "          requests_per_unit: 1000\n"
                                     "      - key: \"user\"\n        value: \"abuser\"\n"
                                     "        rate_limit:\n          unit: \"second\"\n"
                                     "          requests_per_unit: 0\n"
                                     "      - key: \"user\"\n        value: \"health\"\n"
                                     "        unlimited: true\n"
                                     "      - key: \"user\"\n        rate_limit:\n"),
                 envoy.text.constData());
        QCOMPARE(skippedOf(envoy), (QStringList{u"hello"_s, u"api overrides[3]"_s}));
        // Kong: plugins on the consumers.
        const Export kong = exportRules(l.set, ExportFormat::Kong);
        const QJsonArray plugins = QJsonDocument::fromJson(kong.text).array();
        QCOMPARE(plugins.size(), 3);
        const QJsonObject partner = plugins[1].toObject();
        QCOMPARE(partner.value(u"consumer"_s).toObject().value(u"username"_s).toString(),
                 u"partner"_s);
        QCOMPARE(partner.value(u"config"_s).toObject().value(u"minute"_s).toInt(), 1000);
        const QJsonObject abuser = plugins[2].toObject();
        QCOMPARE(abuser.value(u"name"_s).toString(), u"request-termination"_s);
        QCOMPARE(abuser.value(u"config"_s).toObject().value(u"status_code"_s).toInt(), 429);
        QCOMPARE(skippedOf(kong),
                 (QStringList{u"hello"_s, u"api overrides[2]"_s, u"api overrides[3]"_s}));
    }

    void nginxEnforcesOverrides()
    {
        // A real nginx: the allowed address is never limited by a rule of 1 per minute, the
        // denied network gets 429 at once from a rule that would admit it.
        if (test::nginxBinary().isEmpty()) {
            QFAIL("nginx is not installed (bash tools/dev.sh test installs nginx-light)");
        }
        const rules::Loaded l = rules::parseJson(R"({"version": 1, "rules": [
            {"id": "open", "route": "GET /open", "scope": "ip", "algorithm": "gcra",
             "rate": "1/m", "burst": 1, "overrides": [{"subject": "127.0.0.1", "allow": true}]},
            {"id": "closed", "route": "GET /closed", "scope": "ip", "algorithm": "gcra",
             "rate": "100/s", "burst": 50, "overrides": [{"cidr": "127.0.0.0/8", "deny": true}]}]})",
                                                 QStringLiteral("o.json"));
        QVERIFY(l.ok());
        NginxDir d;
        const QByteArray exported = exportRules(l.set, ExportFormat::Nginx).text;
        QVERIFY(writeNginxConf(d, exported));
        const auto [code, output] = nginxTest(d);
        QVERIFY2(code == 0, qPrintable(output + QString::fromUtf8(exported)));
        RunningNginx nginx(d);
        const int first = nginx.firstStatus("/sluice_open");
        QVERIFY2(first == 200, nginx.output().constData());
        QCOMPARE(statusesOf(d.port, "/sluice_open", 5), (QList<int>{200, 200, 200, 200, 200}));
        QCOMPARE(httpStatus(d.port, "/sluice_closed"), 429);
    }
};

QTEST_GUILESS_MAIN(TestExporters)
#include "tst_exporters.moc"
