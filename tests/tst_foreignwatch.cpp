// The Monitor's "Other limiters" (ui/monitor/foreignwatch*): on the Monitor page, shown in the
// console's frame against the fixture's Redis, the limiters Sluice does not run appear from
// their keys alone: a counter adopted at a limit of 5 and past it (INCRs as the Spring aspect's
// Lua sends them) is "over its limit", Spring Cloud Gateway's own script EVALed until no token
// is left is "no token left", a subject below its limit is "under" with its admissions per
// second; the resolution is said; the rows are reached with the mouse and the keyboard; the
// worker thread reads (the GUI thread is free: the test's event loop turns while it waits).
// With SLUICE_SHOTS_DIR: the page at three sizes, in both languages, light and dark.
#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"

#include "core/rules/codec.h"
#include "ui/common/theme.h"
#include "ui/monitor/foreignwatchmodel.h"
#include "ui/monitor/foreignwatchpanel.h"
#include "ui/monitor/monitorpage.h"

#include <QAbstractItemModelTester>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTabBar>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

#include <cstdio>

#include <sys/resource.h>

using namespace sluice;
using namespace sluice::ui;

namespace {

Rule adoptingRule(const QByteArray &match)
{
    Rule r;
    r.id = QStringLiteral("fw-hello");
    r.keyPrefix = "rate_limit:";
    r.algorithm = Algorithm::FixedWindow;
    r.limit = 5;
    r.windowUs = 60 * duration::usPerSecond;
    r.adopt.emplace();
    r.adopt->match = match;
    r.adopt->layout = QStringLiteral("string_counter");
    r.adopt->windowUs = 60 * duration::usPerSecond;
    r.adopt->limit = 5;
    return r;
}

int rowOf(const ForeignWatchModel *m, const QByteArray &key)
{
    for (int r = 0; r < m->rowCount(); ++r) {
        if (m->rows()[r].now.key == key) {
            return r;
        }
    }
    return -1;
}

} // namespace

// A real click on the Monitor's "Other limiters" tab.
void openTab(MonitorPage *page)
{
    auto *tabs = page->findChild<QTabWidget *>(QStringLiteral("monitorSideTabs"));
    QVERIFY(tabs != nullptr);
    QTabBar *bar = tabs->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(1).center());
    QVERIFY(page->foreignWatch()->isVisible());
}

class TestForeignWatch : public QObject
{
    Q_OBJECT

    test::PageHarness m_h;
    QByteArray m_prefix;
    QByteArray m_over, m_under, m_tokens, m_stamp;

    void plant()
    {
        Connection c = test::connect();
        QVERIFY(c.command({"DEL", m_over, m_under, m_tokens, m_stamp}));
        for (int i = 0; i < 7; ++i) {
            QVERIFY(c.command({"INCR", m_over}));
        }
        QVERIFY(c.command({"EXPIRE", m_over, "60"}));
        QVERIFY(c.command({"SET", m_under, "1", "EX", "60"}));
        // Capacity 10, a token every 4 s (the keys live 80 s): the 11th request finds none left.
        for (int i = 0; i < 11; ++i) {
            QVERIFY(c.command({"EVAL", test::springGatewayScript(), "2", m_tokens, m_stamp, "0.25",
                               "10", "", "1"}));
        }
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_h.connect());
        m_prefix = test::keyPrefix() + "fw-";
        m_over = "rate_limit:" + m_prefix + "alice";
        m_under = "rate_limit:" + m_prefix + "bob";
        m_tokens = "request_rate_limiter.{" + m_prefix + "carol}.tokens";
        m_stamp = "request_rate_limiter.{" + m_prefix + "carol}.timestamp";
    }

    void cleanupTestCase()
    {
        Connection c = test::connect();
        (void)c.command({"DEL", m_over, m_under, m_tokens, m_stamp});
    }

    void showsForeignLimitedSubjects()
    {
        plant();
        auto *page = new MonitorPage(m_h.controller());
        RuleSet set;
        set.rules = {adoptingRule("rate_limit:" + m_prefix + "*")};
        page->setRules(set);
        ForeignWatchPanel *panel = page->foreignWatch();
        QVERIFY(panel);
        QAbstractItemModelTester tester(panel->model(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy updated(panel, &ForeignWatchPanel::updated);
        QVERIFY(m_h.show(page, {1280, 800}, 4));
        QVERIFY(!panel->isVisible()); // on its tab, beside Top subjects: not read until shown
        openTab(page);
        ForeignWatchModel *model = panel->model();
        // Two samples 2 s apart; meanwhile bob's counter grows (his requests keep coming).
        Connection c = test::connect();
        for (int i = 0; i < 2; ++i) { // 3 of 5: under
            QVERIFY(c.command({"INCR", m_under}));
        }
        QTRY_VERIFY_WITH_TIMEOUT(rowOf(model, m_over) >= 0, 15'000);
        QVERIFY(updated.count() >= 1);
        QVERIFY2(panel->statusText().startsWith(QStringLiteral("sampled every ")),
                 qPrintable(panel->statusText()));

        const int over = rowOf(model, m_over);
        QCOMPARE(model->index(over, ForeignWatchModel::LevelColumn).data().toString(),
                 QStringLiteral("over its limit"));
        QCOMPARE(model->index(over, ForeignWatchModel::NowColumn).data().toString(),
                 QStringLiteral("7 / 5"));
        const int tokens = rowOf(model, m_tokens);
        QVERIFY(tokens >= 0);
        QCOMPARE(model->index(tokens, ForeignWatchModel::LevelColumn).data().toString(),
                 QStringLiteral("no token left"));
        const int under = rowOf(model, m_under);
        QVERIFY(under > over && under > tokens); // the limited first
        QCOMPARE(model->index(under, ForeignWatchModel::LevelColumn).data().toString(),
                 QStringLiteral("under"));

        // The mouse selects alice's row, the keyboard moves on to the next one.
        QTableView *view = panel->view();
        const QRect cell = view->visualRect(model->index(over, ForeignWatchModel::KeyColumn));
        QVERIFY(cell.isValid());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, cell.center());
        QCOMPARE(view->currentIndex().row(), over);
        view->setFocus();
        QTest::keyClick(view, Qt::Key_Down);
        QCOMPARE(view->currentIndex().row(), over + 1);
        QVERIFY(model->index(over, ForeignWatchModel::KeyColumn)
                    .data(Qt::ToolTipRole)
                    .toString()
                    .contains(QStringLiteral("adopted by rule fw-hello")));
    }

    // A benchmark, skipped without SLUICE_BENCH_KEYS_URL (tools/bench-keys.sh runs it against
    // its keyspace, SLUICE_TEST_REDIS_URL the same): the tab watching with the rules of
    // SLUICE_BENCH_KEYS_RULES until its first report (two samples), and the console's peak RSS
    // then (the page, its worker and the watch: the whole process).
    void watchFigures()
    {
        if (qEnvironmentVariable("SLUICE_BENCH_KEYS_URL").isEmpty()) {
            QSKIP("a benchmark: tools/bench-keys.sh runs it (SLUICE_BENCH_KEYS_URL, _RULES)");
        }
        const rules::Loaded loaded =
            rules::loadFile(qEnvironmentVariable("SLUICE_BENCH_KEYS_RULES"));
        QVERIFY(loaded.ok());
        auto *page = new MonitorPage(m_h.controller());
        page->setRules(loaded.set);
        ForeignWatchPanel *panel = page->foreignWatch();
        QSignalSpy updated(panel, &ForeignWatchPanel::updated);
        QVERIFY(m_h.show(page, {1280, 800}, 4));
        QElapsedTimer took;
        took.start();
        openTab(page);
        QTRY_VERIFY_WITH_TIMEOUT(updated.count() >= 1, 900'000);
        rusage usage{};
        getrusage(RUSAGE_SELF, &usage);
        std::printf("console watch: two samples in %lld s, peak RSS %ld MB (the console's "
                    "process); %s\n",
                    took.elapsed() / 1000, usage.ru_maxrss / 1024, qPrintable(panel->statusText()));
    }

    // The page with other limiters' subjects, to look at (SLUICE_SHOTS_DIR).
    void screenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        RuleSet set;
        set.rules = {adoptingRule("rate_limit:" + m_prefix + "*")};
        for (const Theme::Choice theme : {Theme::Choice::Light, Theme::Choice::Dark}) {
            Theme::instance().apply(theme);
            test::inEachLanguage(QStringLiteral("foreignwatch-") + Theme::name(theme),
                                 {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)},
                                 [&](QSize size, const QString &, const QString &path) {
                                     test::PageHarness frame;
                                     auto *page = new MonitorPage(m_h.controller());
                                     page->setRules(set);
                                     QVERIFY(frame.show(page, size, 4));
                                     openTab(page);
                                     QTRY_VERIFY_WITH_TIMEOUT(
                                         page->foreignWatch()->model()->rowCount() >= 3, 15'000);
                                     QVERIFY(frame.window()->grab().save(path));
                                 });
        }
        Theme::instance().apply(Theme::Choice::Light);
    }
};

QTEST_MAIN(TestForeignWatch)
#include "tst_foreignwatch.moc"
