// A read-only profile (the console's half): on a private redis-server with
// rules, keys that never expire and a blocked subject, every page's write action is off with
// the reason as its tooltip, clicking them does nothing, every page's refresh still reads, and
// INFO commandstats proves that no command that writes reached the server.

#include "core/redis/connection.h"
#include "core/rules/codec.h"
#include "core/rules/rulestore.h"
#include "ownredis.h"
#include "pageharness.h"
#include "ui/common/writegate.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionprofile.h"
#include "ui/connection/profilestore.h"
#include "ui/keys/keyspage.h"
#include "ui/mainwindow.h"
#include "ui/monitor/monitorpage.h"
#include "ui/rules/rulespage.h"
#include "ui/sim/simulationpage.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDir>
#include <QLabel>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTest>

using namespace sluice;
using namespace sluice::ui;
using sluice::rules::Loaded;
using sluice::rules::RuleStore;
using namespace Qt::StringLiterals;

namespace {

// cmdstat_<name>:calls=N,... -> name -> N
QHash<QByteArray, qint64> commandStats(Connection &c)
{
    QHash<QByteArray, qint64> out;
    const auto r = c.command({"INFO", "commandstats"});
    if (!r) {
        return out;
    }
    for (const QByteArray &line : r->str.split('\n')) {
        if (!line.startsWith("cmdstat_")) {
            continue;
        }
        const qsizetype colon = line.indexOf(':');
        const qsizetype calls = line.indexOf("calls=");
        const qsizetype comma = line.indexOf(',', calls);
        out.insert(line.mid(8, colon - 8).toLower(),
                   line.mid(calls + 6, comma - calls - 6).toLongLong());
    }
    return out;
}

} // namespace

class TestReadOnly : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { test::freshTestSettings(QStringLiteral("SluiceTestReadOnly")); }

    void newRemoteProfileIsReadOnly()
    {
        // The editor's default (ProfileDraft): on unless the server is this machine.
        ConnectionProfile local;
        QVERIFY(local.endpoint().isLocal());
        ConnectionProfile remote;
        remote.host = u"redis.prod.example"_s;
        QVERIFY(!remote.endpoint().isLocal());
        remote.readOnly = true;
        QVERIFY(remote.endpoint().readOnly);
    }

    void noWriteReachesTheServer()
    {
        test::OwnRedis redis;
        QVERIFY2(redis.start(), redis.output().constData());
        {
            // What a production server holds: rules, counters without TTL, a blocked subject.
            auto c = Connection::open(redis.endpoint());
            QVERIFY(c);
            const Loaded loaded =
                rules::loadFile(QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json"));
            QVERIFY(loaded.ok());
            QVERIFY(RuleStore().push(*c, loaded.set, true).ok());
            for (const QByteArray subject : {"192.0.2.44", "192.0.2.45"}) {
                const QByteArray key = "rate_limit:hello-per-ip:{" + subject + "}";
                QVERIFY(c->command({"HSET", key, "c", "3", "s", "1796094789473000"}).ok());
            }
            QVERIFY(c->command({"CONFIG", "RESETSTAT"}).ok());
        }

        MainWindow w;
        auto *store = w.findChild<ProfileStore *>();
        QVERIFY(store);
        const QString id = test::saveProfile(*store, redis.endpoint(), u"production"_s, true);
        QVERIFY(store->profile(id)->readOnly); // kept in the settings
        QVERIFY(test::showWindow(w));
        w.connection()->connectTo(id);
        QTRY_VERIFY_WITH_TIMEOUT(w.connection()->state().isUp(), 10000);
        QVERIFY(w.connection()->endpoint()->readOnly);
        auto *status = w.findChild<QLabel *>(u"connectionText"_s);
        QVERIFY(status);
        QVERIFY2(status->text().contains(u"read-only"_s), qPrintable(status->text()));
        // The rules from a file (the store's read is a script, EVALSHA, which a read-only
        // connection refuses until the core reads with EVALSHA_RO): an import is local, and
        // leaves the Rules page with something to push.
        QString error;
        QVERIFY2(w.rulesPage()->importFile(
                     QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json"), &error),
                 qPrintable(error));
        QVERIFY(!w.rulesPage()->rules().rules.empty());
        // The Keys page scans with them. (Each key's state is read by a script too: under
        // read-only they show as "wrong type" until the core reads with EVALSHA_RO.)
        w.showPage(MainWindow::KeysPageIndex);
        // (By name: the audit mode has a table of its own.)
        auto *keys = w.keysPage()->findChild<QTableView *>(u"keysTable"_s);
        QVERIFY(keys);
        QTRY_COMPARE_WITH_TIMEOUT(keys->model()->rowCount(), 2, 15000);

        WriteGate *gate = w.writeGate();
        QVERIFY(gate->isReadOnly());
        QCOMPARE(gate->widgets().size(), 10);
        for (int page = 0; page < MainWindow::LoadPageIndex + 1; ++page) {
            w.showPage(page);
            QTest::qWait(300);
            QVERIFY(w.grab().save(test::screenshotPath(u"readonly-%1.png"_s.arg(page))));
            // Every write action is off and says why; a click does nothing.
            for (QWidget *action : gate->widgets()) {
                QVERIFY2(!action->isEnabled(), qPrintable(action->objectName()));
                QVERIFY2(action->toolTip().contains(u"read-only"_s),
                         qPrintable(action->objectName() + u": "_s + action->toolTip()));
                if (auto *b = qobject_cast<QAbstractButton *>(action); b && b->isVisible()) {
                    QTest::mouseClick(b, Qt::LeftButton);
                }
            }
        }
        // The simulation on Redis cannot be chosen; the in-process twins stay.
        auto *engine = w.simulationPage()->findChild<QComboBox *>(u"engineCombo"_s);
        QVERIFY(engine);
        auto *model = qobject_cast<QStandardItemModel *>(engine->model());
        QVERIFY(model);
        const int redisItem = engine->findData(u"redis"_s);
        QVERIFY(!model->item(redisItem)->isEnabled());
        QVERIFY(engine->currentIndex() != redisItem);
        QSignalSpy ran(w.simulationPage(), &SimulationPage::runFinished);
        w.simulationPage()->run();
        QVERIFY(ran.wait(30000) || ran.count() > 0);

        // Every page's refresh: a rescan, a pull, the monitor's reads.
        for (const char *refresh : {"rescanButton", "pullButton"}) {
            auto *b = w.findChild<QAbstractButton *>(QLatin1String(refresh));
            QVERIFY2(b, refresh);
            if (b->isEnabled()) {
                b->click();
            }
        }
        w.showPage(MainWindow::MonitorPageIndex);
        w.monitorPage()->refresh();
        QTest::qWait(2000);

        auto c = Connection::open(redis.endpoint());
        QVERIFY(c);
        const QHash<QByteArray, qint64> stats = commandStats(*c);
        static const QList<QByteArray> writes = {"set",
                                                 "setex",
                                                 "psetex",
                                                 "hset",
                                                 "hmset",
                                                 "hdel",
                                                 "hincrby",
                                                 "incr",
                                                 "incrby",
                                                 "decr",
                                                 "del",
                                                 "unlink",
                                                 "expire",
                                                 "pexpire",
                                                 "expireat",
                                                 "pexpireat",
                                                 "persist",
                                                 "eval",
                                                 "evalsha",
                                                 "fcall",
                                                 "zadd",
                                                 "zrem",
                                                 "zremrangebyscore",
                                                 "zincrby",
                                                 "rpush",
                                                 "lpush",
                                                 "sadd",
                                                 "srem",
                                                 "publish",
                                                 "flushdb",
                                                 "flushall",
                                                 "rename",
                                                 "copy",
                                                 "restore",
                                                 "xadd"};
        for (const QByteArray &write : writes) {
            QVERIFY2(!stats.contains(write),
                     qPrintable(u"%1 reached the server %2 times"_s.arg(
                         QString::fromLatin1(write), QString::number(stats.value(write)))));
        }
        // And the console did read it: the keys were scanned, the rules fetched.
        QStringList seen;
        for (auto it = stats.cbegin(); it != stats.cend(); ++it) {
            seen << QString::fromLatin1(it.key());
        }
        QVERIFY2(stats.value("scan") > 0, qPrintable(seen.join(u' ')));
        w.close();
    }
};

QTEST_MAIN(TestReadOnly)
#include "tst_readonly.moc"
