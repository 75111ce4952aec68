// The Monitor page, offscreen against the fixture's Redis: statistics seeded
// through the real StatsRecorder + StatsFlusher come back in the charts' series to the unit; a
// subject denied by the real scripts shows in "Limited right now" with its time left and is
// unblocked through the page, or allowed for an hour or blocked through a stored override that
// `sluice-cli check` then decides by; top subjects; a lost connection keeps the data and says so;
// the auto range fills the chart with 10 s of data, a range changes the axis, hovering gives a
// second's values and a click opens the chart large; at 1100x700 the charts keep their height
// and the grid scrolls.

#include "core/keys/keyreader.h"
#include "core/limiter/redislimiter.h"
#include "core/load/loadgenerator.h"
#include "core/rules/overridestore.h"
#include "core/rules/rulestore.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsreader.h"
#include "core/stats/statsrecorder.h"
#include "ownredis.h"
#include "pageharness.h"
#include "runcli.h"
#include "testdata.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionstate.h"
#include "ui/language.h"
#include "ui/monitor/limitedmodel.h"
#include "ui/monitor/monitorpage.h"
#include "ui/monitor/monitorsession.h"
#include "ui/monitor/rulechart.h"
#include "ui/monitor/rulechartdialog.h"
#include "ui/monitor/topsubjectsmodel.h"

#include <QAbstractItemModelTester>
#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QDialog>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLegend>
#include <QLineEdit>
#include <QLineSeries>
#include <QListWidget>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

#include <cmath>
#include <memory>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

QString uniqueId(const char *base)
{
    return test::uniqueId(QString::fromLatin1(base));
}

Rule windowRule(const QString &id, qint64 limit, qint64 windowUs)
{
    return Rule::window(id, Algorithm::FixedWindow, limit, windowUs, Scope{Scope::Kind::Ip, {}},
                        test::keyPrefix());
}

Rule bucketRule(const QString &id, Algorithm a, Rate rate, qint64 burst)
{
    return Rule::bucket(id, a, rate, burst, Scope{Scope::Kind::Ip, {}}, test::keyPrefix());
}

void deleteStats(Connection &c, const QStringList &ids)
{
    for (const QString &id : ids) {
        (void)test::deleteByPrefix(c, stats::defaultNamespace + "stats:" + id.toUtf8() + ":");
    }
}

} // namespace

class TestMonitorPage : public QObject
{
    Q_OBJECT

    test::PageHarness m_h;

    static MonitorSnapshot waitForRead(MonitorPage &page)
    {
        QSignalSpy spy(&page, &MonitorPage::updated);
        [&] { QVERIFY(spy.wait(5000)); }();
        return page.snapshot();
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_h.connect()); }

    void modelsAlone()
    {
        LimitedModel limited;
        QAbstractItemModelTester t1(&limited,
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        LimitedSubject a;
        a.key = "rate_limit:login:{10.0.0.1}";
        a.ruleId = QStringLiteral("login");
        a.subject = "10.0.0.1";
        a.retryInMs = 1200;
        LimitedSubject b = a;
        b.key = "rate_limit:login:{10.0.0.2}";
        b.subject = "10.0.0.2";
        b.retryInMs = 45000;
        limited.setRows({a, b});
        QCOMPARE(limited.rowCount(), 2);
        // Longest wait first.
        QCOMPARE(limited.index(0, LimitedModel::SubjectColumn).data().toString(),
                 QStringLiteral("10.0.0.2"));
        QCOMPARE(limited.index(0, LimitedModel::TimeLeftColumn).data().toString(),
                 keys::formatDurationMs(45000));
        QCOMPARE(limited.index(1, 0).data(LimitedModel::KeyRole).toByteArray(), a.key);
        QCOMPARE(limited.rowOf(a.key), 1);
        limited.setRows({});
        QCOMPARE(limited.rowCount(), 0);

        TopSubjectsModel top;
        QAbstractItemModelTester t2(&top, QAbstractItemModelTester::FailureReportingMode::QtTest);
        top.setRows({{"10.0.0.9", 400, 300}, {"10.0.0.3", 10, 0}});
        QCOMPARE(top.rowCount(), 2);
        QCOMPARE(top.index(0, TopSubjectsModel::RequestsColumn)
                     .data(TopSubjectsModel::SortRole)
                     .toLongLong(),
                 400);
        QCOMPARE(top.index(0, TopSubjectsModel::DeniedShareColumn)
                     .data(TopSubjectsModel::SortRole)
                     .toDouble(),
                 75.0);
    }

    // The time left shown for a denied subject is what the script itself answers: each
    // algorithm's state, spent by the real script, read back and decoded.
    void timeLeftMatchesTheScript_data()
    {
        QTest::addColumn<QString>("name");
        for (Algorithm a : algorithm::all) {
            QTest::newRow(qPrintable(algorithm::name(a))) << algorithm::name(a);
        }
    }
    void timeLeftMatchesTheScript()
    {
        QFETCH(QString, name);
        const Algorithm a = *algorithm::fromName(name);
        const QString id = uniqueId("mon-wait") + QLatin1Char('-') +
                           name.replace(QLatin1Char('_'), QLatin1Char('-'));
        const qint64 s = duration::usPerSecond;
        Rule rule =
            algorithm::isWindow(a) ? windowRule(id, 3, 20 * s) : bucketRule(id, a, {1, 5 * s}, 3);
        rule.algorithm = a;
        RedisLimiter limiter(test::connect());
        const Policy policy = rule.policy();
        const QByteArray key = rule.keyFor("10.1.1.1");
        std::optional<Decision> denied;
        for (int i = 0; i < 10 && !denied; ++i) {
            auto d = limiter.decide({&policy, key, 1, {}, 0});
            QVERIFY(d.ok());
            if (!d->allowed) {
                denied = *d;
            }
        }
        QVERIFY(denied);
        QElapsedTimer since;
        since.start();
        QVERIFY(denied->retryAfterMs > 0);

        RuleSet set;
        set.rules = {rule};
        keys::KeyReader reader(set);
        Connection c = test::connect();
        auto infos = reader.read(c, {key});
        QVERIFY(infos.ok());
        const auto row = limitedSubject(infos->first(), rule, 0);
        QVERIFY2(row, qPrintable(infos->first().state.describe()));
        QCOMPARE(row->key, key);
        // The script's wait, less the time since it answered; 20 ms of slack for the reader's
        // estimate of the server clock (keyreader.h) and the rounding of a stored remainder.
        QVERIFY2(row->retryInMs <= denied->retryAfterMs &&
                     row->retryInMs >= denied->retryAfterMs - since.elapsed() - 20,
                 qPrintable(QStringLiteral("page %1 ms, script %2 ms, %3 ms later")
                                .arg(row->retryInMs)
                                .arg(denied->retryAfterMs)
                                .arg(since.elapsed())));
        (void)c.command({"DEL", key});
    }

    // Counts recorded in known seconds come back in the series, to the unit, at those seconds.
    void seriesHoldExactCounts()
    {
        const QString login = uniqueId("mon-login");
        const QString api = uniqueId("mon-api");
        Connection admin = test::connect();
        deleteStats(admin, {login, api});

        const qint64 now = QDateTime::currentSecsSinceEpoch();
        stats::StatsRecorder recorder;
        // login: 7 allowed + 3 denied at now-30; 11 allowed at now-10; api: 5 shadow-denied at
        // now-20 (and 2 allowed).
        recorder.record(login, "10.0.0.1", true, false, now - 30, 7);
        recorder.record(login, "10.0.0.1", false, false, now - 30, 3);
        recorder.record(login, "10.0.0.2", true, false, now - 10, 11);
        recorder.record(api, "10.0.0.3", false, true, now - 20, 5);
        recorder.record(api, "10.0.0.3", true, false, now - 20, 2);
        {
            stats::StatsFlusher flusher(test::redisEndpoint(), &recorder);
            flusher.start();
            flusher.stop(); // writes everything before returning
            QVERIFY2(flusher.status().redisOk, qPrintable(flusher.status().lastError));
        }

        MonitorPage page(m_h.controller());
        QAbstractItemModelTester t1(page.limitedModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        QAbstractItemModelTester t2(page.topModel(),
                                    QAbstractItemModelTester::FailureReportingMode::QtTest);
        RuleSet set;
        set.rules = {windowRule(login, 5, 60 * duration::usPerSecond),
                     bucketRule(api, Algorithm::TokenBucket, {10, duration::usPerSecond}, 20)};
        set.rules[1].shadow = true;
        page.setRules(set);
        // The whole 15 minutes the worker reads (auto would show the last minute).
        page.session()->setRange(15 * 60);
        page.resize(1100, 750);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(page.snapshot().series.size() == 2, 5000);

        const MonitorSnapshot s = page.snapshot();
        QCOMPARE(s.windowSeconds, 900);
        const stats::RuleSeries &ls = s.series[0];
        QCOMPARE(ls.ruleId, login);
        QCOMPARE(ls.seconds.size(), 900);
        auto at = [](const stats::RuleSeries &rs, qint64 second) {
            const qint64 i = second - rs.firstSecond;
            return i >= 0 && i < rs.seconds.size() ? rs.seconds[i] : stats::Counts{-1, -1, -1};
        };
        QCOMPARE(at(ls, now - 30), (stats::Counts{7, 3, 0}));
        QCOMPARE(at(ls, now - 10), (stats::Counts{11, 0, 0}));
        QCOMPARE(at(ls, now - 29), (stats::Counts{}));
        QCOMPARE(at(s.series[1], now - 20), (stats::Counts{2, 0, 5}));

        // The charts plot the same numbers: totals, and the point at now-30.
        RuleChart *chart = page.chart(login);
        QVERIFY(chart);
        QCOMPARE(chart->totals(), (stats::Counts{18, 3, 0}));
        QCOMPARE(page.chart(api)->totals(), (stats::Counts{2, 0, 5}));
        QCOMPARE(chart->allowedSeries()->count(), 900);
        const QPointF p = chart->deniedSeries()->at(int(now - 30 - ls.firstSecond));
        QCOMPARE(qint64(p.x()), (now - 30) * 1000);
        QCOMPARE(p.y(), 3.0);
        QVERIFY(page.chart(api)->shadowSeries()->isVisible());
        QVERIFY(!chart->shadowSeries()->isVisible());

        // Top subjects of the busiest rule at first (login: 21 requests, api 7).
        QTRY_COMPARE_WITH_TIMEOUT(page.topModel()->rowCount(), 2, 5000);
        QCOMPARE(page.topModel()->rows()[0], (stats::TopSubject{"10.0.0.2", 11, 0}));
        QCOMPARE(page.topModel()->rows()[1], (stats::TopSubject{"10.0.0.1", 10, 3}));
        auto *combo = page.findChild<QComboBox *>(QStringLiteral("topRuleCombo"));
        QCOMPARE(combo->currentIndex(), 0);
        QTRY_VERIFY(combo->itemText(0).contains(login));
        // Then the rule picked.
        combo->setCurrentIndex(combo->findData(api));
        QTRY_COMPARE_WITH_TIMEOUT(page.topModel()->rowCount(), 1, 5000);
        QCOMPARE(page.topModel()->rows()[0], (stats::TopSubject{"10.0.0.3", 7, 5}));

        // A console restart: a new page reads the same numbers back from Redis.
        MonitorPage again(m_h.controller());
        again.setRules(set);
        QTRY_VERIFY_WITH_TIMEOUT(again.snapshot().series.size() == 2, 5000);
        QCOMPARE(again.chart(login)->totals(), (stats::Counts{18, 3, 0}));
        deleteStats(admin, {login, api});
    }

    // 10 s of recorded statistics fill at least half of the plot in "auto"; the range combo
    // changes the axis (1 h says what the statistics do not keep); hovering a second gives its
    // values; a click opens the chart large with its legend.
    void rangesHoverAndLarge()
    {
        const QString id = uniqueId("mon-range");
        Connection admin = test::connect();
        deleteStats(admin, {id});
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        stats::StatsRecorder recorder;
        for (qint64 ago = 10; ago >= 1; --ago) {
            recorder.record(id, "10.0.0.1", true, false, now - ago, 20 + ago);
            recorder.record(id, "10.0.0.2", false, false, now - ago, ago);
        }
        {
            stats::StatsFlusher flusher(test::redisEndpoint(), &recorder);
            flusher.start();
            flusher.stop();
            QVERIFY2(flusher.status().redisOk, qPrintable(flusher.status().lastError));
        }
        test::PageHarness frame;
        auto *page = new MonitorPage(m_h.controller());
        RuleSet set;
        set.rules = {windowRule(id, 5, 60 * duration::usPerSecond)};
        page->setRules(set);
        QVERIFY(frame.show(page, {1100, 700}, 4));
        QTRY_VERIFY_WITH_TIMEOUT(page->snapshot().series.size() == 1, 5000);
        RuleChart *chart = page->chart(id);
        QTRY_COMPARE_WITH_TIMEOUT(chart->totals().allowed, qint64(10 * 20 + 55), 5000);
        QCOMPARE(page->session()->range(), 0);

        // The data's width on the plot, from the first second with decisions to the last.
        const auto filled = [chart] {
            QCoreApplication::sendPostedEvents();
            const QList<QPointF> pts = chart->allowedSeries()->points();
            qreal first = -1, last = -1;
            for (const QPointF &p : pts) {
                if (p.y() > 0) {
                    const qreal x = chart->chart()->mapToPosition(p, chart->allowedSeries()).x();
                    first = first < 0 ? x : first;
                    last = x;
                }
            }
            return first < 0 ? 0.0 : (last - first) / chart->chart()->plotArea().width();
        };
        QTRY_VERIFY_WITH_TIMEOUT(chart->rangeSeconds() <= 30, 5000);
        QVERIFY2(filled() >= 0.5, qPrintable(QString::number(filled())));
        auto *combo = page->findChild<QComboBox *>(QStringLiteral("rangeCombo"));
        QVERIFY(combo->itemText(0).startsWith(u"auto ("_s));
        auto *note = page->findChild<QLabel *>(QStringLiteral("rangeNote"));
        QVERIFY2(note->text().startsWith(u"Auto: the last"_s), qPrintable(note->text()));

        // 5 min: the axis spans 300 s; the same data is a sixth as wide or less.
        combo->setCurrentIndex(combo->findData(300));
        QTRY_COMPARE(chart->rangeSeconds(), 300);
        const qint64 span = chart->timeAxis()->min().secsTo(chart->timeAxis()->max());
        QCOMPARE(span, qint64(299));
        QVERIFY2(filled() < 0.1, qPrintable(QString::number(filled())));
        QCOMPARE(chart->timeAxis()->format(), u"HH:mm:ss"_s);
        // 1 h: longer than the statistics keep, and said so.
        combo->setCurrentIndex(combo->findData(3600));
        QTRY_COMPARE(chart->rangeSeconds(), 3600);
        QVERIFY2(note->text().contains(u"keep 16 minutes"_s), qPrintable(note->text()));
        QCOMPARE(chart->timeAxis()->format(), u"HH:mm"_s);

        // Hover: the values of the second under the pointer (now-4: 24 allowed, 4 denied).
        combo->setCurrentIndex(combo->findData(60));
        QTRY_COMPARE(chart->rangeSeconds(), 60);
        QCoreApplication::sendPostedEvents();
        QTest::qWait(50);
        const QPointF inChart = chart->chart()->mapToPosition(
            QPointF(double(now - 4) * 1000.0, 1.0), chart->allowedSeries());
        const QPoint at = chart->view()->mapFromScene(chart->chart()->mapToScene(inChart));
        QTest::mouseMove(chart->view()->viewport(), at);
        QTRY_VERIFY(!chart->hoverText().isEmpty());
        const QString time =
            QDateTime::fromSecsSinceEpoch(now - 4).toString(QStringLiteral("HH:mm:ss"));
        QCOMPARE(chart->hoverText(), u"%1 · 24 allowed/s · 4 denied/s"_s.arg(time));
        QVERIFY(chart->findChild<QLabel *>(QStringLiteral("chartSummary"))
                    ->text()
                    .contains(u"24 allowed/s"_s));
        // Outside the plot: the summary again.
        chart->hoverAt(QPoint(1, 1));
        QVERIFY(chart->hoverText().isEmpty());

        // A click opens it large, with its legend, and it follows the reads.
        QVERIFY(!page->largeChart());
        QTest::mouseClick(chart->view()->viewport(), Qt::LeftButton, {}, at);
        QTRY_VERIFY(page->largeChart());
        RuleChart *large = page->largeChart();
        QVERIFY(large->chart()->legend()->isVisible());
        QCOMPARE(large->totals(), chart->totals());
        QVERIFY(large->height() > chart->height());
        if (!qEnvironmentVariableIsEmpty("SLUICE_SHOTS_DIR")) {
            QTest::qWait(200);
            large->window()->grab().save(qEnvironmentVariable("SLUICE_SHOTS_DIR") +
                                         u"/monitor-large.png"_s);
        }
        large->window()->close();
        QTRY_VERIFY(!page->largeChart());
        deleteStats(admin, {id});
    }

    // The large chart's dialog on its own: a second rule replaces the chart shown, only that
    // rule's series reaches it, Escape closes and deletes it, and so does a click on Close.
    void chartDialog()
    {
        QWidget window;
        window.resize(1000, 700);
        const Rule first = windowRule(u"dialog-first"_s, 5, 60 * duration::usPerSecond);
        const Rule second = windowRule(u"dialog-second"_s, 5, 60 * duration::usPerSecond);
        QPointer<RuleChartDialog> dialog = new RuleChartDialog(&window);
        dialog->showRule(first);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QCOMPARE(dialog->chart()->ruleId(), first.id);
        QCOMPARE(dialog->windowTitle(), u"Monitor: dialog-first"_s);
        QCOMPARE(dialog->size(), QSize(800, 525)); // most of the window
        dialog->showRule(second);
        QCOMPARE(dialog->findChildren<RuleChart *>().size(), 1);
        QCOMPARE(dialog->chart()->ruleId(), second.id);
        QVERIFY(dialog->chart()->chart()->legend()->isVisible());

        const qint64 now = QDateTime::currentSecsSinceEpoch();
        stats::RuleSeries other{first.id, now - 9, QList<stats::Counts>(10, {7, 1, 0})};
        dialog->setSeries(other, 60);
        QCOMPARE(dialog->chart()->totals().allowed, 0);
        stats::RuleSeries own{second.id, now - 9, QList<stats::Counts>(10, {7, 1, 0})};
        dialog->setSeries(own, 60);
        QCOMPARE(dialog->chart()->totals().allowed, 70);

        dialog->activateWindow();
        QTRY_VERIFY(dialog->isActiveWindow());
        QTest::keyClick(dialog, Qt::Key_Escape);
        QTRY_VERIFY(!dialog);

        dialog = new RuleChartDialog(&window);
        dialog->showRule(first);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        auto *close = dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Close);
        QTest::mouseClick(close, Qt::LeftButton);
        QTRY_VERIFY(!dialog);
    }

    // Six rules at the first-start size: every chart keeps its readable height and the grid
    // scrolls instead of squeezing them.
    void chartsKeepTheirHeight()
    {
        test::PageHarness frame;
        auto *page = new MonitorPage(m_h.controller());
        RuleSet set;
        for (int i = 0; i < 6; ++i) {
            set.rules.push_back(windowRule(uniqueId("mon-six") + QString::number(i), 5,
                                           60 * duration::usPerSecond));
        }
        page->setRules(set);
        QVERIFY(frame.show(page, {1100, 700}, 4));
        QTest::qWait(100);
        for (const Rule &r : set.rules) {
            QVERIFY2(page->chart(r.id)->height() >= RuleChart::minimumChartHeight,
                     qPrintable(QString::number(page->chart(r.id)->height())));
            QVERIFY(page->chart(r.id)->view()->height() >= 150);
        }
        auto *area = page->findChild<QScrollArea *>(QStringLiteral("chartArea"));
        QVERIFY(area->height() >= RuleChart::minimumChartHeight);
        QVERIFY(area->verticalScrollBar()->maximum() > 0);
    }

    // The page after a real 8 s load on the load's own keys (the Load page's default), at the
    // three sizes, in both languages (SLUICE_SHOTS_DIR).
    void rangeScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        RuleSet set;
        set.rules = {
            windowRule(uniqueId("hello-per-ip"), 3, 5 * duration::usPerSecond),
            bucketRule(uniqueId("api-global"), Algorithm::TokenBucket, {100, duration::usPerSecond},
                       200),
            bucketRule(uniqueId("export-queue"), Algorithm::LeakyBucket,
                       {10, duration::usPerSecond}, 50),
            windowRule(uniqueId("search-per-key"), 60, 60 * duration::usPerSecond),
            bucketRule(uniqueId("login-gcra"), Algorithm::Gcra, {5, duration::usPerSecond}, 5),
            windowRule(uniqueId("shadow-probe"), 20, duration::usPerSecond)};
        set.rules[5].shadow = true;
        QStringList ids;
        for (const Rule &r : set.rules) {
            ids << r.id;
        }
        Connection admin = test::connect();
        deleteStats(admin, ids);
        test::PageHarness frame;
        auto *page = new MonitorPage(m_h.controller());
        page->setRules(set);
        QVERIFY(frame.show(page, {1100, 700}, 4));
        load::LoadOptions o =
            test::constantLoad(test::redisEndpoint(), set, 200, 8 * duration::usPerSecond, 50);
        o.pattern.kind = sim::TrafficPattern::Kind::Poisson;
        o.keyPrefixOverride = load::runScopedPrefix();
        const load::LoadProgress run = test::recordedLoad(o);
        QVERIFY(run.finished);
        test::inEachLanguage(
            QStringLiteral("monitor"), {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)},
            [&](QSize size, const QString &, const QString &path) {
                test::PageHarness shot;
                auto *p = new MonitorPage(m_h.controller());
                p->setRules(set);
                p->session()->noteLoad(run); // as the main window passes the Load page's on
                QVERIFY(shot.show(p, size, 4));
                QTRY_VERIFY_WITH_TIMEOUT(p->topModel()->rowCount() > 0 &&
                                             !p->session()->unwatchedRules().isEmpty(),
                                         8000);
                QTest::qWait(300);
                QVERIFY(shot.window()->grab().save(path));
            });
        deleteStats(admin, ids);
    }

    // Real traffic from the load generator on the second rule only (the first has none): the
    // top subjects fill while it flows, from the statistics flushed to Redis, for the busiest
    // rule, without the user picking it.
    void topSubjectsFillWhileTrafficFlows()
    {
        const QString quiet = uniqueId("mon-quiet");
        const QString busy = uniqueId("mon-busy");
        Connection admin = test::connect();
        deleteStats(admin, {quiet, busy});
        RuleSet set;
        set.rules = {windowRule(quiet, 5, duration::usPerSecond),
                     windowRule(busy, 50, duration::usPerSecond)};

        MonitorPage page(m_h.controller());
        page.setRules(set);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(page.snapshot().series.size() == 2, 5000);
        QCOMPARE(page.topModel()->rowCount(), 0);

        stats::StatsRecorder recorder;
        stats::StatsFlusher flusher(test::redisEndpoint(), &recorder);
        flusher.start();
        load::LoadOptions o =
            test::constantLoad(test::redisEndpoint(), set, 100, 6 * duration::usPerSecond, 5);
        o.ruleIds = {busy};
        o.recorder = &recorder;
        load::LoadGenerator generator(o);
        QVERIFY(generator.start().ok());

        QTRY_VERIFY_WITH_TIMEOUT(page.topModel()->rowCount() == 5, 5000);
        QVERIFY2(!generator.progress().finished, "the list filled only after the traffic ended");
        auto *combo = page.findChild<QComboBox *>(QStringLiteral("topRuleCombo"));
        QVERIFY(combo->itemText(0).contains(busy));
        qint64 requests = 0;
        for (const stats::TopSubject &t : page.topModel()->rows()) {
            QVERIFY(t.subject.startsWith("10.0.0."));
            requests += t.requests;
        }
        QVERIFY(requests > 0);
        generator.cancel();
        flusher.stop();
        deleteStats(admin, {quiet, busy});
    }

    // A subject denied by the real script shows with its time left; Unblock deletes its key.
    void limitedAndUnblock()
    {
        const QString id = uniqueId("mon-limit");
        const Rule rule = windowRule(id, 3, 60 * duration::usPerSecond);
        RedisLimiter limiter(test::connect());
        const Policy policy = rule.policy();
        const QByteArray blocked = "10.9.9.9";
        const QByteArray fine = "10.9.9.8";
        for (int i = 0; i < 4; ++i) {
            auto d = limiter.decide({&policy, rule.keyFor(blocked), 1, {}, 0});
            QVERIFY(d.ok());
            QCOMPARE(d->allowed, i < 3);
        }
        QVERIFY(limiter.decide({&policy, rule.keyFor(fine), 1, {}, 0}).ok());

        MonitorPage page(m_h.controller());
        QAbstractItemModelTester tester(page.limitedModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.setRules(test::setOf({rule}));
        page.show();
        LimitedModel *model = page.limitedModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 5000);
        const LimitedSubject row = model->rows()[0];
        QCOMPARE(row.key, rule.keyFor(blocked));
        QCOMPARE(row.subject, blocked);
        QCOMPARE(row.ruleId, id);
        // The window opened a moment ago and lasts a minute.
        QVERIFY2(row.retryInMs > 50'000 && row.retryInMs <= 60'000,
                 qPrintable(QString::number(row.retryInMs)));
        QCOMPARE(model->index(0, LimitedModel::TimeLeftColumn).data().toString(),
                 keys::formatDurationMs(row.retryInMs));
        QVERIFY(row.state.contains(QStringLiteral("3")));

        auto *view = page.findChild<QTableView *>(QStringLiteral("limitedTable"));
        auto *unblock = page.findChild<QPushButton *>(QStringLiteral("unblockButton"));
        QVERIFY(view && unblock);
        QVERIFY(!unblock->isEnabled());
        view->selectRow(0);
        QVERIFY(unblock->isEnabled());

        // Declined: nothing happens.
        QString asked;
        page.setConfirmHook([&](const QString &q) {
            asked = q;
            return false;
        });
        QTest::mouseClick(unblock, Qt::LeftButton);
        QVERIFY(asked.contains(QString::fromLatin1(blocked)));
        QVERIFY(asked.contains(id));
        QTest::qWait(200);
        Connection admin = test::connect();
        QVERIFY(test::pttl(admin, rule.keyFor(blocked)) > 0);

        // Confirmed: the key is gone, and so is the row. Through UNLINK (freed in the
        // background), never DEL: counted by the server.
        auto calls = [&](const QByteArray &name) {
            auto info = admin.command({"INFO", "commandstats"});
            const QByteArray text = info ? info->str : QByteArray();
            const qsizetype at = text.indexOf("cmdstat_" + name + ":calls=");
            return at < 0 ? qint64(0)
                          : text.mid(at + 15 + name.size()).split(',').value(0).toLongLong();
        };
        const qint64 unlinksBefore = calls("unlink");
        const qint64 delsBefore = calls("del");
        page.setConfirmHook([](const QString &) { return true; });
        QSignalSpy done(&page, &MonitorPage::unblockFinished);
        QTest::mouseClick(unblock, Qt::LeftButton);
        QVERIFY(done.wait(5000));
        QCOMPARE(calls("unlink"), unlinksBefore + 1);
        QCOMPARE(calls("del"), delsBefore);
        QCOMPARE(done.at(0).at(0).toByteArray(), rule.keyFor(blocked));
        QVERIFY(done.at(0).at(1).toString().isEmpty());
        QCOMPARE(test::pttl(admin, rule.keyFor(blocked)), qint64(-2));
        QVERIFY(test::pttl(admin, rule.keyFor(fine)) > 0); // only that subject
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 0, 5000);
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("message"))
                    ->text()
                    .contains(QStringLiteral("Unblocked")));
        // Admitted again at once.
        auto d = limiter.decide({&policy, rule.keyFor(blocked), 1, {}, 0});
        QVERIFY(d.ok() && d->allowed);
    }

    // The pointer on "Limited right now" holds its order: a refresh that brings a subject
    // sorting first leaves the rows where they are (the heading says it holds), so the Block
    // dialog names the subject that was clicked; once the pointer leaves, the new list comes in
    // and the selection follows its subject to its new row.
    void pointerHoldsTheOrder()
    {
        const QString id = uniqueId("mon-hold");
        const Rule rule = windowRule(id, 1, 60 * duration::usPerSecond);
        RedisLimiter limiter(test::connect());
        const Policy policy = rule.policy();
        const auto deny = [&](const QByteArray &subject) {
            for (int i = 0; i < 2; ++i) {
                QVERIFY(limiter.decide({&policy, rule.keyFor(subject), 1, {}, 0}).ok());
            }
        };
        deny("10.7.7.5");
        deny("10.7.7.7");
        MonitorPage page(m_h.controller());
        page.setRules(test::setOf({rule}));
        page.resize(1100, 640);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        LimitedModel *model = page.limitedModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 5000);
        auto *view = page.findChild<QTableView *>(QStringLiteral("limitedTable"));
        auto *heading = page.findChild<QLabel *>(QStringLiteral("limitedHeading"));
        // Longest wait first: the subject denied last. Click the second row.
        const QByteArray clicked = model->rows().at(1).subject;
        const QPoint at = view->visualRect(model->index(1, 1)).center();
        // From outside the list into it: the pointer enters it whatever the last test left.
        QTest::mouseMove(heading, heading->rect().center());
        QTest::mouseMove(view->viewport(), at);
        QTRY_VERIFY(view->underMouse());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, at);
        QCOMPARE(view->selectionModel()->selectedRows().size(), 1);

        // A subject that sorts first (the longest wait) is limited now; the pointer is still on
        // the list.
        QTest::qWait(20);
        deny("10.7.7.1");
        page.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(page.snapshot().limited.size(), 3, 5000);
        QCOMPARE(model->rowCount(), 2);
        QCOMPARE(model->rows().at(1).subject, clicked);
        QVERIFY2(heading->text().contains(u"held while you point at it"_s),
                 qPrintable(heading->text()));
        auto *block = page.findChild<QPushButton *>(QStringLiteral("blockButton"));
        QTest::mouseClick(block, Qt::LeftButton);
        QDialog *dialog = page.blockDialog();
        QVERIFY(dialog);
        const QString asked = dialog->findChild<QLabel *>()->text();
        QVERIFY2(asked.contains(QString::fromLatin1(clicked)) && !asked.contains(u"10.7.7.1"_s),
                 qPrintable(asked));
        dialog->reject();

        // The pointer leaves: the new order, the same subject selected.
        QTest::mouseMove(heading, heading->rect().center());
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 5000);
        QVERIFY(!heading->text().contains(u"held"_s));
        const QModelIndexList sel = view->selectionModel()->selectedRows();
        QCOMPARE(sel.size(), 1);
        QCOMPARE(model->rows().at(0).subject, QByteArray("10.7.7.1"));
        // The selection follows the subject, wherever it now sorts (the two earlier subjects
        // can swap under load when their times left round alike: its row is not asserted).
        QCOMPARE(model->rows().at(sel.first().row()).subject, clicked);
        Connection admin = test::connect();
        (void)test::deleteByPrefix(admin, rule.keyPrefix + id.toUtf8() + ":");
    }

    // At the first-start size the list of limited subjects shows eight rows and more, not
    // two or three, with six rules' charts above it.
    void limitedListReadableAt1100x700()
    {
        MonitorPage page(m_h.controller());
        RuleSet set;
        for (int i = 0; i < 6; ++i) {
            set.rules.push_back(windowRule(uniqueId("mon-rows"), 10, duration::usPerSecond));
        }
        page.setRules(set);
        // The page's share of a 1100x700 window (menu bar and status bar apart).
        page.resize(1100, 640);
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        auto *view = page.findChild<QTableView *>(QStringLiteral("limitedTable"));
        const int rows = view->viewport()->height() / view->verticalHeader()->defaultSectionSize();
        QVERIFY2(rows >= 8, qPrintable(QString::number(rows)));
        // One row of charts stays whole.
        auto *area = page.findChild<QScrollArea *>(QStringLiteral("chartArea"));
        QVERIFY(area->viewport()->height() >= RuleChart::minimumChartHeight);
    }

    // "Allow for 1 h…" and "Block…" store overrides through OverrideStore, on a Redis of the
    // test's own (the store's default namespace, which `check --from-redis` reads): the
    // override is in Redis with the TTL asked for, the engine decides by it (allowed, denied,
    // as an override), the rows say so after the next read, and a failure names the subject
    // and the rule. A read-only profile writes nothing.
    void allowAndBlockStoreOverrides()
    {
        test::OwnRedis redis;
        QVERIFY(redis.start());
        test::PageHarness h;
        QVERIFY(h.connect(redis.endpoint()));
        auto admin = Connection::open(redis.endpoint());
        QVERIFY(admin);
        const QString id = uniqueId("mon-ovr");
        const Rule rule = windowRule(id, 3, 60 * duration::usPerSecond);
        RuleSet set;
        set.rules = {rule};
        QVERIFY(rules::RuleStore().push(*admin, set, true).ok());
        auto limiterConnection = Connection::open(redis.endpoint());
        QVERIFY(limiterConnection);
        RedisLimiter limiter(std::move(*limiterConnection));
        const Policy policy = rule.policy();
        const QByteArray toBlock = "10.8.8.1";
        const QByteArray toAllow = "10.8.8.2";
        for (const QByteArray &subject : {toBlock, toAllow}) {
            for (int i = 0; i < 4; ++i) {
                QVERIFY(limiter.decide({&policy, rule.keyFor(subject), 1, {}, 0}).ok());
            }
        }
        const auto check = [&](const QByteArray &subject) {
            const test::CliRun run = test::runCli(
                {u"check"_s, u"--url"_s, redis.url(), u"--from-redis"_s, u"--rule"_s, id,
                 u"--subject"_s, QString::fromLatin1(subject), u"--no-stats"_s, u"--json"_s});
            [&] { QVERIFY2(run.exitCode == 0, run.err.constData()); }();
            return QJsonDocument::fromJson(run.out).object();
        };
        QCOMPARE(check(toBlock).value(u"allowed"_s).toBool(), false);
        QVERIFY(!check(toBlock).contains(u"override"_s)); // the rule's own key denies

        MonitorPage page(h.controller());
        page.setRules(set);
        page.show();
        LimitedModel *model = page.limitedModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2, 5000);
        auto *view = page.findChild<QTableView *>(u"limitedTable"_s);
        auto *allow = page.findChild<QPushButton *>(u"allowButton"_s);
        auto *block = page.findChild<QPushButton *>(u"blockButton"_s);
        QVERIFY(view && allow && block);
        QVERIFY(!allow->isEnabled() && !block->isEnabled());

        // Block…: the dialog's duration (1 h by default) and note.
        view->selectRow(model->rowOf(rule.keyFor(toBlock)));
        QVERIFY(block->isEnabled());
        QTest::mouseClick(block, Qt::LeftButton);
        QDialog *dialog = page.blockDialog();
        QVERIFY(dialog);
        auto *durationEdit = dialog->findChild<QLineEdit *>(u"blockDurationEdit"_s);
        auto *noteEdit = dialog->findChild<QLineEdit *>(u"blockNoteEdit"_s);
        auto *confirm = dialog->findChild<QPushButton *>(u"blockConfirmButton"_s);
        QVERIFY(durationEdit && noteEdit && confirm);
        QCOMPARE(durationEdit->text(), u"1h"_s);
        durationEdit->selectAll();
        QTest::keyClicks(durationEdit, u"forever"_s);
        QVERIFY(!confirm->isEnabled()); // not a duration
        durationEdit->selectAll();
        QTest::keyClicks(durationEdit, u"2h"_s);
        QVERIFY(confirm->isEnabled());
        QTest::keyClicks(noteEdit, u"brute force"_s);
        QSignalSpy done(&page, &MonitorPage::overrideFinished);
        QTest::mouseClick(confirm, Qt::LeftButton);
        QVERIFY(done.wait(5000));
        auto results = done.takeFirst().at(0).value<QList<OverrideResult>>();
        QCOMPARE(results.size(), 1);
        QVERIFY2(results[0].error.isEmpty(), qPrintable(results[0].error));
        const rules::OverrideStore store;
        const QByteArray blockKey = store.keyFor(id, Override::Kind::Subject, u"10.8.8.1"_s);
        const qint64 blockTtl = admin->command({"PTTL", blockKey})->integer;
        QVERIFY2(blockTtl > 7'190'000 && blockTtl <= 7'200'001,
                 qPrintable(QString::number(blockTtl)));
        auto stored = store.list(*admin, set);
        QVERIFY(stored && stored->size() == 1);
        QCOMPARE(stored->at(0).override.action, Override::Action::Deny);
        QCOMPARE(stored->at(0).override.note, u"brute force"_s);
        QJsonObject d = check(toBlock);
        QCOMPARE(d.value(u"allowed"_s).toBool(), false);
        QCOMPARE(d.value(u"override"_s).toObject().value(u"action"_s).toString(), u"deny"_s);
        QVERIFY(page.findChild<QLabel *>(u"message"_s)->text().contains(u"Blocked until"_s));

        // The row says it is blocked by an override, not merely limited; Unblock (deleting the
        // key) would not unblock it.
        QTRY_VERIFY_WITH_TIMEOUT(
            model->rowOf(rule.keyFor(toBlock)) >= 0 &&
                model->rows()[model->rowOf(rule.keyFor(toBlock))].overrideAction ==
                    Override::Action::Deny,
            5000);
        const int blockedRow = model->rowOf(rule.keyFor(toBlock));
        QVERIFY2(
            model->index(blockedRow, LimitedModel::TimeLeftColumn)
                .data()
                .toString()
                .startsWith(u"blocked until "_s),
            qPrintable(model->index(blockedRow, LimitedModel::TimeLeftColumn).data().toString()));
        view->selectRow(blockedRow);
        QVERIFY(!page.findChild<QPushButton *>(u"unblockButton"_s)->isEnabled());
        // Its key gone by itself, the subject is still listed: denied, with no key.
        QVERIFY(admin->command({"DEL", rule.keyFor(toBlock)}).ok());
        page.refresh();
        QTest::qWait(300);
        QTRY_VERIFY_WITH_TIMEOUT(model->rowOf(rule.keyFor(toBlock)) >= 0 &&
                                     model->rows()[model->rowOf(rule.keyFor(toBlock))].limited,
                                 5000);

        // Allow for 1 h…: asked first, then stored for an hour; the engine admits the subject.
        view->selectRow(model->rowOf(rule.keyFor(toAllow)));
        QString asked;
        page.setConfirmHook([&](const QString &q) {
            asked = q;
            return true;
        });
        QTest::mouseClick(allow, Qt::LeftButton);
        QVERIFY(asked.contains(u"10.8.8.2"_s) && asked.contains(id));
        QVERIFY(done.wait(5000));
        results = done.takeFirst().at(0).value<QList<OverrideResult>>();
        QVERIFY2(results.size() == 1 && results[0].error.isEmpty(),
                 qPrintable(results.value(0).error));
        const QByteArray allowKey = store.keyFor(id, Override::Kind::Subject, u"10.8.8.2"_s);
        const qint64 allowTtl = admin->command({"PTTL", allowKey})->integer;
        QVERIFY2(allowTtl > 3'590'000 && allowTtl <= 3'600'001,
                 qPrintable(QString::number(allowTtl)));
        d = check(toAllow);
        QCOMPARE(d.value(u"allowed"_s).toBool(), true);
        QCOMPARE(d.value(u"override"_s).toObject().value(u"action"_s).toString(), u"allow"_s);
        QTRY_VERIFY_WITH_TIMEOUT(
            model->rowOf(rule.keyFor(toAllow)) >= 0 &&
                model->index(model->rowOf(rule.keyFor(toAllow)), LimitedModel::TimeLeftColumn)
                    .data()
                    .toString()
                    .startsWith(u"allowed until "_s),
            5000);
        // Only the blocked one counts as limited now.
        QCOMPARE(page.findChild<QLabel *>(u"limitedHeading"_s)->text(), u"Limited right now (1)"_s);

        // A failure names the subject and the rule, and why: the index is not a sorted set.
        QVERIFY(admin->command({"SET", store.indexKey(), "x"}).ok());
        view->selectRow(model->rowOf(rule.keyFor(toBlock)));
        QTest::mouseClick(allow, Qt::LeftButton);
        QVERIFY(done.wait(5000));
        results = done.takeFirst().at(0).value<QList<OverrideResult>>();
        QVERIFY(results.size() == 1 && !results[0].error.isEmpty());
        const QString banner = page.findChild<QLabel *>(u"message"_s)->text();
        QVERIFY2(banner.contains(u"Could not allow"_s) && banner.contains(u"10.8.8.1"_s) &&
                     banner.contains(id) && banner.contains(u"holds a string"_s),
                 qPrintable(banner));
        QVERIFY(admin->command({"DEL", store.indexKey()}).ok());

        // A read-only profile: the connection refuses the write, nothing is stored.
        test::PageHarness ro;
        ro.controller()->connectTo(
            test::saveProfile(ro.store(), redis.endpoint(), u"read-only"_s, true));
        QVERIFY(QTest::qWaitFor([&] { return ro.controller()->state().isUp(); }, 10000));
        QVERIFY(ro.controller()->state().readOnly);
        MonitorPage roPage(ro.controller());
        roPage.setRules(set);
        roPage.show();
        QTRY_VERIFY_WITH_TIMEOUT(roPage.limitedModel()->rowOf(rule.keyFor(toAllow)) >= 0, 5000);
        auto *roView = roPage.findChild<QTableView *>(u"limitedTable"_s);
        roView->selectRow(roPage.limitedModel()->rowOf(rule.keyFor(toAllow)));
        (void)*store.remove(*admin, id, Override::Kind::Subject, u"10.8.8.2"_s);
        roPage.setConfirmHook([](const QString &) { return true; });
        QSignalSpy roDone(&roPage, &MonitorPage::overrideFinished);
        QTest::mouseClick(roPage.findChild<QPushButton *>(u"allowButton"_s), Qt::LeftButton);
        QVERIFY(roDone.wait(5000));
        QVERIFY(!roDone.at(0).at(0).value<QList<OverrideResult>>().at(0).error.isEmpty());
        QCOMPARE(admin->command({"EXISTS", allowKey})->integer, 0);
    }

    // Keys of another limiter that a rule adopts (a Spring GET/INCR/EXPIRE counter), planted
    // under prefix: the full one, one at 57 with a TTL, one at 57 and one at its limit without
    // TTL (the classic bug). Returns the rule.
    static Rule plantAdopted(Connection &c, const QByteArray &prefix, const QString &id)
    {
        Rule rule = Rule::window(id, Algorithm::SlidingLog, 100, 60 * duration::usPerSecond,
                                 Scope{Scope::Kind::Ip, {}}, prefix);
        rule.adopt = Adopt{prefix + "*-hello",
                           QStringLiteral("string_counter"),
                           60 * duration::usPerSecond,
                           100,
                           {}};
        const QByteArray tail = "-com.example.HelloController-hello";
        [&] {
            QVERIFY(c.pipeline({{"SET", prefix + "127.0.0.1" + tail, "101", "EX", "60"},
                                {"SET", prefix + "10.0.0.2" + tail, "57", "EX", "40"},
                                {"SET", prefix + "10.0.0.3" + tail, "57"},
                                {"SET", prefix + "10.0.0.4" + tail, "100"}}));
        }();
        return rule;
    }

    // The page shows adopted keys in "Limited right now": the rule and the layout it adopts,
    // the subject the glob's wildcard covers, the state against the adopted limit, the time
    // left, and the ones that never expire flagged in words; the note counts them.
    void adoptedKeysShown()
    {
        Connection c = test::connect();
        const QByteArray prefix = test::keyPrefix() + "mon-adopt:";
        const Rule rule = plantAdopted(c, prefix, uniqueId("mon-adopt"));
        MonitorPage page(m_h.controller());
        page.setRules(test::setOf({rule}));
        page.show();
        LimitedModel *model = page.limitedModel();
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 3, 5000);
        const QString adopted = rule.id + QStringLiteral(" (adopted)");
        QStringList times;
        for (int r = 0; r < 3; ++r) {
            QCOMPARE(model->index(r, LimitedModel::RuleColumn).data().toString(), adopted);
            times << model->index(r, LimitedModel::TimeLeftColumn).data().toString();
        }
        // Never-expiring first (the full one, then the one below its limit), then the wait.
        QCOMPARE(times[0].contains(QStringLiteral("never (no TTL)")) ||
                     times[1].contains(QStringLiteral("never (no TTL)")),
                 true);
        QVERIFY(times.contains(QStringLiteral("\u26a0 no TTL, admits")));
        QVERIFY2(!times[2].isEmpty() && !times[2].contains(QStringLiteral("never")),
                 qPrintable(times.join(u'|')));
        QCOMPARE(model->index(2, LimitedModel::SubjectColumn).data().toString(),
                 QStringLiteral("127.0.0.1-com.example.HelloController"));
        QVERIFY(model->index(2, LimitedModel::StateColumn)
                    .data()
                    .toString()
                    .startsWith(QStringLiteral("101 / 100 in this window (full)")));
        QVERIFY(model->index(0, LimitedModel::TimeLeftColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("never expires")));
        QCOMPARE(page.findChild<QLabel *>(QStringLiteral("limitedHeading"))->text(),
                 QStringLiteral("Limited right now (2)"));
        QVERIFY(page.findChild<QLabel *>(QStringLiteral("limitedNote"))
                    ->text()
                    .contains(QStringLiteral(" of other limiters, adopted by the rules, "
                                             "are watched too; 2 never expire")));
        test::deleteByPrefix(c, prefix);
    }

    // The page with adopted keys at 1280x800 and 1920x1080, in English and Chinese (to look
    // at: SLUICE_SHOTS_DIR=DIR).
    void adoptedScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        Connection c = test::connect();
        const QByteArray prefix = test::keyPrefix() + "mon-shot:rate_limit:";
        Rule rule = plantAdopted(c, prefix, QStringLiteral("hello"));
        RuleSet set;
        set.rules = {rule, windowRule(QStringLiteral("login"), 5, 60 * duration::usPerSecond)};
        RedisLimiter limiter(test::connect());
        const Policy login = set.rules[1].policy();
        for (int i = 0; i < 7; ++i) {
            (void)limiter.decide({&login, set.rules[1].keyFor("203.0.113.66"), 1, {}, 0});
        }
        test::inEachLanguage(
            QStringLiteral("monitor-adopted"), {QSize(1280, 800), QSize(1920, 1080)},
            [&](QSize size, const QString &, const QString &path) {
                test::PageHarness frame;
                auto *page = new MonitorPage(m_h.controller());
                page->setRules(set);
                QVERIFY(frame.show(page, size, 4));
                QTRY_VERIFY_WITH_TIMEOUT(page->limitedModel()->rowCount() >= 4, 5000);
                page->findChild<QTableView *>(QStringLiteral("limitedTable"))->selectRow(0);
                QTest::qWait(300);
                QVERIFY(frame.window()->grab().save(path));
            });
        test::deleteByPrefix(c, prefix);
    }

    // Limited right now with a blocked and an allowed subject (stored overrides, on a Redis of
    // the test's own), and the Block dialog, at two sizes in both languages (SLUICE_SHOTS_DIR).
    void overrideScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        test::OwnRedis redis;
        QVERIFY(redis.start());
        test::PageHarness h;
        QVERIFY(h.connect(redis.endpoint()));
        Connection c = redis.connect();
        const RuleSet set = test::setOf(
            {windowRule(QStringLiteral("login"), 5, 60 * duration::usPerSecond),
             windowRule(QStringLiteral("hello-per-ip"), 3, 5 * 60 * duration::usPerSecond)});
        auto lc = Connection::open(redis.endpoint());
        QVERIFY(lc);
        RedisLimiter limiter(std::move(*lc));
        for (const QByteArray &subject :
             {QByteArray("203.0.113.66"), QByteArray("10.0.0.7"), QByteArray("198.51.100.23")}) {
            const Policy p = set.rules[subject == "10.0.0.7" ? 1 : 0].policy();
            for (int i = 0; i < 7; ++i) {
                (void)limiter.decide(
                    {&p, set.rules[subject == "10.0.0.7" ? 1 : 0].keyFor(subject), 1, {}, 0});
            }
        }
        const rules::OverrideStore store;
        Override block;
        block.pattern = QStringLiteral("203.0.113.66");
        block.action = Override::Action::Deny;
        block.ttlUs = 2 * duration::usPerHour;
        block.note = QStringLiteral("credential stuffing");
        QVERIFY(store.add(c, set.rules[0], block, {}).ok());
        Override allow;
        allow.pattern = QStringLiteral("10.0.0.7");
        allow.action = Override::Action::Allow;
        allow.ttlUs = duration::usPerHour;
        QVERIFY(store.add(c, set.rules[1], allow, {}).ok());
        test::inEachLanguage(
            QStringLiteral("monitor-overrides"), {QSize(1280, 800), QSize(1920, 1080)},
            [&](QSize size, const QString &lang, const QString &path) {
                test::PageHarness frame;
                auto *page = new MonitorPage(h.controller());
                page->setRules(set);
                QVERIFY(frame.show(page, size, 4));
                QTRY_VERIFY_WITH_TIMEOUT(page->limitedModel()->rowCount() >= 3 &&
                                             page->limitedModel()->rows()[0].overrideAction,
                                         5000);
                auto *view = page->findChild<QTableView *>(QStringLiteral("limitedTable"));
                view->selectRow(2);
                QTest::qWait(300);
                QVERIFY(frame.window()->grab().save(path));
                QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("blockButton")),
                                  Qt::LeftButton);
                QDialog *d = page->blockDialog();
                QVERIFY(d);
                QTest::qWait(200);
                QVERIFY(d->grab().save(
                    QStringLiteral("%1/monitor-block-dialog-%2.png").arg(test::shotsDir(), lang)));
                d->reject();
            });
    }

    // The server goes away: the charts keep their points, the status says so; it comes back.
    void lostConnectionKeepsData()
    {
        test::OwnRedis redis;
        QVERIFY(redis.start());
        test::PageHarness h;
        QVERIFY(h.connect(redis.endpoint()));

        const QString id = QStringLiteral("lost");
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        stats::StatsRecorder recorder;
        recorder.record(id, "10.0.0.1", true, false, now - 5, 42);
        {
            stats::StatsFlusher flusher(redis.endpoint(), &recorder);
            flusher.start();
            flusher.stop();
        }
        MonitorPage page(h.controller());
        page.setRules(test::setOf({windowRule(id, 10, duration::usPerSecond)}));
        page.show();
        QTRY_COMPARE_WITH_TIMEOUT(page.chart(id)->totals().allowed, qint64(42), 5000);
        auto *status = page.findChild<QLabel *>(QStringLiteral("monitorStatus"));
        QVERIFY2(status->text().contains(QStringLiteral("Live")), qPrintable(status->text()));
        auto *note = page.findChild<QLabel *>(QStringLiteral("limitedNote"));
        auto *heading = page.findChild<QLabel *>(QStringLiteral("limitedHeading"));
        QTRY_VERIFY_WITH_TIMEOUT(note->text().startsWith(u"No subject is denied right now"_s),
                                 5000);

        redis.stop();
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("Not updating")), 10000);
        // The list read before is not an all-clear now.
        QVERIFY2(note->text().startsWith(u"Not current: Redis stopped answering at"_s),
                 qPrintable(note->text()));
        QVERIFY(!note->text().contains(u"No subject is denied"_s));
        QCOMPARE(heading->text(), u"Limited right now (not current)"_s);
        QVERIFY(status->text().contains(QStringLiteral("showing the data read at")));
        QCOMPARE(page.chart(id)->totals().allowed, qint64(42));
        QCOMPARE(page.snapshot().series.size(), 1);

        // Back (empty: a fresh server): live again.
        QVERIFY(redis.start());
        QTRY_VERIFY_WITH_TIMEOUT(status->text().contains(QStringLiteral("Live")), 15000);
        QTRY_VERIFY_WITH_TIMEOUT(note->text().startsWith(u"No subject is denied right now"_s),
                                 5000);
        QCOMPARE(heading->text(), u"Limited right now"_s);
    }

    // Realistic data, then a look: history recorded for the last 15 minutes, a real load on
    // top, a few subjects blocked.
    void screenshot()
    {
        const QStringList ids{QStringLiteral("api"), QStringLiteral("login"),
                              QStringLiteral("search"), QStringLiteral("export")};
        Connection admin = test::connect();
        deleteStats(admin, ids);
        RuleSet set;
        set.rules = {bucketRule(ids[0], Algorithm::TokenBucket, {100, duration::usPerSecond}, 200),
                     windowRule(ids[1], 5, 60 * duration::usPerSecond),
                     bucketRule(ids[2], Algorithm::Gcra, {20, duration::usPerSecond}, 40),
                     windowRule(ids[3], 10, 3600 * duration::usPerSecond)};
        set.rules[1].algorithm = Algorithm::SlidingLog;
        set.rules[2].shadow = true;
        set.rules[0].route = QStringLiteral("GET /v1/*");

        // History: a daily-looking wave with noise and one incident (login brute force).
        const qint64 now = QDateTime::currentSecsSinceEpoch();
        stats::StatsRecorder recorder;
        quint64 x = 12345;
        auto noise = [&x] {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            return double((x >> 33) % 1000) / 1000.0;
        };
        for (qint64 s = now - 900; s < now - 6; ++s) {
            const double t = double(s - (now - 900)) / 900.0;
            const qint64 api = qint64(80 + 30 * std::sin(t * 6.3) + 25 * noise());
            const qint64 apiDenied = api > 100 ? api - 100 : qint64(noise() < 0.05 ? 3 : 0);
            recorder.record(ids[0], "10.0.0." + QByteArray::number(1 + s % 7), true, false, s, api);
            if (apiDenied) {
                recorder.record(ids[0], "10.0.0.7", false, false, s, apiDenied);
            }
            const bool attack = s > now - 420 && s < now - 300;
            const qint64 login = qint64(2 + 3 * noise()) + (attack ? qint64(30 + 20 * noise()) : 0);
            recorder.record(ids[1], "10.0.0." + QByteArray::number(1 + s % 5), true, false, s,
                            std::min<qint64>(login, 4));
            if (login > 4) {
                recorder.record(ids[1], "203.0.113.66", false, false, s, login - 4);
            }
            const qint64 search = qint64(15 + 10 * noise());
            recorder.record(ids[2], "10.0.0.2", true, false, s, search);
            if (search > 22) {
                recorder.record(ids[2], "10.0.0.2", false, true, s, search - 22);
            }
            if (s % 37 == 0) {
                recorder.record(ids[3], "10.0.0.4", true, false, s, 1);
            }
        }
        {
            stats::StatsFlusher flusher(test::redisEndpoint(), &recorder);
            flusher.start();
            flusher.stop();
        }

        // What one tick of the worker costs on this data: the series of four rules over 15
        // minutes, and one rule's top subjects (one pipelined round trip each).
        {
            QElapsedTimer t;
            t.start();
            auto series = stats::readSeries(admin, ids, 900, now);
            const qint64 seriesMs = t.restart();
            auto top = stats::readTopSubjects(admin, ids[0], 900, now, 10);
            const qint64 topMs = t.elapsed();
            QVERIFY(series.ok() && top.ok());
            qInfo("read 4 rules x 900 s of series in %lld ms, top subjects of one rule over 900 s "
                  "in %lld ms",
                  seriesMs, topMs);
        }

        // A real load for the last seconds, recorded as the Load page does.
        load::LoadOptions o =
            test::constantLoad(test::redisEndpoint(), set, 150, 4 * duration::usPerSecond, 12);
        o.pattern.kind = sim::TrafficPattern::Kind::Poisson;
        QVERIFY(test::recordedLoad(o).finished);

        test::PageHarness frame;
        auto *page = new MonitorPage(m_h.controller());
        page->setRules(set);
        QVERIFY(frame.show(page, {1280, 800}, 4));
        QTRY_VERIFY_WITH_TIMEOUT(page->snapshot().series.size() == 4, 5000);
        // The login attack's subject is blocked right now by the real script, as are two API
        // clients; the page lists them.
        Connection c = test::connect();
        RedisLimiter limiter(std::move(c));
        const Policy loginPolicy = set.rules[1].policy();
        const Policy exportPolicy = set.rules[3].policy();
        for (int i = 0; i < 7; ++i) {
            (void)limiter.decide({&loginPolicy, set.rules[1].keyFor("203.0.113.66"), 1, {}, 0});
        }
        for (int i = 0; i < 12; ++i) {
            (void)limiter.decide({&exportPolicy, set.rules[3].keyFor("10.0.0.4"), 1, {}, 0});
        }
        page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(page->limitedModel()->rowCount() >= 2, 5000);
        page->findChild<QTableView *>(QStringLiteral("limitedTable"))->selectRow(0);
        QTest::qWait(300);
        QVERIFY(frame.shoot(QStringLiteral("monitor.png")));
        deleteStats(admin, ids);
    }
};

QTEST_MAIN(TestMonitorPage)
#include "tst_monitorpage.moc"
