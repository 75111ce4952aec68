// The Simulation page, driven offscreen as a user would: a preset loaded, run, charts and
// metrics filled, a long run cancelled, a bad field with its message beside it, exports to
// real files, a scenario saved and loaded; the runner on the fixture's Redis (identical
// results, no keys left after a cancel). Screenshots in <build>/tests/screenshots/.
#include "pageharness.h"
#include "testdata.h"
#include "testredis.h"

#include "ui/common/theme.h"
#include "ui/common/tone.h"
#include "ui/language.h"
#include "ui/sim/simulationcharts.h"
#include "ui/sim/simulationmetricsmodel.h"
#include "ui/sim/simulationpage.h"
#include "ui/sim/simulationrunner.h"
#include "ui/sim/simulationsession.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QChart>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QGraphicsTextItem>
#include <QGraphicsView>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QScopeGuard>
#include <QScrollBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <QXmlStreamReader>
#include <functional>

using namespace sluice;
using namespace sluice::ui;
using namespace Qt::StringLiterals;

namespace {

// Runs what the page has and waits for the end (the run is in a worker thread).
bool runAndWait(SimulationPage &page, int timeoutMs = 60'000)
{
    QSignalSpy done(&page, &SimulationPage::runFinished);
    auto *run = page.findChild<QPushButton *>(u"runButton"_s);
    if (!run || !run->isEnabled()) {
        return false;
    }
    QTest::mouseClick(run, Qt::LeftButton);
    return done.wait(timeoutMs);
}

qint64 simKeys()
{
    Connection c = test::connect();
    qint64 n = 0;
    QByteArray cursor = "0";
    do {
        auto r = c.command({"SCAN", cursor, "MATCH", "sluice:sim:*", "COUNT", "1000"});
        cursor = r->elements[0].str;
        n += qint64(r->elements[1].elements.size());
    } while (cursor != "0");
    return n;
}

// A scenario file of `requests` requests over 100 s at a constant rate, six rules.
QByteArray bigScenario(qint64 requests, const char *bin = "100ms")
{
    return QByteArray(R"({"name": "big", "duration": "100s", "bin": ")") + bin +
           R"(", "subjects": 1000,
        "traffic": [{"pattern": "constant", "rate": ")" +
           QByteArray::number(requests / 100) + R"(/s"},
                    {"pattern": "burst", "at": "50s", "count": 5000, "spread": "10ms"}],
        "rules": [
          {"id": "fw", "scope": "ip", "algorithm": "fixed_window", "limit": 10, "window": "10s"},
          {"id": "sl", "scope": "ip", "algorithm": "sliding_log", "limit": 10, "window": "10s"},
          {"id": "sc", "scope": "ip", "algorithm": "sliding_counter", "limit": 10, "window": "10s"},
          {"id": "tb", "scope": "ip", "algorithm": "token_bucket", "rate": "1/s", "burst": 5},
          {"id": "lb", "scope": "ip", "algorithm": "leaky_bucket", "rate": "1/s", "burst": 5},
          {"id": "gc", "scope": "global", "algorithm": "gcra", "rate": "1000/s", "burst": 100}]})";
}

// The mean lightness (0..255) of `image`, every fourth pixel: a figure on a dark background
// is well below 128 whatever it draws, one on white well above.
int meanLightness(const QImage &image)
{
    qint64 sum = 0;
    qint64 n = 0;
    for (int y = 0; y < image.height(); y += 4) {
        for (int x = 0; x < image.width(); x += 4) {
            sum += image.pixelColor(x, y).lightness();
            ++n;
        }
    }
    return n > 0 ? int(sum / n) : -1;
}

} // namespace

class TestSimulationPage : public QObject
{
    Q_OBJECT

    // The boundary burst run on the page in the console's frame at `size`, saved to `path`
    // (test::inEachLanguage's step).
    static void shootBoundaryBurst(QSize size, const QString &, const QString &path)
    {
        test::PageHarness frame;
        auto *page = new SimulationPage(nullptr);
        QVERIFY(frame.show(page, size, 3));
        QVERIFY(page->loadPreset(u"boundary-burst"_s));
        QVERIFY(runAndWait(*page));
        QTest::qWait(300);
        QVERIFY(frame.window()->grab().save(path));
    }

private Q_SLOTS:
    void downsampleKeepsPeaks()
    {
        std::vector<double> v(1'000'000, 1.0);
        v[123'457] = 900; // one bin's spike
        v[654'321] = 0;   // one bin's dip
        const QList<QPointF> points = SimulationCharts::downsample(v, 0, 1, 800);
        QVERIFY(points.size() <= 1600);
        double hi = 0;
        double lo = 1e9;
        for (qsizetype i = 0; i < points.size(); ++i) {
            hi = std::max(hi, points[i].y());
            lo = std::min(lo, points[i].y());
            if (i > 0) {
                QVERIFY(points[i].x() >= points[i - 1].x()); // time order
            }
        }
        QCOMPARE(hi, 900.0);
        QCOMPARE(lo, 0.0);
        // Few values: every one of them.
        QCOMPARE(SimulationCharts::downsample({1, 2, 3}, 0.5, 1, 800).size(), 3);
    }

    void boundaryBurst()
    {
        SimulationPage page(nullptr);
        QAbstractItemModelTester tester(page.metricsModel(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        QVERIFY(test::showWindow(page));
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        QCOMPARE(page.findChild<QListWidget *>(u"ruleList"_s)->count(), 6);
        QCOMPARE(page.findChild<QListWidget *>(u"patternList"_s)->count(), 3);
        QVERIFY(runAndWait(page));
        QVERIFY(!page.isRunning());

        // Metrics: one row per rule; the fixed window lets ~2N through in one window, the
        // sliding log never more than N (N = 100 per 10 s).
        SimulationMetricsModel *m = page.metricsModel();
        QCOMPARE(m->rowCount(), 6);
        const auto value = [m](int row, int column) {
            return m->data(m->index(row, column), Qt::UserRole).toLongLong();
        };
        QCOMPARE(m->data(m->index(0, 0)).toString(), u"fixed-window"_s);
        QCOMPARE(value(0, SimulationMetricsModel::OfferedColumn), 230);
        QVERIFY(value(0, SimulationMetricsModel::MaxInWindowColumn) >= 180);
        QVERIFY(value(0, SimulationMetricsModel::MaxInWindowColumn) <= 200);
        QVERIFY(value(1, SimulationMetricsModel::MaxInWindowColumn) <= 100);
        QVERIFY(m->headerData(SimulationMetricsModel::MaxInWindowColumn, Qt::Horizontal)
                    .toString()
                    .contains(u"10s"_s));

        // Charts: six rows sharing the time axis; 300 bins of 100 ms drawn point by point.
        SimulationCharts *c = page.charts();
        QCOMPARE(c->rowCount(), 6);
        QVERIFY(c->plotWidth() > 300);
        for (int row = 0; row < 6; ++row) {
            QCOMPARE(c->points(row, SimulationCharts::Role::Offered).size(), 300);
            QCOMPARE(c->points(row, SimulationCharts::Role::Admitted).size(), 300);
            QCOMPARE(c->points(row, SimulationCharts::Role::Cumulative).size(), 301);
            QCOMPARE(c->points(row, SimulationCharts::Role::Worst).size(), 2);
            // Released only for the leaky bucket.
            QCOMPARE(c->points(row, SimulationCharts::Role::Released).isEmpty(), row != 4);
            QVERIFY(c->chart(row)->isVisible());
        }
        // The 2N spike on the chart: the fixed window's cumulative admitted climbs by ~2N
        // across its shaded busiest window, the sliding log's by at most N.
        const auto climb = [c](int row) {
            const QList<QPointF> worst = c->points(row, SimulationCharts::Role::Worst);
            const QList<QPointF> cum = c->points(row, SimulationCharts::Role::Cumulative);
            const auto at = [&cum](double t) {
                double y = 0;
                for (const QPointF &p : cum) {
                    if (p.x() <= t + 1e-9) {
                        y = p.y();
                    }
                }
                return y;
            };
            return at(worst[1].x()) - at(worst[0].x());
        };
        QVERIFY2(climb(0) >= 180, qPrintable(QString::number(climb(0))));
        QVERIFY2(climb(1) <= 110, qPrintable(QString::number(climb(1))));
        // Peak per bin, as drawn: the burst's bins hold 100 offered requests.
        double offeredPeak = 0;
        for (const QPointF &p : c->points(0, SimulationCharts::Role::Offered)) {
            offeredPeak = std::max(offeredPeak, p.y());
        }
        QCOMPARE(offeredPeak, 101.0); // 100 of the burst and 1 of the trickle

        QVERIFY(page.grab().save(test::screenshotPath(u"simulation-boundary-burst.png"_s)));
    }

    // The scenario's rule form is the Rules page's: "fixed window" and a "per IP address"
    // scope combo, not fixed_window and ip as free text; a header scope's name beside it.
    void ruleFormSpeaksTheRulesPageWords()
    {
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page, {1100, 700}));
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        auto *rules = page.findChild<QListWidget *>(u"ruleList"_s);
        rules->setCurrentRow(0);
        auto *algorithm = page.findChild<QComboBox *>(u"rules.algorithm"_s);
        auto *scope = page.findChild<QComboBox *>(u"rules.scope"_s);
        auto *scopeName = page.findChild<QLineEdit *>(u"rules.scopeName"_s);
        QVERIFY(algorithm && scope && scopeName);
        QCOMPARE(algorithm->currentText(), u"fixed window"_s);
        QCOMPARE(algorithm->currentData().toString(), u"fixed_window"_s);
        QCOMPARE(scope->currentText(), u"per IP address"_s);
        QVERIFY(!scopeName->isVisible());
        QVERIFY(!page.findChild<QLineEdit *>(u"rules.scope"_s));
        QVERIFY2(rules->item(0)->text().contains(u"fixed window"_s) &&
                     rules->item(0)->text().contains(u"per IP address"_s),
                 qPrintable(rules->item(0)->text()));
        // The label of the Rules page's editor, without its colon.
        auto *limit = page.findChild<QLineEdit *>(u"rules.limit"_s);
        bool labelled = false;
        for (QLabel *l : page.findChildren<QLabel *>()) {
            labelled = labelled || (l->buddy() == limit && l->text() == u"&Limit"_s);
        }
        QVERIFY(labelled);

        // A header scope: its name beside the combo, into the scenario.
        scope->setCurrentIndex(scope->findData(u"header"_s));
        Q_EMIT scope->activated(scope->currentIndex());
        QVERIFY(scopeName->isVisible());
        scopeName->setFocus();
        QTest::keyClicks(scopeName, u"X-Api-Key"_s);
        const auto scenario = page.editedScenario();
        QVERIFY(scenario);
        QCOMPARE(scenario->rules.front().scope.toString(), u"header:X-Api-Key"_s);
        QVERIFY(rules->item(0)->text().contains(u"per header value X-Api-Key"_s));
        // An empty name: the reader's message beside the scope.
        scopeName->clear();
        Q_EMIT scopeName->textEdited(QString());
        QVERIFY(!page.editedScenario());
        auto *scopeError = page.findChild<QLabel *>(u"rules.scopeError"_s);
        QVERIFY(scopeError->isVisible());
        QVERIFY(!scopeError->text().isEmpty());
    }

    // At the first-start size the six rows keep a readable height (the view scrolls) and the
    // metrics table's headers are whole.
    void chartsKeepTheirHeight()
    {
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page, {1100 - 160, 700 - 60}));
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        QVERIFY(runAndWait(page));
        QTest::qWait(100);
        SimulationCharts *c = page.charts();
        QCOMPARE(c->rowCount(), 6);
        QVERIFY(c->size().height() >= 6 * SimulationCharts::minRowHeight);
        auto *view = page.findChild<QGraphicsView *>(u"chartView"_s);
        QVERIFY(view->verticalScrollBar()->maximum() > 0);
        auto *table = page.findChild<QTableView *>(u"metricsTable"_s);
        QHeaderView *h = table->horizontalHeader();
        for (int col = 0; col < h->count(); ++col) {
            if (!h->isSectionHidden(col)) {
                QVERIFY2(h->sectionSize(col) >= h->sectionSizeHint(col),
                         qPrintable(QString::number(col)));
            }
        }
        QVERIFY2(table->horizontalScrollBar()->maximum() == 0,
                 qPrintable(QString::number(table->horizontalScrollBar()->maximum())));
    }

    void steadyOverload()
    {
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page));
        QVERIFY(page.loadPreset(u"steady-overload"_s));
        QVERIFY(runAndWait(page));
        QCOMPARE(page.metricsModel()->rowCount(), 6);
        // The leaky bucket releases a flat 10/s: at most r t + 1 = 11 in any 1 s.
        QVERIFY(page.metricsModel()
                    ->data(page.metricsModel()->index(4, SimulationMetricsModel::MaxReleasedColumn),
                           Qt::UserRole)
                    .toLongLong() <= 11);
        QVERIFY(!page.charts()->points(4, SimulationCharts::Role::Released).isEmpty());
        QVERIFY(page.grab().save(test::screenshotPath(u"simulation-steady-overload.png"_s)));
    }

    // A million requests and more: the run can be cancelled and stops; what was decided is
    // shown.
    void cancelLongRun()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"big.json"_s);
        QVERIFY(test::writeFile(path, bigScenario(3'000'000)));
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page));
        QString error;
        QVERIFY2(page.loadScenarioFile(path, &error), qPrintable(error));
        QSignalSpy done(&page, &SimulationPage::runFinished);
        QTest::mouseClick(page.findChild<QPushButton *>(u"runButton"_s), Qt::LeftButton);
        QVERIFY(page.isRunning());
        auto *cancel = page.findChild<QPushButton *>(u"cancelButton"_s);
        QVERIFY(cancel->isEnabled());
        // Once deciding has begun (the status says how far), Cancel.
        QTRY_VERIFY_WITH_TIMEOUT(
            page.findChild<QLabel *>(u"statusLabel"_s)->text().startsWith(u"Deciding"_s), 60'000);
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(done.wait(60'000));
        QVERIFY(!page.isRunning());
        QVERIFY(page.lastResult().cancelled);
        QVERIFY(page.lastResult().processed < page.lastResult().total);
        QVERIFY(page.lastResult().total >= 3'000'000);
        QVERIFY(page.findChild<QLabel *>(u"statusLabel"_s)->text().startsWith(u"Cancelled"_s));
        QVERIFY(!cancel->isEnabled());
    }

    // A full run of a million requests in bins of 10 ms (10,000 bins): at most two points per
    // pixel, and the burst's peak still drawn.
    void millionDownsampled()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(u"million.json"_s);
        QVERIFY(test::writeFile(path, bigScenario(1'000'000, "10ms")));
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page));
        QString error;
        QVERIFY2(page.loadScenarioFile(path, &error), qPrintable(error));
        QVERIFY(runAndWait(page, 120'000));
        QVERIFY(!page.lastResult().cancelled);
        QCOMPARE(page.lastResult().processed, 1'005'000);
        SimulationCharts *c = page.charts();
        // 100 s in bins of 10 ms, and the leaky bucket's releases after the end.
        QVERIFY(page.lastResult().bins() >= 10'000);
        const QList<QPointF> offered = c->points(0, SimulationCharts::Role::Offered);
        QVERIFY2(offered.size() <= 2 * c->plotWidth(), qPrintable(QString::number(offered.size())));
        double peak = 0;
        for (const QPointF &p : offered) {
            peak = std::max(peak, p.y());
        }
        // 10,000/s = 100 per 10 ms bin, plus the burst of 5,000 in one bin.
        QCOMPARE(peak, 5100.0);
    }

    void badField()
    {
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page));
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        auto *duration = page.findChild<QLineEdit *>(u"scenario.duration"_s);
        auto *durationError = page.findChild<QLabel *>(u"scenario.durationError"_s);
        QVERIFY(duration && durationError);
        QVERIFY(durationError->isHidden());
        duration->selectAll();
        QTest::keyClicks(duration, u"0s"_s);
        QVERIFY(durationError->isVisible());
        QVERIFY2(durationError->text().contains(u"duration"_s), qPrintable(durationError->text()));
        auto *run = page.findChild<QPushButton *>(u"runButton"_s);
        QVERIFY(!run->isEnabled());
        page.run(); // Ctrl+R does the same: refused, with a word why
        QVERIFY(!page.isRunning());
        QVERIFY(page.findChild<QLabel *>(u"statusLabel"_s)->text().contains(u"Fix"_s));

        duration->selectAll();
        QTest::keyClicks(duration, u"30s"_s);
        QVERIFY(durationError->isHidden());
        QVERIFY(run->isEnabled());

        // A pattern's rate: the message beside the rate field, the pattern marked.
        auto *patterns = page.findChild<QListWidget *>(u"patternList"_s);
        patterns->setCurrentRow(0);
        auto *rate = page.findChild<QLineEdit *>(u"traffic.rate"_s);
        auto *rateError = page.findChild<QLabel *>(u"traffic.rateError"_s);
        QVERIFY(rate->isVisible());
        rate->selectAll();
        QTest::keyClicks(rate, u"-5/s"_s);
        QVERIFY(rateError->isVisible());
        QVERIFY2(!rateError->text().isEmpty(), "no message");
        QVERIFY(!patterns->item(0)->toolTip().isEmpty());
        // 10^12 requests in a burst: refused with the count named.
        patterns->setCurrentRow(1);
        auto *count = page.findChild<QLineEdit *>(u"traffic.count"_s);
        auto *countError = page.findChild<QLabel *>(u"traffic.countError"_s);
        count->selectAll();
        QTest::keyClicks(count, u"1000000000000"_s);
        QVERIFY(countError->isVisible());
        QVERIFY2(countError->text().contains(u"1000000000000"_s), qPrintable(countError->text()));
        // The burst's other fields are laid out below the message, not under or over it (Qt
        // 6.4's QFormLayout, with rows hidden, lost the Spread row here and wrote past its
        // buffers).
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        auto *spread = page.findChild<QLineEdit *>(u"traffic.spread"_s);
        QVERIFY(spread->isVisible());
        QCOMPARE(spread->text(), u"100ms"_s);
        const auto top = [&page](QWidget *w) { return w->mapTo(&page, QPoint(0, 0)).y(); };
        QVERIFY2(
            top(spread) >= top(countError) + countError->height(),
            qPrintable(
                u"%1 < %2 + %3"_s.arg(top(spread)).arg(top(countError)).arg(countError->height())));

        // A rule's limit.
        page.findChild<QListWidget *>(u"ruleList"_s)->setCurrentRow(0);
        auto *limit = page.findChild<QLineEdit *>(u"rules.limit"_s);
        auto *limitError = page.findChild<QLabel *>(u"rules.limitError"_s);
        limit->selectAll();
        QTest::keyClicks(limit, u"0"_s);
        QVERIFY(limitError->isVisible());
        QVERIFY(!page.saveScenarioFile(QDir::tempPath() + u"/never.json"_s, nullptr));
        // As a user would see it: after the layout requests of the messages just shown.
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        QVERIFY(page.grab().save(test::screenshotPath(u"simulation-bad-fields.png"_s)));

        // The Redis engine without a connection: said beside the engine.
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        auto *engine = page.findChild<QComboBox *>(u"engineCombo"_s);
        engine->setCurrentIndex(1);
        page.run();
        QVERIFY(!page.isRunning());
        QVERIFY(page.findChild<QLabel *>(u"engineError"_s)->isVisible());
    }

    void exports()
    {
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page));
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        QTemporaryDir dir;
        QString error;
        QVERIFY(!page.exportTo(dir.filePath(u"early.png"_s), &error)); // nothing run yet
        QVERIFY(error.contains(u"Run a simulation first"_s));
        QVERIFY(runAndWait(page));

        const QString png = dir.filePath(u"f.png"_s);
        QVERIFY2(page.exportTo(png, &error), qPrintable(error));
        const QImage image(png);
        QCOMPARE(image.size(), SimulationCharts::defaultSize(6));
        int inked = 0;
        for (int y = 0; y < image.height(); y += 3) {
            for (int x = 0; x < image.width(); x += 3) {
                inked += qGray(image.pixel(x, y)) < 240;
            }
        }
        QVERIFY2(inked > 2000, qPrintable(QString::number(inked)));

        const QString svg = dir.filePath(u"f.svg"_s);
        QVERIFY2(page.exportTo(svg, &error), qPrintable(error));
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        const QByteArray bytes = s.readAll();
        QXmlStreamReader xml(bytes);
        int paths = 0;
        while (!xml.atEnd()) {
            if (xml.readNext() == QXmlStreamReader::StartElement &&
                (xml.name() == u"path"_s || xml.name() == u"polyline"_s)) {
                ++paths;
            }
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY(paths >= 18);
        QVERIFY(bytes.contains("fixed-window"));

        const QString csv = dir.filePath(u"f.csv"_s);
        QVERIFY2(page.exportTo(csv, &error), qPrintable(error));
        QFile c(csv);
        QVERIFY(c.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = c.readAll().trimmed().split('\n');
        QCOMPARE(lines.front(), QByteArray("t_ms,rule,offered,admitted,rejected,released"));
        QCOMPARE(lines.size(), 1 + 300 * 6);

        QVERIFY(!page.exportTo(dir.filePath(u"f.gif"_s), &error));
        QVERIFY(error.contains(u".png, .svg or .csv"_s));

        // Through the dialog, as Ctrl+E opens it.
        page.exportFigure();
        auto *dialog = page.findChild<QFileDialog *>(u"exportDialog"_s);
        QVERIFY(dialog);
        const QString viaDialog = dir.filePath(u"dialog.svg"_s);
        dialog->selectFile(viaDialog);
        static_cast<QDialog *>(dialog)->accept(); // QFileDialog::accept() is protected
        QTRY_VERIFY(QFile::exists(viaDialog));
        // The view is laid out at its own size again after an export.
        QVERIFY(page.charts()->size().width() < 1200);
    }

    void saveAndLoad()
    {
        QTemporaryDir dir;
        SimulationPage page(nullptr);
        QVERIFY(page.loadPreset(u"steady-overload"_s));
        const auto before = page.editedScenario();
        QVERIFY(before);
        const QString path = dir.filePath(u"mine.json"_s);
        QString error;
        QVERIFY2(page.saveScenarioFile(path, &error), qPrintable(error));
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        QVERIFY2(page.loadScenarioFile(path, &error), qPrintable(error));
        const auto after = page.editedScenario();
        QVERIFY(after);
        QCOMPARE(after->rules, before->rules);
        QCOMPARE(after->traffic.size(), before->traffic.size());
        QCOMPARE(after->durationUs, before->durationUs);
        QCOMPARE(after->binUs, before->binUs);
        QCOMPARE(after->seed, before->seed);
        // A broken file: refused with where and what, the editor unchanged.
        const QString bad = dir.filePath(u"bad.json"_s);
        QVERIFY(test::writeFile(bad, R"({"duration": "0s", "traffic": [], "rules": []})"));
        QVERIFY(!page.loadScenarioFile(bad, &error));
        QVERIFY2(error.contains(u"bad.json"_s) && error.contains(u"duration"_s), qPrintable(error));
        QCOMPARE(page.editedScenario()->rules, before->rules);
    }

    void rulesFromRulesPage()
    {
        SimulationPage page(nullptr);
        auto *use = page.findChild<QPushButton *>(u"useRulesButton"_s);
        QVERIFY(!use->isEnabled());
        RuleSet set;
        Rule a;
        a.id = u"hello-per-ip"_s;
        a.scope = Scope{Scope::Kind::Ip, {}};
        a.algorithm = Algorithm::FixedWindow;
        a.limit = 3;
        a.windowUs = 5'000'000;
        Rule b;
        b.id = u"api-global"_s;
        b.algorithm = Algorithm::TokenBucket;
        b.rate = Rate{100, 1'000'000};
        b.burst = 200;
        set.rules = {a, b};
        page.setRules(set);
        QVERIFY(use->isEnabled());
        QTest::mouseClick(use, Qt::LeftButton);
        QCOMPARE(page.findChild<QListWidget *>(u"ruleList"_s)->count(), 2);
        const auto s = page.editedScenario();
        QVERIFY(s);
        QCOMPARE(s->rules.size(), size_t(2));
        QCOMPARE(s->rules[0].id, u"hello-per-ip"_s);
        QCOMPARE(s->rules[1].rate, (Rate{100, 1'000'000}));
    }

    // The sample whose rules adopt a Spring counter (and its GET-then-INCR variant): the page
    // keeps the adopt blocks through its editor, runs their twins beside the rules, and draws
    // a chart row and a metrics row for each, named <rule>@<layout>, the variant's header
    // saying when it lost its TTL; its admitted line is flat from then on once full.
    // Also from the Rules page: a rule with an adopt block brings its twin along.
    void adoptedCounter()
    {
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page, {1280, 800}));
        QString error;
        QVERIFY2(
            page.loadScenarioFile(
                QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/spring-counter.json"), &error),
            qPrintable(error));
        auto *rules = page.findChild<QListWidget *>(u"ruleList"_s);
        QCOMPARE(rules->count(), 2);
        QVERIFY2(rules->item(0)->text().endsWith(u" + adopted string_counter"_s),
                 qPrintable(rules->item(0)->text()));
        QVERIFY(runAndWait(page));
        SimulationMetricsModel *m = page.metricsModel();
        QCOMPARE(m->rowCount(), 4);
        QCOMPARE(m->data(m->index(2, 0)).toString(), u"hello@string_counter"_s);
        QCOMPARE(m->data(m->index(2, SimulationMetricsModel::AlgorithmColumn)).toString(),
                 u"adopted string_counter"_s);
        QVERIFY(m->data(m->index(2, SimulationMetricsModel::MaxInWindowColumn), Qt::UserRole)
                    .toLongLong() > 100);
        SimulationCharts *c = page.charts();
        QCOMPARE(c->rowCount(), 4);
        QVERIFY(!c->points(2, SimulationCharts::Role::Admitted).isEmpty());
        QVERIFY(c->chart(3)->isVisible());
        QVERIFY2(c->header(3)->toPlainText().contains(u"lost its TTL at 10s: never resets"_s),
                 qPrintable(c->header(3)->toPlainText()));
        QVERIFY(c->header(2)->toPlainText().contains(u"(limit 100: "_s));
        // The variant admits nothing in its last 30 s: its cumulative line is flat there.
        const QList<QPointF> cum = c->points(3, SimulationCharts::Role::Cumulative);
        QVERIFY(cum.size() > 300);
        QCOMPARE(cum.last().y(), cum[cum.size() / 2].y());
        QVERIFY(page.grab().save(test::screenshotPath(u"simulation-adopted.png"_s)));

        // From the Rules page.
        RuleSet set;
        Rule a = Rule::window(u"hello"_s, Algorithm::SlidingLog, 3, 5'000'000,
                              Scope{Scope::Kind::Ip, {}}, "rate_limit:");
        a.adopt = Adopt{"rate_limit:*-hello", u"string_counter"_s, 0, 0, u"get_then_incr"_s};
        set.rules = {a};
        page.setRules(set);
        QTest::mouseClick(page.findChild<QPushButton *>(u"useRulesButton"_s), Qt::LeftButton);
        const auto s = page.editedScenario();
        QVERIFY(s);
        QCOMPARE(s->rules.size(), size_t(1));
        QVERIFY(s->rules[0].adopt);
        QCOMPARE(s->rules[0].adopt->script, u"get_then_incr"_s);
        QCOMPARE(*s->rules[0].adopt, *a.adopt);
    }

    // The Simulation page with the adopted counters at 1280x800 and 1920x1080, in English and
    // Chinese (to look at: SLUICE_SHOTS_DIR=DIR).
    void adoptedScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        test::inEachLanguage(
            u"simulation-adopted"_s, {QSize(1280, 800), QSize(1920, 1080)},
            [](QSize size, const QString &, const QString &path) {
                SimulationPage page(nullptr);
                QVERIFY(test::showWindow(page, size));
                QString error;
                QVERIFY(page.loadScenarioFile(
                    QStringLiteral(SLUICE_SOURCE_DIR "/resources/samples/spring-counter.json"),
                    &error));
                QVERIFY(runAndWait(page));
                QTest::qWait(300);
                QVERIFY(page.grab().save(path));
            });
    }

    // The boundary burst at the three sizes, in both languages (SLUICE_SHOTS_DIR).
    void sizeScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        test::inEachLanguage(u"simulation"_s,
                             {QSize(1100, 700), QSize(1280, 800), QSize(1920, 1080)},
                             &shootBoundaryBurst);
    }

    // The Redis engine, as the page runs it: the same outcome as the twins, and a cancelled
    // run of millions of requests leaves no key behind.
    void runnerOnRedis()
    {
        const auto preset = sim::scenario::preset(u"boundary-burst"_s);
        QVERIFY(preset.ok());
        SimulationRunner runner;
        QSignalSpy finished(&runner, &SimulationRunner::finished);
        QSignalSpy failed(&runner, &SimulationRunner::failed);
        QVERIFY(runner.start(preset.scenario, std::nullopt));
        QVERIFY(finished.wait(60'000));
        const auto local = finished.takeFirst().at(0).value<sim::SimResult>();
        QVERIFY(runner.start(preset.scenario, test::redisEndpoint()));
        QVERIFY(!runner.start(preset.scenario, std::nullopt)); // one at a time
        QVERIFY(finished.wait(60'000));
        const auto redis = finished.takeFirst().at(0).value<sim::SimResult>();
        QCOMPARE(redis.backend, u"redis"_s);
        QVERIFY(redis.sameOutcome(local));
        QCOMPARE(simKeys(), 0);

        QTemporaryDir dir;
        const QString path = dir.filePath(u"big.json"_s);
        QVERIFY(test::writeFile(path, bigScenario(2'000'000)));
        const auto big = sim::scenario::loadFile(path);
        QVERIFY(big.ok());
        QVERIFY(runner.start(big.scenario, test::redisEndpoint()));
        QTRY_VERIFY_WITH_TIMEOUT(simKeys() > 100, 60'000);
        runner.cancel();
        QVERIFY(finished.wait(60'000));
        const auto cancelled = finished.takeFirst().at(0).value<sim::SimResult>();
        QVERIFY(cancelled.cancelled);
        QVERIFY(cancelled.processed < cancelled.total);
        QCOMPARE(simKeys(), 0);
        QVERIFY(failed.isEmpty());
    }
    // View > Theme: in the dark theme the figure is drawn on the page's dark surface with
    // light text, and back on white in the light one, live; what is exported (a figure for
    // documents) stays light whichever theme the console is in.
    void figureFollowsTheTheme()
    {
        const auto back = qScopeGuard([] { Theme::instance().apply(Theme::Choice::System); });
        Theme::instance().apply(Theme::Choice::Dark);
        QVERIFY(tone::isDark());
        SimulationPage page(nullptr);
        QVERIFY(test::showWindow(page));
        QVERIFY(page.loadPreset(u"boundary-burst"_s));
        QVERIFY(runAndWait(page));
        auto *view = page.findChild<QGraphicsView *>(u"chartView"_s);
        QVERIFY(view);
        SimulationCharts *c = page.charts();
        const auto shown = [view] {
            QTest::qWait(50);
            return meanLightness(view->viewport()->grab().toImage());
        };
        QCOMPARE(c->scene()->backgroundBrush().color(), tone::surface());
        QVERIFY2(shown() < 80, qPrintable(QString::number(shown())));
        QVERIFY(c->header(0)->defaultTextColor().lightness() > 160);
        QVERIFY(c->title()->defaultTextColor().lightness() > 160);

        // Exported in the dark theme: still on white.
        QTemporaryDir dir;
        QString error;
        const QString png = dir.filePath(u"dark.png"_s);
        QVERIFY2(page.exportTo(png, &error), qPrintable(error));
        const QImage exported(png);
        QCOMPARE(exported.pixelColor(0, 0), QColor(Qt::white));
        QVERIFY2(meanLightness(exported) > 200,
                 qPrintable(QString::number(meanLightness(exported))));
        SimulationCharts figure;
        figure.setResult(page.lastResult(), page.session()->lastScenario());
        const QImage image = figure.toImage(SimulationCharts::defaultSize(figure.rowCount()));
        QVERIFY(meanLightness(image) > 200);
        QVERIFY(figure.header(0)->defaultTextColor().lightness() < 100);
        const QString svg = dir.filePath(u"dark.svg"_s);
        QVERIFY2(page.exportTo(svg, &error), qPrintable(error));
        QFile s(svg);
        QVERIFY(s.open(QIODevice::ReadOnly));
        const QByteArray bytes = s.readAll();
        QVERIFY(bytes.contains("fill=\"#ffffff\""));
        QVERIFY(!bytes.contains(tone::surface().name().toLatin1()));

        // Back to light, live: the same figure on white with dark text again.
        Theme::instance().apply(Theme::Choice::Light);
        QCOMPARE(c->scene()->backgroundBrush().color(), QColor(Qt::white));
        QVERIFY2(shown() > 200, qPrintable(QString::number(shown())));
        QVERIFY(c->header(0)->defaultTextColor().lightness() < 100);
        QCOMPARE(c->rowCount(), 6);
        QCOMPARE(c->points(0, SimulationCharts::Role::Offered).size(), 300);
        // And dark once more, without a new run.
        Theme::instance().apply(Theme::Choice::Dark);
        QVERIFY2(shown() < 80, qPrintable(QString::number(shown())));
    }

    // The boundary burst in the dark theme at the two larger sizes, in both languages
    // (SLUICE_SHOTS_DIR).
    void darkScreenshots()
    {
        if (test::shotsDir().isEmpty()) {
            QSKIP("set SLUICE_SHOTS_DIR to save the screenshots");
        }
        const auto back = qScopeGuard([] { Theme::instance().apply(Theme::Choice::System); });
        Theme::instance().apply(Theme::Choice::Dark);
        test::inEachLanguage(u"simulation-dark"_s, {QSize(1280, 800), QSize(1920, 1080)},
                             &shootBoundaryBurst);
    }
};

QTEST_MAIN(TestSimulationPage)
#include "tst_simulationpage.moc"
