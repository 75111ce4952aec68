// The console never loses or silently changes work (CONSOLE.md "Frame", "Rules"): a wheel turn
// over a combo box, spin box or slider without focus scrolls the form and changes no value, on
// every page; File > Save and Save as… write the rules back in their file's format, and refuse
// with a message (the rules kept) when the file was changed on disk, made read-only or deleted,
// or has YAML comments the reader drops; quitting, switching server or opening another file
// with unsaved rules asks Save, Discard or Cancel.
#include "pageharness.h"
#include "testdata.h"

#include "core/rules/codec.h"
#include "ui/common/messagebanner.h"
#include "ui/connection/connectioncontroller.h"
#include "ui/connection/profilestore.h"
#include "ui/mainwindow.h"
#include "ui/rules/rulespage.h"
#include "ui/rules/rulessession.h"

#include <QAbstractScrollArea>
#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QAction>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace sluice;

namespace {

// One notch of the wheel (down) over the middle of `w`, as the window system delivers it.
void wheel(QWidget *w, int notches = -1)
{
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, 120 * notches), Qt::NoButton,
                  Qt::NoModifier, Qt::NoScrollPhase, false);
    QApplication::sendEvent(w, &e);
}

// A value of any of the guarded kinds, to compare before and after.
QVariant valueOf(QWidget *w)
{
    if (auto *c = qobject_cast<QComboBox *>(w)) {
        return c->currentIndex();
    }
    if (auto *s = qobject_cast<QAbstractSpinBox *>(w)) {
        return s->text();
    }
    if (auto *s = qobject_cast<QAbstractSlider *>(w)) {
        return s->value();
    }
    return {};
}

QScrollBar *enclosingBar(QWidget *w)
{
    for (QWidget *p = w->parentWidget(); p; p = p->parentWidget()) {
        if (auto *a = qobject_cast<QAbstractScrollArea *>(p)) {
            if (a->verticalScrollBar()->maximum() > 0) {
                return a->verticalScrollBar();
            }
        }
    }
    return nullptr;
}

} // namespace

class TestConsoleForms : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::freshTestSettings(QStringLiteral("SluiceConsoleForms")); }
    void init() { QSettings().clear(); }

    // The rule editor's "If Redis fails" under the pointer while the form scrolls: the form
    // scrolls, the value stays, nothing is marked modified. Focused, the wheel changes it.
    void wheelScrollsTheRuleEditor()
    {
        ui::MainWindow w;
        QVERIFY(importSample(w, QStringLiteral("rules.json")));
        QVERIFY(test::showWindow(w, {1100, 700}));
        w.showPage(ui::MainWindow::RulesPageIndex);
        auto *combo = w.findChild<QComboBox *>(QStringLiteral("onRedisErrorCombo"));
        QVERIFY(combo && combo->isVisible());
        w.findChild<QLineEdit *>(QStringLiteral("filterEdit"))->setFocus();
        QVERIFY(!combo->hasFocus());
        const int before = combo->currentIndex();
        QScrollBar *bar = enclosingBar(combo);
        const int scrolled = bar ? bar->value() : 0;
        wheel(combo);
        wheel(combo);
        QCOMPARE(combo->currentIndex(), before);
        QVERIFY(!w.rulesPage()->hasUnsavedChanges());
        QVERIFY(!w.findChild<QPushButton *>(QStringLiteral("applyButton"))->isEnabled());
        if (bar) {
            QVERIFY2(bar->value() > scrolled, "the editor did not scroll");
        }
        // Picked (Tab brings the focus there): the wheel is the user's to use.
        combo->setFocus(Qt::TabFocusReason);
        QVERIFY(combo->hasFocus());
        wheel(combo, before + 1 < combo->count() ? -1 : 1);
        QVERIFY(combo->currentIndex() != before);
    }

    // Every combo box, spin box and slider of every page and of the Simulation scenario: an
    // unfocused wheel turn changes none of them.
    void wheelChangesNoValueOnAnyPage()
    {
        ui::MainWindow w;
        QVERIFY(importSample(w, QStringLiteral("rules.json")));
        QVERIFY(test::showWindow(w, {1100, 700}));
        auto *nav = w.findChild<QWidget *>(QStringLiteral("navigation"));
        int checked = 0;
        for (int page = 0; page < 6; ++page) {
            QWidget *current = test::showPage(w, page);
            nav->setFocus(); // the focus is elsewhere
            const QList<QWidget *> all = current->findChildren<QWidget *>();
            for (QWidget *x : all) {
                if (!x->isVisible() || !x->isEnabled() || qobject_cast<QScrollBar *>(x) ||
                    !valueOf(x).isValid()) {
                    continue;
                }
                if (x->hasFocus()) {
                    nav->setFocus();
                }
                const QVariant before = valueOf(x);
                wheel(x, -1);
                wheel(x, 1);
                wheel(x, 1);
                QVERIFY2(valueOf(x) == before,
                         qPrintable(QStringLiteral("page %1: %2 %3 changed")
                                        .arg(page)
                                        .arg(QString::fromLatin1(x->metaObject()->className()),
                                             x->objectName())));
                ++checked;
            }
        }
        QVERIFY2(checked >= 10, qPrintable(QString::number(checked)));
        // The scenario's pattern, from the review: "Constant" stays, Run stays on.
        w.showPage(ui::MainWindow::SimulationPageIndex);
        auto *pattern = w.findChild<QComboBox *>(QStringLiteral("traffic.pattern"));
        QVERIFY(pattern);
        const QString kind = pattern->currentText();
        nav->setFocus();
        for (int i = 0; i < 6; ++i) {
            wheel(pattern, i % 2 ? 1 : -1);
        }
        QCOMPARE(pattern->currentText(), kind);
    }

    // Ctrl+S writes the edited rule back to its JSON file; the badge goes.
    void saveWritesTheFileBack()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir, QStringLiteral("rules.json"));
        ui::MainWindow w;
        QVERIFY(openAndEdit(w, path, QStringLiteral("10")));
        QVERIFY(w.rulesPage()->hasUnsavedChanges());
        QVERIFY(w.findChild<QLabel *>(QStringLiteral("unsavedMark"))->isVisible());
        QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(limitOnDisk(path), qint64(10));
        QVERIFY(!w.rulesPage()->hasUnsavedChanges());
        QVERIFY(!w.findChild<QLabel *>(QStringLiteral("unsavedMark"))->isVisible());
        QVERIFY2(bannerText(w).contains(QStringLiteral("Saved")), qPrintable(bannerText(w)));
        // Edited again in the editor and not applied: Save applies it first.
        auto *limit = w.findChild<QLineEdit *>(QStringLiteral("limitEdit"));
        limit->setFocus();
        limit->selectAll();
        QTest::keyClicks(limit, QStringLiteral("12"));
        QVERIFY(w.rulesPage()->hasUnsavedChanges());
        QTest::keyClick(&w, Qt::Key_S, Qt::ControlModifier);
        QCOMPARE(limitOnDisk(path), qint64(12));
    }

    // A YAML file is written as YAML; its comments are not dropped without asking.
    void yamlCommentsAreAskedAbout()
    {
        QTemporaryDir dir;
        QFile sample(sampleFile(QStringLiteral("rules.yaml")));
        QVERIFY(sample.open(QIODevice::ReadOnly));
        const QByteArray withComments = "# the team's limits\n" + sample.readAll();
        const QString path = test::fileIn(dir, QStringLiteral("rules.yaml"), withComments);
        ui::MainWindow w;
        QVERIFY(openAndEdit(w, path, QStringLiteral("10")));
        w.rulesPage()->save();
        QCOMPARE(readFile(path), withComments); // nothing written yet
        QVERIFY2(bannerText(w).contains(QStringLiteral("comment")), qPrintable(bannerText(w)));
        QTest::mouseClick(button(w, "dropCommentsButton"), Qt::LeftButton);
        QCOMPARE(limitOnDisk(path), qint64(10));
        QVERIFY(!readFile(path).contains("# the team's limits"));
        QVERIFY(!readFile(path).trimmed().startsWith('{')); // YAML, not JSON
    }

    // The file changed on disk while edited: said at once, with Reload and Keep; a Save does
    // not overwrite it unasked.
    void fileChangedOnDisk()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir, QStringLiteral("rules.json"));
        ui::MainWindow w;
        QVERIFY(openAndEdit(w, path, QStringLiteral("10")));
        QByteArray changed = readFile(path);
        changed.replace("\"limit\": 3", "\"limit\": 7");
        QVERIFY(changed != readFile(path));
        QVERIFY(writeFile(path, changed));
        QTRY_VERIFY2(bannerText(w).contains(QStringLiteral("changed on disk")),
                     qPrintable(bannerText(w)));
        QVERIFY(button(w, "reloadFileButton") && button(w, "keepEditsButton"));
        w.rulesPage()->save();
        QCOMPARE(readFile(path), changed);
        QVERIFY(w.rulesPage()->hasUnsavedChanges());
        // Reload: the disk's rules.
        QTest::mouseClick(button(w, "reloadFileButton"), Qt::LeftButton);
        QCOMPARE(w.rulesPage()->rules().rules.front().limit, qint64(7));
        QVERIFY(!w.rulesPage()->hasUnsavedChanges());
        // Keep: the edits stay and a Save then overwrites the change.
        QVERIFY(editLimit(w, QStringLiteral("11")));
        changed.replace("\"limit\": 7", "\"limit\": 8");
        QVERIFY(writeFile(path, changed));
        QTRY_VERIFY(button(w, "keepEditsButton"));
        QTest::mouseClick(button(w, "keepEditsButton"), Qt::LeftButton);
        w.rulesPage()->save();
        QCOMPARE(limitOnDisk(path), qint64(11));
    }

    // A file made read-only, or deleted, before Save: a message, nothing written, the rules
    // kept; Save as… writes them elsewhere.
    void readOnlyOrDeletedFileKeepsTheEdits()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir, QStringLiteral("rules.json"));
        ui::MainWindow w;
        QVERIFY(openAndEdit(w, path, QStringLiteral("10")));
        const QByteArray original = readFile(path);
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::ReadGroup));
        w.rulesPage()->save();
        QVERIFY2(bannerText(w).contains(QStringLiteral("read-only")), qPrintable(bannerText(w)));
        QCOMPARE(readFile(path), original);
        QVERIFY(w.rulesPage()->hasUnsavedChanges());
        QCOMPARE(w.rulesPage()->rules().rules.front().limit, qint64(10));
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(QFile::remove(path));
        QTRY_VERIFY2(bannerText(w).contains(QStringLiteral("deleted or moved")),
                     qPrintable(bannerText(w)));
        w.rulesPage()->save();
        QVERIFY2(bannerText(w).contains(QStringLiteral("is gone")), qPrintable(bannerText(w)));
        QVERIFY(!QFile::exists(path));
        QVERIFY(w.rulesPage()->hasUnsavedChanges());
        // Save as…, from the banner's button.
        const QString other = dir.filePath(QStringLiteral("kept.yaml"));
        w.rulesPage()->setSaveAsHook([other] { return other; });
        QTest::mouseClick(button(w, "bannerSaveAsButton"), Qt::LeftButton);
        QCOMPARE(limitOnDisk(other), qint64(10));
        QVERIFY(!readFile(other).trimmed().startsWith('{'));
        QVERIFY(!w.rulesPage()->hasUnsavedChanges());
        QCOMPARE(w.rulesPage()->session()->filePath(), QFileInfo(other).absoluteFilePath());
    }

    // Ctrl+Q with unsaved rules asks; Cancel stays, Save writes then quits, Discard quits.
    void quitAsksAboutUnsavedRules()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir, QStringLiteral("rules.json"));
        QStringList asked;
        auto answer = ui::RulesPage::UnsavedChoice::Cancel;
        const auto hook = [&](const QString &q) {
            asked << q;
            return answer;
        };
        {
            ui::MainWindow w;
            QVERIFY(w.rulesPage()->importFile(path, nullptr));
            w.rulesPage()->setUnsavedChoiceHook(hook);
            QVERIFY(test::showWindow(w, {1100, 700}));
            QVERIFY(editLimit(w, QStringLiteral("10")));
            QTest::keyClick(&w, Qt::Key_Q, Qt::ControlModifier);
            QCOMPARE(asked.size(), 1);
            QVERIFY(w.isVisible());
            answer = ui::RulesPage::UnsavedChoice::Save;
            QTest::keyClick(&w, Qt::Key_Q, Qt::ControlModifier);
            QCOMPARE(asked.size(), 2);
            QVERIFY(!w.isVisible());
            QCOMPARE(limitOnDisk(path), qint64(10));
        }
        {
            ui::MainWindow w;
            QVERIFY(w.rulesPage()->importFile(path, nullptr));
            w.rulesPage()->setUnsavedChoiceHook(hook);
            QVERIFY(test::showWindow(w, {1100, 700}));
            QVERIFY(editLimit(w, QStringLiteral("20")));
            answer = ui::RulesPage::UnsavedChoice::Discard;
            QVERIFY(w.close());
            QCOMPARE(asked.size(), 3);
            QCOMPARE(limitOnDisk(path), qint64(10));
        }
        // Nothing unsaved: nothing asked.
        ui::MainWindow w;
        QVERIFY(w.rulesPage()->importFile(path, nullptr));
        w.rulesPage()->setUnsavedChoiceHook(hook);
        QVERIFY(w.close());
        QCOMPARE(asked.size(), 3);
    }

    // Another server, or another rule file, with unsaved rules: asked first; Cancel stays.
    void switchingOrOpeningAsks()
    {
        QTemporaryDir dir;
        const QString path = copySample(dir, QStringLiteral("rules.json"));
        const QString second = copySample(dir, QStringLiteral("spring-counter.json"));
        ui::MainWindow w;
        QVERIFY(w.rulesPage()->importFile(path, nullptr));
        QVERIFY(test::showWindow(w, {1100, 700}));
        ui::ConnectionController *c = w.connection();
        // Two servers that are not there: the session's profile changes all the same.
        const QString a = test::saveProfile(*c->store(), closedPort(), QStringLiteral("a"));
        const QString b = test::saveProfile(*c->store(), closedPort(), QStringLiteral("b"));
        c->connectTo(a);
        QCOMPARE(c->currentId(), a);
        QVERIFY(editLimit(w, QStringLiteral("10")));
        QStringList asked;
        auto answer = ui::RulesPage::UnsavedChoice::Cancel;
        w.rulesPage()->setUnsavedChoiceHook([&](const QString &q) {
            asked << q;
            return answer;
        });
        c->connectTo(b);
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(QStringLiteral("another server")),
                 qPrintable(asked.first()));
        QCOMPARE(c->currentId(), a);
        // Opening another file through File > Recent files: Cancel keeps the rules.
        w.rulesPage()->openFile(second);
        QCOMPARE(asked.size(), 2);
        QCOMPARE(w.rulesPage()->rules().rules.front().limit, qint64(10));
        // Discard: the file's own rules again, then the switch.
        answer = ui::RulesPage::UnsavedChoice::Discard;
        c->connectTo(b);
        QCOMPARE(asked.size(), 3);
        QCOMPARE(c->currentId(), b);
        QVERIFY(!w.rulesPage()->hasUnsavedChanges());
        QCOMPARE(w.rulesPage()->rules().rules.front().limit, qint64(3));
        c->disconnectNow();
    }

private:
    static QString sampleFile(const QString &name)
    {
        return QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/") + name;
    }
    static QString copySample(const QTemporaryDir &dir, const QString &name)
    {
        const QString to = dir.filePath(name);
        QFile::copy(sampleFile(name), to);
        QFile::setPermissions(to, QFile::ReadOwner | QFile::WriteOwner);
        return to;
    }
    static bool importSample(ui::MainWindow &w, const QString &name)
    {
        return w.rulesPage()->importFile(sampleFile(name), nullptr);
    }
    static QByteArray readFile(const QString &path)
    {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }
    static bool writeFile(const QString &path, const QByteArray &bytes)
    {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(bytes) == bytes.size();
    }
    // The first rule's limit in the file, as the codec reads it (-1: not a valid file).
    static qint64 limitOnDisk(const QString &path)
    {
        const rules::Loaded loaded = rules::loadFile(path);
        return loaded.ok() && !loaded.set.rules.empty() ? loaded.set.rules.front().limit : -1;
    }
    static Endpoint closedPort()
    {
        Endpoint e;
        e.host = QStringLiteral("127.0.0.1");
        e.port = 1; // nothing listens there
        return e;
    }
    static QPushButton *button(ui::MainWindow &w, const char *name)
    {
        return w.rulesPage()->findChild<QPushButton *>(QLatin1String(name));
    }
    static QString bannerText(ui::MainWindow &w)
    {
        auto *l = w.rulesPage()->findChild<QLabel *>(QStringLiteral("bannerText"));
        return l ? l->text() : QString();
    }
    // The first rule's limit typed into the editor and applied, as a user does.
    static bool editLimit(ui::MainWindow &w, const QString &limit)
    {
        w.showPage(ui::MainWindow::RulesPageIndex);
        auto *edit = w.findChild<QLineEdit *>(QStringLiteral("limitEdit"));
        auto *apply = w.findChild<QPushButton *>(QStringLiteral("applyButton"));
        if (!edit || !edit->isVisible() || !apply) {
            return false;
        }
        edit->setFocus();
        edit->selectAll();
        QTest::keyClicks(edit, limit);
        if (!apply->isEnabled()) {
            return false;
        }
        QTest::mouseClick(apply, Qt::LeftButton);
        return w.rulesPage()->hasUnsavedChanges();
    }
    // `path` opened in the shown window at 1100x700, its first limit edited to `limit`.
    static bool openAndEdit(ui::MainWindow &w, const QString &path, const QString &limit)
    {
        return w.rulesPage()->importFile(path, nullptr) && test::showWindow(w, {1100, 700}) &&
               editLimit(w, limit);
    }
};

QTEST_MAIN(TestConsoleForms)
#include "tst_consoleforms.moc"
