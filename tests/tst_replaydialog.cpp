// Simulation > Replay a log…, offscreen, on a log and a rule file the test writes: the format
// detected, the run in its worker with the report in the tables, the draggable candidate limit
// and its shares, the export (CSV, PNG, SVG), a cancel (of a FIFO nobody writes too), a bad
// rule file said; the Simulation page opens the dialog.
#include "fitcheck.h"
#include "pageharness.h"

#include "core/rules/codec.h"
#include "ui/common/theme.h"
#include "ui/mainwindow.h"
#include "ui/rules/rulespage.h"
#include "ui/sim/replaydialog.h"
#include "ui/sim/replaysession.h"
#include "ui/sim/simulationpage.h"

#include <QChartView>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStackedWidget>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>
using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

constexpr qint64 t0 = 1'791'640'536;

QByteArray noisyLog(int seconds)
{
    QByteArray log;
    for (int s = 0; s < seconds; ++s) {
        const QString when =
            QDateTime::fromSecsSinceEpoch(t0 + s, Qt::UTC).toString(u"dd/MMM/yyyy:HH:mm:ss"_s);
        for (int c = 0; c < 20; ++c) {
            log += u"10.0.0.%1 - - [%2 +0000] \"GET /api/x HTTP/1.1\" 200 5 \"-\" \"ua\"\n"_s.arg(c)
                       .arg(when)
                       .toUtf8();
        }
        for (int k = 0; k < 12; ++k) {
            log += u"203.0.113.9 - - [%1 +0000] \"GET /api/y HTTP/1.1\" %2 5 \"-\" \"ua\"\n"_s
                       .arg(when)
                       .arg(k >= 8 ? 429 : 200)
                       .toUtf8();
        }
    }
    return log;
}

QString write(const QTemporaryDir &dir, const QString &name, const QByteArray &bytes)
{
    const QString path = dir.filePath(name);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size()) {
        qFatal("cannot write %s", qPrintable(path));
    }
    return path;
}

const QByteArray rulesJson = R"({"version": 1, "rules": [
  {"id": "api", "route": "GET /api", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1s"},
  {"id": "key", "scope": "header:X-Api-Key", "algorithm": "gcra", "rate": "5/s", "burst": 2}
]})";

// Shows the dialog, replays `log` through `rules` and waits for the report.
bool replayIn(ReplayDialog &d, const QString &log, const QString &rules)
{
    d.resize(1280, 800);
    d.show();
    d.setLogs({log});
    d.setRulesFile(rules);
    QSignalSpy done(&d, &ReplayDialog::replayFinished);
    d.start();
    return done.wait(20000);
}

} // namespace

class TestReplayDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void replaysAndReports();
    void dragTheLimit();
    void exports();
    void cancelAndErrors();
    void simulationPageOpensIt();
    void useThisLimit();
    void rulesThatDecideNothingSayWhy();
    void fitsEverySize();
};

void TestReplayDialog::replaysAndReports()
{
    test::useTestSettings();
    QTemporaryDir dir;
    ReplayDialog d;
    QVERIFY(test::showWindow(d, {1280, 800}));
    d.setLogs({write(dir, u"a.log"_s, noisyLog(120))});
    d.setRulesFile(write(dir, u"rules.json"_s, rulesJson));
    QVERIFY2(d.findChild<QLabel *>(u"detectedLabel"_s)->text().contains(u"nginx combined"_s),
             qPrintable(d.findChild<QLabel *>(u"detectedLabel"_s)->text()));
    QSignalSpy done(&d, &ReplayDialog::replayFinished);
    d.findChild<QPushButton *>(u"replayButton"_s)->click();
    QVERIFY(done.wait(20000));
    QVERIFY(!d.running());
    auto *summary = d.findChild<QTableWidget *>(u"summaryTable"_s);
    QCOMPARE(summary->rowCount(), 2);
    QCOMPARE(summary->item(0, 0)->text(), u"api"_s);
    // 120 s x (20 + 12) requests; the noisy one is denied 7 of 12 a second.
    QCOMPARE(summary->item(0, 1)->text(), QLocale().toString(120 * 32));
    QCOMPARE(summary->item(0, 3)->text(), QLocale().toString(120 * 7));
    QCOMPARE(summary->item(0, 6)->text(), u"1"_s);
    QVERIFY(summary->item(1, 9)->text().contains(u"X-Api-Key"_s));
    auto *top = d.findChild<QTableWidget *>(u"topTable"_s);
    QCOMPARE(top->rowCount(), 1);
    QCOMPARE(top->item(0, 0)->text(), u"203.0.113.9"_s);
    QVERIFY(d.findChild<QLabel *>(u"replayStatus"_s)->text().contains(u"whole seconds"_s));
    QVERIFY(d.findChild<QPushButton *>(u"exportReplayButton"_s)->isEnabled());
    QVERIFY(d.grab().save(test::screenshotPath(u"replay-dialog-1280.png"_s)));
}

void TestReplayDialog::dragTheLimit()
{
    QTemporaryDir dir;
    ReplayDialog d;
    QVERIFY(
        replayIn(d, write(dir, u"a.log"_s, noisyLog(30)), write(dir, u"rules.json"_s, rulesJson)));
    // The rule's own limit first: 1 of 21 subjects, 7 of 32 requests a second.
    QCOMPARE(d.candidateLimit(), qint64(5));
    auto *shares = d.findChild<QLabel *>(u"sharesLabel"_s);
    QVERIFY2(shares->text().contains(u"(the rule's)"_s), qPrintable(shares->text()));
    const QString atRule = shares->text();
    // Dragging across the chart moves the limit, and the shares with it.
    auto *view = d.findChild<QChartView *>(u"peakChart"_s);
    QVERIFY(view != nullptr);
    QWidget *vp = view->viewport();
    const QRectF plot = view->chart()->plotArea();
    const QPoint left(int(plot.left() + 4), int(plot.center().y()));
    const QPoint right(int(plot.right() - 4), int(plot.center().y()));
    QTest::mousePress(vp, Qt::LeftButton, {}, left);
    const qint64 low = d.candidateLimit();
    QMouseEvent move(QEvent::MouseMove, QPointF(right), vp->mapToGlobal(QPointF(right)),
                     Qt::NoButton, Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(vp, &move);
    QTest::mouseRelease(vp, Qt::LeftButton, {}, right);
    const qint64 high = d.candidateLimit();
    QVERIFY2(low < 5 && high > 12, qPrintable(u"%1 %2"_s.arg(low).arg(high)));
    QVERIFY(shares->text() != atRule);
    QVERIFY2(shares->text().contains(u"0.0 % of subjects"_s), qPrintable(shares->text()));
    d.setCandidateLimit(5);
    QCOMPARE(shares->text(), atRule);
}

void TestReplayDialog::exports()
{
    QTemporaryDir dir;
    ReplayDialog d;
    d.resize(1100, 700);
    d.show();
    QString error;
    QVERIFY(!d.exportTo(dir.filePath(u"x.csv"_s), &error));
    QVERIFY(error.contains(u"first"_s));
    d.setLogs({write(dir, u"a.log"_s, noisyLog(10))});
    d.setRulesFile(write(dir, u"rules.json"_s, rulesJson));
    QSignalSpy done(&d, &ReplayDialog::replayFinished);
    d.start();
    QVERIFY(done.wait(20000));
    for (const QString &name : {u"r.csv"_s, u"r.png"_s, u"r.svg"_s}) {
        QVERIFY2(d.exportTo(dir.filePath(name), &error), qPrintable(error));
        QVERIFY(QFileInfo(dir.filePath(name)).size() > 100);
    }
    QFile csv(dir.filePath(u"r.csv"_s));
    QVERIFY(csv.open(QIODevice::ReadOnly));
    const QByteArray text = csv.readAll();
    QVERIFY(text.startsWith("set,rule,matched,"));
    QVERIFY(text.contains("rules,api,320,"));
    QVERIFY(text.contains("t_ms,set,rule,denied"));
    QVERIFY(!d.exportTo(dir.filePath(u"r.txt"_s), &error));
}

void TestReplayDialog::cancelAndErrors()
{
    QTemporaryDir dir;
    ReplayDialog d;
    d.show();
    d.setLogs({write(dir, u"a.log"_s, noisyLog(10))});
    d.setRulesFile(write(dir, u"bad.json"_s, R"({"version": 1, "rules": [{"id": "x"}]})"));
    d.start();
    QVERIFY(!d.running());
    auto *status = d.findChild<QLabel *>(u"replayStatus"_s);
    QVERIFY2(status->text().contains(u"bad.json"_s), qPrintable(status->text()));
    // A long log, cancelled at once: the run stops with what it read.
    d.setLogs({write(dir, u"long.log"_s, noisyLog(6000))});
    d.setRulesFile(write(dir, u"rules.json"_s, rulesJson));
    QSignalSpy done(&d, &ReplayDialog::replayFinished);
    d.start();
    QVERIFY(d.running());
    d.cancel();
    QVERIFY(done.wait(30000));
    QVERIFY(!d.running());
    QVERIFY(d.report().cancelled || d.report().lines == 6000 * 32);
    // A FIFO nobody writes: choosing it does not hang the window (the format is not guessed
    // from it), and Cancel stops the run that waits for its first bytes.
    const QString fifo = dir.filePath(u"fifo"_s);
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    d.setLogs({fifo});
    QVERIFY2(d.findChild<QLabel *>(u"detectedLabel"_s)->text().contains(u"not recognised"_s),
             qPrintable(d.findChild<QLabel *>(u"detectedLabel"_s)->text()));
    done.clear();
    d.start();
    QVERIFY(d.running());
    QVERIFY(!done.wait(300)); // waiting for a writer
    d.cancel();
    QVERIFY(done.wait(5000));
    QVERIFY(d.report().cancelled);
}

void TestReplayDialog::simulationPageOpensIt()
{
    test::PageHarness h;
    auto *page = new SimulationPage(h.controller());
    h.show(page);
    auto *button = page->findChild<QPushButton *>(u"replayLogButton"_s);
    QVERIFY(button != nullptr);
    button->click();
    auto *dialog = page->findChild<ReplayDialog *>(u"replayDialog"_s);
    QVERIFY(dialog != nullptr && dialog->isVisible());
    button->click();
    QCOMPARE(page->findChildren<ReplayDialog *>().size(), 1);

    // With no rule file chosen it replays the Rules page's rules, which the page passes on.
    QTemporaryDir dir;
    rules::Loaded loaded = rules::parseJson(rulesJson, {});
    QVERIFY(loaded.ok());
    page->setRules(loaded.set);
    auto *rulesEdit = dialog->findChild<QLineEdit *>(u"rulesEdit"_s);
    QVERIFY(rulesEdit->text().isEmpty());
    QVERIFY2(rulesEdit->placeholderText().contains(u"Rules page's 2 rule"_s),
             qPrintable(rulesEdit->placeholderText()));
    dialog->setLogs({write(dir, u"a.log"_s, noisyLog(10))});
    QSignalSpy done(dialog, &ReplayDialog::replayFinished);
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"replayButton"_s), Qt::LeftButton);
    QVERIFY(done.wait(20000));
    auto *summary = dialog->findChild<QTableWidget *>(u"summaryTable"_s);
    QCOMPARE(summary->rowCount(), 2);
    QCOMPARE(summary->item(0, 0)->text(), u"api"_s);
}

// Drag the limit on the chart, read who it would deny, click *Use this limit*: the rule in the
// Rules page's editor holds the limit, unsaved, and the rule file is untouched.
void TestReplayDialog::useThisLimit()
{
    test::useTestSettings();
    QTemporaryDir dir;
    const QString rulesPath = write(dir, u"rules.json"_s, rulesJson);
    MainWindow w;
    w.resize(1280, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.rulesPage()->importFile(rulesPath, nullptr));
    QVERIFY(!w.rulesPage()->hasUnsavedChanges());
    w.simulationPage()->openReplay();
    auto *dialog = w.simulationPage()->findChild<ReplayDialog *>(u"replayDialog"_s);
    QVERIFY(dialog != nullptr);
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    dialog->setLogs({write(dir, u"a.log"_s, noisyLog(30))});
    QSignalSpy done(dialog, &ReplayDialog::replayFinished);
    QTest::mouseClick(dialog->findChild<QPushButton *>(u"replayButton"_s), Qt::LeftButton);
    QVERIFY(done.wait(20000));
    auto *use = dialog->findChild<QPushButton *>(u"useLimitButton"_s);
    QVERIFY(!use->isEnabled()); // the rule's own limit: nothing to write
    // At the rule's 5 the noisy subject is denied 7 a second (and nobody else).
    auto *deny = dialog->findChild<QTableWidget *>(u"wouldDenyTable"_s);
    QCOMPARE(deny->rowCount(), 1);
    QCOMPARE(deny->item(0, 0)->text(), u"203.0.113.9"_s);
    QCOMPARE(deny->item(0, 3)->text(), QLocale().toString(30 * 7));

    // Drag the red line to 9 with the mouse: 3 a second denied.
    auto *view = dialog->findChild<QChartView *>(u"peakChart"_s);
    QWidget *vp = view->viewport();
    auto *curve = view->chart()->series().first();
    const QPoint at = view->chart()->mapToPosition(QPointF(9.5, 50), curve).toPoint();
    const QPoint from = view->chart()->mapToPosition(QPointF(2.5, 50), curve).toPoint();
    QTest::mousePress(vp, Qt::LeftButton, {}, from);
    QMouseEvent move(QEvent::MouseMove, QPointF(at), vp->mapToGlobal(QPointF(at)), Qt::NoButton,
                     Qt::LeftButton, Qt::NoModifier);
    QApplication::sendEvent(vp, &move);
    QTest::mouseRelease(vp, Qt::LeftButton, {}, at);
    QCOMPARE(dialog->candidateLimit(), qint64(9));
    QCOMPARE(deny->item(0, 3)->text(), QLocale().toString(30 * 3));
    QVERIFY(dialog->findChild<QLabel *>(u"wouldDenyNote"_s)->text().contains(u"9"_s));
    QVERIFY(dialog->findChild<QTabWidget *>(u"subjectTabs"_s)->tabText(0).contains(u"9"_s));

    QVERIFY(use->isEnabled());
    QTest::mouseClick(use, Qt::LeftButton);
    RulesPage *rules = w.rulesPage();
    QVERIFY(rules->hasUnsavedChanges());
    QCOMPARE(rules->rules().rules[0].id, u"api"_s);
    QCOMPARE(rules->rules().rules[0].limit, qint64(9));
    QCOMPARE(rules->findChild<QLineEdit *>(u"limitEdit"_s)->text(), u"9"_s);
    QCOMPARE(w.findChild<QStackedWidget *>(u"pages"_s)->currentWidget(), rules);
    QVERIFY2(dialog->findChild<QLabel *>(u"replayStatus"_s)->text().contains(u"9"_s),
             qPrintable(dialog->findChild<QLabel *>(u"replayStatus"_s)->text()));
    // Nothing written to the file.
    QFile file(rulesPath);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), rulesJson);
    // A bucket rule takes the limit as its burst.
    QString detail;
    QVERIFY(rules->useLimit(u"key"_s, 4, &detail));
    QCOMPARE(rules->rules().rules[1].burst, qint64(4));
    QVERIFY(!rules->useLimit(u"gone"_s, 4, &detail));
    QVERIFY(detail.contains(u"gone"_s));
    w.rulesPage()->setUnsavedChoiceHook(
        [](const QString &) { return RulesPage::UnsavedChoice::Discard; });
    w.close();
}

// A rule that matched lines and decided or denied nothing says why in its note, with the
// lines per reason: no subject on the line, disabled, shadow.
void TestReplayDialog::rulesThatDecideNothingSayWhy()
{
    QTemporaryDir dir;
    ReplayDialog d;
    QVERIFY(replayIn(d, write(dir, u"a.log"_s, noisyLog(10)),
                     write(dir, u"rules.json"_s, R"({"version": 1, "rules": [
  {"id": "who", "scope": "user", "algorithm": "fixed_window", "limit": 5, "window": "1s"},
  {"id": "off", "scope": "ip", "algorithm": "fixed_window", "limit": 5, "window": "1s", "enabled": false},
  {"id": "watch", "scope": "ip", "algorithm": "fixed_window", "limit": 500, "window": "1s", "shadow": true}
]})")));
    auto *summary = d.findChild<QTableWidget *>(u"summaryTable"_s);
    QCOMPARE(summary->rowCount(), 3);
    // The log's user is "-" on every line: none is decided.
    QVERIFY2(summary->item(0, 9)->text().contains(QLocale().toString(10 * 32)),
             qPrintable(summary->item(0, 9)->text()));
    QVERIFY(summary->item(0, 9)->text().contains(u"without a subject"_s));
    QVERIFY(summary->item(1, 9)->text().contains(u"disabled"_s));
    QVERIFY(summary->item(2, 9)->text().contains(u"shadow"_s));
    QVERIFY(summary->item(2, 9)->text().contains(u"denied none"_s));
    // The Use button says why it cannot write a rule file's limit.
    d.setCandidateLimit(3);
    QString why;
    QVERIFY(d.session()->limitTarget(&why).isEmpty());
    QVERIFY(why.contains(u"Rules page"_s));
}

// In English and Chinese, light and dark, at 1100x700, 1280x800 and 1920x1080, with a report
// and a dragged limit shown: no text cut without an ellipsis and a tooltip, the dialog's size
// kept. With $SLUICE_SHOTS_DIR set, each is saved there as replay-<lang>-<theme>-<w>x<h>.png.
void TestReplayDialog::fitsEverySize()
{
    const QString shots = qEnvironmentVariable("SLUICE_SHOTS_DIR");
    QTemporaryDir dir;
    const QString log = write(dir, u"a.log"_s, noisyLog(30));
    const QString rules = write(dir, u"rules.json"_s, rulesJson);
    QStringList cut;
    for (const QString &lang : {u"en"_s, u"zh_CN"_s}) {
        QVERIFY(test::useLanguage(lang));
        ReplayDialog d;
        QVERIFY(replayIn(d, log, rules));
        d.setCandidateLimit(9);
        for (const Theme::Choice theme : {Theme::Choice::Light, Theme::Choice::Dark}) {
            Theme::instance().apply(theme);
            for (const QSize size : {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)}) {
                d.resize(size);
                QTRY_COMPARE(d.size(), size);
                QTest::qWait(60);
                if (theme == Theme::Choice::Light && size.width() == 1100) {
                    for (const QString &c : test::cutTexts(&d)) {
                        cut << lang + u": "_s + c;
                    }
                }
                if (!shots.isEmpty()) {
                    const QString name =
                        u"%1/replay-%2-%3-%4x%5.png"_s.arg(shots, lang, Theme::name(theme))
                            .arg(size.width())
                            .arg(size.height());
                    QVERIFY(QDir().mkpath(shots) && test::saveSmallPng(d.grab().toImage(), name));
                }
            }
        }
        Theme::instance().apply(Theme::Choice::Light);
    }
    QVERIFY(test::useLanguage(u"en"_s));
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(u'\n')));
}

QTEST_MAIN(TestReplayDialog)
#include "tst_replaydialog.moc"
