// Golden vectors (tests/golden/<algorithm>.txt, derived by hand from ALGORITHMS.md): every
// line runs on the in-process twin and on the script in a real Redis with now_us injected,
// and both must give exactly the expected six integers. After every Redis call the key is
// absent or has a TTL.
#include "testdata.h"
#include "testredis.h"

#include "core/limiter/localmodel.h"
#include "core/limiter/redislimiter.h"

#include <QFile>
#include <QTest>

using namespace sluice;

namespace {

struct Line
{
    int lineNo = 0;
    qint64 nowUs = 0;
    qint64 cost = 0;
    Decision expected;
};

struct Block
{
    int lineNo = 0;
    Policy policy;
    qint64 minTtlMs = 0;
    std::vector<Line> lines;
};

// Parses the file; on a syntax error returns the message (file:line) instead.
QString parse(const QString &path, Algorithm a, std::vector<Block> &blocks)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return QStringLiteral("cannot open %1").arg(path);
    }
    int n = 0;
    while (!f.atEnd()) {
        ++n;
        const QByteArray line = f.readLine().trimmed();
        if (line.isEmpty() || line.startsWith('#')) {
            continue;
        }
        const QString where = QStringLiteral("%1:%2").arg(path).arg(n);
        const QList<QByteArray> words = line.simplified().split(' ');
        if (words[0] == "policy") {
            Block b;
            b.lineNo = n;
            b.policy.algorithm = a;
            for (qsizetype i = 1; i < words.size(); ++i) {
                const QList<QByteArray> kv = words[i].split('=');
                bool ok = kv.size() == 2;
                const qint64 v = ok ? kv[1].toLongLong(&ok) : 0;
                if (!ok) {
                    return where + QStringLiteral(": bad parameter ") + QString::fromUtf8(words[i]);
                }
                if (kv[0] == "limit") {
                    b.policy.limit = v;
                } else if (kv[0] == "window_us") {
                    b.policy.windowUs = v;
                } else if (kv[0] == "rate_count") {
                    b.policy.rate.count = v;
                } else if (kv[0] == "rate_period_us") {
                    b.policy.rate.periodUs = v;
                } else if (kv[0] == "burst") {
                    b.policy.burst = v;
                } else if (kv[0] == "count_rejected") {
                    b.policy.countRejected = v != 0;
                } else if (kv[0] == "min_ttl_ms") {
                    b.minTtlMs = v;
                } else {
                    return where + QStringLiteral(": unknown parameter ") +
                           QString::fromUtf8(kv[0]);
                }
            }
            if (auto v = b.policy.validate(); !v) {
                return where + QStringLiteral(": ") + v.error().message;
            }
            blocks.push_back(b);
            continue;
        }
        // now_us cost -> allowed limit remaining retry reset delay
        if (words.size() != 9 || words[2] != "->" || blocks.empty()) {
            return where + QStringLiteral(": expected 'now_us cost -> a l r retry reset delay' "
                                          "after a policy line");
        }
        qint64 v[8];
        const int idx[8] = {0, 1, 3, 4, 5, 6, 7, 8};
        for (int i = 0; i < 8; ++i) {
            bool ok = false;
            v[i] = words[idx[i]].toLongLong(&ok);
            if (!ok) {
                return where + QStringLiteral(": not an integer: ") +
                       QString::fromUtf8(words[idx[i]]);
            }
        }
        blocks.back().lines.push_back(
            Line{n, v[0], v[1], Decision{v[2] != 0, v[3], v[4], v[5], v[6], v[7]}});
    }
    return {};
}

} // namespace

class TestGolden : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void vectors_data() { test::addAlgorithmRows(); }
    void vectors()
    {
        const Algorithm a = test::fetchAlgorithm();
        const QString path =
            QStringLiteral(SLUICE_SOURCE_DIR "/tests/golden/%1.txt").arg(algorithm::name(a));
        std::vector<Block> blocks;
        const QString error = parse(path, a, blocks);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QVERIFY2(blocks.size() >= 3, "too few golden blocks");

        RedisLimiter redis(test::connect());
        Connection probe = test::connect();
        ManualClock clock;
        int checked = 0;
        for (size_t b = 0; b < blocks.size(); ++b) {
            LocalModel twin(clock);
            const Block &block = blocks[b];
            const QByteArray key = test::keyPrefix() + algorithm::name(a).toUtf8() + ':' +
                                   QByteArray::number(qint64(b));
            for (const Line &line : block.lines) {
                // Injected times run far ahead of the wall clock that Redis expires keys by:
                // a TTL floor keeps state alive between lines, as the simulator does. It
                // changes no reply; TTL = reset itself is checked in tst_differential.
                const qint64 minTtl = block.minTtlMs > 0 ? block.minTtlMs : 600'000;
                const Request req{&block.policy, key, line.cost, line.nowUs, minTtl};
                const QString where = QStringLiteral("%1:%2").arg(path).arg(line.lineNo);
                auto local = twin.decide(req);
                QVERIFY2(local.ok(), qPrintable(where + QStringLiteral(" twin: ") +
                                                (local.ok() ? QString() : local.error().message)));
                QVERIFY2(*local == line.expected,
                         qPrintable(QStringLiteral("%1: twin gave %2, expected %3")
                                        .arg(where, test::describe(*local),
                                             test::describe(line.expected))));
                auto remote = redis.decide(req);
                QVERIFY2(remote.ok(),
                         qPrintable(where + QStringLiteral(" redis: ") +
                                    (remote.ok() ? QString() : remote.error().message)));
                QVERIFY2(*remote == line.expected,
                         qPrintable(QStringLiteral("%1: script gave %2, expected %3")
                                        .arg(where, test::describe(*remote),
                                             test::describe(line.expected))));
                const qint64 ttl = test::pttl(probe, key);
                QVERIFY2(
                    ttl == -2 || ttl > 0,
                    qPrintable(QStringLiteral("%1: key left with PTTL %2").arg(where).arg(ttl)));
                ++checked;
            }
        }
        qInfo("%d golden decisions agree on twin and Redis", checked);
    }
};

QTEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
