// The push preview (core/keys/changepreview.h): subjects whose state the real scripts wrote in
// the fixture's Redis, decided again in process under the stored rule and the candidate.

#include "testdata.h"
#include "testredis.h"

#include "core/keys/changepreview.h"
#include "core/limiter/redislimiter.h"

#include <QTest>

using namespace sluice;
using namespace sluice::keys;

namespace {

constexpr qint64 hour = qint64(3600) * 1'000'000;

Rule windowRule(qint64 limit)
{
    Rule r = Rule::window(QStringLiteral("hello"), Algorithm::FixedWindow, limit, hour,
                          {Scope::Kind::Ip, {}}, test::keyPrefix());
    return r;
}

QList<QByteArray> subjects(const QList<PreviewSubject> &list)
{
    QList<QByteArray> out;
    for (const auto &s : list) {
        out << s.subject;
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

class TestChangePreview : public QObject
{
    Q_OBJECT
    PreviewOptions m_options;
    Connection m_c = test::connect(); // the fixture's Redis, where the keys are planted

    // The preview of a change from the rule the keys were planted under (3 per window) to
    // `candidate`.
    auto fromPlanted(const RuleSet &candidate)
    {
        return previewChange(m_c, test::setOf({windowRule(3)}), candidate, m_options);
    }

private Q_SLOTS:
    void initTestCase()
    {
        test::cleanup();
        m_options.statsNamespace = test::keyPrefix() + "stats:";
        // Real decisions by the real script: a and c at the limit (3), b once, d twice.
        RedisLimiter limiter(test::connect());
        const Policy p = windowRule(3).policy();
        const QList<QPair<QByteArray, int>> plan = {{"a", 3}, {"b", 1}, {"c", 4}, {"d", 2}};
        for (const auto &[subject, n] : plan) {
            for (int i = 0; i < n; ++i) {
                Request r;
                r.policy = &p;
                r.key = p.keyFor(subject);
                QVERIFY(limiter.decide(r).ok());
            }
        }
    }

    void raisingTheLimitReleases()
    {
        auto r = fromPlanted(test::setOf({windowRule(5)}));
        QVERIFY2(r.ok(), r.ok() ? "" : qPrintable(r.error().message));
        QCOMPARE(r->size(), 1);
        const RulePreview &p = r->front();
        QCOMPARE(p.kind, RulePreview::Kind::Changed);
        QCOMPARE(p.fields, QStringList{QStringLiteral("limit: 3 → 5")});
        QCOMPARE(p.liveKeys, 4);
        QVERIFY(p.complete);
        QCOMPARE(p.deniedNow, 2);
        QCOMPARE(p.deniedAfter, 0);
        QCOMPARE(p.released, 2);
        QCOMPARE(p.newlyDenied, 0);
        QCOMPARE(subjects(p.topReleased), (QList<QByteArray>{"a", "c"}));
        QCOMPARE(p.topReleased.front().remainingBefore, 0);
        QCOMPARE(p.topReleased.front().remainingAfter, 1); // 3 used of 5, this one admitted
        QVERIFY(p.topReleased.front().retryAfterMs > 0);
        QCOMPARE(p.statsAllowed + p.statsDenied, 0); // nothing recorded in this namespace
    }

    void loweringTheLimitDenies()
    {
        auto r = fromPlanted(test::setOf({windowRule(2)}));
        QVERIFY(r.ok());
        const RulePreview &p = r->front();
        QCOMPARE(p.deniedNow, 2);
        QCOMPARE(p.deniedAfter, 3);
        QCOMPARE(p.newlyDenied, 1);
        QCOMPARE(subjects(p.topNewlyDenied), QList<QByteArray>{"d"});
        // Nothing was written: the keys hold what the script wrote.
        QCOMPARE(m_c.command({"HGET", windowRule(3).keyFor("d"), "c"})->str, QByteArray("2"));
    }

    // The candidate's on_change decides what the stored counts become under it, as the
    // scripts will make them on each subject's next decision.
    void onChangeDecidesTheStateAfter()
    {
        Rule reset = windowRule(5);
        reset.onChange = OnChange::Reset;
        auto r = fromPlanted(test::setOf({reset}));
        QVERIFY(r.ok());
        QCOMPARE(r->front().released, 2);
        QCOMPARE(r->front().topReleased.front().remainingAfter, 4); // fresh: 5, this one taken
        // proportional 3 -> 6: a and c used all of 3, so all of 6; d used 2, so 4.
        Rule proportional = windowRule(6);
        proportional.onChange = OnChange::Proportional;
        r = fromPlanted(test::setOf({proportional}));
        QVERIFY(r.ok());
        const RulePreview &p = r->front();
        QCOMPARE(p.deniedNow, 2);
        QCOMPARE(p.deniedAfter, 2);
        QCOMPARE(p.released, 0);
        // keep_used 3 -> 6 would have released a and c (raisingTheLimitReleases, 3 -> 5).
    }

    void anotherAlgorithmStartsAfresh()
    {
        Rule log = windowRule(3);
        log.algorithm = Algorithm::SlidingLog;
        auto r = fromPlanted(test::setOf({log}));
        QVERIFY(r.ok());
        const RulePreview &p = r->front();
        QVERIFY(p.newState);
        QCOMPARE(p.deniedNow, 2);
        QCOMPARE(p.deniedAfter, 0);
        QCOMPARE(p.released, 2);
    }

    void removalReleasesAndAddedSeesLeftovers()
    {
        auto r = fromPlanted(RuleSet{});
        QVERIFY(r.ok());
        QCOMPARE(r->front().kind, RulePreview::Kind::Removed);
        QCOMPARE(r->front().released, 2);
        // The same keys met by a rule that is new to the store: they count against it.
        r = previewChange(m_c, RuleSet{}, test::setOf({windowRule(1)}), m_options);
        QVERIFY(r.ok());
        QCOMPARE(r->front().kind, RulePreview::Kind::Added);
        QCOMPARE(r->front().liveKeys, 4);
        QCOMPARE(r->front().deniedAfter, 4);
        QCOMPARE(r->front().newlyDenied, 4);
    }

    void theCapMakesItPartial()
    {
        PreviewOptions o = m_options;
        o.maxKeysPerRule = 2;
        auto r = previewChange(m_c, test::setOf({windowRule(3)}), test::setOf({windowRule(5)}), o);
        QVERIFY(r.ok());
        QVERIFY(!r->front().complete);
        QCOMPARE(r->front().liveKeys, 2);
    }

    void unchangedRulesAreNotListed()
    {
        auto r = fromPlanted(test::setOf({windowRule(3)}));
        QVERIFY(r.ok());
        QVERIFY(r->isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestChangePreview)
#include "tst_changepreview.moc"
