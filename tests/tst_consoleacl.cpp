// Least privilege in the console, on a redis-server of the test's own with ACL users
// the test creates: a statistics writer without one permission is said once in the status bar,
// naming what to grant, while the Load page's decisions go on; keys the user may not read are
// counted in the Keys page's health banner with what to grant, never shown healthy; the
// profile's scan budget paces the Keys page's scan.

#include "ownredis.h"
#include "pageharness.h"

#include "core/keys/keyscanner.h"
#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "ui/common/statswatch.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionpage.h"
#include "ui/connection/profilestore.h"
#include "ui/keys/keysmodel.h"
#include "ui/keys/keyspage.h"
#include "ui/keys/keyssession.h"
#include "ui/language.h"
#include "ui/load/loadpage.h"
#include "ui/load/loadsession.h"
#include "ui/mainwindow.h"
#include "ui/rules/rulespage.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QTranslator>

#include <memory>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

const QString samples = QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json");

// The window at 1280x800 and at 1920x1080: screenshots/consoleacl-<name>-<size>-<lang>.png.
void shoot(QWidget *w, const QString &name, const QString &lang)
{
    const QString dir = QCoreApplication::applicationDirPath() + u"/screenshots"_s;
    QDir().mkpath(dir);
    for (const QSize size : {QSize(1280, 800), QSize(1920, 1080)}) {
        w->resize(size);
        QTest::qWait(150);
        w->grab().save(u"%1/consoleacl-%2-%3-%4.png"_s.arg(dir, name).arg(size.width()).arg(lang));
    }
    w->resize(1280, 800);
}

// ACL SETUSER name reset on >pw <rules...>; the rules are words, a selector "(...)" as one.
bool createUser(Connection &admin, const QByteArray &name, const QList<QByteArray> &rules)
{
    QList<QByteArray> argv{"ACL", "SETUSER", name, "reset", "on", ">pw"};
    argv << rules;
    auto r = admin.command(argv);
    if (!r) {
        qWarning("%s", qPrintable(r.error().message));
    }
    return r.ok();
}

} // namespace

class TestConsoleAcl : public QObject
{
    Q_OBJECT

    // A window connected to `redis` as `user` (password "pw"); `budget`: the profile's scan
    // budget.
    std::unique_ptr<MainWindow>
    connect(test::OwnRedis &redis, const QString &user, int budget = int(keys::defaultScanBudget),
            int keysRescanSeconds = ConnectionProfile::defaultKeysRescanSeconds)
    {
        auto w = std::make_unique<MainWindow>();
        auto *store = w->findChild<ProfileStore *>();
        store->setKeyringEnabled(false);
        ConnectionProfile p;
        p.name = user;
        p.host = redis.endpoint().host;
        p.port = redis.port();
        p.user = user;
        p.scanBudget = budget;
        p.keysRescanSeconds = keysRescanSeconds;
        const QString id = store->save(p, u"pw"_s); // kept in memory (no keyring)
        w->resize(1280, 800);
        w->show();
        if (!QTest::qWaitForWindowExposed(w.get())) {
            return {};
        }
        w->connection()->connectTo(id);
        if (!QTest::qWaitFor([&] { return w->connection()->state().isUp(); }, 10000)) {
            qWarning("not connected: %s", qPrintable(w->connection()->state().error));
            return {};
        }
        return w;
    }

    static void type(QWidget *page, const char *name, const QString &text)
    {
        auto *e = page->findChild<QLineEdit *>(QString::fromLatin1(name));
        QVERIFY2(e, name);
        e->selectAll();
        QTest::keyClick(e, Qt::Key_Backspace);
        QTest::keyClicks(e, text);
    }

private Q_SLOTS:
    void initTestCase() { test::freshTestSettings(u"SluiceTestConsoleAcl"_s); }
    void init() { QSettings().clear(); } // one profile a test: the one it connects to

    // The Load page's user may decide but not EXPIRE (the statistics' TTL): the run's
    // decisions are made, the status bar says once that statistics are not written and what to
    // grant, and the finished banner does not claim that the Monitor shows them.
    void statsFailureInTheStatusBar_data() { test::languageRows(); }
    void statsFailureInTheStatusBar()
    {
        const auto [lang, zh, installed] = test::useRowLanguage();
        QVERIFY(installed);
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection admin = redis.connect(); // the default user
        QVERIFY(createUser(admin, "console-load",
                           {"~rate_limit:*",
                            "~sluice:load:*",
                            "~{sluice}:stats:*",
                            "~{sluice}:flush:*",
                            "resetchannels",
                            "-@all",
                            "+evalsha",
                            "+script|load",
                            "+ping",
                            "+time",
                            "+get",
                            "+set",
                            "+hmget",
                            "+hset",
                            "+hincrby",
                            "+pexpire",
                            "+pttl",
                            "+zadd",
                            "+zcount",
                            "+zrange",
                            "+zrangebyscore",
                            "+zremrangebyscore",
                            "(~sluice:load:* +scan +unlink)",
                            "+multi",
                            "+exec",
                            "+zincrby",
                            "+zremrangebyrank",
                            "+watch",
                            "+unwatch",
                            "+exists"}));
        auto w = connect(redis, u"console-load"_s);
        QVERIFY(w);
        QString error;
        QVERIFY2(w->rulesPage()->importFile(samples, &error), qPrintable(error));
        LoadPage *page = w->loadPage();
        w->showPage(MainWindow::LoadPageIndex);
        auto *pattern = page->findChild<QComboBox *>(u"load.pattern"_s);
        QVERIFY(pattern);
        pattern->setCurrentIndex(pattern->findData(u"constant"_s));
        type(page, "load.rate", u"100/s"_s);
        type(page, "load.duration", u"2s"_s);
        const auto options = page->session()->options();
        QVERIFY2(options, qPrintable(options ? QString() : options.error().message));
        QSignalSpy changed(page->statsWatch(), &StatsWatch::changed);
        QSignalSpy finished(page, &LoadPage::finished);
        auto *status = w->findChild<QLabel *>(u"statsStatus"_s);
        QVERIFY(status);
        QVERIFY(!status->isVisible());
        page->start();
        QVERIFY(page->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(status->isVisible(), 15000);
        QVERIFY2(status->text().contains(zh ? u"统计未写入"_s : u"Statistics are not written"_s) &&
                     status->text().contains(u"ACL SETUSER console-load +expire"_s),
                 qPrintable(status->text()));
        QVERIFY2(status->toolTip().contains(u"NOPERM"_s), qPrintable(status->toolTip()));
        QVERIFY(finished.wait(15000) || !finished.isEmpty());
        const auto p = finished.at(0).at(0).value<load::LoadProgress>();
        QVERIFY2(p.error.isEmpty() && p.errors == 0 && p.allowed > 0, qPrintable(p.error));
        QVERIFY2(p.cleanupError.isEmpty(), qPrintable(p.cleanupError));
        // Said once: the flusher keeps failing (and retrying) behind it.
        QTest::qWait(2500);
        QCOMPARE(changed.size(), 1);
        QVERIFY(status->isVisible());
        auto *banner = page->findChild<QLabel *>(u"message"_s);
        QVERIFY(banner);
        QVERIFY2(
            !banner->text().contains(zh ? u"可在“监控”页面查看"_s : u"Monitor page shows them"_s) &&
                banner->text().contains(u"+expire"_s),
            qPrintable(banner->text()));
        shoot(w.get(), u"stats"_s, lang);

        // Granted, the next run's statistics are written: the status bar clears (once more).
        QVERIFY(admin.command({"ACL", "SETUSER", "console-load", "+expire"}));
        finished.clear();
        page->start();
        QVERIFY(page->isRunning());
        QTRY_VERIFY_WITH_TIMEOUT(!status->isVisible(), 15000);
        QVERIFY(finished.wait(15000) || !finished.isEmpty());
        QCOMPARE(changed.size(), 2);
    }

    // A user whose key ACL is %R~other:* reads none of the limiter keys: each is "unreadable
    // (permission)", and the health banner counts them with what to grant, instead of "healthy"
    // (or fewer keys).
    void unreadableKeysInTheBanner_data() { test::languageRows(); }
    void unreadableKeysInTheBanner()
    {
        const auto [lang, zh, installed] = test::useRowLanguage();
        QVERIFY(installed);
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection admin = redis.connect(); // the default user
        for (const QByteArray subject : {"192.0.2.44", "192.0.2.45", "192.0.2.46"}) {
            const QByteArray key = "rate_limit:hello-per-ip:{" + subject + "}";
            QVERIFY(admin.command({"HSET", key, "c", "1", "s", "1796094789473000"}));
            QVERIFY(admin.command({"PEXPIRE", key, "60000"}));
        }
        QVERIFY(
            createUser(admin, "console-other",
                       {"%R~other:*", "resetchannels", "-@all", "+scan", "+evalsha_ro", "+evalsha",
                        "+script|load", "+time", "+ping", "+type", "+pttl", "+hstrlen", "+hmget",
                        "+zcard", "+zcount", "+zrangebyscore", "+zrange", "+strlen", "+getrange"}));
        auto w = connect(redis, u"console-other"_s);
        QVERIFY(w);
        QString error;
        QVERIFY2(w->rulesPage()->importFile(samples, &error), qPrintable(error));
        w->showPage(MainWindow::KeysPageIndex);
        auto *table = w->keysPage()->findChild<QTableView *>(u"keysTable"_s);
        QVERIFY(table);
        QTRY_COMPARE_WITH_TIMEOUT(table->model()->rowCount(), 3, 15000); // none left out
        // The State cell says it short, translated; the whole reason is its tooltip. (A fresh
        // index each time: the page's refresh resets the model, and a kept index dangles.)
        const auto stateCell = [table](int role) {
            return table->model()->index(0, KeysModel::StateColumn).data(role).toString();
        };
        QTRY_VERIFY_WITH_TIMEOUT(stateCell(Qt::DisplayRole).contains(u"NOPERM"_s), 15000);
        const QString shown = stateCell(Qt::DisplayRole);
        const QString tip = stateCell(Qt::ToolTipRole);
        QVERIFY2(shown.contains(zh ? u"无权读取"_s : u"no permission"_s), qPrintable(shown));
        QVERIFY2(tip.contains(u"%R~rate_limit:"_s), qPrintable(tip));
        auto *session = w->keysPage()->findChild<KeysSession *>();
        QVERIFY(session);
        QTRY_VERIFY_WITH_TIMEOUT(!session->isScanning(), 15000);
        auto *banner = w->keysPage()->findChild<QLabel *>(u"bannerText"_s);
        QVERIFY(banner);
        QTRY_VERIFY_WITH_TIMEOUT(
            banner->text().contains(zh ? u"3 个键无法读取"_s : u"3 keys could not be read"_s),
            5000);
        QVERIFY2(banner->text().contains(u"NOPERM"_s) &&
                     banner->text().contains(u"ACL SETUSER console-other %R~rate_limit:*"_s) &&
                     !banner->text().contains(zh ? u"状态正常"_s : u"healthy"_s),
                 qPrintable(banner->text()));
        shoot(w.get(), u"keys"_s, lang);
    }

    // The profile's scan budget reaches the Keys page's worker: 1,000 keys at 1,000 keys a
    // second take at least as long as the keys SCAN walked at that budget (a lower bound on
    // time: a loaded machine only makes it longer), where the default 20,000 would take a
    // tenth of a second. Saved with the profile.
    // With the Keys page's automatic rescans off (the profile's Keys rescan 0, e.g. for a
    // read-only replica), the keyspace is scanned only for a page on screen (or the Keys badge,
    // whose scan runs once per session and on F5): with the Rules page shown, no SCAN reaches
    // the server; with the Monitor shown, its limited-subjects scan does, and stops when it is
    // hidden. (With rescans on, the Keys badge rescans every interval, within the budget.)
    void keyspaceScannedOnlyForAPageOnScreen()
    {
        test::useLanguage(u"en"_s);
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection admin = redis.connect(); // the default user
        QVERIFY(admin.command(
            {"HSET", "rate_limit:hello-per-ip:{192.0.2.9}", "c", "1", "s", "1796094789473000"}));
        QVERIFY(createUser(admin, "console-all", {"~*", "&*", "+@all"}));
        const auto scans = [&] {
            const QByteArray info = admin.command({"INFO", "commandstats"})->str;
            const qsizetype at = info.indexOf("cmdstat_scan:calls=");
            return at < 0 ? qint64(0)
                          : info.mid(at + 19, info.indexOf(',', at) - at - 19).toLongLong();
        };
        auto w = connect(redis, u"console-all"_s, int(keys::defaultScanBudget), 0);
        QVERIFY(w);
        QString error;
        QVERIFY2(w->rulesPage()->importFile(samples, &error), qPrintable(error));
        w->showPage(MainWindow::RulesPageIndex);
        auto *session = w->keysPage()->findChild<KeysSession *>();
        QVERIFY(session);
        QTest::qWait(1500); // the Keys page's scan for the badge, after the import
        QTRY_VERIFY_WITH_TIMEOUT(!session->isScanning(), 15000);
        const qint64 before = scans();
        QTest::qWait(5000);
        QCOMPARE(scans(), before);
        w->showPage(MainWindow::MonitorPageIndex);
        QTRY_VERIFY_WITH_TIMEOUT(scans() > before, 10000);
        w->showPage(MainWindow::RulesPageIndex);
        QTest::qWait(1500); // a scan under way ends
        const qint64 hidden = scans();
        QTest::qWait(5000);
        QCOMPARE(scans(), hidden);
    }

    void profileScanBudgetPacesTheKeysPage_data() { test::languageRows(); }
    void profileScanBudgetPacesTheKeysPage()
    {
        const auto [lang, zh, installed] = test::useRowLanguage();
        QVERIFY(installed);
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        Connection admin = redis.connect(); // the default user
        QVERIFY(admin.command(
            {"EVAL",
             "for i = 1, 1000 do redis.call('HSET', 'rate_limit:hello-per-ip:{10.0.' .. i .. '}', "
             "'c', '1', 's', '1796094789473000'); redis.call('PEXPIRE', "
             "'rate_limit:hello-per-ip:{10.0.' .. i .. '}', 600000) end return 1",
             "0"}));
        QVERIFY(createUser(admin, "console-keys", {"~*", "&*", "+@all"}));
        auto w = connect(redis, u"console-keys"_s, 1000);
        QVERIFY(w);
        auto *store = w->findChild<ProfileStore *>();
        QCOMPARE(store->profile(w->connection()->currentId())->scanBudget, 1000);
        QCOMPARE(w->connection()->scanBudget(), 1000.0);
        auto *session = w->keysPage()->findChild<KeysSession *>();
        QVERIFY(session);
        QSignalSpy scanned(session, &KeysSession::scanFinished);
        QString error;
        QVERIFY2(w->rulesPage()->importFile(samples, &error), qPrintable(error)); // rescans
        w->showPage(MainWindow::KeysPageIndex);
        QTRY_VERIFY_WITH_TIMEOUT(!scanned.isEmpty(), 60000);
        const auto s = scanned.last().at(0).value<keys::ScanSummary>();
        QCOMPARE(session->scanBudget(), 1000.0);
        qInfo("1,000 keys at the profile's 1,000 keys/s: %lld keys walked in %lld ms, paused "
              "%lld ms",
              s.progress.keysWalked, s.progress.elapsedMs, s.progress.pausedMs);
        QCOMPARE(s.status, keys::ScanSummary::Status::Completed);
        QCOMPARE(s.progress.keys, qint64(1000));
        QVERIFY(s.progress.keysWalked >= 1000);
        QVERIFY2(s.progress.elapsedMs >= s.progress.keysWalked * 9 / 10,
                 qPrintable(QString::number(s.progress.elapsedMs)));
        QVERIFY(s.progress.paceKeysPerS > 0 && s.progress.paceKeysPerS <= 1000);
        // The editor shows it (and keeps it on a save).
        w->showPage(MainWindow::ConnectionPageIndex);
        w->findChild<ConnectionPage *>()->selectProfile(w->connection()->currentId());
        auto *spin = w->findChild<QSpinBox *>(u"scanBudgetSpin"_s);
        QVERIFY(spin);
        QTRY_COMPARE_WITH_TIMEOUT(spin->value(), 1000, 5000);
        shoot(w.get(), u"profile"_s, lang);
    }
};

QTEST_MAIN(TestConsoleAcl)
#include "tst_consoleacl.moc"
