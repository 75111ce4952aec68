// The subjects a candidate limit would deny: the bounded table of the highest peaks
// (core/replay/peaktop.h), exact for small inputs and of a fixed size for many distinct
// subjects, and the replay's report naming them (RuleReport::wouldDeny); a staged change's
// candidate replayed in shadow beside its rule.
#include "testdata.h"

#include "core/replay/peaktop.h"
#include "core/replay/replay.h"
#include "core/rules/rulestore.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace sluice;
using namespace sluice::replay;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 t0 = 1'791'640'536; // 2026-10-10T13:55:36Z

QByteArray line(const QString &ip, qint64 secs)
{
    return u"%1 - - [%2 +0000] \"GET /api HTTP/1.1\" 200 512 \"-\" \"curl/8.0\"\n"_s
        .arg(ip, QDateTime::fromSecsSinceEpoch(secs, Qt::UTC).toString(u"dd/MMM/yyyy:HH:mm:ss"_s))
        .toUtf8();
}

// 20 s of traffic: each (address, requests a second) every second.
QByteArray traffic(const QList<QPair<QString, int>> &clients)
{
    QByteArray log;
    for (int s = 0; s < 20; ++s) {
        for (const auto &[ip, perSecond] : clients) {
            for (int k = 0; k < perSecond; ++k) {
                log += line(ip, t0 + s);
            }
        }
    }
    return log;
}

Rule perSecond(const QString &id, qint64 limit)
{
    return Rule::window(id, Algorithm::FixedWindow, limit, 1'000'000, {Scope::Kind::Ip, {}});
}

RuleSet oneRule(const Rule &r)
{
    RuleSet s;
    s.rules = {r};
    return s;
}

Report replayed(const QTemporaryDir &dir, const QByteArray &log, const RuleSet &set)
{
    Options o;
    o.files = {test::fileIn(dir, u"a.log"_s, log)};
    o.rules = set;
    o.threads = 1;
    auto rep = run(o);
    if (!rep) {
        qFatal("replay: %s", qPrintable(rep.error().message));
    }
    return *rep;
}

} // namespace

class TestReplayHeavy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Fewer subjects than the budget: every one kept, its peak and windows exact.
    void exactForSmallInputs()
    {
        PeakTop top(8);
        top.add(1, 3, 3);
        top.add(2, 9, 9);
        top.add(1, 5, 5);
        top.add(3, 1, 1);
        top.add(2, 9, 4);
        const auto e = top.entries();
        QCOMPARE(e.size(), size_t(3));
        QVERIFY(!top.dropped());
        QCOMPARE(e[0].sid, quint32(2));
        QCOMPARE(e[0].peak, quint32(9));
        QCOMPARE(e[0].kept, quint8(2));
        QCOMPARE(e[1].sid, quint32(1));
        QCOMPARE(e[1].peak, quint32(5));
        QCOMPARE(e[2].sid, quint32(3));
        QCOMPARE(e[0].floor, quint32(0));
        // More windows than kept: the largest stay, the floor bounds the rest.
        PeakTop one(1);
        for (quint32 c = 1; c <= 40; ++c) {
            one.add(7, 40, c);
        }
        const auto w = one.entries()[0];
        QCOMPARE(w.kept, quint8(PeakTop::windowsKept));
        QCOMPARE(std::min_element(w.windows.begin(), w.windows.end())->first,
                 quint32(40 - PeakTop::windowsKept + 1));
        QCOMPARE(w.floor, quint32(40 - PeakTop::windowsKept));
        // Windows of the same count are one entry of the histogram, however many.
        PeakTop steady(1);
        for (int k = 0; k < 1000; ++k) {
            steady.add(7, 10, 10);
        }
        QCOMPARE(steady.entries()[0].kept, quint8(1));
        QCOMPARE(steady.entries()[0].windows[0], std::make_pair(quint32(10), quint32(1000)));
    }

    // A million distinct subjects in a budget of 64: the table never holds more, and the 64
    // it holds are the highest peaks, exactly.
    void boundedForManyDistinctSubjects()
    {
        PeakTop top(64);
        std::vector<quint32> peaks;
        QRandomGenerator rng(7);
        for (quint32 sid = 0; sid < 1'000'000; ++sid) {
            const quint32 peak = 1 + rng.bounded(100'000u);
            peaks.push_back(peak);
            top.add(sid, peak, peak);
            if (sid % 100'000 == 0) {
                QVERIFY(top.size() <= 64);
            }
        }
        QCOMPARE(top.size(), size_t(64));
        QVERIFY(top.dropped());
        std::sort(peaks.begin(), peaks.end(), std::greater<>());
        const auto e = top.entries();
        for (size_t i = 0; i < e.size(); ++i) {
            QCOMPARE(e[i].peak, peaks[i]);
        }
    }

    // Through the replay: a limit names the subjects above it, with the requests it denies
    // each (a fixed window of a second: rate - limit a second, for 20 s).
    void wouldDenyNamesTheSubjects()
    {
        QTemporaryDir dir;
        const Report rep = replayed(dir,
                                    traffic({{u"10.0.0.1"_s, 10},
                                             {u"10.0.0.2"_s, 8},
                                             {u"10.0.0.3"_s, 6},
                                             {u"10.0.0.4"_s, 1},
                                             {u"10.0.0.5"_s, 2}}),
                                    oneRule(perSecond(u"r"_s, 5)));
        const RuleReport &r = rep.rules.at(0);
        QCOMPARE(r.heavy.size(), size_t(5));
        QVERIFY(!r.heavyDropped);
        const WouldDeny five = r.wouldDeny(5);
        QVERIFY(!five.approximate);
        QCOMPARE(five.above, qint64(3));
        QCOMPARE(five.subjects.size(), size_t(3));
        QCOMPARE(five.subjects[0].subject, QByteArray("10.0.0.1"));
        QCOMPARE(five.subjects[0].denied, qint64(100));
        QCOMPARE(five.subjects[0].peak, qint64(10));
        QCOMPARE(five.subjects[0].requests, qint64(200));
        QCOMPARE(five.subjects[1].denied, qint64(60));
        QCOMPARE(five.subjects[2].subject, QByteArray("10.0.0.3"));
        QCOMPARE(five.subjects[2].denied, qint64(20));
        // The per-subject counts add up to the rule's own denials and to the shares.
        QCOMPARE(five.subjects[0].denied + five.subjects[1].denied + five.subjects[2].denied,
                 r.denied);
        QCOMPARE(r.shares(5).requests, r.denied);
        const WouldDeny seven = r.wouldDeny(7, 1);
        QCOMPARE(seven.above, qint64(2));
        QCOMPARE(seven.subjects.size(), size_t(1));
        QCOMPARE(seven.subjects[0].denied, qint64(60));
        QVERIFY(r.wouldDeny(10).subjects.empty());
    }

    // More distinct subjects than the budget: the report keeps heavyBudget of them; the few
    // above a limit are named exactly, and a limit with more subjects above it than kept says
    // its names are an estimate.
    void manySubjectsStayBounded()
    {
        QByteArray log;
        const int quiet = int(heavyBudget) + 500;
        for (int i = 0; i < quiet; ++i) {
            log += line(u"10.%1.%2.1"_s.arg(i / 250).arg(i % 250), t0 + i / 100);
        }
        for (int k = 0; k < 9; ++k) {
            log += line(u"203.0.113.9"_s, t0 + 20);
        }
        QTemporaryDir dir;
        const Report rep = replayed(dir, log, oneRule(perSecond(u"r"_s, 5)));
        const RuleReport &r = rep.rules.at(0);
        QCOMPARE(r.subjects, qint64(quiet + 1));
        QCOMPARE(r.heavy.size(), heavyBudget);
        QVERIFY(r.heavyDropped);
        const WouldDeny one = r.wouldDeny(1);
        QVERIFY(!one.approximate);
        QCOMPARE(one.subjects.size(), size_t(1));
        QCOMPARE(one.subjects[0].subject, QByteArray("203.0.113.9"));
        QCOMPARE(one.subjects[0].denied, qint64(8));
        // Every subject is above 0: more of them than kept.
        const WouldDeny all = r.wouldDeny(0);
        QCOMPARE(all.above, qint64(quiet + 1));
        QVERIFY(all.approximate);
        QCOMPARE(all.subjects.size(), size_t(maxTopSubjects));
    }

    // A staged change's candidate decides beside its rule on the same lines, in shadow (as a
    // check service reading the store decides it): it counts what it would deny, denies none.
    void stagedCandidateDecidesInShadow()
    {
        RuleSet set;
        set.rules = {perSecond(u"r"_s, 100)};
        set.staged = {perSecond(rules::RuleStore::stagedId(u"r"_s), 5)};
        QTemporaryDir dir;
        const Report rep = replayed(dir, traffic({{u"10.0.0.1"_s, 10}}), set);
        QCOMPARE(rep.rules.size(), size_t(2));
        const RuleReport &enforced = rep.rules[0];
        const RuleReport &candidate = rep.rules[1];
        QCOMPARE(enforced.denied, qint64(0));
        QCOMPARE(candidate.id, u"r@staged"_s);
        QCOMPARE(candidate.stagedOf, u"r"_s);
        QVERIFY(candidate.shadow);
        QCOMPARE(candidate.matched, qint64(200));
        QCOMPARE(candidate.shadowDenied, qint64(100));
        QCOMPARE(candidate.denied, qint64(0));
    }
};

QTEST_GUILESS_MAIN(TestReplayHeavy)
#include "tst_replay_heavy.moc"
