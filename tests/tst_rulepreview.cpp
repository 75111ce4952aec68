// The Rules page's preview shows the headers a client of the check service meets: for an
// admission and for a denial of every algorithm, its strings equal the headers the service
// writes (core/limiter/headers.h, as CheckService::answer calls it) for the same decisions,
// taken from the in-process twin at the preview's instant.

#include "core/limiter/headers.h"
#include "core/limiter/localmodel.h"
#include "core/rules/rule.h"
#include "ui/rules/rulepreview.h"

#include <QTest>

using namespace sluice;

Q_DECLARE_METATYPE(sluice::Rule)

namespace {

// The instant the preview computes at (ui/rules/rulepreview.cpp).
constexpr qint64 previewNowUs = qint64(1'750'000'000) * 1'000'000;

QMap<QByteArray, QByteArray> serviceHeaders(const Policy &p, const Decision &d)
{
    QMap<QByteArray, QByteArray> m;
    for (const auto &[name, value] :
         headers::rateLimitHeaders(p, headers::policyHeaderValue(p), d, false)) {
        m.insert(name, value);
    }
    return m;
}

} // namespace

class TestRulePreview : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void previewEqualsService_data()
    {
        QTest::addColumn<Rule>("rule");
        for (Algorithm a : algorithm::all) {
            const QString id = algorithm::name(a);
            const QByteArray row = id.toLatin1();
            if (algorithm::isWindow(a)) {
                QTest::newRow(row.constData()) << Rule::window(id, a, 5, 10'000'000);
                QTest::newRow((row + "-odd").constData()) << Rule::window(id, a, 7, 1'500'000);
            } else {
                QTest::newRow(row.constData()) << Rule::bucket(id, a, Rate{5, 1'000'000}, 5);
                QTest::newRow((row + "-odd").constData())
                    << Rule::bucket(id, a, Rate{3, 7'000'000}, 4);
            }
        }
    }
    void previewEqualsService()
    {
        QFETCH(Rule, rule);
        const Policy p = rule.policy();
        const QByteArray subject = ui::sampleSubject(rule.scope);
        const ui::RulePreview preview = ui::previewRule(rule, subject);

        // The service's answers to the same requests: one, then the rest of the quota in one
        // request, then one more, all at one instant.
        ManualClock clock(previewNowUs);
        LocalModel model(clock);
        const QByteArray key = p.keyFor(subject);
        auto decide = [&](qint64 cost) {
            auto d = model.decide(Request{&p, key, cost, previewNowUs});
            if (!d) {
                qFatal("%s", qPrintable(d.error().message));
            }
            return *d;
        };
        const Decision first = decide(1);
        QVERIFY(first.allowed);
        const auto admitted = serviceHeaders(p, first);
        QCOMPARE(preview.key, key);
        QCOMPARE(preview.policyHeader, QString::fromLatin1(admitted.value("RateLimit-Policy")));
        QCOMPARE(preview.firstHeader, QString::fromLatin1(admitted.value("RateLimit")));
        QVERIFY(!admitted.contains("Retry-After"));

        if (first.remaining > 0) {
            QVERIFY(decide(first.remaining).allowed);
        }
        const Decision next = decide(1);
        QVERIFY(!next.allowed);
        QVERIFY(preview.denies);
        const auto denied = serviceHeaders(p, next);
        QCOMPARE(preview.deniedHeader, QString::fromLatin1(denied.value("RateLimit")));
        QVERIFY(denied.contains("Retry-After"));
        QCOMPARE(preview.retryAfter, QString::fromLatin1(denied.value("Retry-After")));
    }
};

QTEST_GUILESS_MAIN(TestRulePreview)
#include "tst_rulepreview.moc"
