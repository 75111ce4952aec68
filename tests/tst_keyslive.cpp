// The Keys page as a live instrument (CONSOLE.md "Keys: live and honest"), through its real
// widgets offscreen against a redis-server of its own: a key planted after the page was shown
// is listed by the timer alone, the banner turns from healthy to flagged and says what the
// finished scan found, the banner, the badge, the status bar's link and the audit panel read
// one model of the last scan, a Redis that stops answering leaves the last rows marked stale
// (never an empty or healthy page), a rescan keeps the selection, the sort and the scroll
// position, a keyspace larger than a live rescan's budget is said to be partial; the tree by
// prefix and by rule counts what the table holds; the columns fit their words. Screenshots of
// the tree and the table, healthy, flagged and stale, at three sizes in two languages.

#include "ownredis.h"
#include "pageharness.h"
#include "testredis.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"
#include "ui/keys/auditpanel.h"
#include "ui/keys/healthbanner.h"
#include "ui/keys/keypresentation.h"
#include "ui/keys/keysfilterproxy.h"
#include "ui/keys/keysmodel.h"
#include "ui/keys/keyspage.h"
#include "ui/keys/keyssession.h"
#include "ui/keys/keystree.h"
#include "ui/keys/scanstate.h"
#include "ui/language.h"
#include "ui/mainwindow.h"

#include "core/keys/keyhealth.h"

#include <QAbstractItemModelTester>
#include <QDir>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>
#include <QTreeView>

#include <memory>

using namespace sluice;
using namespace sluice::ui;
using namespace sluice::keys;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 sec = duration::usPerSecond;

// The page on `redis`, through a saved profile with the rescan interval and the budget given,
// shown in the console's mock frame.
struct Live
{
    Live(const test::OwnRedis &redis, int rescanSeconds, int budget = 20'000,
         QSize size = {1280, 800})
    {
        ConnectionProfile p;
        p.name = u"live"_s;
        p.host = u"127.0.0.1"_s;
        p.port = redis.port();
        p.keysRescanSeconds = rescanSeconds;
        p.scanBudget = budget;
        const QString id = base.store().save(p, QString());
        page = new KeysPage(base.controller());
        page->setConfirm([](const QString &) { return true; });
        tester = std::make_unique<QAbstractItemModelTester>(
            page->proxy(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        base.controller()->connectTo(id);
        shown = base.show(page, size, 2);
    }
    ~Live() { tester.reset(); }

    template <typename T> T *find(const char *name)
    {
        return page->findChild<T *>(QString::fromLatin1(name));
    }
    QString banner() { return find<QLabel>("bannerText")->text(); }
    QTableView *table() { return find<QTableView>("keysTable"); }
    KeysScanState *state() { return page->scanState(); }
    // Waits for a scan that finished after now (the timer's, or any).
    bool nextScan(int timeoutMs = 10'000)
    {
        QSignalSpy done(page, &KeysPage::scanFinished);
        return QTest::qWaitFor([&] { return !done.isEmpty() && !page->isScanning(); }, timeoutMs);
    }
    int proxyRow(const QByteArray &key)
    {
        for (int r = 0; r < page->proxy()->rowCount(); ++r) {
            if (page->proxy()->index(r, 0).data(KeysModel::RawKeyRole).toByteArray() == key) {
                return r;
            }
        }
        return -1;
    }

    test::PageHarness base;
    KeysPage *page = nullptr; // the harness's window owns it
    std::unique_ptr<QAbstractItemModelTester> tester;
    bool shown = false;
};

RuleSet rulesOn(const QByteArray &prefix)
{
    RuleSet set;
    set.rules = {Rule::window(u"big"_s, Algorithm::FixedWindow, 3, 600 * sec,
                              Scope{Scope::Kind::Ip, {}}, prefix)};
    return set;
}

// The prefix that plantFixedWindows() is given for the rule's keys ("<it>big:{<i>}").
QByteArray plantPrefix(const Rule &rule)
{
    QByteArray k = rule.keyFor("X");
    return k.left(k.size() - 7); // "big:{X}" off
}

} // namespace

class TestKeysLive : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        test::useTestSettings();
        // As the console starts: English with its plural forms ("1 key never expires").
        QVERIFY(test::useLanguage(u"en"_s));
    }

    // --- the model of the last scan, on a clock of the test's ---------------------------------

    void freshStaleAndGreen()
    {
        KeysScanState s;
        s.setInterval(10'000);
        const qint64 t0 = 1'800'000'000'000;
        s.setNowForTest(t0);
        QCOMPARE(s.freshness(), KeysScanState::Freshness::None);
        QVERIFY(!s.mayShowHealthy());
        QCOMPARE(s.scanLine(), u"not scanned yet"_s);
        keys::HealthSummary h;
        h.keys = h.limiterKeys = h.ok = 217;
        s.setHealth(h);
        s.scanDone(200, 217, true, 1.0, false);
        QVERIFY(s.mayShowHealthy());
        QVERIFY2(s.scanLine().contains(u", 0.2 s, 217 keys"_s), qPrintable(s.scanLine()));
        QVERIFY(s.headline().isEmpty()); // healthy and current: nothing for the status bar
        // One interval and the time a rescan takes (at least 1 s): still fresh, the next
        // result may be on its way.
        s.setNowForTest(t0 + 10'900);
        QVERIFY(s.mayShowHealthy());
        s.setNowForTest(t0 + 11'500); // older than one interval and a rescan: no green any more
        QCOMPARE(s.freshness(), KeysScanState::Freshness::Aging);
        QVERIFY(!s.mayShowHealthy());
        s.setNowForTest(t0 + 22'500); // older than two: stale
        QCOMPARE(s.freshness(), KeysScanState::Freshness::Stale);
        QVERIFY(s.scanLine().endsWith(u" · stale"_s));
        QVERIFY2(s.headline().startsWith(u"Keys: stale since"_s), qPrintable(s.headline()));
        // A partial scan is never green, even fresh.
        s.setNowForTest(t0 + 30'000);
        s.scanDone(1000, 500, false, 0.31, true);
        QCOMPARE(s.freshness(), KeysScanState::Freshness::Fresh);
        QVERIFY(!s.mayShowHealthy());
        QVERIFY2(s.scanLine().contains(u"31 % of the keyspace"_s), qPrintable(s.scanLine()));
        QVERIFY2(s.headline().contains(u"partial"_s), qPrintable(s.headline()));
        // A failure since the last scan: stale at once, with both times said.
        s.scanDone(100, 217, true, 1.0, false);
        s.failed(u"Connection refused"_s);
        QCOMPARE(s.freshness(), KeysScanState::Freshness::Stale);
        QVERIFY(!s.mayShowHealthy());
        QVERIFY2(s.notCurrentText().startsWith(u"Not current: Redis stopped answering at"_s),
                 qPrintable(s.notCurrentText()));
        QCOMPARE(s.failure(), u"Connection refused"_s);
        // Rescans off: judged against the default interval, and said so.
        s.setInterval(0);
        s.scanDone(100, 217, true, 1.0, false);
        s.setNowForTest(t0 + 30'000 + 25'000);
        QVERIFY2(s.notCurrentText().contains(u"off"_s), qPrintable(s.notCurrentText()));
    }

    void splitKeyKeepsHashTags()
    {
        QCOMPARE(KeysTree::splitKey(u"rate_limit:login:{::1}"_s),
                 (QStringList{u"rate_limit"_s, u"login"_s, u"{::1}"_s}));
        QCOMPARE(KeysTree::splitKey(u"plain"_s), QStringList{u"plain"_s});
    }

    // --- live, against a server of the test's own ----------------------------------------------

    // Healthy, then a key planted without TTL while the page is shown: listed by the timer
    // alone, the banner turns red and says the scan's figures, badge, link and audit agree, and
    // the rescan kept the selection, the sort and the scroll position (no reset).
    void plantedKeyListedWithoutAction()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection c = Connection::open(redis.endpoint()).value();
        const RuleSet set = rulesOn("live:");
        const Rule &rule = set.rules.front();
        QVERIFY(test::plantFixedWindows(c, plantPrefix(rule), 0, 300, 600'000));

        Live live(redis, 1);
        QVERIFY(live.shown);
        live.page->setRules(set);
        QTRY_VERIFY_WITH_TIMEOUT(live.state()->hasResult() && live.state()->keysScanned() == 300 &&
                                     !live.page->isScanning(),
                                 15000);
        if (!QTest::qWaitFor(
                [&] { return live.banner().contains(u"All 300 limiter keys are healthy"_s); },
                5000)) {
            const KeyInfo &k = live.page->model()->info(0);
            qWarning("%s %d %s | %s", k.key.constData(), int(k.health), qPrintable(k.explanation()),
                     qPrintable(live.banner()));
            QFAIL("not healthy");
        }
        QVERIFY(live.state()->mayShowHealthy());

        // Sorted by key, a row selected in the middle, scrolled there.
        QTableView *table = live.table();
        table->sortByColumn(KeysModel::KeyColumn, Qt::DescendingOrder);
        const QByteArray picked = rule.keyFor("150");
        const int row = live.proxyRow(picked);
        QVERIFY(row >= 0);
        table->selectRow(row);
        table->scrollTo(table->model()->index(row, 0), QAbstractItemView::PositionAtCenter);
        QCoreApplication::processEvents();
        const int scroll = table->verticalScrollBar()->value();
        QVERIFY(scroll > 0);
        QSignalSpy resets(live.page->proxy(), &QAbstractItemModel::modelReset);

        // Planted after the page was shown, without a TTL: no F5, no click.
        const QByteArray never = rule.keyFor("10.9.9.9");
        QVERIFY(c.command({"HSET", never, "s", "1", "c", "3"}));
        QTRY_VERIFY_WITH_TIMEOUT(live.proxyRow(never) >= 0, 8000);
        QTRY_VERIFY_WITH_TIMEOUT(!live.page->isScanning() && live.state()->keysScanned() == 301,
                                 8000);
        QVERIFY2(live.banner().contains(u"1 limiter key never expires"_s),
                 qPrintable(live.banner()));
        // Sluice's own hash with a window start long past: its limit resets by its own clock.
        QVERIFY2(live.banner().contains(u"its limit still resets"_s), qPrintable(live.banner()));
        QVERIFY(!live.banner().contains(u"forever"_s));
        QCOMPARE(live.state()->health().noTtlOwnClock, qint64(1));
        // The finished scan's figures are what the page says.
        const QString count = live.find<QLabel>("keyCount")->text();
        QVERIFY2(count.contains(u"301 keys"_s) && count.contains(u"scanned "_s), qPrintable(count));
        QCOMPARE(live.state()->health().noTtl, qint64(1));
        QCOMPARE(live.state()->health().keys, qint64(301));
        // One model, four readers.
        QCOMPARE(live.state()->badgeText(), u"Keys  1"_s);
        QVERIFY2(live.state()->headline().contains(u"never expire"_s),
                 qPrintable(live.state()->headline()));
        auto *auditLine = live.page->audit()->findChild<QLabel *>(u"auditKeysLine"_s);
        QVERIFY(auditLine);
        QVERIFY2(auditLine->text().contains(u"1 flagged, 1 never expire"_s),
                 qPrintable(auditLine->text()));
        QVERIFY(auditLine->text().contains(live.state()->scanLine()));

        // The rescans kept the selection, the sort and the scroll position.
        QCOMPARE(resets.count(), 0);
        QCOMPARE(table->horizontalHeader()->sortIndicatorSection(), int(KeysModel::KeyColumn));
        QCOMPARE(table->horizontalHeader()->sortIndicatorOrder(), Qt::DescendingOrder);
        const QModelIndexList selected = table->selectionModel()->selectedRows();
        QCOMPARE(selected.size(), 1);
        QCOMPARE(selected.first().data(KeysModel::RawKeyRole).toByteArray(), picked);
        QCOMPARE(table->verticalScrollBar()->value(), scroll);

        // A key deleted meanwhile leaves with the next whole scan.
        QVERIFY(c.command({"DEL", never}));
        QTRY_VERIFY_WITH_TIMEOUT(live.proxyRow(never) < 0, 8000);
        QTRY_VERIFY_WITH_TIMEOUT(live.banner().contains(u"All 300 limiter keys are healthy"_s),
                                 8000);
        QCOMPARE(live.state()->badgeText(), u"Keys"_s);
    }

    // In the real main window: the banner, the navigation badge, the status bar's link and the
    // audit panel say the same of a key planted without TTL, found by the timer alone.
    void fourReadersAgree()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection c = Connection::open(redis.endpoint()).value();
        for (int i = 0; i < 5; ++i) {
            QVERIFY(c.command(
                {"SET", "rate_limit:ok:{" + QByteArray::number(i) + "}", "1", "PX", "600000"}));
        }
        QSettings().clear();
        MainWindow w;
        auto *store = w.findChild<ProfileStore *>();
        QVERIFY(store);
        ConnectionProfile p;
        p.name = u"agree"_s;
        p.port = redis.port();
        p.keysRescanSeconds = 1;
        const QString id = store->save(p, QString());
        QVERIFY(test::showWindow(w));
        w.connection()->connectTo(id);
        auto *page = w.findChild<KeysPage *>();
        QVERIFY(page);
        QTRY_VERIFY_WITH_TIMEOUT(
            page->scanState()->mayShowHealthy() && page->scanState()->keysScanned() == 5, 15000);
        auto *nav = w.findChild<QListWidget *>(u"navigation"_s);
        auto *link = w.findChild<QLabel *>(u"healthHeadline"_s);
        QVERIFY(nav && link);
        QCOMPARE(nav->item(MainWindow::KeysPageIndex)->text(), u"Keys"_s);
        QVERIFY(!link->isVisible()); // healthy and current: nothing to say

        QVERIFY(c.command({"SET", "rate_limit:never:{1}", "3"})); // no TTL
        QTRY_VERIFY_WITH_TIMEOUT(page->scanState()->neverExpiring() == 1, 8000);
        const QString banner = page->findChild<QLabel *>(u"bannerText"_s)->text();
        const QString audit = page->audit()->findChild<QLabel *>(u"auditKeysLine"_s)->text();
        QVERIFY2(banner.contains(u"1 limiter key never expires"_s), qPrintable(banner));
        QCOMPARE(nav->item(MainWindow::KeysPageIndex)->text(), u"Keys  1"_s);
        QTRY_VERIFY(link->isVisible());
        QVERIFY2(link->text().contains(u"1 key never expires"_s), qPrintable(link->text()));
        QVERIFY2(audit.contains(u"never expire"_s) && audit.contains(u"1 flagged"_s),
                 qPrintable(audit));
        // The scan's time is the same in all of them.
        const QString line = page->scanState()->scanLine();
        QVERIFY(nav->item(MainWindow::KeysPageIndex)->toolTip().contains(line));
        QVERIFY(link->toolTip().contains(line));
        QVERIFY(audit.contains(line));
        QVERIFY(page->findChild<QLabel *>(u"keyCount"_s)->text().contains(line));
    }

    // Redis stops answering while the page is live: the rows stay, marked stale, with the time
    // of the last good scan; never an empty or a healthy page.
    void redisStoppedKeepsRowsStale()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection c = Connection::open(redis.endpoint()).value();
        const RuleSet set = rulesOn("gone:");
        QVERIFY(test::plantFixedWindows(c, plantPrefix(set.rules.front()), 0, 40, 600'000));

        Live live(redis, 1);
        QVERIFY(live.shown);
        live.page->setRules(set);
        QTRY_VERIFY_WITH_TIMEOUT(
            live.state()->keysScanned() == 40 && live.state()->mayShowHealthy(), 15000);
        const QDateTime good = live.state()->finishedAt();
        redis.kill();
        QTRY_VERIFY_WITH_TIMEOUT(!live.state()->failure().isEmpty(), 10000);
        // Some more rescans fail meanwhile: still the last good rows.
        QTest::qWait(2500);
        QCOMPARE(live.page->model()->rowCount(), 40);
        QVERIFY(live.page->model()->isStale());
        QVERIFY(!live.state()->mayShowHealthy());
        QCOMPARE(live.state()->freshness(), KeysScanState::Freshness::Stale);
        QCOMPARE(live.state()->finishedAt(), good); // no scan finished since
        const QString banner = live.banner();
        QVERIFY2(banner.contains(u"Not current"_s) &&
                     banner.contains(good.toLocalTime().toString(u"HH:mm:ss"_s)),
                 qPrintable(banner));
        QVERIFY2(!banner.contains(u"are healthy"_s), qPrintable(banner));
        QVERIFY2(live.state()->headline().contains(u"stale"_s),
                 qPrintable(live.state()->headline()));
        QVERIFY(live.page->model()
                    ->index(0, KeysModel::KeyColumn)
                    .data(Qt::ForegroundRole)
                    .isValid()); // drawn grey
    }

    // One story after an outage: Redis comes back while the status bar counts down to its next
    // retry. The Keys page's own worker gets through first; the console's connection state
    // follows it at once (not at the end of the countdown), and the page, green again, never
    // flips back to "Not current" on the countdown's ticks.
    // After an outage the status bar follows the page's own worker at once, whether the
    // restarted (empty) Redis leaves rows to refresh or not: a scan that got its answers is news
    // of the connection even when it lists nothing.
    void outageEndsTogether_data()
    {
        QTest::addColumn<int>("planted");
        QTest::newRow("rows listed before") << 10;
        QTest::newRow("nothing listed") << 0;
    }

    void outageEndsTogether()
    {
        QFETCH(int, planted);
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection c = Connection::open(redis.endpoint()).value();
        const RuleSet set = rulesOn("back:");
        QVERIFY(test::plantFixedWindows(c, plantPrefix(set.rules.front()), 0, planted, 600'000));
        Live live(redis, 1);
        QVERIFY(live.shown);
        live.page->setRules(set);
        QTRY_VERIFY_WITH_TIMEOUT(live.state()->mayShowHealthy(), 15000);
        ConnectionController *controller = live.base.controller();
        redis.stop();
        // Down long enough for the session's back-off to count several seconds.
        QTRY_VERIFY_WITH_TIMEOUT(controller->state().state == ConnectionState::State::Lost &&
                                     controller->state().retryInSeconds >= 4,
                                 20000);
        QVERIFY(!live.state()->mayShowHealthy());
        QVERIFY2(redis.start(), redis.output().constData());
        QTRY_VERIFY_WITH_TIMEOUT(live.state()->mayShowHealthy(), 10000);
        QElapsedTimer sinceGreen;
        sinceGreen.start();
        QStringList flaps;
        QObject::connect(live.state(), &KeysScanState::changed, live.page, [&] {
            if (!live.state()->mayShowHealthy()) {
                flaps << live.state()->headline();
            }
        });
        QTRY_VERIFY_WITH_TIMEOUT(controller->state().state == ConnectionState::State::Connected,
                                 2500);
        QVERIFY2(sinceGreen.elapsed() < 2500, qPrintable(QString::number(sinceGreen.elapsed())));
        QTest::qWait(1500); // the countdown would have ticked meanwhile
        QVERIFY2(flaps.isEmpty(), qPrintable(flaps.join(u" | "_s)));
    }

    // More keys than a live rescan may walk in one interval at the budget: the page says how
    // much was scanned and never "all healthy"; F5 reads the whole match.
    void budgetExceededIsPartial()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection c = Connection::open(redis.endpoint()).value();
        const RuleSet set = rulesOn("big:");
        QVERIFY(test::plantFixedWindows(c, plantPrefix(set.rules.front()), 0, 3000, 600'000));

        // 1,000 keys a second, a rescan every 1 s: a live rescan walks at most 1,000 keys.
        Live live(redis, 1, 1000);
        QVERIFY(live.shown);
        live.page->setRules(set);
        QTRY_VERIFY_WITH_TIMEOUT(live.state()->stoppedAtCap() && !live.page->isScanning(), 15000);
        QVERIFY(!live.state()->isComplete());
        QVERIFY(live.state()->keysScanned() < 3000);
        QVERIFY(!live.state()->mayShowHealthy());
        QVERIFY2(live.banner().contains(u"stopped at the scan budget"_s),
                 qPrintable(live.banner()));
        QVERIFY2(!live.banner().contains(u"healthy"_s), qPrintable(live.banner()));
        QVERIFY2(live.state()->headline().contains(u"partial"_s),
                 qPrintable(live.state()->headline()));
        QVERIFY2(live.find<QLabel>("keyCount")->text().contains(u"% of the keyspace"_s),
                 qPrintable(live.find<QLabel>("keyCount")->text()));

        // F5: the whole match, at the budget (about 3 s), then green.
        live.page->refresh();
        QTRY_VERIFY_WITH_TIMEOUT(live.state()->isComplete() && !live.page->isScanning() &&
                                     live.state()->keysScanned() == 3000,
                                 20000);
        QVERIFY2(live.banner().contains(u"All 3,000 limiter keys are healthy"_s),
                 qPrintable(live.banner()));
    }

    // The tree counts what the table holds, by prefix and by rule, flagged keys included.
    void treeCountsTheRows()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection c = Connection::open(redis.endpoint()).value();
        const RuleSet set = rulesOn("app1:rl:");
        const Rule &rule = set.rules.front();
        QVERIFY(test::plantFixedWindows(c, plantPrefix(rule), 0, 25, 600'000));
        QVERIFY(c.command({"HSET", rule.keyFor("10.0.0.7"), "s", "1", "c", "1"})); // no TTL

        Live live(redis, 0); // rescans off: this test needs none
        QVERIFY(live.shown);
        live.page->setRules(set);
        QTRY_VERIFY_WITH_TIMEOUT(live.state()->keysScanned() == 26 && !live.page->isScanning(),
                                 15000);
        live.page->setTreeShown(true);
        KeysTree *tree = live.page->tree();
        QTRY_VERIFY(tree->isVisible());
        tree->rebuild();
        QStandardItemModel *m = tree->treeModel();
        QCOMPARE(m->rowCount(), 1); // "app1"
        QCOMPARE(m->index(0, KeysTree::NameColumn).data().toString(), u"app1"_s);
        QCOMPARE(m->index(0, KeysTree::KeysColumn).data().toString(), u"26"_s);
        QCOMPARE(m->index(0, KeysTree::FlaggedColumn).data().toString(), u"1"_s);
        tree->setGrouping(KeysTree::Grouping::ByRule);
        QCOMPARE(m->rowCount(), 1);
        QCOMPARE(m->index(0, KeysTree::NameColumn).data().toString(), u"big"_s);
        QCOMPARE(m->index(0, KeysTree::KeysColumn).data().toString(), u"26"_s);
        QCOMPARE(m->index(0, 0).data(KeysTree::FlaggedRole).toLongLong(), qint64(1));
        // A leaf opens its key in the details (the table's current row follows).
        const QModelIndex leaf = m->index(0, 0, m->index(0, 0));
        QVERIFY(!leaf.data(KeysTree::KeyRole).toByteArray().isEmpty());
        tree->view()->setCurrentIndex(leaf);
        const QModelIndex current = live.table()->selectionModel()->currentIndex();
        QCOMPARE(current.data(KeysModel::RawKeyRole).toByteArray(),
                 leaf.data(KeysTree::KeyRole).toByteArray());
    }

    // The Type and Health columns hold their longest word; every cell has a tooltip with its
    // whole text.
    void columnsFitTheirWords()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Live live(redis, 0);
        QVERIFY(live.shown);
        QTableView *table = live.table();
        const QFontMetrics fm(table->font());
        for (Health h : {Health::Ok, Health::NoTtl, Health::TtlExceedsRule, Health::Orphan,
                         Health::WrongType, Health::Unreadable}) {
            // The icon (16) and the cell's margins beside the word.
            QVERIFY2(table->columnWidth(KeysModel::FlagColumn) >=
                         fm.horizontalAdvance(keypresentation::flagText(h)) + 16 + 8,
                     qPrintable(keypresentation::flagText(h)));
        }
        QVERIFY(table->columnWidth(KeysModel::TypeColumn) >= fm.horizontalAdvance(u"string"_s) + 8);
        KeysModel model;
        KeyInfo k;
        k.key = "rate_limit:a-very-long-rule-id:{203.0.113.200}";
        k.type = "hash";
        k.ruleId = u"a-very-long-rule-id"_s;
        k.subject = "203.0.113.200";
        k.pttlMs = 1000;
        k.health = Health::WrongType;
        model.append({k});
        for (int col = 0; col < KeysModel::ColumnCount; ++col) {
            const QString text = model.index(0, col).data().toString();
            const QString tip = model.index(0, col).data(Qt::ToolTipRole).toString();
            if (!text.isEmpty()) {
                QVERIFY2(tip.contains(text),
                         qPrintable(u"column %1: %2 / %3"_s.arg(col).arg(text, tip)));
            }
        }
    }

    // The tree and the table, healthy, flagged and stale, at three sizes, in both languages.
    void screenshots()
    {
        const QString dir = qEnvironmentVariable("SLUICE_SHOTS_DIR");
        if (dir.isEmpty()) {
            QSKIP("SLUICE_SHOTS_DIR not set");
        }
        QDir().mkpath(dir);
        for (const QString &lang : {u"en"_s, u"zh_CN"_s}) {
            QVERIFY(test::useLanguage(lang));
            for (const QSize size : {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)}) {
                test::OwnRedis redis;
                QVERIFY2(redis.start(), redis.output().constData());
                Connection c = Connection::open(redis.endpoint()).value();
                RuleSet set = rulesOn("rate_limit:");
                set.rules.push_back(Rule::bucket(u"api-token-bucket"_s, Algorithm::TokenBucket,
                                                 Rate{10, sec}, 20, Scope{Scope::Kind::Ip, {}},
                                                 "rate_limit:"));
                QVERIFY(test::plantFixedWindows(c, plantPrefix(set.rules[0]), 0, 60, 600'000));
                Live live(redis, 1, 20'000, size);
                QVERIFY(live.shown);
                live.page->setRules(set);
                QTRY_VERIFY_WITH_TIMEOUT(live.state()->mayShowHealthy() && !live.page->isScanning(),
                                         15000);
                const auto shot = [&](const QString &what) {
                    QTest::qWait(150);
                    return live.base.window()->grab().save(
                        u"%1/keys-%2-%3-%4x%5.png"_s.arg(dir, what, lang)
                            .arg(size.width())
                            .arg(size.height()));
                };
                QVERIFY(shot(u"table-healthy"_s));
                QVERIFY(c.command({"HSET", set.rules[0].keyFor("10.9.9.9"), "s", "1", "c", "3"}));
                QVERIFY(c.command({"SET", set.rules[1].keyFor("10.8.8.8"), "x"}));
                QTRY_VERIFY_WITH_TIMEOUT(
                    live.state()->neverExpiring() == 1 && !live.page->isScanning(), 8000);
                QTRY_VERIFY_WITH_TIMEOUT(live.state()->flagged() == 2, 8000);
                live.table()->selectRow(live.proxyRow(set.rules[0].keyFor("10.9.9.9")));
                QVERIFY(shot(u"table-flagged"_s));
                live.page->setTreeShown(true);
                auto *view = live.page->tree()->view();
                view->expandAll();
                QVERIFY(shot(u"tree-flagged"_s));
                redis.kill();
                QTRY_VERIFY_WITH_TIMEOUT(live.page->model()->isStale(), 10000);
                QVERIFY(shot(u"tree-stale"_s));
                live.page->setTreeShown(false);
                QVERIFY(shot(u"table-stale"_s));
            }
        }
        test::useLanguage(u"en"_s);
    }
};

QTEST_MAIN(TestKeysLive)
#include "tst_keyslive.moc"
