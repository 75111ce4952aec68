#include "mainwindow.h"

#include <QApplication>
#include <QDir>
#include <QListWidget>
#include <QStackedWidget>
#include <QTest>

using namespace sluice;

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pagesAndShortcuts()
    {
        ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        auto *nav = w.findChild<QListWidget *>(QStringLiteral("navigation"));
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        QVERIFY(nav && pages);
        QCOMPARE(nav->count(), 5);
        QCOMPARE(pages->count(), 5);
        QTest::keyClick(&w, Qt::Key_3, Qt::ControlModifier);
        QCOMPARE(pages->currentIndex(), 2);
        QTest::mouseClick(nav->viewport(), Qt::LeftButton, {},
                          nav->visualItemRect(nav->item(1)).center());
        QCOMPARE(pages->currentIndex(), 1);
        // A picture of the shell for the one who changes it (build/tests/screenshots/).
        QDir().mkpath(QStringLiteral("screenshots"));
        QVERIFY(w.grab().save(QStringLiteral("screenshots/mainwindow.png")));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
