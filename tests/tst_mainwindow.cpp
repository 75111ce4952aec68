#include "ui/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QDir>
#include <QLabel>
#include <QListWidget>
#include <QSettings>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTest>

using namespace sluice;

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // The window keeps its geometry in QSettings: the test's own, never the user's.
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("SluiceTest"));
        QSettings().clear();
    }
    void cleanupTestCase() { QSettings().clear(); }

    void pagesAndShortcuts()
    {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *nav = w.findChild<QListWidget *>(QStringLiteral("navigation"));
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        QVERIFY(nav && pages);
        QCOMPARE(nav->count(), 6);
        QCOMPARE(pages->count(), 6);
        for (int i = 0; i < nav->count(); ++i) {
            QVERIFY2(!nav->item(i)->icon().isNull(), qPrintable(nav->item(i)->text()));
        }
        const QStringList names = {
            QStringLiteral("connectionPage"), QStringLiteral("rulesPage"),
            QStringLiteral("keysPage"),       QStringLiteral("simulationPage"),
            QStringLiteral("monitorPage"),    QStringLiteral("loadPage")};
        for (int i = 0; i < names.size(); ++i) {
            QCOMPARE(pages->widget(i)->objectName(), names[i]);
        }
        QTest::keyClick(&w, Qt::Key_6, Qt::ControlModifier);
        QCOMPARE(pages->currentIndex(), 5);
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(pages->currentIndex(), 2);
        QTest::mouseClick(nav->viewport(), Qt::LeftButton, {},
                          nav->visualItemRect(nav->item(1)).center());
        QCOMPARE(pages->currentIndex(), 1);
        // A picture of the shell for the one who changes it (build/tests/screenshots/).
        QDir().mkpath(QStringLiteral("screenshots"));
        QVERIFY(w.grab().save(QStringLiteral("screenshots/mainwindow.png")));
    }

    void frame()
    {
        ui::MainWindow w;
        QVERIFY(!w.windowIcon().isNull());
        QVERIFY(!ui::MainWindow::appIcon().pixmap(64, 64).isNull());
        // Not connected until told to: the status bar says so.
        auto *status = w.findChild<QLabel *>(QStringLiteral("connectionText"));
        QVERIFY(status);
        QCOMPARE(status->text(), QStringLiteral("Not connected"));
        for (const char *name : {"importRulesAction", "exportRulesAction"}) {
            auto *a = w.findChild<QAction *>(QString::fromLatin1(name));
            QVERIFY2(a, name);
            QVERIFY(a->isEnabled());
        }
        auto *exportRules = w.findChild<QAction *>(QStringLiteral("exportRulesAction"));
        QCOMPARE(exportRules->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_E));
        auto *quit = w.findChild<QAction *>(QStringLiteral("quitAction"));
        QCOMPARE(quit->shortcut(), QKeySequence(QKeySequence::Quit));
        auto *refresh = w.findChild<QAction *>(QStringLiteral("refreshAction"));
        QCOMPARE(refresh->shortcut(), QKeySequence(Qt::Key_F5));
        auto *run = w.findChild<QAction *>(QStringLiteral("runSimulationAction"));
        QCOMPARE(run->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_R));
        auto *filter = w.findChild<QAction *>(QStringLiteral("filterAction"));
        QCOMPARE(filter->shortcut(), QKeySequence(QKeySequence::Find));
    }

    // Geometry and the last page survive a restart.
    void keepsGeometryAndPage()
    {
        QRect where;
        {
            ui::MainWindow w;
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(1200, 760);
            w.showPage(ui::MainWindow::SimulationPageIndex);
            QTRY_COMPARE(w.size(), QSize(1200, 760));
            where = w.geometry();
            w.close();
        }
        ui::MainWindow w;
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        QCOMPARE(pages->currentIndex(), int(ui::MainWindow::SimulationPageIndex));
        QCOMPARE(w.size(), where.size());
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
