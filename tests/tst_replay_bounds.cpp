// sluice-cli replay held to its bounds, as a real process: its peak memory (the kernel's own
// figure, ru_maxrss of the reaped child) on lines of one second and on many subjects, the
// subject cap with its partial report, SIGINT/SIGTERM wherever the reader waits (/dev/zero, a
// FIFO nobody writes, a Redis run: no key left), a line far in the future, a .gz with trailing
// zeros, and a directory, a socket, a FIFO, a file truncated or grown while read.
#include "runcli.h"
#include "testdata.h"
#include "testkit.h"
#include "testredis.h"

#include "core/replay/logreader.h"
#include "core/replay/replay.h"
#include "core/rules/codec.h"

#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include <zlib.h>

#include <csignal>
#include <fcntl.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

using namespace sluice;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 t0 = 1'791'640'536;

const QByteArray ipRules = R"({"version": 1, "rules": [
  {"id": "api", "route": "GET /api", "scope": "ip", "algorithm": "fixed_window", "limit": 3, "window": "1s"},
  {"id": "bucket", "scope": "ip", "algorithm": "token_bucket", "rate": "5/s", "burst": 5}
]})";

QByteArray line(const QString &ip, qint64 secs, const QString &request = u"GET /api/x"_s)
{
    return u"%1 - - [%2 +0000] \"%3 HTTP/1.1\" 200 512 \"-\" \"curl/8.0\"\n"_s
        .arg(ip, QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(u"dd/MMM/yyyy:HH:mm:ss"_s),
             request)
        .toUtf8();
}

// One gzip member of `bytes`.
QByteArray gzipped(const QByteArray &bytes)
{
    z_stream z{};
    deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
    QByteArray out(qsizetype(deflateBound(&z, uLong(bytes.size())) + 64), '\0');
    z.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(bytes.constData()));
    z.avail_in = uInt(bytes.size());
    z.next_out = reinterpret_cast<Bytef *>(out.data());
    z.avail_out = uInt(out.size());
    deflate(&z, Z_FINISH);
    out.resize(qsizetype(z.total_out));
    deflateEnd(&z);
    return out;
}

QByteArray readFile(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// A child sluice-cli, spawned and reaped here (not by QProcess) so that its rusage is its own.
struct Child
{
    pid_t pid = -1;
    QString outPath;
    QString errPath;
    int status = 0;
    long maxRssKb = 0;
    qint64 exitedAfterMs = -1; // from the signal, or from the start

    Child(const QStringList &args, const QString &dir)
        : outPath(dir + u"/out"_s)
        , errPath(dir + u"/err"_s)
    {
        QList<QByteArray> owned{QFile::encodeName(test::cliPath()), "replay"};
        for (const QString &a : args) {
            owned << QFile::encodeName(a);
        }
        std::vector<char *> argv;
        for (QByteArray &a : owned) {
            argv.push_back(a.data());
        }
        argv.push_back(nullptr);
        posix_spawn_file_actions_t fa;
        posix_spawn_file_actions_init(&fa);
        const QByteArray o = QFile::encodeName(outPath), e = QFile::encodeName(errPath);
        posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
        posix_spawn_file_actions_addopen(&fa, 1, o.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        posix_spawn_file_actions_addopen(&fa, 2, e.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (posix_spawn(&pid, argv[0], &fa, nullptr, argv.data(), environ) != 0) {
            pid = -1;
        }
        posix_spawn_file_actions_destroy(&fa);
    }
    ~Child()
    {
        if (pid > 0) {
            ::kill(pid, SIGKILL);
            ::waitpid(pid, nullptr, 0);
        }
    }
    // Waits at most deadlineMs; true if it exited (else it is killed).
    bool wait(int deadlineMs)
    {
        QElapsedTimer t;
        t.start();
        while (pid > 0) {
            rusage ru{};
            const pid_t r = ::wait4(pid, &status, WNOHANG, &ru);
            if (r == pid) {
                maxRssKb = ru.ru_maxrss;
                exitedAfterMs = t.elapsed();
                pid = -1;
                return true;
            }
            if (t.elapsed() > deadlineMs) {
                return false;
            }
            QThread::msleep(5);
        }
        return false;
    }
    int exitCode() const { return WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
    QByteArray out() const { return readFile(outPath); }
    QByteArray err() const { return readFile(errPath); }
};

QJsonObject json(const QByteArray &out)
{
    return QJsonDocument::fromJson(out).object();
}

} // namespace

class TestReplayBounds : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void oneSecondStaysBounded();
    void subjectCapStopsWithReport();
    void bytesPerRuleAndSubject();
    void signalsStopTheReader_data();
    void signalsStopTheReader();
    void signalStopsRedisRunAndCleansUp();
    void futureLineIsAnOutlier();
    void gzipTrailingZeros();
    void badInputs();
    void fileTruncatedOrGrownWhileRead();
    void cancelFlagStopsTheEngine();
};

// 2,000,000 requests of one second (a .gz of 40 identical members): the buffer that puts them
// in time order is bounded; without the bound it held every line (about 70 bytes each).
void TestReplayBounds::oneSecondStaysBounded()
{
    QTemporaryDir d;
    QByteArray block;
    for (int i = 0; i < 50'000; ++i) {
        block += line(u"10.1.%1.%2"_s.arg(i / 250).arg(i % 250), t0);
    }
    const QByteArray member = gzipped(block);
    QByteArray gz;
    for (int i = 0; i < 40; ++i) {
        gz += member;
    }
    const QString log = test::fileIn(d, u"a.log.gz"_s, gz);
    const QString rules = test::fileIn(d, u"r.json"_s, ipRules);
    Child c({log, u"--rules"_s, rules, u"--json"_s}, d.path());
    QVERIFY(c.wait(120'000));
    QCOMPARE(c.exitCode(), 0);
    qInfo("peak RSS of the replay: %ld kB", c.maxRssKb);
    QVERIFY2(c.maxRssKb < 110 * 1024 * test::memoryBoundFactor,
             QByteArray::number(qint64(c.maxRssKb)).constData());
    const QJsonObject o = json(c.out());
    QCOMPARE(o[u"lines"_s].toInteger(), 2'000'000);
    QCOMPARE(o[u"late"_s].toInteger(), 0);
    QVERIFY(o[u"decided_early"_s].toInteger() > 0);
    QCOMPARE(o[u"seconds_not_spread"_s].toInteger(), 1);
    QVERIFY2(c.err().contains("decided at their start, not spread"), c.err().constData());
    // All 2,000,000 requests were decided: 50,000 subjects, 40 requests each in one second.
    const QJsonObject api = o[u"rules"_s].toArray()[0].toObject();
    QCOMPARE(api[u"decided"_s].toInteger(), 2'000'000);
    QCOMPARE(api[u"subjects"_s].toInteger(), 50'000);
    QCOMPARE(api[u"admitted"_s].toInteger(), 150'000);
}

// 66,000 subjects through 16 rules: the state is the documented 128 bytes per (rule,
// subject) and 112 per subject, and not more (the per-rule arrays grew by doubling before,
// to 131,072 cells each here: twice as much).
void TestReplayBounds::bytesPerRuleAndSubject()
{
    QTemporaryDir d;
    constexpr int subjects = 66'000;
    constexpr int rules = 16;
    QByteArray set = R"({"version": 1, "rules": [)";
    for (int r = 0; r < rules; ++r) {
        set += QByteArray(r > 0 ? "," : "") + R"({"id": "r)" + QByteArray::number(r) +
               R"(", "scope": "ip", "algorithm": "fixed_window", "limit": 1, "window": "1m"})";
    }
    set += "]}";
    QByteArray log;
    for (int i = 0; i < 2 * subjects; ++i) {
        const int s = i % subjects;
        log += line(u"10.8.%1.%2"_s.arg(s / 250).arg(s % 250), t0 + i / 1000);
    }
    Child c({test::fileIn(d, u"a.log"_s, log), u"--rules"_s, test::fileIn(d, u"r.json"_s, set),
             u"--json"_s},
            d.path());
    QVERIFY(c.wait(120'000));
    QVERIFY2(c.exitCode() == 0, c.err().constData());
    QCOMPARE(json(c.out())[u"rules"_s].toArray()[15].toObject()[u"subjects"_s].toInteger(),
             subjects);
    const qint64 state = qint64(subjects) * (rules * 128 + 112);
    qInfo("peak RSS %ld kB, the documented state %lld kB", c.maxRssKb, state / 1024);
    // The process without subjects takes about 30 MB; the documented state and 15 % more.
    QVERIFY2(qint64(c.maxRssKb) * 1024 <
                 (40 * 1024 * 1024 + state * 115 / 100) * test::memoryBoundFactor,
             QByteArray::number(qint64(c.maxRssKb)).constData());
}

// More subjects than --max-subjects: exit 1, the cap and the memory named, the report of the
// lines before it printed; memory stays that of the subjects under the cap.
void TestReplayBounds::subjectCapStopsWithReport()
{
    QTemporaryDir d;
    QByteArray log;
    for (int i = 0; i < 5'000; ++i) {
        log += line(u"10.2.%1.%2"_s.arg(i / 250).arg(i % 250), t0 + i / 100);
    }
    const QString path = test::fileIn(d, u"a.log"_s, log);
    const QString rules = test::fileIn(d, u"r.json"_s, ipRules);
    Child c({path, u"--rules"_s, rules, u"--json"_s, u"--max-subjects"_s, u"1000"_s}, d.path());
    QVERIFY(c.wait(60'000));
    QCOMPARE(c.exitCode(), 1);
    QVERIFY2(c.err().contains("more than 1000 distinct subjects for scope ip (--max-subjects "
                              "1000)") &&
                 c.err().contains("MiB") && c.err().contains("line 1001 of"),
             c.err().constData());
    const QJsonObject o = json(c.out());
    QCOMPARE(o[u"lines"_s].toInteger(), 1001);
    QCOMPARE(o[u"max_subjects"_s].toInteger(), 1000);
    QCOMPARE(o[u"rules"_s].toArray()[0].toObject()[u"subjects"_s].toInteger(), 1001);
    QVERIFY(o[u"error"_s].toString().contains(u"--max-subjects"_s));
    // The default comes from the memory: a run under it is not stopped.
    Child all({path, u"--rules"_s, rules, u"--json"_s}, d.path());
    QVERIFY(all.wait(60'000));
    QCOMPARE(all.exitCode(), 0);
    QVERIFY(json(all.out())[u"max_subjects"_s].toInteger() >= 10'000);
}

void TestReplayBounds::signalsStopTheReader_data()
{
    QTest::addColumn<QString>("input");
    QTest::addColumn<int>("signal");
    QTest::newRow("/dev/zero SIGINT") << u"/dev/zero"_s << SIGINT;
    QTest::newRow("/dev/zero SIGTERM") << u"/dev/zero"_s << SIGTERM;
    QTest::newRow("fifo SIGINT") << u"fifo"_s << SIGINT;
    QTest::newRow("fifo SIGTERM") << u"fifo"_s << SIGTERM;
}

// In the middle of an endless over-long line (/dev/zero), or waiting for a FIFO's first writer:
// a signal ends the run at once, with the interruption said.
void TestReplayBounds::signalsStopTheReader()
{
    QFETCH(QString, input);
    QFETCH(int, signal);
    QTemporaryDir d;
    QString path = input;
    if (input == u"fifo"_s) {
        path = d.filePath(u"fifo"_s);
        QCOMPARE(::mkfifo(QFile::encodeName(path).constData(), 0600), 0);
    }
    const QString rules = test::fileIn(d, u"r.json"_s, ipRules);
    Child c({path, u"--rules"_s, rules, u"--format"_s, u"nginx-combined"_s}, d.path());
    QVERIFY(c.pid > 0);
    QVERIFY(!c.wait(400)); // still reading: /dev/zero never ends, the FIFO has no writer
    ::kill(c.pid, signal);
    QVERIFY2(c.wait(2'000), "no exit within 2 s of the signal");
    QVERIFY2(c.exitedAfterMs < 1'000, QByteArray::number(c.exitedAfterMs).constData());
    QCOMPARE(c.exitCode(), 1);
    QVERIFY2(c.err().contains("interrupted"), c.err().constData());
}

// A Redis run reading a FIFO that stays open: SIGINT ends it, and the run's keys, written
// before, are gone.
void TestReplayBounds::signalStopsRedisRunAndCleansUp()
{
    QTemporaryDir d;
    const QString fifo = d.filePath(u"fifo"_s);
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const QString rules = test::fileIn(d, u"r.json"_s, ipRules);
    Connection redis = test::connect();
    QVERIFY(test::keysWithPrefix(redis, "sluice:replay:").isEmpty());
    Child c({fifo, u"--rules"_s, rules, u"--url"_s, test::redisUrl(), u"--json"_s, u"--format"_s,
             u"nginx-combined"_s},
            d.path());
    const int w = ::open(QFile::encodeName(fifo).constData(), O_WRONLY);
    QVERIFY(w >= 0);
    // 60 s of log, 1,000 requests a second: enough to pass the reorder window and be decided.
    QByteArray log;
    for (int i = 0; i < 60'000; ++i) {
        log += line(u"10.3.0.%1"_s.arg(i % 200), t0 + i / 1000);
    }
    QCOMPARE(::write(w, log.constData(), size_t(log.size())), ssize_t(log.size()));
    QElapsedTimer t;
    t.start();
    while (test::keysWithPrefix(redis, "sluice:replay:").isEmpty() && t.elapsed() < 30'000) {
        QThread::msleep(20);
    }
    QVERIFY2(!test::keysWithPrefix(redis, "sluice:replay:").isEmpty(), "no key was written");
    ::kill(c.pid, SIGINT);
    QVERIFY2(c.wait(3'000), "no exit within 3 s of SIGINT");
    ::close(w);
    QCOMPARE(c.exitCode(), 1);
    QVERIFY2(c.err().contains("interrupted"), c.err().constData());
    const QString prefix = json(c.out())[u"key_prefix"_s].toString();
    QVERIFY(prefix.startsWith(u"sluice:replay:"_s));
    QVERIFY(test::keysWithPrefix(redis, prefix.toUtf8()).isEmpty());
    QVERIFY(test::keysWithPrefix(redis, "sluice:replay:").isEmpty());
}

// One line dated in 9999 among ordinary ones: that line is the outlier, the rest replayed;
// --reorder-window 0s is accepted.
void TestReplayBounds::futureLineIsAnOutlier()
{
    QTemporaryDir d;
    QByteArray log;
    for (int i = 0; i < 5'100; ++i) {
        log += i == 100 ? line(u"10.4.0.1"_s, 253'402'300'000) : line(u"10.4.0.1"_s, t0 + i / 10);
    }
    const QString path = test::fileIn(d, u"a.log"_s, log);
    const QString rules = test::fileIn(d, u"r.json"_s, ipRules);
    for (const QString &window : {u"5s"_s, u"0s"_s}) {
        const auto r = test::runCli(
            {u"replay"_s, path, u"--rules"_s, rules, u"--json"_s, u"--reorder-window"_s, window});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = json(r.out);
        QCOMPARE(o[u"late"_s].toInteger(), 0);
        QCOMPARE(o[u"outliers"_s].toInteger(), 1);
        QCOMPARE(o[u"outlier_lines"_s].toArray()[0][u"line"_s].toInteger(), 101);
        QCOMPARE(o[u"rules"_s].toArray()[0].toObject()[u"matched"_s].toInteger(), 5'099);
        QCOMPARE(o[u"reorder_window_ms"_s].toDouble(), window == u"0s"_s ? 0.0 : 5000.0);
    }
    // A real jump (the log resumes an hour later) is not one.
    QByteArray gap;
    for (int i = 0; i < 200; ++i) {
        gap += line(u"10.4.0.2"_s, t0 + i / 10 + (i >= 100 ? 3600 : 0));
    }
    const auto r = test::runCli(
        {u"replay"_s, test::fileIn(d, u"gap.log"_s, gap), u"--rules"_s, rules, u"--json"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(json(r.out)[u"outliers"_s].toInteger(), 0);
    QCOMPARE(json(r.out)[u"rules"_s].toArray()[0].toObject()[u"matched"_s].toInteger(), 200);
}

// Zeros after the last member (tape padding, a preallocated file): a warning, as gzip's
// "trailing garbage ignored", every line replayed, exit 0.
void TestReplayBounds::gzipTrailingZeros()
{
    QTemporaryDir d;
    QByteArray log;
    for (int i = 0; i < 300; ++i) {
        log += line(u"10.5.0.%1"_s.arg(i % 7), t0 + i / 10);
    }
    const QString path = test::fileIn(d, u"a.log.gz"_s, gzipped(log) + QByteArray(1024, '\0'));
    const auto r = test::runCli(
        {u"replay"_s, path, u"--rules"_s, test::fileIn(d, u"r.json"_s, ipRules), u"--json"_s});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QCOMPARE(json(r.out)[u"lines"_s].toInteger(), 300);
    QVERIFY2(r.err.contains("trailing garbage after the last gzip member") &&
                 r.err.contains("a.log.gz"),
             r.err.constData());
}

// A directory and a socket: refused, named; a FIFO: read as a log.
void TestReplayBounds::badInputs()
{
    QTemporaryDir d;
    const QString rules = test::fileIn(d, u"r.json"_s, ipRules);
    auto r = test::runCli({u"replay"_s, d.path(), u"--rules"_s, rules});
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is a directory, not a log file"), r.err.constData());
    const QString sock = d.filePath(u"s"_s);
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, QFile::encodeName(sock).constData(), sizeof a.sun_path - 1);
    QCOMPARE(::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a), 0);
    r = test::runCli({u"replay"_s, sock, u"--rules"_s, rules});
    ::close(fd);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("is a socket, not a log file"), r.err.constData());
    // A FIFO, its format detected from its first lines without losing them.
    const QString fifo = d.filePath(u"fifo"_s);
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    Child c({fifo, u"--rules"_s, rules, u"--json"_s}, d.path());
    QByteArray log;
    for (int i = 0; i < 500; ++i) {
        log += line(u"10.6.0.%1"_s.arg(i % 9), t0 + i / 10);
    }
    const int w = ::open(QFile::encodeName(fifo).constData(), O_WRONLY);
    QVERIFY(w >= 0);
    QCOMPARE(::write(w, log.constData(), size_t(log.size())), ssize_t(log.size()));
    ::close(w);
    QVERIFY(c.wait(30'000));
    QVERIFY2(c.exitCode() == 0, c.err().constData());
    QCOMPARE(json(c.out())[u"lines"_s].toInteger(), 500);
    QCOMPARE(json(c.out())[u"rules"_s].toArray()[0].toObject()[u"matched"_s].toInteger(), 500);
}

// The reader stops at the size the file had when opened: a file cut shorter meanwhile is an
// error naming the byte, one that grew a warning.
void TestReplayBounds::fileTruncatedOrGrownWhileRead()
{
    QTemporaryDir d;
    QByteArray log;
    while (log.size() < 3 * 1024 * 1024) {
        log += line(u"10.7.0.1"_s, t0);
    }
    const QString path = test::fileIn(d, u"a.log"_s, log);
    {
        auto reader = replay::LogReader::open(path);
        QVERIFY(reader);
        std::string_view l;
        bool tooLong = false;
        QVERIFY((*reader)->next(l, tooLong));
        QCOMPARE(::truncate(QFile::encodeName(path).constData(), 2 * 1024 * 1024), 0);
        while ((*reader)->next(l, tooLong)) {
        }
        QVERIFY((*reader)->error());
        const QString m = (*reader)->error()->message;
        QVERIFY2(m.contains(u"a.log was truncated while it was read: it ends at byte 2097152 of "
                            "the %1"_s.arg(log.size())),
                 qPrintable(m));
    }
    const QString grown = test::fileIn(d, u"b.log"_s, log);
    auto reader = replay::LogReader::open(grown);
    QVERIFY(reader);
    QFile f(grown);
    QVERIFY(f.open(QIODevice::Append));
    f.write(log);
    f.close();
    std::string_view l;
    bool tooLong = false;
    qint64 lines = 0;
    while ((*reader)->next(l, tooLong)) {
        ++lines;
    }
    QVERIFY(!(*reader)->error());
    QCOMPARE(lines, qint64(log.count('\n')));
    QVERIFY2((*reader)->warning().contains(u"b.log grew while it was read"_s),
             qPrintable((*reader)->warning()));
}

// The console's Cancel is the run's cancel flag: set while the reader skips /dev/zero's
// endless line, the run returns at once, cancelled.
void TestReplayBounds::cancelFlagStopsTheEngine()
{
    replay::Options o;
    o.files = {u"/dev/zero"_s};
    o.format = replay::Format::NginxCombined;
    o.rules = rules::parseJson(ipRules, u"r.json"_s).set;
    std::atomic<bool> cancel{false};
    o.cancel = &cancel;
    Result<replay::Report> result = Error::make(Error::Kind::Internal, QString());
    std::atomic<bool> done{false};
    std::thread run([&] {
        result = replay::run(o);
        done.store(true);
    });
    QThread::msleep(300);
    QVERIFY(!done.load());
    cancel.store(true);
    QElapsedTimer t;
    t.start();
    while (!done.load() && t.elapsed() < 5'000) {
        QThread::msleep(5);
    }
    if (!done.load()) {
        qFatal("the run did not return within 5 s of its cancel"); // it would never
    }
    run.join();
    QVERIFY2(t.elapsed() < 1'000, QByteArray::number(t.elapsed()).constData());
    QVERIFY2(result, qPrintable(result ? QString() : result.error().message));
    QVERIFY(result->cancelled);
}

QTEST_GUILESS_MAIN(TestReplayBounds)
#include "tst_replay_bounds.moc"
