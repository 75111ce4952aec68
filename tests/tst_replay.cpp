// The replay engine (core/replay) on real files the test writes: the formats and their
// times, whole seconds spread over their second, reordering and late lines, merged files,
// .gz (whole, truncated), bad lines and the wrong format, subjects from every scope (proxies,
// headers, parameters), skipped rules, the report and the limit suggestion, --against, the
// bounds (long lines, a log spanning years) and the twins against LocalModel and against the
// scripts in Redis, decision for decision.
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/common/clock.h"
#include "core/limiter/localmodel.h"
#include "core/replay/logformat.h"
#include "core/replay/replay.h"

#include <QDateTime>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <zlib.h>

using namespace sluice;
using namespace sluice::replay;
using namespace Qt::StringLiterals;

namespace {

// 2026-10-10T13:55:36Z
constexpr qint64 t0 = 1'791'640'536;

QString local(qint64 secs)
{
    return QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(u"dd/MMM/yyyy:HH:mm:ss"_s) +
           u" +0000"_s;
}

QByteArray combined(const QString &ip, qint64 secs, const QString &request, int status = 200)
{
    return u"%1 - - [%2] \"%3 HTTP/1.1\" %4 512 \"-\" \"curl/8.0\"\n"_s
        .arg(ip, local(secs), request)
        .arg(status)
        .toUtf8();
}

Rule windowRule(const QString &id, qint64 limit, qint64 windowUs,
                Scope scope = {Scope::Kind::Ip, {}}, const QString &route = {})
{
    Rule r = Rule::window(id, Algorithm::FixedWindow, limit, windowUs, scope);
    r.route = route;
    return r;
}

// One rule per algorithm, per IP, tight enough to deny.
RuleSet sixRules()
{
    std::vector<Rule> r;
    r.push_back(
        Rule::window(u"fw"_s, Algorithm::FixedWindow, 5, 10'000'000, {Scope::Kind::Ip, {}}));
    r.push_back(Rule::window(u"log"_s, Algorithm::SlidingLog, 4, 5'000'000, {Scope::Kind::Ip, {}}));
    r.push_back(
        Rule::window(u"sc"_s, Algorithm::SlidingCounter, 6, 10'000'000, {Scope::Kind::Ip, {}}));
    r.push_back(Rule::bucket(u"tb"_s, Algorithm::TokenBucket, Rate{1, 1'000'000}, 3,
                             {Scope::Kind::Ip, {}}));
    r.push_back(Rule::bucket(u"lb"_s, Algorithm::LeakyBucket, Rate{1, 1'000'000}, 3,
                             {Scope::Kind::Ip, {}}));
    r.push_back(
        Rule::bucket(u"gc"_s, Algorithm::Gcra, Rate{2, 1'000'000}, 2, {Scope::Kind::Ip, {}}));
    r[1].route = u"GET /api"_s;
    r[4].route = u"POST /"_s;
    return test::setOf(std::move(r));
}

// A busy log: `n` lines over n/20 seconds from 30 clients, some of them heavy.
QByteArray busyLog(int n)
{
    QByteArray out;
    quint32 x = 12345;
    for (int i = 0; i < n; ++i) {
        x = x * 1103515245u + 12345u;
        const int client = (x >> 16) % 10 < 3 ? 0 : int((x >> 8) % 30);
        const QString method = (x >> 4) % 4 == 0 ? u"POST"_s : u"GET"_s;
        const QString path = (x >> 12) % 2 == 0 ? u"/api/items"_s : u"/home"_s;
        out += combined(u"10.0.0.%1"_s.arg(client), t0 + i / 20, method + u' ' + path,
                        (x >> 20) % 50 == 0 ? 429 : 200);
    }
    return out;
}

class Files
{
public:
    QString write(const QString &name, const QByteArray &bytes)
    {
        return test::fileIn(m_dir, name, bytes);
    }
    QString writeGz(const QString &name, const QByteArray &bytes)
    {
        const QString path = m_dir.filePath(name);
        gzFile g = gzopen(QFile::encodeName(path).constData(), "wb");
        if (g == nullptr || gzwrite(g, bytes.constData(), unsigned(bytes.size())) != bytes.size()) {
            qFatal("cannot write %s", qPrintable(path));
        }
        gzclose(g);
        return path;
    }
    QString path(const QString &name) const { return m_dir.filePath(name); }

private:
    QTemporaryDir m_dir;
};

// A replay of busyLog(lines), written to `files`, under sixRules().
Options busyReplay(Files &files, int lines)
{
    Options o;
    o.files = {files.write(u"busy.log"_s, busyLog(lines))};
    o.rules = sixRules();
    return o;
}

struct Seen
{
    int rule;
    qint64 t;
    QByteArray subject;
    bool allowed;
};

// `log` as a.log through one rule of 100 requests a second, the time of each decision into
// `times`.
Options timesOf(Files &files, const QByteArray &log, QList<qint64> &times)
{
    Options o;
    o.files = {files.write(u"a.log"_s, log)};
    o.rules = test::setOf({windowRule(u"r"_s, 100, 1'000'000)});
    o.onDecision = [&times](int, qint64 t, std::string_view, const Decision &) { times << t; };
    return o;
}

// An onDecision that appends each decision to `seen`.
auto recordInto(QList<Seen> &seen)
{
    return [&seen](int rule, qint64 t, std::string_view s, const Decision &d) {
        seen << Seen{rule, t, QByteArray(s.data(), qsizetype(s.size())), d.allowed};
    };
}

// A run of `o` with each of its decisions recorded into `seen`, in order.
Result<Report> recordedRun(Options &o, QList<Seen> &seen)
{
    o.onDecision = recordInto(seen);
    return run(o);
}

// Where two runs' decisions first differ: empty when they are the same, in the same order.
QString firstDifference(const QList<Seen> &a, const QList<Seen> &b)
{
    const auto text = [](const Seen &s) {
        return QStringLiteral("rule %1 at %2 for '%3': %4")
            .arg(s.rule)
            .arg(s.t)
            .arg(QString::fromUtf8(s.subject), s.allowed ? u"allowed"_s : u"denied"_s);
    };
    for (qsizetype i = 0; i < std::min(a.size(), b.size()); ++i) {
        if (a[i].rule != b[i].rule || a[i].t != b[i].t || a[i].subject != b[i].subject ||
            a[i].allowed != b[i].allowed) {
            return QStringLiteral("decision %1: %2, against %3").arg(i).arg(text(a[i]), text(b[i]));
        }
    }
    if (a.size() != b.size()) {
        return QStringLiteral("%1 decisions against %2").arg(a.size()).arg(b.size());
    }
    return {};
}

} // namespace

class TestReplay : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void formats_data();
    void formats();
    void trailingTextIsTreatedAlike();
    void detection();
    void wholeSecondsAreSpread();
    void twinsAgreeWithLocalModel();
    void reorderWindowAndLateLines();
    void filesMergeByTime();
    void gzipWholeAndTruncated();
    void badLinesAndWrongFormat();
    void emptyLog();
    void subjectsFromScopes();
    void skippedRulesAreNamed();
    void reportAndSuggestion();
    void againstSideBySide();
    void bounds();
    void fastPathsAgreeWithStraightforward();
    void redisAgreesAndCleansUp();
};

void TestReplay::formats_data()
{
    test::columns<QString, QString, QByteArray, qint64, bool, QByteArray, QByteArray, QByteArray,
                  int>("format", "logFormat", "line", "timeUs", "coarse", "addr", "method", "path",
                       "status");

    QTest::newRow("nginx-combined")
        << u"nginx-combined"_s << QString()
        << QByteArray("203.0.113.7 - alice [10/Oct/2026:13:55:36 +0200] \"GET /a?b=c HTTP/1.1\" "
                      "429 12 \"-\" \"curl/8\"")
        << (t0 - 7200) * 1'000'000 << true << QByteArray("203.0.113.7") << QByteArray("GET")
        << QByteArray("/a?b=c") << 429;
    QTest::newRow("envoy")
        << u"envoy"_s << QString()
        << QByteArray("[2026-10-10T13:55:36.310Z] \"POST /api/v1/locations HTTP/2\" 204 - 154 0 "
                      "226 100 \"10.0.35.28\" \"nsq2http\" \"cc21d9b0\" \"locations\" "
                      "\"tcp://10.0.2.1:80\"")
        << t0 * 1'000'000 + 310'000 << false << QByteArray() << QByteArray("POST")
        << QByteArray("/api/v1/locations") << 204;
    QTest::newRow("alb")
        << u"alb"_s << QString()
        << QByteArray("http 2026-10-10T13:55:36.186641Z app/my-lb/50dc6c495c0c9188 "
                      "192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET "
                      "http://www.example.com:80/shop?x=1 HTTP/1.1\" \"curl/7.46.0\" - - "
                      "arn:aws:elasticloadbalancing \"Root=1-58337262\" \"-\" \"-\" 0")
        << t0 * 1'000'000 + 186'641 << false << QByteArray("192.168.131.39") << QByteArray("GET")
        << QByteArray("/shop?x=1") << 200;
    QTest::newRow("log_format $msec")
        << u"nginx"_s << u"$remote_addr $msec \"$request\" $status \"$http_x_api_key\""_s
        << QByteArray("10.1.2.3 1791640536.250 \"DELETE /x HTTP/1.1\" 503 \"k-1\"")
        << t0 * 1'000'000 + 250'000 << false << QByteArray("10.1.2.3") << QByteArray("DELETE")
        << QByteArray("/x") << 503;
    QTest::newRow("json iso with offset")
        << u"json"_s << QString()
        << QByteArray(R"({"time": "2026-10-10T15:55:36.5+02:00", "ip": "::1", "method": "PUT",)"
                      R"( "path": "/p\/q", "status": 201, "extra": {"a": [1, 2]}})")
        << t0 * 1'000'000 + 500'000 << false << QByteArray("::1") << QByteArray("PUT")
        << QByteArray("/p/q") << 201;
    QTest::newRow("json number time")
        << u"json"_s << QString()
        << QByteArray(R"({"time": 1791640536, "ip": "1.2.3.4", "request": "GET /r HTTP/1.0"})")
        << t0 * 1'000'000 << true << QByteArray("1.2.3.4") << QByteArray("GET") << QByteArray("/r")
        << 0;
}

void TestReplay::formats()
{
    QFETCH(QString, format);
    QFETCH(QString, logFormat);
    QFETCH(QByteArray, line);
    const Format f = *formatFromName(format);
    auto p = f == Format::NginxCustom ? LineParser::nginx(logFormat)
             : f == Format::Json      ? LineParser::json({})
                                      : LineParser::fixed(f);
    QVERIFY2(p, qPrintable(p ? QString() : p.error().message));
    Record r;
    const char *why = nullptr;
    QVERIFY2(p->parse(View(line.constData(), size_t(line.size())), r, &why), why);
    QFETCH(qint64, timeUs);
    QCOMPARE(r.timeUs, timeUs);
    QTEST(r.coarse, "coarse");
    QTEST(QByteArray(r.fields[SlotAddr].data(), qsizetype(r.fields[SlotAddr].size())), "addr");
    QTEST(QByteArray(r.fields[SlotMethod].data(), qsizetype(r.fields[SlotMethod].size())),
          "method");
    QTEST(QByteArray(r.fields[SlotPath].data(), qsizetype(r.fields[SlotPath].size())), "path");
    QTEST(r.status, "status");
    if (f == Format::NginxCustom) {
        const int slot = p->headerSlot(u"X-Api-Key"_s);
        QVERIFY(slot >= SlotFirstHeader);
        QCOMPARE(QByteArray(r.fields[slot].data(), qsizetype(r.fields[slot].size())),
                 QByteArray("k-1"));
    }
    // The same line cut short, or with a broken time, does not parse, and says why.
    QVERIFY(!p->parse(View(line.constData(), 12), r, &why));
    QVERIFY(why != nullptr && *why != 0);
}

// The full parser and the one that reads only the rules' fields take the same lines: a line is
// its format's when it starts with it, text after the last field read is not checked. Before,
// the narrow parser alone required the format's final text at the end: it refused every real
// ALB line (they go on after the user agent) and lines of nginx's "main" format, which the full
// parser took (found by tests/fuzz/fuzz_replay).
void TestReplay::trailingTextIsTreatedAlike()
{
    const char *why = nullptr;
    Record r;
    const auto both = [&](const LineParser &full, const QByteArray &line) {
        LineParser narrow = full;
        narrow.readOnly({SlotAddr});
        const View v(line.constData(), size_t(line.size()));
        const bool a = full.parse(v, r, &why);
        const bool b = narrow.parse(v, r, &why);
        return a && b ? 2 : a || b ? 1 : 0;
    };
    auto alb = LineParser::fixed(Format::Alb);
    QVERIFY(alb);
    QCOMPARE(both(*alb, "http 2026-10-10T13:55:36.186641Z app/my-lb/50dc6c495c0c9188 "
                        "192.168.131.39:2817 10.0.0.1:80 0.000 0.001 0.000 200 200 34 366 \"GET "
                        "http://www.example.com:80/shop?x=1 HTTP/1.1\" \"curl/7.46.0\" - - "
                        "arn:aws:elasticloadbalancing \"Root=1-58337262\" \"-\" \"-\" 0"),
             2);
    auto combined = LineParser::fixed(Format::NginxCombined);
    QVERIFY(combined);
    const QByteArray line = "203.0.113.9 - - [10/Oct/2026:13:55:36 +0000] \"GET /a HTTP/1.1\" "
                            "200 512 \"-\" \"curl/8.0\"";
    QCOMPARE(both(*combined, line), 2);
    QCOMPARE(both(*combined, line + " \"198.51.100.7\""), 2); // nginx's "main" format
    QCOMPARE(both(*combined, line.left(40)), 0);              // cut inside the time: neither
    auto custom =
        LineParser::nginx(u"$remote_addr [$time_local] \"$request\" $status $unknown.c"_s);
    QVERIFY(custom);
    QCOMPARE(both(*custom, "10.0.0.2 [10/Oct/2026:13:55:36 +0000] \"POST /l HTTP/1.1\" 401 x.d"),
             2);
}

void TestReplay::detection()
{
    const QByteArray combinedLine = combined(u"1.2.3.4"_s, t0, u"GET /"_s).trimmed();
    QCOMPARE(*detect({combinedLine, combinedLine}), Format::NginxCombined);
    QCOMPARE(*detect({R"({"time":"2026-10-10T13:55:36Z","ip":"1.2.3.4"})"}), Format::Json);
    QCOMPARE(*detect({"[2026-10-10T13:55:36.310Z] \"GET / HTTP/1.1\" 200 - 0 0 1 1 \"1.2.3.4\" "
                      "\"ua\" \"id\" \"host\" \"up\""}),
             Format::Envoy);
    const auto none = detect({"hello world", "more words"});
    QVERIFY(!none);
    QVERIFY2(none.error().message.contains(u"nginx-combined, envoy, alb, json"_s) &&
                 none.error().message.contains(u"hello world"_s),
             qPrintable(none.error().message));
}

void TestReplay::wholeSecondsAreSpread()
{
    Files files;
    QByteArray log;
    for (int i = 0; i < 4; ++i) {
        log += combined(u"1.1.1.1"_s, t0, u"GET /"_s);
    }
    log += combined(u"1.1.1.1"_s, t0 + 1, u"GET /"_s);
    QList<qint64> times;
    Options o = timesOf(files, log, times);
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    QVERIFY(rep->spread);
    const qint64 s = t0 * 1'000'000;
    QCOMPARE(times,
             (QList<qint64>{s + 125'000, s + 375'000, s + 625'000, s + 875'000, s + 1'500'000}));
}

void TestReplay::twinsAgreeWithLocalModel()
{
    Files files;
    Options o = busyReplay(files, 6000);
    QList<Seen> twins;
    auto a = recordedRun(o, twins);
    QVERIFY2(a, qPrintable(a ? QString() : a.error().message));
    ManualClock clock;
    LocalModel model(clock);
    o.limiter = &model;
    QList<Seen> models;
    auto b = recordedRun(o, models);
    QVERIFY2(b, qPrintable(b ? QString() : b.error().message));
    const QString differ = firstDifference(twins, models);
    QVERIFY2(differ.isEmpty(), qPrintable(differ));
    QCOMPARE(a->rules.size(), size_t(6));
    for (size_t r = 0; r < 6; ++r) {
        QCOMPARE(a->rules[r].digest, b->rules[r].digest);
        QCOMPARE(a->rules[r].denied, b->rules[r].denied);
        QVERIFY2(a->rules[r].denied > 0, qPrintable(a->rules[r].id));
        QVERIFY2(a->rules[r].admitted > 0, qPrintable(a->rules[r].id));
    }
    // Routes: the sliding log takes GET /api* only, the leaky bucket POST only.
    QVERIFY(a->rules[1].matched < a->rules[0].matched);
    QVERIFY(a->rules[4].matched < a->rules[0].matched);
    QCOMPARE(a->rules[0].matched, qint64(6000));
}

void TestReplay::reorderWindowAndLateLines()
{
    Files files;
    QByteArray log;
    log += combined(u"1.1.1.1"_s, t0 + 0, u"GET /"_s);
    log += combined(u"1.1.1.1"_s, t0 + 3, u"GET /"_s);
    log += combined(u"1.1.1.1"_s, t0 + 1, u"GET /"_s); // 2 s back: reordered
    for (int i = 4; i < 30; ++i) {
        log += combined(u"1.1.1.1"_s, t0 + i, u"GET /"_s);
    }
    log += combined(u"1.1.1.1"_s, t0 + 2, u"GET /"_s); // 27 s back: late (line 30)
    QList<qint64> times;
    Options o = timesOf(files, log, times);
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    QVERIFY(std::is_sorted(times.begin(), times.end()));
    QCOMPARE(times.size(), 29);
    QCOMPARE(times[1] / 1'000'000, t0 + 1);
    QCOMPARE(rep->late, qint64(1));
    QCOMPARE(rep->lateLines.size(), size_t(1));
    QCOMPARE(rep->lateLines[0].line, qint64(30));
    // With no reorder window, the out-of-order line is late too.
    o.reorderWindowUs = 0;
    times.clear();
    rep = run(o);
    QVERIFY(rep);
    QCOMPARE(rep->late, qint64(2));
    QCOMPARE(rep->lateLines[0].line, qint64(3));
}

void TestReplay::filesMergeByTime()
{
    Files files;
    // Times with milliseconds: one order only, so the merge must give the very same decisions.
    QByteArray a, b, all;
    for (int i = 0; i < 400; ++i) {
        const QByteArray line = u"10.0.0.%1 [%2.%3] \"GET / HTTP/1.1\" 200\n"_s.arg(i % 3)
                                    .arg(t0 + i / 4)
                                    .arg((i % 4) * 250 + 7, 3, 10, QChar(u'0'))
                                    .toUtf8();
        all += line;
        (i % 5 < 2 ? a : b) += line;
    }
    Options o;
    o.format = Format::NginxCustom;
    o.logFormat = u"$remote_addr [$msec] \"$request\" $status"_s;
    o.rules = test::setOf(
        {windowRule(u"r"_s, 2, 2'000'000),
         Rule::bucket(u"g"_s, Algorithm::Gcra, Rate{1, 1'000'000}, 1, {Scope::Kind::Ip, {}})});
    o.files = {files.write(u"all.log"_s, all)};
    auto one = run(o);
    QVERIFY2(one, qPrintable(one ? QString() : one.error().message));
    QVERIFY(!one->spread);
    o.files = {files.write(u"b.log"_s, b), files.write(u"a.log"_s, a)};
    auto two = run(o);
    QVERIFY2(two, qPrintable(two ? QString() : two.error().message));
    QCOMPARE(two->lines, qint64(400));
    QCOMPARE(two->late, qint64(0));
    for (size_t r = 0; r < 2; ++r) {
        QCOMPARE(two->rules[r].digest, one->rules[r].digest);
        QCOMPARE(two->rules[r].denied, one->rules[r].denied);
        QVERIFY(one->rules[r].denied > 0);
    }
}

void TestReplay::gzipWholeAndTruncated()
{
    Files files;
    const QByteArray log = busyLog(3000);
    Options o;
    o.rules = test::setOf({windowRule(u"r"_s, 5, 10'000'000)});
    o.files = {files.write(u"plain.log"_s, log)};
    auto plain = run(o);
    o.files = {files.writeGz(u"z.log.gz"_s, log)};
    auto gz = run(o);
    QVERIFY2(gz, qPrintable(gz ? QString() : gz.error().message));
    QVERIFY(gz->error.isEmpty());
    QCOMPARE(gz->lines, qint64(3000));
    QCOMPARE(gz->rules[0].digest, plain->rules[0].digest);

    // Cut: the lines before the damage are replayed, the error names the file and offset.
    QFile f(o.files[0]);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray whole = f.readAll();
    const QString cut = files.write(u"cut.log.gz"_s, whole.left(whole.size() / 2));
    o.files = {cut};
    auto part = run(o);
    QVERIFY2(part, qPrintable(part ? QString() : part.error().message));
    QVERIFY(part->lines > 100 && part->lines < 3000);
    QVERIFY2(part->error.contains(cut) && part->error.contains(u"truncated at compressed byte"_s),
             qPrintable(part->error));
    QCOMPARE(part->unparsed, qint64(0)); // no half line was handed out
}

void TestReplay::badLinesAndWrongFormat()
{
    Files files;
    QByteArray log;
    for (int i = 0; i < 40; ++i) {
        log += i % 4 == 3 ? QByteArray("not a log line\n")
                          : combined(u"1.1.1.1"_s, t0 + i, u"GET /"_s);
    }
    Options o;
    o.format = Format::NginxCombined;
    o.rules = test::setOf({windowRule(u"r"_s, 5, 10'000'000)});
    o.files = {files.write(u"some-bad.log"_s, log)};
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    QCOMPARE(rep->unparsed, qint64(10));
    QCOMPARE(rep->parsed, qint64(30));
    QCOMPARE(rep->badLines.size(), size_t(10));
    QCOMPARE(rep->badLines[0].line, qint64(4));
    QCOMPARE(rep->badLines[1].line, qint64(8));
    QCOMPARE(rep->badLines[0].sample, u"not a log line"_s);

    QByteArray json;
    for (int i = 0; i < 30; ++i) {
        json += R"({"time": "2026-10-10T13:55:36Z", "ip": "1.2.3.4"})"
                "\n";
    }
    o.files = {files.write(u"json.log"_s, json)};
    rep = run(o);
    QVERIFY(!rep);
    QCOMPARE(rep.error().kind, Error::Kind::Invalid);
    QVERIFY2(rep.error().message.contains(u"30 of the first 30"_s) &&
                 rep.error().message.contains(u"nginx-combined"_s) &&
                 rep.error().message.contains(u"\"time\""_s),
             qPrintable(rep.error().message));
}

void TestReplay::emptyLog()
{
    Files files;
    Options o;
    o.rules = test::setOf({windowRule(u"r"_s, 5, 10'000'000)});
    o.files = {files.write(u"empty.log"_s, {})};
    auto rep = run(o);
    QVERIFY(!rep);
    QVERIFY2(rep.error().message.contains(u"empty"_s), qPrintable(rep.error().message));
    o.files = {files.path(u"missing.log"_s)};
    rep = run(o);
    QVERIFY(!rep);
    QCOMPARE(rep.error().kind, Error::Kind::Io);
    QVERIFY(rep.error().message.contains(u"missing.log"_s));
}

void TestReplay::subjectsFromScopes()
{
    Files files;
    // remote_addr is the last proxy; X-Forwarded-For: client, proxy1.
    const QString fmt =
        u"$remote_addr [$time_iso8601] \"$request\" $status \"$http_x_forwarded_for\" "
        "\"$http_x_api_key\""_s;
    QByteArray log;
    for (int i = 0; i < 6; ++i) {
        log += u"10.9.9.9 [2026-10-10T13:55:3%1Z] \"GET /q?user=u%2&x=1 HTTP/1.1\" 200 "
               "\"198.51.100.%3, 10.1.1.1\" \"key-%4\"\n"_s.arg(i)
                   .arg(i % 2)
                   .arg(i % 3)
                   .arg(i % 2)
                   .toUtf8();
    }
    log += "10.9.9.9 [2026-10-10T13:55:39Z] \"GET /q HTTP/1.1\" 200 \"-\" \"-\"\n";
    Options o;
    o.format = Format::NginxCustom;
    o.logFormat = fmt;
    o.files = {files.write(u"x.log"_s, log)};
    o.rules =
        test::setOf({windowRule(u"ip"_s, 100, 1'000'000),
                     windowRule(u"key"_s, 100, 1'000'000, {Scope::Kind::Header, u"X-API-Key"_s}),
                     windowRule(u"param"_s, 100, 1'000'000, {Scope::Kind::Param, u"user"_s}),
                     windowRule(u"all"_s, 100, 1'000'000, {Scope::Kind::Global, {}})});
    QMap<int, QSet<QByteArray>> subjects;
    o.onDecision = [&](int rule, qint64, std::string_view s, const Decision &) {
        subjects[rule].insert(QByteArray(s.data(), qsizetype(s.size())));
    };
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    QCOMPARE(subjects[0], (QSet<QByteArray>{"10.9.9.9"})); // the peer by default
    QCOMPARE(subjects[1], (QSet<QByteArray>{"key-0", "key-1"}));
    QCOMPARE(subjects[2], (QSet<QByteArray>{"u0", "u1"}));
    QCOMPARE(subjects[3], (QSet<QByteArray>{"global"}));
    QCOMPARE(rep->rules[1].noSubject, qint64(1)); // the header "-"
    QCOMPARE(rep->rules[2].noSubject, qint64(1)); // no ?user=

    // Two trusted proxies (the peer and 10.1.1.1): the client is the first hop.
    o.trustProxies = 2;
    subjects.clear();
    rep = run(o);
    QVERIFY(rep);
    QCOMPARE(subjects[0],
             (QSet<QByteArray>{"198.51.100.0", "198.51.100.1", "198.51.100.2", "10.9.9.9"}));
    // One trusted proxy: the hop before the peer.
    o.trustProxies = 1;
    subjects.clear();
    rep = run(o);
    QVERIFY(rep);
    QCOMPARE(subjects[0], (QSet<QByteArray>{"10.1.1.1", "10.9.9.9"}));
    // Networks: every 10/8 address is a proxy.
    o.trustProxies = 0;
    o.trustedCidrs = {u"10.0.0.0/8"_s};
    subjects.clear();
    rep = run(o);
    QVERIFY(rep);
    QCOMPARE(subjects[0],
             (QSet<QByteArray>{"198.51.100.0", "198.51.100.1", "198.51.100.2", "10.9.9.9"}));
    o.trustedCidrs = {u"10.0.0.0/33"_s};
    rep = run(o);
    QVERIFY(!rep);
    QVERIFY(rep.error().message.contains(u"10.0.0.0/33"_s));
}

void TestReplay::skippedRulesAreNamed()
{
    Files files;
    Options o;
    o.files = {files.write(u"a.log"_s, busyLog(50))};
    o.rules =
        test::setOf({windowRule(u"ok"_s, 5, 1'000'000),
                     windowRule(u"hdr"_s, 5, 1'000'000, {Scope::Kind::Header, u"X-Api-Key"_s}),
                     windowRule(u"badroute"_s, 5, 1'000'000, {Scope::Kind::Ip, {}}, u"GET"_s)});
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    QVERIFY(!rep->rules[0].skipped);
    QVERIFY(rep->rules[1].skipped);
    QVERIFY2(rep->rules[1].skipReason.contains(u"X-Api-Key"_s) &&
                 rep->rules[1].skipReason.contains(u"a.log"_s) &&
                 rep->rules[1].skipReason.contains(u"User-Agent"_s),
             qPrintable(rep->rules[1].skipReason));
    QCOMPARE(rep->rules[1].matched, qint64(0));
    QVERIFY(rep->rules[2].skipped);
    QVERIFY(rep->rules[2].skipReason.contains(u"route"_s));
    // No rule left at all: an error naming each.
    o.rules =
        test::setOf({windowRule(u"hdr"_s, 5, 1'000'000, {Scope::Kind::Header, u"X-Api-Key"_s})});
    rep = run(o);
    QVERIFY(!rep);
    QVERIFY2(rep.error().message.contains(u"hdr: scope header:X-Api-Key"_s),
             qPrintable(rep.error().message));
}

void TestReplay::reportAndSuggestion()
{
    Files files;
    // Ten quiet clients with one request a second; one noisy client with ten a second, for 20 s.
    // Statuses: the noisy client's requests beyond the 5th of a second are 429 in the log.
    QByteArray log;
    for (int s = 0; s < 20; ++s) {
        for (int c = 0; c < 10; ++c) {
            log += combined(u"10.0.0.%1"_s.arg(c), t0 + s, u"GET /api"_s);
        }
        for (int k = 0; k < 10; ++k) {
            log += combined(u"203.0.113.9"_s, t0 + s, u"GET /api"_s, k >= 5 ? 429 : 200);
        }
    }
    Options o;
    o.files = {files.write(u"a.log"_s, log)};
    o.rules = test::setOf({windowRule(u"r"_s, 5, 1'000'000, {Scope::Kind::Ip, {}}, u"GET /api"_s)});
    o.candidates = {8};
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    const RuleReport &r = rep->rules[0];
    QCOMPARE(r.matched, qint64(400));
    QCOMPARE(r.subjects, qint64(11));
    QCOMPARE(r.subjectsDenied, qint64(1));
    // Fixed windows of 1 s aligned to the second: 5 of 10 denied every second.
    QCOMPARE(r.denied, qint64(100));
    QCOMPARE(r.admitted, qint64(300));
    QCOMPARE(r.top.size(), size_t(1));
    QCOMPARE(r.top[0].subject, QByteArray("203.0.113.9"));
    QCOMPARE(r.top[0].denied, qint64(100));
    QCOMPARE(r.top[0].requests, qint64(200));
    // 20 requests a second spread over it: the noisy client's 6th is the 16th, at 775 ms.
    QCOMPARE(r.top[0].firstUs, t0 * 1'000'000 + 775'000);
    QCOMPARE(r.top[0].lastUs, (t0 + 19) * 1'000'000 + 975'000);
    QVERIFY(r.hasStatus);
    QCOMPARE(r.log429, qint64(100));
    QCOMPARE(r.log429Denied, qint64(100));
    QCOMPARE(r.deniedNot429, qint64(0));
    // Denials per minute: one bin, all of them.
    QCOMPARE(rep->binUs, qint64(60'000'000));
    QCOMPARE(r.deniedPerBin, (std::vector<qint64>{100}));
    // Peaks: the quiet ones 1 a second, the noisy one 10.
    QCOMPARE(r.p50, qint64(1));
    QCOMPARE(r.p90, qint64(1));
    QCOMPARE(r.max, qint64(10));
    QCOMPARE(r.p99, qint64(10));
    // Candidates: the rule's 5 (1 of 11 subjects, 100 of 400 requests), the given 8.
    const Candidate five = r.shares(5);
    QCOMPARE(five.subjects, qint64(1));
    QCOMPARE(five.requests, qint64(100));
    QCOMPARE(five.requestShare, 0.25);
    const Candidate eight = r.shares(8);
    QCOMPARE(eight.requests, qint64(40));
    QCOMPARE(r.shares(10).subjects, qint64(0));
    bool sawGiven = false;
    for (const Candidate &c : r.candidates) {
        sawGiven = sawGiven || (c.limit == 8 && c.source == u"given"_s);
    }
    QVERIFY(sawGiven);
    const QByteArray json = toJson(*rep);
    QVERIFY(json.contains("\"subjects_denied\": 1"));
    QVERIFY(json.contains("\"p99_9\": 10"));
    QVERIFY(deniedCsv(*rep).startsWith("t_ms,set,rule,denied\n"));
}

void TestReplay::againstSideBySide()
{
    Files files;
    QByteArray log;
    for (int s = 0; s < 10; ++s) {
        for (int k = 0; k < 3; ++k) {
            log += combined(u"10.0.0.1"_s, t0 + s, u"GET /"_s); // 3 a second
        }
        for (int k = 0; k < 6; ++k) {
            log += combined(u"10.0.0.2"_s, t0 + s, u"GET /"_s); // 6 a second
        }
    }
    Options o;
    o.files = {files.write(u"a.log"_s, log)};
    o.rules = test::setOf({windowRule(u"r"_s, 2, 1'000'000)});   // denies both
    o.against = test::setOf({windowRule(u"r"_s, 5, 1'000'000)}); // denies 10.0.0.2 only
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    QCOMPARE(rep->comparisons.size(), size_t(1));
    const Comparison &c = rep->comparisons[0];
    QVERIFY(c.comparable);
    QCOMPARE(c.both, qint64(1));
    QCOMPARE(c.onlyRules, qint64(1));
    QCOMPARE(c.onlyAgainst, qint64(0));
    QCOMPARE(c.onlyRulesExamples, (QList<QByteArray>{"10.0.0.1"}));
    QCOMPARE(rep->against[0].denied, qint64(10));
}

void TestReplay::bounds()
{
    Files files;
    QByteArray log = combined(u"1.1.1.1"_s, t0, u"GET /"_s);
    // A line of 1 MB (a 1 MB subject in it): counted as too long, the run goes on.
    log += "2.2.2.2 - - [" + local(t0).toUtf8() + "] \"GET /?k=" + QByteArray(1 << 20, 'a') +
           " HTTP/1.1\" 200 1 \"-\" \"-\"\n";
    // A long subject that still fits a line: not decided, counted.
    log += combined(u"1.1.1.1"_s, t0 + 1, u"GET /?k="_s + QString(5000, u'b'));
    // Three years later, then one more: the bins widen, never more than maxBins.
    log += combined(u"1.1.1.1"_s, t0 + 3 * 365 * 86400, u"GET /?k=x"_s);
    log += combined(u"1.1.1.1"_s, t0 + 3 * 365 * 86400 + 1, u"GET /?k=x"_s);
    Options o;
    o.files = {files.write(u"big.log"_s, log)};
    o.rules = test::setOf({windowRule(u"r"_s, 1, 3'600'000'000),
                           windowRule(u"k"_s, 1, 3'600'000'000, {Scope::Kind::Param, u"k"_s})});
    auto rep = run(o);
    QVERIFY2(rep, qPrintable(rep ? QString() : rep.error().message));
    QCOMPARE(rep->lines, qint64(5));
    QCOMPARE(rep->tooLong, qint64(1));
    QCOMPARE(rep->badLines.size(), size_t(1));
    QCOMPARE(rep->badLines[0].line, qint64(2));
    QVERIFY(rep->badLines[0].sample.size() <= 200);
    QCOMPARE(rep->rules[1].subjectTooLong, qint64(1));
    QCOMPARE(rep->rules[0].denied, qint64(2));
    QVERIFY(rep->binUs > 60'000'000);
    QVERIFY(rep->rules[0].deniedPerBin.size() <= maxBins);
    qint64 sum = 0;
    for (qint64 b : rep->rules[0].deniedPerBin) {
        sum += b;
    }
    QCOMPARE(sum, qint64(2));
}

namespace {

// A log in the shape of tools/bench-replay.sh's, small: many light clients and a few heavy
// ones, six routes, realistic referers and user agents, 429s; besides, lines out of order
// within the reorder window, a few later than it, and bad lines.
QByteArray benchLikeLog(int n)
{
    static const char *const paths[] = {"/api/orders",    "/api/users", "/login", "/search",
                                        "/static/app.js", "/api/cart",  "/hello", "/health"};
    static const char *const methods[] = {"GET", "GET", "GET", "POST", "GET", "PUT", "GET", "GET"};
    QByteArray out;
    quint32 x = 7;
    const auto next = [&] {
        x = x * 1103515245u + 12345u;
        return x >> 8;
    };
    for (int i = 0; i < n; ++i) {
        qint64 secs = t0 + i / 100;
        const quint32 r = next();
        if (r % 50 == 0) {
            secs -= 1 + r % 3; // out of order, within the 5 s window
        } else if (r % 997 == 0) {
            secs -= 30; // later than the window: late
        }
        if (r % 1499 == 0) {
            out += "garbage line " + QByteArray::number(i) + '\n';
            continue;
        }
        const quint32 c = next();
        const QString ip = c % 5 == 0 ? u"203.0.113.%1"_s.arg(c % 3)
                                      : u"10.0.%1.%2"_s.arg((c >> 4) % 10).arg((c >> 9) % 40);
        const int k = int(next() % 8);
        out += u"%1 - - [%2] \"%3 %4?id=%5 HTTP/1.1\" %6 %7 \"https://example.com/p%8\" "
               "\"Mozilla/5.0 (X11; Linux) Firefox/%9\"\n"_s.arg(ip, local(secs))
                   .arg(QLatin1String(methods[k]), QLatin1String(paths[k]))
                   .arg(i % 977)
                   .arg(next() % 100 == 0 ? 429 : 200)
                   .arg(200 + i % 5000)
                   .arg(i % 3)
                   .arg(100 + i % 29)
                   .toUtf8();
    }
    return out;
}

RuleSet benchRules()
{
    std::vector<Rule> r;
    r.push_back(windowRule(u"fw"_s, 10, 10'000'000, {Scope::Kind::Ip, {}}, u"GET /api"_s));
    r.push_back(
        Rule::window(u"log"_s, Algorithm::SlidingLog, 2, 10'000'000, {Scope::Kind::Ip, {}}));
    r.back().route = u"/login"_s;
    r.push_back(
        Rule::window(u"sc"_s, Algorithm::SlidingCounter, 3, 10'000'000, {Scope::Kind::Ip, {}}));
    r.back().route = u"/search"_s;
    r.push_back(Rule::bucket(u"tb"_s, Algorithm::TokenBucket, Rate{1, 1'000'000}, 4,
                             {Scope::Kind::Ip, {}}));
    r.push_back(Rule::bucket(u"lb"_s, Algorithm::LeakyBucket, Rate{1, 2'000'000}, 2,
                             {Scope::Kind::Ip, {}}));
    r.back().route = u"PUT /api"_s;
    r.push_back(
        Rule::bucket(u"gc"_s, Algorithm::Gcra, Rate{1, 1'000'000}, 1, {Scope::Kind::Ip, {}}));
    r.back().route = u"/hello"_s;
    return test::setOf(std::move(r));
}

// The report as JSON without what may differ between two runs of the same log (the time taken,
// the backend's name).
QJsonObject comparable(Report r)
{
    r.wallSeconds = 0;
    r.maxSubjects = 0; // the default cap depends on the number of rules
    r.backend = u"local"_s;
    r.keyPrefix.clear();
    return QJsonDocument::fromJson(toJson(r)).object();
}

} // namespace

// The fast paths (compact per-subject cells, two threads, parsing only the fields the rules
// need) decide exactly what the straightforward one does: the same log through the twins on
// one thread, on two, and through LocalModel behind the Limiter interface (its own keys, its own
// State values, no cell), with a rule that needs the last field of the line or without.
void TestReplay::fastPathsAgreeWithStraightforward()
{
    Files files;
    Options o;
    o.files = {files.write(u"bench.log"_s, benchLikeLog(40000))};
    o.rules = benchRules();
    o.threads = 2;
    auto two = run(o);
    QVERIFY2(two, qPrintable(two ? QString() : two.error().message));
    o.threads = 1;
    auto one = run(o);
    QVERIFY(one);
    ManualClock clock;
    LocalModel model(clock);
    o.limiter = &model;
    auto straight = run(o);
    QVERIFY2(straight, qPrintable(straight ? QString() : straight.error().message));
    o.limiter = nullptr;
    // The user agent, the last field: every field of every line is read.
    RuleSet withAgent = benchRules();
    withAgent.rules.push_back(Rule::window(u"ua"_s, Algorithm::FixedWindow, 1000, 60'000'000,
                                           {Scope::Kind::Header, u"User-Agent"_s}));
    o.rules = withAgent;
    o.threads = 2;
    auto whole = run(o);
    QVERIFY(whole);

    // The log is what it should be: denials in every rule, late and bad lines, out of order.
    QVERIFY(two->late > 0);
    QVERIFY(two->unparsed > 0);
    QCOMPARE(two->lines, qint64(40000));
    for (const RuleReport &r : two->rules) {
        QVERIFY2(r.denied > 0 && r.admitted > 0 && r.subjects > 10, qPrintable(r.id));
    }
    const QJsonObject a = comparable(*two);
    QCOMPARE(comparable(*one), a);
    QCOMPARE(comparable(*straight), a);
    QJsonObject w = comparable(*whole);
    QJsonArray rules = w[u"rules"_s].toArray();
    QCOMPARE(rules.size(), 7);
    QCOMPARE(rules.last().toObject()[u"id"_s].toString(), u"ua"_s);
    QVERIFY(rules.last().toObject()[u"subjects"_s].toInt() == 29);
    rules.removeLast();
    w[u"rules"_s] = rules;
    QCOMPARE(w, a);
}

void TestReplay::redisAgreesAndCleansUp()
{
    Files files;
    Options o = busyReplay(files, 3000);
    QList<Seen> local;
    auto a = recordedRun(o, local);
    QVERIFY(a);
    QList<Seen> redis;
    o.onDecision = recordInto(redis);
    o.batch = 97;
    auto b = runOnRedis(o, test::redisEndpoint());
    QVERIFY2(b, qPrintable(b ? QString() : b.error().message));
    QCOMPARE(b->backend, u"redis"_s);
    QVERIFY(b->keyPrefix.startsWith("sluice:replay:"));
    QVERIFY(b->warning.isEmpty());
    const QString differ = firstDifference(local, redis);
    QVERIFY2(differ.isEmpty(), qPrintable(differ));
    for (size_t r = 0; r < a->rules.size(); ++r) {
        QCOMPARE(b->rules[r].digest, a->rules[r].digest);
    }
    Connection c = test::connect();
    QVERIFY(test::keysWithPrefix(c, b->keyPrefix).isEmpty());
    QVERIFY(test::keysWithPrefix(c, "sluice:replay:").isEmpty());
}

QTEST_GUILESS_MAIN(TestReplay)
#include "tst_replay.moc"
