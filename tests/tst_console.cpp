// The whole console against a real Redis, as a user meets it: a profile, the rules pulled from
// the store, live keys with never-expiring ones flagged in the navigation and the status bar,
// a simulation, traffic on the monitor. Saves a screenshot of every page, in English and in
// Simplified Chinese, into <build>/tests/screenshots/console-*.png (look at them after a change).
#include "core/limiter/redislimiter.h"
#include "core/load/loadgenerator.h"
#include "core/rules/codec.h"
#include "core/rules/rulestore.h"
#include "core/stats/statsflusher.h"
#include "core/stats/statsrecorder.h"
#include "fitcheck.h"
#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"
#include "ui/common/theme.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionprofile.h"
#include "ui/connection/profilestore.h"
#include "ui/keys/keyspage.h"
#include "ui/language.h"
#include "ui/mainwindow.h"
#include "ui/monitor/monitorpage.h"
#include "ui/rules/rulespage.h"
#include "ui/sim/simulationcharts.h"
#include "ui/sim/simulationpage.h"

#include <QDir>
#include <QFontMetricsF>
#include <QGraphicsTextItem>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QListWidget>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTableView>
#include <QTest>
#include <QTextDocument>
#include <QTranslator>

using namespace sluice;
using namespace sluice::ui;
using sluice::rules::Loaded;
using sluice::rules::RuleStore;

namespace {

const QByteArray keyPrefix = "rate_limit:";

QString shot(const QString &name)
{
    return test::screenshotPath(QStringLiteral("console-%1.png").arg(name));
}

} // namespace

class TestConsole : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        test::freshTestSettings(QStringLiteral("SluiceTestConsole"));
        m_redis.emplace(test::connect());
        wipe();
        const Loaded loaded =
            rules::loadFile(QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json"));
        QVERIFY(loaded.ok());
        m_rules = loaded.set;
        QVERIFY(RuleStore().push(*m_redis, m_rules, true).ok());
        plantKeys();
    }

    void cleanupTestCase()
    {
        wipe();
        QSettings().clear();
    }

    // Every page, in English, with the data a user of this server would see.
    void tourInEnglish()
    {
        QVERIFY(test::useLanguage(QStringLiteral("en")));
        tour(QStringLiteral("en"));
    }

    // The same in Simplified Chinese (--lang zh_CN): the navigation and the pages speak it.
    void tourInChinese()
    {
        QVERIFY(test::useLanguage(QStringLiteral("zh_CN")));
        tour(QStringLiteral("zh_CN"));
    }

    // A language installed after another replaces it (the screenshot tests go back to
    // English after Chinese; before, English only stacked its plural forms on the Chinese).
    void languageSwitchesBack()
    {
        const auto keys = [] {
            return QCoreApplication::translate("sluice::ui::AuditPanel", "Keys");
        };
        QVERIFY(test::useLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(keys(), QStringLiteral("键"));
        QVERIFY(test::useLanguage(QStringLiteral("en")));
        QCOMPARE(keys(), QStringLiteral("Keys"));
        const auto read = [] {
            return QCoreApplication::translate("sluice::ui::MonitorSession",
                                               "No subject is denied right now (%n key(s) read).",
                                               nullptr, 1);
        };
        QCOMPARE(read(), QStringLiteral("No subject is denied right now (1 key read).")); // plural
        QVERIFY(test::useLanguage(QStringLiteral("zh_CN")));
        QCOMPARE(keys(), QStringLiteral("键"));
        QVERIFY(test::useLanguage(QStringLiteral("en")));
    }

    void languageChoice()
    {
        QString error;
        QCOMPARE(Language::choose(QStringLiteral("zh"), &error), QStringLiteral("zh_CN"));
        QCOMPARE(Language::choose(QStringLiteral("zh-CN"), &error), QStringLiteral("zh_CN"));
        QCOMPARE(Language::choose(QStringLiteral("EN"), &error), QStringLiteral("en"));
        QVERIFY(error.isEmpty());
        QVERIFY(Language::choose(QStringLiteral("klingon"), &error).isEmpty());
        QVERIFY2(error.contains(QStringLiteral("klingon")) &&
                     error.contains(QStringLiteral("zh_CN")),
                 qPrintable(error));
    }

private:
    void tour(const QString &lang)
    {
        const bool zh = lang == QLatin1String("zh_CN");
        QSettings().clear();
        MainWindow w;
        auto *store = w.findChild<ProfileStore *>();
        QVERIFY(store);
        const QString id =
            test::saveProfile(*store, test::redisEndpoint(), QStringLiteral("staging"));
        QVERIFY(test::showWindow(w));
        w.connection()->connectTo(id);
        QTRY_VERIFY_WITH_TIMEOUT(w.connection()->state().isUp(), 10000);

        auto *nav = w.findChild<QListWidget *>(QStringLiteral("navigation"));
        QVERIFY(nav);
        if (zh) {
            // The words of CONSOLE.md's table, where the navigation uses them.
            QCOMPARE(nav->item(0)->text(), QStringLiteral("连接"));
            QCOMPARE(nav->item(1)->text(), QStringLiteral("限流规则"));
            QCOMPARE(nav->item(3)->text(), QStringLiteral("仿真"));
        } else {
            QCOMPARE(nav->item(1)->text(), QStringLiteral("Rules"));
        }

        // The Rules page pulls the store's rules at connect.
        QTRY_COMPARE_WITH_TIMEOUT(int(w.rulesPage()->rules().rules.size()),
                                  int(m_rules.rules.size()), 10000);
        // The Keys page scans with them: the planted keys that never expire show in the
        // navigation's badge and the status bar's headline.
        auto *health = w.findChild<QLabel *>(QStringLiteral("healthHeadline"));
        QVERIFY(health);
        QTRY_VERIFY_WITH_TIMEOUT(health->isVisible(), 15000);
        QVERIFY2(nav->item(2)->text().contains(QString::number(m_neverExpiring)),
                 qPrintable(nav->item(2)->text()));
        if (!zh) {
            QVERIFY2(health->text().contains(
                         QStringLiteral("%1 keys never expire").arg(m_neverExpiring)),
                     qPrintable(health->text()));
        }

        // Traffic for the monitor: a few seconds of real decisions, flushed as the engine does.
        generateTraffic();

        // The simulation of the boundary burst.
        QString error;
        QVERIFY2(w.simulationPage()->loadPreset(QStringLiteral("boundary-burst"), &error),
                 qPrintable(error));
        QSignalSpy ran(w.simulationPage(), &SimulationPage::runFinished);
        w.simulationPage()->run();
        QVERIFY(ran.wait(30000) || ran.count() > 0);

        for (int i = 0; i < nav->count(); ++i) {
            w.showPage(i);
            if (i == MainWindow::MonitorPageIndex) {
                w.monitorPage()->refresh();
                QTest::qWait(1500); // one read of the stats and the limited subjects
            } else {
                QTest::qWait(200);
            }
            const QString page = w.findChild<QStackedWidget *>(QStringLiteral("pages"))
                                     ->currentWidget()
                                     ->objectName()
                                     .chopped(4); // "rulesPage" -> "rules"
            const QString name = page + (zh ? QStringLiteral("-zh") : QString());
            QVERIFY(w.grab().save(shot(name)));
            if (i == MainWindow::SimulationPageIndex) {
                checkSimulationFits(w);
            }
            // And on a large screen: what has room to grow must use it.
            w.resize(1920, 1080);
            QTest::qWait(150);
            QVERIFY(w.grab().save(shot(name + QStringLiteral("-1920"))));
            if (i == MainWindow::SimulationPageIndex) {
                checkSimulationFits(w);
            }
            w.resize(1280, 800);
            QTest::qWait(50);
        }
        checkFitAndShoot(w, lang);
        w.close();
    }

    // At the first-start size, with the data a user sees, no page cuts a text without an
    // ellipsis and a tooltip. With $SLUICE_SHOTS_DIR set, every page at 1100x700, 1280x800 and
    // 1920x1080 in both themes is saved there as <page>-<lang>-<theme>-<w>x<h>.png (small PNGs:
    // tools/screenshots.sh regenerates docs/screenshots/).
    void checkFitAndShoot(MainWindow &w, const QString &lang)
    {
        const QString dir = qEnvironmentVariable("SLUICE_SHOTS_DIR");
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        QStringList cut;
        for (const Theme::Choice theme : {Theme::Choice::Light, Theme::Choice::Dark}) {
            Theme::instance().apply(theme);
            for (const QSize size : {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)}) {
                w.resize(size);
                QTRY_COMPARE(w.size(), size);
                for (int i = 0; i < pages->count(); ++i) {
                    w.showPage(i);
                    QTest::qWait(60);
                    const QImage image = w.grab().toImage();
                    const QString page = pages->currentWidget()->objectName().chopped(4);
                    if (size == QSize(1100, 700) && theme == Theme::Choice::Light) {
                        for (const QString &c : test::cutTexts(&w)) {
                            cut << QStringLiteral("%1 %2: %3").arg(lang, page, c);
                        }
                    }
                    QCOMPARE(w.size(), size); // nothing on the page widened the window
                    if (!dir.isEmpty()) {
                        const QString name = QStringLiteral("%1/%2-%3-%4-%5x%6.png")
                                                 .arg(dir, page, lang, Theme::name(theme))
                                                 .arg(size.width())
                                                 .arg(size.height());
                        QVERIFY2(QDir().mkpath(dir) && test::saveSmallPng(image, name),
                                 qPrintable(name));
                    }
                }
            }
        }
        Theme::instance().apply(Theme::Choice::Light);
        w.resize(1280, 800);
        QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
    }

    // The figure's title and every row's header on one line within the figure (a second line
    // would draw onto the plot), and every column of the metrics table without scrolling.
    void checkSimulationFits(MainWindow &w)
    {
        SimulationCharts *charts = w.simulationPage()->charts();
        QVERIFY(charts->rowCount() > 0);
        QVERIFY(charts->title());
        // One line: no taller than a line of its font (and the document's margins).
        const auto oneLine = [](QGraphicsTextItem *t) {
            return t->boundingRect().height() < 1.5 * QFontMetricsF(t->font()).lineSpacing() +
                                                    2 * t->document()->documentMargin();
        };
        QVERIFY2(oneLine(charts->title()), qPrintable(charts->title()->toPlainText()));
        QVERIFY(charts->title()->mapRectToScene(charts->title()->boundingRect()).right() <=
                charts->size().width() + 1);
        for (int r = 0; r < charts->rowCount(); ++r) {
            QVERIFY2(oneLine(charts->header(r)), qPrintable(charts->header(r)->toPlainText()));
        }
        auto *table = w.findChild<QTableView *>(QStringLiteral("metricsTable"));
        QVERIFY(table);
        QVERIFY2(!table->horizontalScrollBar()->isVisible(),
                 qPrintable(QString::number(table->horizontalHeader()->length()) +
                            QStringLiteral(" > ") + QString::number(table->viewport()->width())));
    }

    void plantKeys()
    {
        // Through the real scripts: the state a service would leave.
        RedisLimiter limiter(test::connect());
        const auto decide = [&](const QString &rule, const QByteArray &subject, int n) {
            const Rule *r = m_rules.find(rule);
            QVERIFY(r);
            const Policy policy = r->policy();
            for (int i = 0; i < n; ++i) {
                Request req;
                req.policy = &policy;
                req.key = policy.keyFor(subject);
                QVERIFY(limiter.decide(req).ok());
            }
        };
        decide(QStringLiteral("hello-per-ip"), "203.0.113.7", 3);
        decide(QStringLiteral("hello-per-ip"), "198.51.100.23", 1);
        decide(QStringLiteral("api-global"), "global", 40);
        decide(QStringLiteral("export-queue"), "u-1077", 12);
        decide(QStringLiteral("search-per-key"), "k-3390", 25);
        decide(QStringLiteral("login-per-ip"), "45.83.64.1", 6);
        // The classic bug: counters written without a TTL (an INCR after expiry).
        for (const QByteArray subject : {"192.0.2.44", "192.0.2.45", "198.51.100.9"}) {
            const QByteArray key = keyPrefix + "hello-per-ip:{" + subject + "}";
            QVERIFY(m_redis->command({"HSET", key, "c", "3", "s", "1796094789473000"}).ok());
        }
        m_neverExpiring = 3;
    }

    void generateTraffic()
    {
        load::LoadOptions o =
            test::constantLoad(test::redisEndpoint(), m_rules, 200, 3'000'000, 20);
        o.ruleIds = {QStringLiteral("hello-per-ip"), QStringLiteral("login-per-ip")};
        const load::LoadProgress p = test::recordedLoad(o);
        QVERIFY2(p.finished && p.error.isEmpty(), qPrintable(p.error));
        QVERIFY(p.allowed > 0);
        QVERIFY(p.denied > 0);
    }

    // The store, the stats and every key under the rules' prefix: this server is the test's.
    void wipe()
    {
        for (const QByteArray &prefix : {QByteArray("rate_limit:"), QByteArray("{sluice}:")}) {
            QVERIFY(test::deleteByPrefix(*m_redis, prefix) >= 0);
        }
    }

    std::optional<Connection> m_redis;
    RuleSet m_rules;
    int m_neverExpiring = 0;
};

QTEST_MAIN(TestConsole)
#include "tst_console.moc"
