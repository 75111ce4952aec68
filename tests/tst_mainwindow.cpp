// The console's frame: pages and shortcuts, what it remembers across a restart (geometry,
// page, the rule file, recent files, the theme), what it asks before it drops (an unsaved
// profile), the export dialog, the palette, settings it cannot use, and the fit of every page
// at the first-start size in both languages (no text cut without saying so, no banner that
// widens the window).
#include "fitcheck.h"
#include "pageharness.h"
#include "ui/common/elidedlabel.h"
#include "ui/common/messagebanner.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/connectionpage.h"
#include "ui/connection/connectionswitcher.h"
#include "ui/connection/profilestore.h"
#include "ui/language.h"
#include "ui/mainwindow.h"
#include "ui/rules/exportdialog.h"
#include "ui/rules/rulespage.h"

#include <QAction>
#include <QApplication>
#include <QChart>
#include <QChartView>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace sluice;

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // The window keeps its geometry in QSettings: the test's own, never the user's.
        test::freshTestSettings();
    }
    void init() { QSettings().clear(); }

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

    // Ctrl+F focuses the filter of the page shown when it has one (Keys); on any other page it
    // brings the Rules page to the front with its filter focused.
    void filterShortcutGoesToThePagesFilter()
    {
        ui::MainWindow w;
        w.show();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        w.showPage(ui::MainWindow::KeysPageIndex);
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(pages->currentIndex(), int(ui::MainWindow::KeysPageIndex));
        QTRY_COMPARE(QApplication::focusWidget(),
                     pages->widget(ui::MainWindow::KeysPageIndex)
                         ->findChild<QLineEdit *>(QStringLiteral("filterEdit")));
        w.showPage(ui::MainWindow::MonitorPageIndex);
        QTest::keyClick(&w, Qt::Key_F, Qt::ControlModifier);
        QCOMPARE(pages->currentIndex(), int(ui::MainWindow::RulesPageIndex));
        QTRY_COMPARE(QApplication::focusWidget(),
                     w.rulesPage()->findChild<QLineEdit *>(QStringLiteral("filterEdit")));
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
        // Ctrl+Q on every platform theme (QKeySequence::Quit is empty on some, offscreen's).
        QCOMPARE(quit->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Q));
        auto *save = w.findChild<QAction *>(QStringLiteral("saveRulesAction"));
        QCOMPARE(save->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_S));
        auto *saveAs = w.findChild<QAction *>(QStringLiteral("saveRulesAsAction"));
        QCOMPARE(saveAs->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
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
            // Within the screen (a larger one is fitted to it: tst_windowfit).
            w.resize(760, 560);
            w.showPage(ui::MainWindow::SimulationPageIndex);
            QTRY_COMPARE(w.size(), QSize(760, 560));
            where = w.geometry();
            w.close();
        }
        ui::MainWindow w;
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        QCOMPARE(pages->currentIndex(), int(ui::MainWindow::SimulationPageIndex));
        QCOMPARE(w.size(), where.size());
    }

    // A first start on a large screen uses it; on a small one it fits it.
    void firstSizeUsesTheScreen()
    {
        QCOMPARE(ui::MainWindow::firstSize({1920, 1080}), QSize(1536, 864));
        QCOMPARE(ui::MainWindow::firstSize({2560, 1400}), QSize(2048, 1120));
        QCOMPARE(ui::MainWindow::firstSize({1280, 800}), QSize(1100, 700));
        QCOMPARE(ui::MainWindow::firstSize({1024, 600}), QSize(1024, 600));
        ui::MainWindow w; // no settings: the first start
        const QSize room = QGuiApplication::primaryScreen()->availableGeometry().size();
        QCOMPARE(w.size(), ui::MainWindow::firstSize(room));
    }

    // No page at 1100x700 cuts a text without an ellipsis and a tooltip, in either language.
    void nothingCutAtTheFirstStartSize_data() { test::languageRows(); }
    void nothingCutAtTheFirstStartSize()
    {
        QVERIFY(test::useRowLanguage().installed);
        {
            ui::MainWindow w;
            QVERIFY(showAt(w, {1100, 700}));
            QStringList cut;
            for (int i = 0; i < 6; ++i) {
                w.showPage(i);
                QTest::qWait(30);
                w.grab(); // painted once: elided labels know they are
                const QStringList here = test::cutTexts(&w);
                for (const QString &c : here) {
                    cut << QStringLiteral("page %1: %2").arg(i).arg(c);
                }
                QCOMPARE(w.size(), QSize(1100, 700));
            }
            QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
        }
        QVERIFY(test::useLanguage(QStringLiteral("en")));
    }

    // The checker itself: a label, a button and a header section too narrow for their text are
    // found; with a tooltip, or elided by ElidedLabel with its tooltip, they are not.
    void cutCheckFindsWhatIsCut()
    {
        QWidget window;
        window.resize(300, 200);
        auto *label =
            new QLabel(QStringLiteral("A label far too long for the little room it has"), &window);
        label->setGeometry(0, 0, 80, 20);
        auto *button = new QPushButton(QStringLiteral("A button with a long text"), &window);
        button->setGeometry(0, 30, 60, 24);
        auto *elided = new ui::ElidedLabel(
            QStringLiteral("Elided with the whole text in its tooltip"), &window);
        elided->setGeometry(0, 60, 80, 20);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QStringList cut = test::cutTexts(&window);
        QCOMPARE(cut.size(), 2);
        QVERIFY(cut.at(0).contains(QStringLiteral("QLabel")) ||
                cut.at(1).contains(QStringLiteral("QLabel")));
        QVERIFY(elided->isElided());
        QCOMPARE(elided->toolTip(), elided->text());
        label->setToolTip(label->text());
        button->setToolTip(button->text());
        QVERIFY(test::cutTexts(&window).isEmpty());
        elided->resize(400, 20);
        QVERIFY(!elided->isElided());
        QVERIFY(elided->toolTip().isEmpty());
    }

    // A banner with a long message and its buttons never widens the window: the buttons move
    // under the text, the text wraps.
    void bannersDoNotGrowTheWindow_data() { test::languageRows(); }
    void bannersDoNotGrowTheWindow()
    {
        QVERIFY(test::useRowLanguage().installed);
        {
            ui::MainWindow w;
            QVERIFY(showAt(w, {1100, 700}));
            const QString longText =
                QStringLiteral("12345 limiter keys never expire: once one reaches its limit it "
                               "blocks its subject until someone deletes it, under app1:rl:* and "
                               "rate_limit:*");
            for (int i = 0; i < 6; ++i) {
                QWidget *page = test::showPage(w, i);
                const QList<ui::MessageBanner *> banners =
                    page->findChildren<ui::MessageBanner *>();
                for (ui::MessageBanner *b : banners) {
                    QList<ui::MessageBanner::Action> actions;
                    for (const char *t : {"Why is that?", "Show them all", "Fix all from rules…",
                                          "Delete all flagged…"}) {
                        actions.append({QString::fromUtf8(t), QString(), {}});
                    }
                    b->showMessage(ui::PageMessage::headlined(ui::Tone::Warning, longText,
                                                              longText + longText),
                                   actions);
                    QTest::qWait(20);
                    QVERIFY2(w.size() == QSize(1100, 700),
                             qPrintable(QStringLiteral("page %1, banner %2: %3x%4")
                                            .arg(i)
                                            .arg(b->objectName())
                                            .arg(w.width())
                                            .arg(w.height())));
                    QVERIFY2(w.minimumSizeHint().width() <= 1100, qPrintable(b->objectName()));
                    b->hide();
                }
            }
        }
        QVERIFY(test::useLanguage(QStringLiteral("en")));
    }

    // A banner too narrow for its buttons beside the text puts them under it, and back.
    void bannerButtonsMoveUnderTheText()
    {
        QWidget host;
        auto *banner =
            new ui::MessageBanner(QStringLiteral("frame"), QStringLiteral("text"), &host);
        QList<ui::MessageBanner::Action> actions;
        for (int i = 0; i < 4; ++i) {
            actions.append({QStringLiteral("Action %1").arg(i), QString(), {}});
        }
        banner->showMessage(
            ui::PageMessage::headlined(ui::Tone::Info, QStringLiteral("Headline"), QString()),
            actions);
        banner->resize(1600, 80);
        host.show();
        QVERIFY(QTest::qWaitForWindowExposed(&host));
        QTRY_VERIFY(!banner->buttonsBelow());
        banner->resize(400, 80);
        QTRY_VERIFY(banner->buttonsBelow());
        QVERIFY(banner->minimumSizeHint().width() <= 400);
        // Narrower than the buttons in a row: they wrap, and the banner asks only for the
        // widest one.
        banner->resize(200, 200);
        QVERIFY(banner->minimumSizeHint().width() <= 200);
        banner->resize(1600, 80);
        QTRY_VERIFY(!banner->buttonsBelow());
    }

    // The rule file imported last is open again after a restart, and File > Recent files
    // lists the last ten, newest first.
    void recentFilesAndReopen()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString samples = QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples");
        QStringList files;
        for (int i = 0; i < 12; ++i) {
            const QString f = dir.filePath(QStringLiteral("rules-%1.json").arg(i));
            QVERIFY(QFile::copy(samples + QStringLiteral("/rules.json"), f));
            files << f;
        }
        const QString yaml = dir.filePath(QStringLiteral("rules.yaml"));
        QVERIFY(QFile::copy(samples + QStringLiteral("/rules.yaml"), yaml));
        {
            ui::MainWindow w;
            for (const QString &f : std::as_const(files)) {
                QVERIFY(w.rulesPage()->importFile(f, nullptr));
            }
            QVERIFY(w.rulesPage()->importFile(yaml, nullptr));
            const QStringList recent = ui::RulesPage::recentFiles();
            QCOMPARE(recent.size(), 10);
            QCOMPARE(recent.first(), QFileInfo(yaml).absoluteFilePath());
            QCOMPARE(recent.at(1), QFileInfo(files.last()).absoluteFilePath());
            auto *menu = w.findChild<QMenu *>(QStringLiteral("recentFilesMenu"));
            QVERIFY(menu);
            auto *first = w.findChild<QAction *>(QStringLiteral("recentFile0"));
            QVERIFY(first);
            QCOMPARE(first->data().toString(), recent.first());
            QVERIFY(first->text().contains(QStringLiteral("rules.yaml")));
            // A recent file opens again from the menu.
            w.findChild<QAction *>(QStringLiteral("recentFile1"))->trigger();
            QCOMPARE(ui::RulesPage::recentFiles().first(), recent.at(1));
            w.close();
        }
        {
            ui::MainWindow w;
            QCOMPARE(int(w.rulesPage()->rules().rules.size()), 0); // not before the start
            QVERIFY(w.reopenWork());
            QCOMPARE(int(w.rulesPage()->rules().rules.size()), 6);
            QVERIFY(!w.rulesPage()->hasUnsavedChanges());
            QCOMPARE(ui::RulesPage::recentFiles().first(),
                     QFileInfo(files.last()).absoluteFilePath());
        }
        // The file is gone: nothing is opened, and the page says so.
        QVERIFY(QFile::remove(files.last()));
        {
            ui::MainWindow w;
            QVERIFY(!w.reopenWork());
            auto *banner =
                w.rulesPage()->findChild<ui::MessageBanner *>(QStringLiteral("rulesBanner"));
            QVERIFY(banner);
            QVERIFY2(banner->text().contains(QStringLiteral("is gone")),
                     qPrintable(banner->text()));
        }
    }

    // The first import opens in the sample rules; the next in the folder of the last one.
    void importOpensInTheSamples()
    {
        const QString samples = ui::RulesPage::samplesFolder();
        QVERIFY2(QFileInfo::exists(samples + QStringLiteral("/rules.json")), qPrintable(samples));
        QCOMPARE(ui::RulesPage::importFolder(), samples);
        ui::MainWindow w;
        w.rulesPage()->importRules();
        auto *dialog = w.rulesPage()->findChild<QFileDialog *>(QStringLiteral("importDialog"));
        QVERIFY(dialog);
        QCOMPARE(QDir(dialog->directory()).canonicalPath(), QDir(samples).canonicalPath());
        dialog->reject();
        QTemporaryDir dir;
        const QString f = dir.filePath(QStringLiteral("mine.json"));
        QVERIFY(QFile::copy(samples + QStringLiteral("/rules.json"), f));
        QVERIFY(w.rulesPage()->importFile(f, nullptr));
        QCOMPARE(QDir(ui::RulesPage::importFolder()).canonicalPath(),
                 QDir(dir.path()).canonicalPath());
    }

    // A new profile typed and not saved is asked about when the user leaves the page or quits.
    void unsavedProfileAsks()
    {
        ui::MainWindow w;
        QVERIFY(showAt(w, {1100, 700}));
        auto *page = w.findChild<ui::ConnectionPage *>();
        QVERIFY(page);
        w.showPage(ui::MainWindow::ConnectionPageIndex);
        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("newButton")),
                          Qt::LeftButton);
        // An empty new profile is not "filled in": leaving asks nothing.
        QVERIFY(!page->hasUnsavedProfile());
        w.showPage(ui::MainWindow::RulesPageIndex);
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        QCOMPARE(pages->currentIndex(), int(ui::MainWindow::RulesPageIndex));

        w.showPage(ui::MainWindow::ConnectionPageIndex);
        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("newButton")),
                          Qt::LeftButton);
        QTest::keyClicks(page->findChild<QLineEdit *>(QStringLiteral("nameEdit")),
                         QStringLiteral("staging"));
        QTest::keyClicks(page->findChild<QLineEdit *>(QStringLiteral("hostEdit")),
                         QStringLiteral("10.0.0.5"));
        QVERIFY(page->hasUnsavedProfile());
        QStringList asked;
        auto answer = ui::ConnectionPage::LeaveChoice::KeepEditing;
        page->setLeaveHook([&](const QString &q) {
            asked << q;
            return answer;
        });
        // Keep editing: the page stays, the values stay.
        w.showPage(ui::MainWindow::KeysPageIndex);
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(QStringLiteral("staging")), qPrintable(asked.first()));
        QCOMPARE(pages->currentIndex(), int(ui::MainWindow::ConnectionPageIndex));
        auto *nav = w.findChild<QListWidget *>(QStringLiteral("navigation"));
        QCOMPARE(nav->currentRow(), int(ui::MainWindow::ConnectionPageIndex));
        QCOMPARE(page->findChild<QLineEdit *>(QStringLiteral("nameEdit"))->text(),
                 QStringLiteral("staging"));
        // Quit asks too, and keeping the values keeps the window.
        QVERIFY(!w.close());
        QCOMPARE(asked.size(), 2);
        QVERIFY(w.isVisible());
        // Save: the profile is kept, then the page changes.
        answer = ui::ConnectionPage::LeaveChoice::Save;
        w.showPage(ui::MainWindow::KeysPageIndex);
        QCOMPARE(asked.size(), 3);
        QCOMPARE(pages->currentIndex(), int(ui::MainWindow::KeysPageIndex));
        QVERIFY(!page->hasUnsavedProfile());
        // Another unsaved one, discarded on quit: the window closes.
        w.showPage(ui::MainWindow::ConnectionPageIndex);
        QTest::mouseClick(page->findChild<QPushButton *>(QStringLiteral("newButton")),
                          Qt::LeftButton);
        QTest::keyClicks(page->findChild<QLineEdit *>(QStringLiteral("nameEdit")),
                         QStringLiteral("production"));
        answer = ui::ConnectionPage::LeaveChoice::Discard;
        QVERIFY(w.close());
        QCOMPARE(asked.size(), 4);
        ui::MainWindow again;
        auto *store = again.connection()->store();
        int staging = 0;
        for (const auto &p : store->profiles()) {
            QVERIFY(p.name != QLatin1String("production"));
            staging += p.name == QLatin1String("staging");
        }
        QCOMPARE(staging, 1);
    }

    // The export dialog offers every format the exporter has, previews exactly what it saves,
    // copies it, and saves into the folder used last.
    void exportDialog()
    {
        ui::MainWindow w;
        QVERIFY(w.rulesPage()->importFile(
            QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/rules.json"), nullptr));
        QTemporaryDir dir;
        QSettings().setValue(QStringLiteral("export/dir"), dir.path());
        w.rulesPage()->exportRules();
        auto *dialog = w.rulesPage()->findChild<ui::ExportDialog *>(QStringLiteral("exportDialog"));
        QVERIFY(dialog);
        auto *combo = dialog->findChild<QComboBox *>(QStringLiteral("exportFormat"));
        QCOMPARE(combo->count(), 6);
        QCOMPARE(ui::ExportDialog::formats(),
                 QStringList({QStringLiteral("json"), QStringLiteral("yaml"),
                              QStringLiteral("nginx"), QStringLiteral("nginx-auth"),
                              QStringLiteral("envoy"), QStringLiteral("kong")}));
        QCOMPARE(dialog->format(), QStringLiteral("json"));
        QVERIFY(dialog->previewText().contains(QStringLiteral("\"hello-per-ip\"")));
        QVERIFY(dialog->leftOut().isEmpty());

        dialog->setFormat(QStringLiteral("nginx"));
        QVERIFY(dialog->previewText().contains(QStringLiteral("limit_req_zone")));
        QVERIFY(!dialog->leftOut().isEmpty()); // nginx cannot express every sample rule
        auto *auth = dialog->findChild<QWidget *>(QStringLiteral("nginxAuthOptions"));
        QVERIFY(auth->isHidden());

        dialog->setFormat(QStringLiteral("nginx-auth"));
        QVERIFY(!auth->isHidden());
        QVERIFY(dialog->previewText().contains(QStringLiteral("auth_request")));
        // A service that is not a URL: no preview, no Save, and the reason.
        auto *service = dialog->findChild<QLineEdit *>(QStringLiteral("nginxAuthService"));
        service->setText(QStringLiteral("not a url"));
        QVERIFY(dialog->previewText().isEmpty());
        auto *save = dialog->findChild<QPushButton *>(QStringLiteral("exportSave"));
        QVERIFY(!save->isEnabled());
        QVERIFY(!dialog->findChild<QLabel *>(QStringLiteral("exportLeftOut"))->text().isEmpty());
        service->setText(QStringLiteral("http://127.0.0.1:8090"));
        QVERIFY(save->isEnabled());

        // Copy puts the preview on the clipboard.
        QTest::mouseClick(dialog->findChild<QPushButton *>(QStringLiteral("exportCopy")),
                          Qt::LeftButton);
        QCOMPARE(QGuiApplication::clipboard()->text(), dialog->previewText());

        // Save offers the last folder and the format's suffix, and writes the preview.
        const QString preview = dialog->previewText();
        QString offered;
        dialog->setSaveHook([&](const QString &path) {
            offered = path;
            return path;
        });
        QTest::mouseClick(save, Qt::LeftButton);
        QCOMPARE(offered, QDir(dir.path()).filePath(QStringLiteral("rules.conf")));
        QFile written(offered);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(written.readAll()), preview);
        QCOMPARE(QSettings().value(QStringLiteral("export/format")).toString(),
                 QStringLiteral("nginx-auth"));
        QCOMPARE(QDir(ui::ExportDialog::lastFolder()).canonicalPath(),
                 QDir(dir.path()).canonicalPath());
    }

    // View > Theme: dark gives a dark window and dark charts; light gives them back; the
    // choice is kept.
    void themeSwitches()
    {
        {
            ui::MainWindow w;
            QVERIFY(showAt(w, {1100, 700}));
            auto *dark = w.findChild<QAction *>(QStringLiteral("theme-dark"));
            auto *light = w.findChild<QAction *>(QStringLiteral("theme-light"));
            QVERIFY(dark && light && w.findChild<QAction *>(QStringLiteral("theme-system")));
            auto *chartView = w.findChild<QChartView *>(QStringLiteral("loadChart"));
            QVERIFY(chartView);
            dark->trigger();
            QVERIFY(ui::tone::isDark());
            QVERIFY(qApp->palette().color(QPalette::Window).lightness() < 80);
            QVERIFY(w.rulesPage()->palette().color(QPalette::Base).lightness() < 80);
            QVERIFY(chartView->chart()->backgroundBrush().color().lightness() < 80);
            QCOMPARE(chartView->chart()->backgroundBrush().color(), ui::tone::surface());
            QVERIFY(ui::tone::background(ui::Tone::Bad).lightness() < 80);
            QCOMPARE(QSettings().value(QStringLiteral("view/theme")).toString(),
                     QStringLiteral("dark"));
            light->trigger();
            QVERIFY(!ui::tone::isDark());
            QVERIFY(qApp->palette().color(QPalette::Window).lightness() > 180);
            QVERIFY(chartView->chart()->backgroundBrush().color().lightness() > 200);
            dark->trigger();
            w.close();
        }
        ui::MainWindow again; // the choice is kept
        QVERIFY(ui::tone::isDark());
        QVERIFY(again.findChild<QAction *>(QStringLiteral("theme-dark"))->isChecked());
        again.findChild<QAction *>(QStringLiteral("theme-system"))->trigger();
        QVERIFY(!ui::tone::isDark()); // the offscreen platform's palette is light
    }

    // The status bar and File > Connect to list the sandbox and every profile, with how each
    // went last; a click connects.
    void connectionSwitcher()
    {
        ui::MainWindow w;
        QVERIFY(showAt(w, {1100, 700}));
        auto *button = w.findChild<QToolButton *>(QStringLiteral("connectionSwitcher"));
        QVERIFY(button && button->isVisible());
        auto *fileMenu = w.findChild<QMenu *>(QStringLiteral("connectToMenu"));
        QVERIFY(fileMenu);
        Q_EMIT fileMenu->aboutToShow();
        QVERIFY(w.findChild<QAction *>(QStringLiteral("switchTo-sandbox")));
        ui::ConnectionProfile p;
        p.name = QStringLiteral("staging");
        p.host = QStringLiteral("127.0.0.1");
        p.port = 1; // nothing listens there
        const QString id = w.connection()->store()->save(p, QString());
        Q_EMIT fileMenu->aboutToShow();
        QAction *staging = fileMenu->findChild<QAction *>(QStringLiteral("switchTo-") + id);
        QVERIFY(staging);
        staging->trigger();
        QCOMPARE(w.connection()->currentId(), id);
        // The last state is remembered for the menu (a refused port fails at once).
        QTRY_VERIFY_WITH_TIMEOUT(!ui::ConnectionSwitcher::lastState(id).isEmpty(), 10000);
        Q_EMIT fileMenu->aboutToShow();
        staging = fileMenu->findChild<QAction *>(QStringLiteral("switchTo-") + id);
        QVERIFY2(staging->text().contains(QLatin1Char('\t')), qPrintable(staging->text()));
        QVERIFY(staging->isChecked());
        w.connection()->disconnectNow();
    }

    // A settings file that is not one (NUL bytes, not UTF-8): put aside, defaults, a message.
    void corruptSettingsGiveDefaults()
    {
        {
            QSettings s;
            s.setValue(QStringLiteral("window/page"), 3);
            s.sync();
        }
        const QString file = QSettings().fileName();
        {
            QFile f(file);
            QVERIFY(f.open(QIODevice::Append));
            // Its length from the literal (14 read a byte past it: ASan).
            const char junk[] = "\0\xff\xfe garbage\n";
            f.write(junk, qint64(sizeof junk - 1));
        }
        ui::MainWindow w;
        QVERIFY2(w.settingsProblem().contains(QStringLiteral("could not be read")),
                 qPrintable(w.settingsProblem()));
        auto *pages = w.findChild<QStackedWidget *>(QStringLiteral("pages"));
        QCOMPARE(pages->currentIndex(), 0);
        auto *banner = w.findChild<ui::MessageBanner *>(QStringLiteral("settingsBanner"));
        QVERIFY(banner && !banner->isHidden());
        QVERIFY(QFile::exists(file + QStringLiteral(".corrupt")));
        QFile::remove(file + QStringLiteral(".corrupt"));
    }

    // Settings of a newer Sluice: read as far as understood, not overwritten, and said so.
    void newerSettingsAreLeftAlone()
    {
        {
            QSettings s;
            s.setValue(QStringLiteral("settings/version"), 99);
            s.setValue(QStringLiteral("window/page"), 3);
        }
        {
            ui::MainWindow w;
            QVERIFY2(w.settingsProblem().contains(QStringLiteral("newer")),
                     qPrintable(w.settingsProblem()));
            QCOMPARE(w.findChild<QStackedWidget *>(QStringLiteral("pages"))->currentIndex(), 3);
            w.showPage(1);
            w.close();
        }
        const QSettings s;
        QCOMPARE(s.value(QStringLiteral("settings/version")).toInt(), 99);
        QCOMPARE(s.value(QStringLiteral("window/page")).toInt(), 3);
    }

private:
    static bool showAt(QWidget &w, QSize size)
    {
        w.resize(size);
        w.show();
        return QTest::qWaitForWindowExposed(&w) &&
               QTest::qWaitFor([&] { return w.size() == size; });
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
