#include "simulationpage.h"

#include "ui/common/filedialog.h"
#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include "replaydialog.h"
#include "replaysession.h"
#include "scenarioeditor.h"
#include "simulationcharts.h"
#include "simulationchartview.h"
#include "simulationmetricsmodel.h"
#include "simulationsession.h"

#include "ui/connection/connectioncontroller.h"

#include "core/common/duration.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

// The red of a field's problem, in the theme in use.
QColor alarm()
{
    return tone::color(Tone::Bad);
}

} // namespace

SimulationPage::SimulationPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_session(new SimulationSession(connection, this))
    , m_charts(new SimulationCharts(this))
    , m_metrics(new SimulationMetricsModel(this))
{
    setObjectName(u"simulationPage"_s);
    auto *root = PageHeader::pageLayout(this);
    buildHeader(root);
    auto *body = new QHBoxLayout;
    body->setSpacing(16);
    root->addLayout(body, 1);
    buildEditor(body);
    buildResults(body);
    connectSession();
    // Start from the classic comparison.
    loadPreset(u"boundary-burst"_s);
}

// The title, Run, Cancel, Export and Replay a log….
void SimulationPage::buildHeader(QVBoxLayout *root)
{
    auto *header =
        new PageHeader(tr("Simulation"),
                       tr("Every rule decides the same traffic on its own, on a virtual clock: see "
                          "where each one lets bursts through and where it smooths them."),
                       this);
    m_run = header->addButton(tr("Run"), u"runButton"_s);
    m_run->setDefault(true);
    m_cancel = header->addButton(tr("Cancel"), u"cancelButton"_s, {}, false);
    m_export = header->addButton(
        tr("Export…"), u"exportButton"_s,
        tr("Save the charts as PNG or SVG, or the time series as CSV (Ctrl+E)"), false);
    // Replay a log…: the user's own traffic through a rule file (ReplayDialog, one per page).
    QPushButton *replayLog = header->addButton(
        tr("Replay a log…"), u"replayLogButton"_s,
        tr("Run your access logs through a rule file: who would have been limited"));
    connect(replayLog, &QPushButton::clicked, this, &SimulationPage::openReplay);
    root->addWidget(header);
    root->addSpacing(8);
    connect(m_run, &QPushButton::clicked, this, &SimulationPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &SimulationPage::cancel);
    connect(m_export, &QPushButton::clicked, this, &SimulationPage::exportFigure);
    // Ctrl+R and Ctrl+E belong to the main window's actions (View > Run simulation, File >
    // Export), which call run() and exportFigure() when this page is shown: a second shortcut
    // here would make both ambiguous, and neither would fire.
}

// The scenario editor, scrolled, on the left.
void SimulationPage::buildEditor(QHBoxLayout *body)
{
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(u"scenarioEditor"_s);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    m_editor = new ScenarioEditor(m_session);
    scroll->setWidget(m_editor);
    m_editorArea = scroll;
    scroll->setFixedWidth(editorWidth(width()));
    body->addWidget(scroll);
    connect(m_editor, &ScenarioEditor::checked, this, [this](bool ok) {
        m_run->setEnabled(ok && !m_session->isRunning());
        m_run->setToolTip(ok ? tr("Run the scenario through every rule (Ctrl+R)")
                             : tr("Fix the problems marked in the scenario first"));
    });
}

// The status line and progress, the figure and the metrics table.
void SimulationPage::buildResults(QHBoxLayout *body)
{
    auto *right = new QVBoxLayout;
    right->setSpacing(6);
    body->addLayout(right, 1);
    auto *statusRow = new QHBoxLayout;
    m_status = PageHeader::note(this);
    m_status->setObjectName(u"statusLabel"_s);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(u"progressBar"_s);
    m_progress->setRange(0, 1000);
    m_progress->setMaximumWidth(220);
    m_progress->setTextVisible(false);
    m_progress->hide();
    statusRow->addWidget(m_status, 1);
    statusRow->addWidget(m_progress);
    right->addLayout(statusRow);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    m_chartView = new SimulationChartView(m_charts, split);
    m_chartView->setObjectName(u"chartView"_s);
    m_chartView->setMinimumHeight(240);
    m_table = SimulationMetricsModel::makeTable(m_metrics, split);
    split->addWidget(m_chartView);
    split->addWidget(m_table);
    PageHeader::shareSplit(split, 4, 1, {540, 176});
    right->addWidget(split, 1);
}

// The session's run and status; the figure and status line in the theme's colours, again on
// every switch (View > Theme).
void SimulationPage::connectSession()
{
    connect(m_session, &SimulationSession::messageChanged, this, &SimulationPage::showStatus);
    connect(m_session, &SimulationSession::started, this, [this] { setBusy(true); });
    connect(m_session, &SimulationSession::progressed, this, &SimulationPage::onProgress);
    connect(m_session, &SimulationSession::runFinished, this, &SimulationPage::onFinished);
    connect(m_session, &SimulationSession::runFailed, this, &SimulationPage::onFailed);
    const auto followTheme = [this] {
        m_charts->setDark(tone::isDark());
        showStatus();
    };
    followTheme();
    connect(&Theme::instance(), &Theme::changed, this, followTheme);
}

int SimulationPage::editorWidth(int pageWidth)
{
    // Narrower at the first-start size, so that the metrics' columns fit beside it.
    return pageWidth < 1040 ? 330 : 372;
}

void SimulationPage::resizeEvent(QResizeEvent *event)
{
    m_editorArea->setFixedWidth(editorWidth(width()));
    QWidget::resizeEvent(event);
}

SimulationPage::~SimulationPage()
{
    // The view draws m_charts, a QObject child deleted before the child widgets: the view goes
    // first.
    delete m_chartView;
    m_chartView = nullptr;
}

sim::scenario::Loaded SimulationPage::validateEditor()
{
    return m_editor->validate();
}

std::optional<sim::Scenario> SimulationPage::editedScenario()
{
    sim::scenario::Loaded loaded = validateEditor();
    if (!loaded.ok()) {
        return std::nullopt;
    }
    return loaded.scenario;
}

bool SimulationPage::loadPreset(const QString &name, QString *error)
{
    return m_editor->loadPreset(name, error);
}

bool SimulationPage::loadScenarioFile(const QString &path, QString *error)
{
    return m_editor->loadFile(path, error);
}

bool SimulationPage::saveScenarioFile(const QString &path, QString *error)
{
    validateEditor();
    return m_session->save(path, error);
}

void SimulationPage::openReplay()
{
    auto *dialog = findChild<ReplayDialog *>(u"replayDialog"_s);
    if (dialog == nullptr) {
        dialog = new ReplayDialog(this);
        connect(dialog->session(), &ReplaySession::useLimitRequested, this,
                &SimulationPage::useLimitRequested);
    }
    dialog->setPageRules(m_session->pageRules());
    dialog->show();
    dialog->raise();
}

void SimulationPage::limitUsed(bool written, const QString &detail)
{
    if (auto *dialog = findChild<ReplayDialog *>(u"replayDialog"_s)) {
        dialog->session()->limitUsed(written, detail);
    }
}

void SimulationPage::setRules(const sluice::RuleSet &set)
{
    m_session->setPageRules(set);
    if (auto *dialog = findChild<ReplayDialog *>(u"replayDialog"_s)) {
        dialog->setPageRules(set);
    }
    m_editor->offerPageRules(set);
}

bool SimulationPage::isRunning() const
{
    return m_session->isRunning();
}

const sim::SimResult &SimulationPage::lastResult() const
{
    return m_session->lastResult();
}

void SimulationPage::run()
{
    if (m_session->isRunning()) {
        return;
    }
    if (!editedScenario()) {
        m_session->setStatus(tr("Fix the problems marked in the scenario first."), true);
        return;
    }
    const bool started = m_session->run(m_editor->onRedis() ? SimulationSession::Engine::Redis
                                                            : SimulationSession::Engine::Local);
    m_editor->showEngineProblem(started ? QString() : m_session->engineProblem());
}

void SimulationPage::cancel()
{
    m_session->cancel();
}

void SimulationPage::setBusy(bool busy)
{
    m_run->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    m_export->setEnabled(!busy && !m_session->lastResult().rules.empty());
    m_progress->setVisible(busy);
    m_progress->setValue(0);
}

void SimulationPage::onProgress(qint64 done, qint64 total)
{
    m_progress->setValue(int(done * 1000 / total));
}

void SimulationPage::onFinished()
{
    m_charts->setResult(m_session->lastResult(), m_session->lastScenario());
    m_chartView->relayout();
    m_metrics->setResult(m_session->lastResult());
    setBusy(false);
    validateEditor();
    m_run->setEnabled(true);
    showStatus();
    Q_EMIT runFinished();
}

void SimulationPage::onFailed()
{
    setBusy(false);
    m_run->setEnabled(true);
    showStatus();
    Q_EMIT runFinished();
}

void SimulationPage::showStatus()
{
    const PageMessage m = m_session->message();
    m_status->setText(m.headline);
    QPalette pal = m_status->palette();
    const bool problem = m.tone == Tone::Bad || m.tone == Tone::Warning;
    pal.setColor(QPalette::WindowText, problem ? alarm() : tone::muted());
    m_status->setPalette(pal);
}

void SimulationPage::exportFigure()
{
    if (m_session->lastResult().rules.empty()) {
        m_session->setStatus(tr("Run a simulation first: there is nothing to export yet."), true);
        return;
    }
    askForFile(this, u"exportDialog"_s, tr("Export the simulation"), m_session->draft().baseDir,
               {tr("PNG image (*.png)"), tr("SVG drawing (*.svg)"), tr("CSV time series (*.csv)")},
               u"png"_s, [this](const QString &path, const QString &) {
                   QString error;
                   const bool done = exportTo(path, &error);
                   m_session->setStatus(done ? tr("Exported to %1").arg(path) : error, !done);
               });
}

bool SimulationPage::exportTo(const QString &path, QString *error)
{
    return m_session->exportTo(path, error);
}

} // namespace sluice::ui
