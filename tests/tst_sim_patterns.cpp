// Traffic patterns, scenario files and the metrics' arithmetic, without Redis: each pattern's
// statistics for a fixed seed, reproducibility, replay files, every way a scenario file can be
// wrong (with file:line:column and field path), the presets, the exact window sweep, and the
// --json / --csv writers.
#include "core/rules/codec.h"
#include "core/sim/metrics.h"
#include "core/sim/scenario.h"
#include "testdata.h"
#include "testkit.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace sluice;
using namespace sluice::sim;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 ms = duration::usPerMs;
constexpr qint64 sec = duration::usPerSecond;

Scenario base(qint64 durationUs, std::vector<TrafficPattern> traffic, qint64 subjects = 1)
{
    Scenario s;
    s.name = u"test"_s;
    s.durationUs = durationUs;
    s.binUs = scenario::defaultBinUs(durationUs);
    s.subjects = subjects;
    s.traffic = std::move(traffic);
    s.rules = {Rule::window(u"r"_s, Algorithm::FixedWindow, 3, 5 * sec, {Scope::Kind::Ip, {}})};
    return s;
}

TrafficPattern constant(Rate rate, qint64 from = 0, std::optional<qint64> to = std::nullopt)
{
    TrafficPattern p;
    p.kind = TrafficPattern::Kind::Constant;
    p.rate = rate;
    p.fromUs = from;
    p.toUs = to;
    return p;
}

TrafficPattern poisson(Rate rate, qint64 from = 0, std::optional<qint64> to = std::nullopt)
{
    TrafficPattern p = constant(rate, from, to);
    p.kind = TrafficPattern::Kind::Poisson;
    return p;
}

std::vector<Arrival> arrivalsOf(const Scenario &s)
{
    auto t = scenario::generate(s);
    if (!t) {
        qWarning("%s", qPrintable(t.error().message));
        return {};
    }
    return t->arrivals;
}

std::vector<qint64> timesOf(const std::vector<Arrival> &a)
{
    std::vector<qint64> out;
    for (const Arrival &x : a) {
        out.push_back(x.tUs);
    }
    return out;
}

// The reference for WindowCounter: every span [t, t + W) that starts at an event or ends just
// after one, counted directly.
qint64 bruteMax(const std::vector<qint64> &t, qint64 w)
{
    qint64 best = 0;
    for (size_t i = 0; i < t.size(); ++i) {
        for (qint64 start : {t[i], t[i] - w + 1}) {
            qint64 n = 0;
            for (qint64 x : t) {
                n += x >= start && x < start + w ? 1 : 0;
            }
            best = std::max(best, n);
        }
    }
    return best;
}

const char *minimalRules =
    R"("rules": [{"id": "r", "scope": "ip", "algorithm": "fixed_window", "limit": 3, "window": "5s"}])";

} // namespace

class TestSimPatterns : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void constantIsExact()
    {
        // 7 per 3 s over [1 s, 31 s): request k at 1 s + floor(k * 3 s / 7).
        const Scenario s = base(40 * sec, {constant({7, 3 * sec}, 1 * sec, 31 * sec)});
        const std::vector<qint64> t = timesOf(arrivalsOf(s));
        QCOMPARE(qint64(t.size()), 70);
        for (size_t k = 0; k < t.size(); ++k) {
            QCOMPARE(t[k], 1 * sec + qint64(k) * 3 * sec / 7);
        }
        // Rate within [from, to): 7/3 per second in every 3 s.
        QCOMPARE(std::count_if(t.begin(), t.end(), [](qint64 x) { return x < 4 * sec; }), 7);
    }

    void burstIsEvenlySpread()
    {
        TrafficPattern b;
        b.kind = TrafficPattern::Kind::Burst;
        b.atUs = 9'900 * ms;
        b.count = 100;
        b.spreadUs = 100 * ms;
        const std::vector<qint64> t = timesOf(arrivalsOf(base(30 * sec, {b})));
        QCOMPARE(qint64(t.size()), 100);
        for (size_t k = 0; k < t.size(); ++k) {
            QCOMPARE(t[k], 9'900 * ms + qint64(k) * ms);
        }
        b.spreadUs = 0; // all at the same microsecond
        const std::vector<qint64> same = timesOf(arrivalsOf(base(30 * sec, {b})));
        QCOMPARE(qint64(same.size()), 100);
        QVERIFY(std::all_of(same.begin(), same.end(), [](qint64 x) { return x == 9'900 * ms; }));
    }

    void poissonStatistics()
    {
        // 50/s over 200 s, seed 1: N ~ Poisson(10,000), gaps ~ Exp(mean 20 ms).
        Scenario s = base(200 * sec, {poisson({50, sec})});
        s.seed = 1;
        const std::vector<qint64> t = timesOf(arrivalsOf(s));
        const double n = double(t.size());
        QVERIFY2(std::fabs(n - 10'000) < 400, qPrintable(QString::number(n))); // 4 sigma
        QVERIFY(std::is_sorted(t.begin(), t.end()));
        QVERIFY(t.front() >= 0 && t.back() < 200 * sec);
        double sum = 0;
        double sum2 = 0;
        qint64 longer = 0;
        for (size_t i = 1; i < t.size(); ++i) {
            const double g = double(t[i] - t[i - 1]);
            sum += g;
            sum2 += g * g;
            longer += g > 20 * ms ? 1 : 0;
        }
        const double gaps = double(t.size() - 1);
        const double mean = sum / gaps;
        const double sd = std::sqrt(sum2 / gaps - mean * mean);
        QVERIFY2(std::fabs(mean - 20'000) < 20'000 * 0.04, qPrintable(QString::number(mean)));
        // Exponential: standard deviation = mean, P(gap > mean) = 1/e.
        QVERIFY2(std::fabs(sd / mean - 1) < 0.05, qPrintable(QString::number(sd / mean)));
        QVERIFY2(std::fabs(double(longer) / gaps - std::exp(-1.0)) < 0.02,
                 qPrintable(QString::number(double(longer) / gaps)));
        // Counts per second: variance = mean (index of dispersion 1), unlike constant traffic.
        std::vector<double> perSecond(200, 0);
        for (qint64 x : t) {
            perSecond[size_t(x / sec)] += 1;
        }
        double m = 0;
        double v = 0;
        for (double c : perSecond) {
            m += c / 200;
        }
        for (double c : perSecond) {
            v += (c - m) * (c - m) / 199;
        }
        QVERIFY2(v / m > 0.7 && v / m < 1.4, qPrintable(QString::number(v / m)));
    }

    void rampStatistics()
    {
        TrafficPattern up;
        up.kind = TrafficPattern::Kind::Ramp;
        up.fromRate = {10, sec};
        up.toRate = {50, sec};
        up.fromUs = 5 * sec;
        up.toUs = 25 * sec;
        const std::vector<qint64> t = timesOf(arrivalsOf(base(30 * sec, {up})));
        // (10 + 50) / 2 per s over 20 s.
        QVERIFY2(std::abs(qint64(t.size()) - 600) <= 1, qPrintable(QString::number(t.size())));
        QCOMPARE(t.front(), 5 * sec);
        QVERIFY(t.back() < 25 * sec);
        // Cumulative count at x s into the ramp: 10x + x^2 (rate 10 + 2x).
        const auto inFirst = [&](qint64 s) {
            return std::count_if(t.begin(), t.end(), [&](qint64 x) { return x < 5 * sec + s; });
        };
        QVERIFY(std::abs(inFirst(2 * sec) - 24) <= 1);
        QVERIFY(std::abs(inFirst(10 * sec) - 200) <= 1);
        // Local rate near the end is about 5 times the rate at the start.
        const auto between = [&](qint64 a, qint64 b) {
            return std::count_if(t.begin(), t.end(), [&](qint64 x) { return x >= a && x < b; });
        };
        QVERIFY(std::abs(between(5 * sec, 6 * sec) - 11) <= 1);
        QVERIFY(std::abs(between(24 * sec, 25 * sec) - 49) <= 1);

        TrafficPattern down = up; // falling: the same count, dense first
        std::swap(down.fromRate, down.toRate);
        const std::vector<qint64> d = timesOf(arrivalsOf(base(30 * sec, {down})));
        QVERIFY(std::abs(qint64(d.size()) - 600) <= 1);
        QVERIFY(std::count_if(d.begin(), d.end(), [](qint64 x) { return x < 6 * sec; }) >= 48);
    }

    void seededAndReproducible()
    {
        Scenario s = base(60 * sec, {poisson({20, sec}), constant({3, sec})}, 50);
        s.seed = 7;
        const std::vector<Arrival> a = arrivalsOf(s);
        QVERIFY(!a.empty());
        QCOMPARE(arrivalsOf(s), a); // same seed, same requests, same subjects
        s.seed = 8;
        QVERIFY(arrivalsOf(s) != a);
        // A pattern draws from its own stream: adding one leaves the others' requests alone.
        s.seed = 7;
        Scenario more = s;
        more.traffic.push_back(poisson({5, sec}));
        const std::vector<Arrival> b = arrivalsOf(more);
        QVERIFY(b.size() > a.size());
        size_t j = 0;
        for (const Arrival &x : b) {
            if (j < a.size() && x == a[j]) {
                ++j;
            }
        }
        QCOMPARE(j, a.size()); // a is a subsequence of b
        QVERIFY(std::is_sorted(b.begin(), b.end(),
                               [](const Arrival &x, const Arrival &y) { return x.tUs < y.tUs; }));
    }

    void subjects()
    {
        // Uniform draws over 10 generated subjects, named like client addresses.
        Scenario s = base(100 * sec, {constant({100, sec})}, 10);
        auto traffic = scenario::generate(s);
        QVERIFY(traffic.ok());
        std::vector<qint64> counts(10, 0);
        for (const Arrival &a : traffic->arrivals) {
            QVERIFY(a.subject < 10);
            ++counts[a.subject];
        }
        for (qint64 c : counts) {
            QVERIFY2(std::abs(c - 1000) < 5 * 30, qPrintable(QString::number(c)));
        }
        QCOMPARE(traffic->subjects.name(0), QByteArray("10.0.0.1"));
        QCOMPARE(traffic->subjects.name(9), QByteArray("10.0.0.10"));
        QCOMPARE(Subjects::generatedName(255), QByteArray("10.0.1.0"));
        QCOMPARE(Subjects::generatedName(65'535), QByteArray("10.1.0.0"));

        // A pinned subject: all of the pattern's requests on it; a name that spells a generated
        // subject is that subject.
        s.traffic[0].subject = "203.0.113.7";
        TrafficPattern p = constant({1, sec});
        p.subject = "10.0.0.3";
        s.traffic.push_back(p);
        traffic = scenario::generate(s);
        QVERIFY(traffic.ok());
        QCOMPARE(traffic->subjects.size(), 11);
        for (const Arrival &a : traffic->arrivals) {
            QVERIFY(a.subject == 10 || a.subject == 2);
        }
        QCOMPARE(traffic->subjects.name(10), QByteArray("203.0.113.7"));
    }

    void replay()
    {
        QTemporaryDir dir;
        QFile csv(dir.filePath(u"trace.csv"_s));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("t_ms,subject\n"
                  "# a comment\n"
                  "0,alice\n"
                  "\n"
                  "9900.5,bob\n"
                  "1.001,alice\n"
                  "12000\n"
                  "40000,carol\n");
        csv.close();
        const QString path = dir.filePath(u"s.json"_s);
        QVERIFY(test::writeFile(path, R"({"duration": "30s", "subjects": 4,
                   "traffic": [{"pattern": "replay", "file": "trace.csv"}], )" +
                                          QByteArray(minimalRules) + "}"));
        const scenario::Loaded l = scenario::loadFile(path);
        QVERIFY2(l.ok(), qPrintable(test::errorsOf(l)));
        auto traffic = scenario::generate(l.scenario);
        QVERIFY(traffic.ok());
        const std::vector<Arrival> &a = traffic->arrivals;
        // Sorted; 40 s is past the duration and left out.
        QCOMPARE(timesOf(a), (std::vector<qint64>{0, 1'001, 9'900'500, 12'000'000}));
        QCOMPARE(traffic->subjects.name(a[0].subject), QByteArray("alice"));
        QCOMPARE(traffic->subjects.name(a[1].subject), QByteArray("alice"));
        QCOMPARE(traffic->subjects.name(a[2].subject), QByteArray("bob"));
        QVERIFY(a[3].subject < 4); // no subject on the line: a generated one

        // t_us: integer microseconds.
        QVERIFY(csv.open(QIODevice::WriteOnly | QIODevice::Truncate));
        csv.write("t_us\n5\n7\n");
        csv.close();
        const scenario::Loaded us = scenario::loadFile(path);
        QVERIFY2(us.ok(), qPrintable(test::errorsOf(us)));
        QCOMPARE(timesOf(scenario::generate(us.scenario)->arrivals), (std::vector<qint64>{5, 7}));

        // Garbage lines: each one named by file and line.
        QVERIFY(csv.open(QIODevice::WriteOnly | QIODevice::Truncate));
        csv.write("0,alice\nhello world\n5,bob\n-3,carol\n7,\n1.23456,x\n8,a,b\n");
        csv.close();
        const scenario::Loaded bad = scenario::loadFile(path);
        const QString e = test::errorsOf(bad);
        QCOMPARE(bad.errors.size(), 5);
        QVERIFY2(e.contains(u"trace.csv:2: traffic[0].file: not a request line"_s), qPrintable(e));
        QVERIFY(e.contains(u"trace.csv:4: "_s));
        QVERIFY(
            e.contains(u"trace.csv:5: traffic[0].file: the subject after the comma is empty"_s));
        QVERIFY(e.contains(u"trace.csv:6: "_s));
        QVERIFY(e.contains(u"trace.csv:7: traffic[0].file: more than two columns"_s));

        // A replay file that is not there: said at the field, with its position.
        QVERIFY(QFile::remove(csv.fileName()));
        const scenario::Loaded missing = scenario::loadFile(path);
        QCOMPARE(missing.errors.size(), 1);
        QVERIFY2(
            test::errorsOf(missing).contains(u"s.json:2:"_s) &&
                test::errorsOf(missing).contains(u"traffic[0].file: no replay file 'trace.csv'"_s),
            qPrintable(test::errorsOf(missing)));
    }

    // The replay file lies under the scenario's folder (symlinks and .. resolved),
    // and errors never quote its lines.
    void replayStaysInItsFolder()
    {
        QTemporaryDir outside;
        QFile secret(outside.filePath(u"secret.txt"_s));
        QVERIFY(secret.open(QIODevice::WriteOnly));
        secret.write("secret-line-1: hunter2 API_KEY=abcd1234\n");
        secret.close();
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(u"sub"_s));
        QVERIFY(QFile::link(secret.fileName(), dir.filePath(u"link.csv"_s)));
        QVERIFY(QFile::copy(secret.fileName(), dir.filePath(u"sub/inside.csv"_s)));
        const auto load = [&](const QString &file) {
            QFile f(dir.filePath(u"s.json"_s));
            f.open(QIODevice::WriteOnly | QIODevice::Truncate);
            f.write("{\"duration\": \"30s\", \"traffic\": [{\"pattern\": \"replay\", \"file\": \"" +
                    file.toUtf8() + "\"}], " + QByteArray(minimalRules) + "}");
            f.close();
            return scenario::loadFile(f.fileName());
        };
        for (const QString &file :
             {secret.fileName(), u"../"_s + QFileInfo(outside.path()).fileName() + u"/secret.txt"_s,
              u"link.csv"_s, u"sub/../link.csv"_s}) {
            const scenario::Loaded l = load(file);
            const QString e = test::errorsOf(l);
            QCOMPARE(l.errors.size(), 1);
            QVERIFY2(e.contains(u"traffic[0].file: the replay file"_s) &&
                         e.contains(u"is not inside the scenario's folder"_s),
                     qPrintable(e));
            QVERIFY2(!e.contains(u"hunter2"_s), qPrintable(e));
        }
        // Inside the folder (below it, through ..): read, and its bad line is not quoted.
        for (const QString &file : {u"sub/inside.csv"_s, u"sub/../sub/inside.csv"_s}) {
            const scenario::Loaded l = load(file);
            const QString e = test::errorsOf(l);
            QVERIFY2(e.contains(u"inside.csv:1: traffic[0].file: not a request line"_s),
                     qPrintable(e));
            QVERIFY2(!e.contains(u"hunter2"_s) && !e.contains(u"secret-line"_s), qPrintable(e));
        }
    }

    // Scenario errors stop at 100, and the traffic list is capped.
    void scenarioErrorsBounded()
    {
        QByteArray many = "{\"duration\": \"30s\", \"traffic\": [1";
        many += QByteArray(",1").repeated(4'999) + "], " + QByteArray(minimalRules) + "}";
        const scenario::Loaded l = scenario::parseJson(many, u"s.json"_s);
        QCOMPARE(l.errors.size(), rules::maxErrors + 1);
        QVERIFY2(l.errors.last().message.startsWith(u"... and 4900 more error(s)"_s),
                 qPrintable(test::errorsOf(l)));
        QByteArray huge = "{\"duration\": \"30s\", \"traffic\": [1";
        huge += QByteArray(",1").repeated(200'000) + "], " + QByteArray(minimalRules) + "}";
        QElapsedTimer timer;
        timer.start();
        const scenario::Loaded h = scenario::parseJson(huge, u"s.json"_s);
        QVERIFY(timer.elapsed() < 5000);
        QVERIFY2(test::errorsOf(h).contains(u"200001 traffic patterns are more than the 100000"_s),
                 qPrintable(test::errorsOf(h)));
    }

    void badScenario_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("expected"); // a substring of one error, with its position

        const QByteArray rules = minimalRules;
        const auto doc = [&](const QByteArray &fields, const QByteArray &traffic) {
            return "{" + fields + "\"traffic\": [" + traffic + "],\n" + rules + "}";
        };
        QTest::newRow("negative rate")
            << doc("\"duration\": \"30s\",\n", "{\"pattern\": \"constant\", \"rate\": \"-5/s\"}")
            << u"s.json:2:37: traffic[0].rate: rate '-5/s' must be positive"_s;
        QTest::newRow("zero rate")
            << doc("\"duration\": \"30s\",\n", "{\"pattern\": \"poisson\", \"rate\": \"0/s\"}")
            << u"s.json:2:36: traffic[0].rate: rate '0/s' must be positive"_s;
        QTest::newRow("zero duration")
            << doc("\"duration\": \"0s\",\n", "{\"pattern\": \"constant\", \"rate\": \"1/s\"}")
            << u"s.json:1:2: duration: duration '0s' must be positive"_s;
        QTest::newRow("10^12 requests")
            << doc("\"duration\": \"30s\",\n",
                   "{\"pattern\": \"burst\", \"at\": \"1s\", \"count\": 1000000000000}")
            << u"s.json:2:46: traffic[0].count: 1000000000000 requests is more than a simulation "
               "offers (at most 50000000)"_s;
        QTest::newRow("10^12 by rate")
            << doc("\"duration\": \"30d\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1000000/s\"}")
            << u"traffic[0].rate: this pattern offers about 2.59e+12 requests; a simulation "
               "offers at most 50000000"_s;
        QTest::newRow("too much in all")
            << doc("\"duration\": \"100s\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"300000/s\"},"
                   "{\"pattern\": \"constant\", \"rate\": \"300000/s\"}")
            << u"traffic: the patterns offer about 6e+07 requests in all"_s;
        QTest::newRow("unknown pattern")
            << doc("\"duration\": \"30s\",\n", "{\"pattern\": \"sawtooth\", \"rate\": \"1/s\"}")
            << u"s.json:2:14: traffic[0].pattern: unknown pattern 'sawtooth'; expected one of "
               "constant, burst, poisson, ramp, replay"_s;
        QTest::newRow("unknown top field")
            << doc("\"duration\": \"30s\", \"durations\": \"1s\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1/s\"}")
            << u"s.json:1:21: durations: unknown field 'durations' (did you mean 'duration'?)"_s;
        QTest::newRow("unknown pattern field")
            << doc("\"duration\": \"30s\",\n", "{\"pattern\": \"constant\", \"rat\": \"1/s\"}")
            << u"traffic[0].rat: unknown field 'rat' (did you mean 'rate'?)"_s;
        QTest::newRow("unknown field with a space")
            << doc("\"duration\": \"30s\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1/s\", \"my field\": 1}")
            << u"s.json:2:52: traffic[0][\"my field\"]: unknown field 'my field'"_s;
        QTest::newRow("field of another pattern")
            << doc("\"duration\": \"30s\",\n",
                   "{\"pattern\": \"burst\", \"at\": \"1s\", \"count\": 5, \"rate\": \"1/s\"}")
            << u"traffic[0].rate: 'rate' is not a field of a burst pattern; burst takes at, "
               "count, spread, subject"_s;
        QTest::newRow("missing field")
            << doc("\"duration\": \"30s\",\n", "{\"pattern\": \"ramp\", \"from_rate\": \"1/s\"}")
            << u"traffic[0].to_rate: required field 'to_rate' is missing"_s;
        QTest::newRow("duration without unit")
            << doc("\"duration\": 30,\n", "{\"pattern\": \"constant\", \"rate\": \"1/s\"}")
            << u"s.json:1:2: duration: expected a duration with a unit, e.g. 30s, 100ms, got the "
               "number 30"_s;
        QTest::newRow("burst past the end")
            << doc("\"duration\": \"30s\",\n",
                   "{\"pattern\": \"burst\", \"at\": \"30s\", \"count\": 5}")
            << u"traffic[0].at: the burst at 30s is not inside the duration 30s"_s;
        QTest::newRow("to past the end")
            << doc("\"duration\": \"30s\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1/s\", \"to\": \"31s\"}")
            << u"traffic[0].to: 'to' 31s is after the end of the scenario (30s)"_s;
        QTest::newRow("from after to")
            << doc("\"duration\": \"30s\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1/s\", \"from\": \"20s\", \"to\": "
                   "\"10s\"}")
            << u"traffic[0].from: 'from' 20s is not before 'to' 10s"_s;
        QTest::newRow("bin too fine")
            << doc("\"duration\": \"30d\", \"bin\": \"1ms\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1/h\"}")
            << u"bin: the bin 1ms makes 2592000000 bins over 30d; at most 1000000"_s;
        QTest::newRow("bin not whole ms")
            << doc("\"duration\": \"30s\", \"bin\": \"1500us\",\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1/s\"}")
            << u"bin: the bin 1500us is not a whole number of milliseconds"_s;
        QTest::newRow("subjects")
            << doc("\"duration\": \"30s\", \"subjects\": 0,\n",
                   "{\"pattern\": \"constant\", \"rate\": \"1/s\"}")
            << u"subjects: expected a number of subjects from 1 to 1000000, got 0"_s;
        QTest::newRow("decimal time not whole us")
            << doc("\"duration\": \"30s\",\n",
                   "{\"pattern\": \"burst\", \"at\": \"1.0000001s\", \"count\": 5}")
            << u"traffic[0].at: '1.0000001s' is not a whole number of microseconds"_s;
        QTest::newRow("no traffic")
            << doc("\"duration\": \"30s\",\n", "") << u"traffic: the scenario offers no traffic"_s;
        QTest::newRow("no rules")
            << QByteArray(
                   R"({"duration": "30s", "traffic": [{"pattern": "constant", "rate": "1/s"}],
                "rules": []})")
            << u"s.json:2:17: rules: the scenario has no rules"_s;
        QTest::newRow("missing rules")
            << QByteArray(
                   R"({"duration": "30s", "traffic": [{"pattern": "constant", "rate": "1/s"}]})")
            << u"rules: the list of rules is missing"_s;
        QTest::newRow("bad rule (the rule codec's message)")
            << QByteArray(
                   R"({"duration": "30s", "traffic": [{"pattern": "constant", "rate": "1/s"}],
  "rules": [{"id": "r", "scope": "ip", "algorithm": "fixed_window", "limit": 0, "window": "5s"}]})")
            << u"s.json:2:69: rules[0].limit:"_s;
        QTest::newRow("unknown rule field")
            << QByteArray(
                   R"({"duration": "30s", "traffic": [{"pattern": "constant", "rate": "1/s"}],
  "rules": [{"id": "r", "scope": "ip", "algorithm": "fixed_window", "limit": 3, "window": "5s", "colour": 1}]})")
            << u"rules[0].colour: unknown field 'colour'"_s;
        QTest::newRow("duplicate field")
            << QByteArray(R"({"duration": "30s", "duration": "10s",
  "traffic": [{"pattern": "constant", "rate": "1/s"}], )" +
                          rules + "}")
            << u"s.json:1:21: duration: the field 'duration' appears twice"_s;
        QTest::newRow("syntax") << QByteArray("{\"duration\": \"30s\",\n \"traffic\": [}")
                                << u"s.json:2:14: JSON syntax error"_s;
        QTest::newRow("not an object")
            << QByteArray("[1, 2]") << u"s.json:1:1: expected a scenario"_s;
        QTest::newRow("empty") << QByteArray("  \n")
                               << u"s.json: the file contains only whitespace; expected a "
                                  "scenario"_s;
    }

    void badScenario()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, expected);
        const scenario::Loaded l = scenario::parseJson(text, u"s.json"_s);
        QVERIFY(!l.ok());
        QVERIFY2(test::errorsOf(l).contains(expected), qPrintable(test::errorsOf(l)));
    }

    void yamlScenario()
    {
        const QByteArray yaml = "name: yaml\n"
                                "duration: 10s\n"
                                "traffic:\n"
                                "  - pattern: burst\n"
                                "    at: 1.5s\n"
                                "    count: 4\n"
                                "rules:\n"
                                "  - id: r\n"
                                "    scope: global\n"
                                "    algorithm: token_bucket\n"
                                "    rate: 1/s\n"
                                "    burst: 2\n";
        const scenario::Loaded l = scenario::parseYaml(yaml, u"s.yaml"_s);
        QVERIFY2(l.ok(), qPrintable(test::errorsOf(l)));
        QCOMPARE(l.scenario.traffic.front().atUs, 1'500 * ms);
        QCOMPARE(l.scenario.rules.front().burst, 2);
        QCOMPARE(l.scenario.binUs, 10 * ms); // default: at most 1,000 bins

        QByteArray bad = yaml;
        bad.replace("count: 4", "count: four");
        const scenario::Loaded e = scenario::parseYaml(bad, u"s.yaml"_s);
        QVERIFY2(test::errorsOf(e).contains(
                     u"s.yaml:6:5: traffic[0].count: expected a positive integer, e.g. 100, got "
                     "the string \"four\""_s),
                 qPrintable(test::errorsOf(e)));
    }

    void presets()
    {
        const QStringList names = scenario::presetNames();
        QCOMPARE(names,
                 (QStringList{u"10-per-10s-per-ip"_s, u"3-per-5s-per-ip"_s, u"boundary-burst"_s,
                              u"budget-in-100ms"_s, u"shared-global"_s, u"steady-overload"_s}));
        for (const QString &n : names) {
            const scenario::Loaded l = scenario::load(u"preset:"_s + n);
            QVERIFY2(l.ok(), qPrintable(test::errorsOf(l)));
            QVERIFY(!l.scenario.description.isEmpty());
            // Every algorithm on the same traffic.
            QSet<Algorithm> algorithms;
            for (const Rule &r : l.scenario.rules) {
                algorithms.insert(r.algorithm);
            }
            QCOMPARE(algorithms.size(), 6);
            QVERIFY(scenario::generate(l.scenario).ok());
        }
        const scenario::Loaded none = scenario::load(u"preset:nope"_s);
        QVERIFY(!none.ok());
        QVERIFY(
            test::errorsOf(none).contains(u"no preset named 'nope'; the presets are "
                                          "10-per-10s-per-ip, 3-per-5s-per-ip, boundary-burst"_s));
    }

    void windowCounterIsExact()
    {
        QRandomGenerator rng(99);
        for (int round = 0; round < 300; ++round) {
            const qint64 w = qint64(rng.bounded(1, 50));
            std::vector<qint64> t(rng.bounded(0, 60));
            qint64 now = 0;
            for (qint64 &x : t) {
                now += qint64(rng.bounded(0, 12)); // repeated times included
                x = now;
            }
            WindowCounter c(w);
            for (qint64 x : t) {
                c.add(x);
            }
            QCOMPARE(c.max(), bruteMax(t, w));
            if (!t.empty()) {
                // The reported span [start, start + w) holds max() events.
                const qint64 start = c.maxStartUs();
                QCOMPARE(
                    qint64(std::count_if(t.begin(), t.end(),
                                         [&](qint64 x) { return x >= start && x < start + w; })),
                    c.max());
            }
        }
        // Half-open: events exactly one window apart are never in the same span.
        WindowCounter c(10);
        for (qint64 x : {0, 10, 20, 30}) {
            c.add(x);
        }
        QCOMPARE(c.max(), 1);
        c.add(39);
        QCOMPARE(c.max(), 2);
    }

    void reports()
    {
        SimResult r;
        r.scenario = u"a \"quoted\" name"_s;
        r.backend = u"local"_s;
        r.binUs = 500 * ms;
        RuleResult x;
        x.rule = u"lb"_s;
        x.algorithm = Algorithm::LeakyBucket;
        x.offered = 5;
        x.admitted = 3;
        x.rejected = 2;
        x.maxAdmittedInWindow = 3;
        x.maxReleasedInWindow = 2;
        x.peakAdmittedPerBin = 2;
        x.meanDelayMs = 1000.0 / 3;
        x.maxDelayMs = 700;
        r.rules = {x};
        r.series = {{{3, 2, 1, 1}, {2, 1, 1, 1}, {0, 0, 0, 1}}};
        const QByteArray expected =
            "{\"scenario\":\"a \\\"quoted\\\" name\",\"backend\":\"local\",\"results\":["
            "{\"rule\":\"lb\",\"algorithm\":\"leaky_bucket\",\"offered\":5,\"admitted\":3,"
            "\"rejected\":2,\"max_admitted_in_window\":3,\"max_released_in_window\":2,"
            "\"peak_admitted_per_bin\":2,\"mean_delay_ms\":333.333,\"max_delay_ms\":700}]}";
        QCOMPARE(report::json(r), expected);
        QCOMPARE(report::csv(r), QByteArray("t_ms,rule,offered,admitted,rejected,released\n"
                                            "0,lb,3,2,1,1\n"
                                            "500,lb,2,1,1,1\n"
                                            "1000,lb,0,0,0,1\n"));
    }
};

QTEST_GUILESS_MAIN(TestSimPatterns)
#include "tst_sim_patterns.moc"
