#include "simulationpage.h"

#include "ui/common/fieldform.h"
#include "ui/common/filedialog.h"
#include "ui/common/pageheader.h"
#include "ui/common/patternform.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include "replaydialog.h"
#include "replaysession.h"
#include "simulationcharts.h"
#include "simulationchartview.h"
#include "simulationmetricsmodel.h"
#include "simulationsession.h"

#include "ui/connection/connectioncontroller.h"
#include "ui/rules/rulefields.h"

#include "core/common/duration.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
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

    auto *body = new QHBoxLayout;
    body->setSpacing(16);
    root->addLayout(body, 1);

    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(u"scenarioEditor"_s);
    scroll->setWidgetResizable(true);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(buildEditor());
    m_editorArea = scroll;
    scroll->setFixedWidth(editorWidth(width()));
    body->addWidget(scroll);

    auto *right = new QVBoxLayout;
    right->setSpacing(6);
    body->addLayout(right, 1);
    auto *statusRow = new QHBoxLayout;
    m_status = PageHeader::note(this);
    m_status->setObjectName(u"statusLabel"_s);
    m_status->setText(m_session->status());
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
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setSizes({540, 176});
    right->addWidget(split, 1);

    connect(m_run, &QPushButton::clicked, this, &SimulationPage::run);
    connect(m_cancel, &QPushButton::clicked, this, &SimulationPage::cancel);
    connect(m_export, &QPushButton::clicked, this, &SimulationPage::exportFigure);
    // Ctrl+R and Ctrl+E belong to the main window's actions (View > Run simulation, File >
    // Export), which call run() and exportFigure() when this page is shown: a second shortcut
    // here would make both ambiguous, and neither would fire.

    connect(m_session, &SimulationSession::statusChanged, this, &SimulationPage::showStatus);
    connect(m_session, &SimulationSession::started, this, [this] { setBusy(true); });
    connect(m_session, &SimulationSession::progressed, this, &SimulationPage::onProgress);
    connect(m_session, &SimulationSession::runFinished, this, &SimulationPage::onFinished);
    connect(m_session, &SimulationSession::runFailed, this, &SimulationPage::onFailed);

    // The figure, the status line and the fields' problems in the theme's colours, again on
    // every switch (View > Theme).
    const auto followTheme = [this] {
        m_charts->setDark(tone::isDark());
        for (QLabel *l : {m_trafficError, m_rulesError, m_scopeError, m_engineError}) {
            QPalette pal = l->palette();
            pal.setColor(QPalette::WindowText, alarm());
            l->setPalette(pal);
        }
        showStatus();
    };
    followTheme();
    connect(&Theme::instance(), &Theme::changed, this, followTheme);

    // Start from the classic comparison.
    loadPreset(u"boundary-burst"_s);
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

QWidget *SimulationPage::buildEditor()
{
    auto *w = new QWidget;
    auto *box = PageHeader::layoutOn<QVBoxLayout>(w, 6, {0, 0, 8, 0});
    const auto section = [box, w](const QString &title) {
        box->addSpacing(6);
        box->addWidget(PageHeader::heading(title, 1.0, w));
    };
    // A list of items with Add and Remove under it, and its message.
    const auto list = [box, w](const QString &name, int height, const QString &addText,
                               QPushButton **add, QPushButton **remove, QLabel **error) {
        auto *l = new QListWidget(w);
        l->setObjectName(name + u"List"_s);
        l->setFixedHeight(height);
        l->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        l->setTextElideMode(Qt::ElideRight);
        box->addWidget(l);
        auto *buttons = new QHBoxLayout;
        *add = new QPushButton(addText, w);
        (*add)->setObjectName(u"add"_s + name.at(0).toUpper() + name.mid(1) + u"Button"_s);
        *remove = new QPushButton(tr("Remove"), w);
        (*remove)->setObjectName(u"remove"_s + name.at(0).toUpper() + name.mid(1) + u"Button"_s);
        buttons->addWidget(*add);
        buttons->addWidget(*remove);
        buttons->addStretch(1);
        box->addLayout(buttons);
        *error = PageHeader::note(w, alarm());
        (*error)->hide();
        return l;
    };

    // Presets first.
    box->addWidget(PageHeader::heading(tr("Preset"), 1.0, w));
    m_preset = new QComboBox(w);
    m_preset->setObjectName(u"presetCombo"_s);
    for (const QString &name : sim::scenario::presetNames()) {
        const auto loaded = sim::scenario::preset(name);
        m_preset->addItem(
            loaded.ok() && !loaded.scenario.name.isEmpty() ? loaded.scenario.name : name, name);
    }
    m_preset->setCurrentIndex(-1);
    m_preset->setPlaceholderText(tr("Choose a preset…"));
    box->addWidget(m_preset);
    auto *presetRow = new QHBoxLayout;
    auto *open = PageHeader::button(tr("Open…"), u"openButton"_s, w);
    auto *save = PageHeader::button(tr("Save…"), u"saveButton"_s, w);
    presetRow->addWidget(open);
    presetRow->addWidget(save);
    presetRow->addStretch(1);
    box->addLayout(presetRow);
    m_presetNote = PageHeader::note(w);
    m_presetNote->setObjectName(u"scenarioDescription"_s);
    box->addWidget(m_presetNote);
    connect(m_preset, &QComboBox::activated, this,
            [this](int index) { loadPreset(m_preset->itemData(index).toString()); });
    connect(open, &QPushButton::clicked, this, [this] {
        askForFile(this, u"openDialog"_s, tr("Open a scenario"), m_session->draft().baseDir,
                   {tr("Scenarios (*.json *.yaml *.yml)")}, QString(),
                   [this](const QString &path, const QString &) {
                       QString error;
                       if (!loadScenarioFile(path, &error)) {
                           m_session->setStatus(error, true);
                       }
                   });
    });
    connect(save, &QPushButton::clicked, this, [this] {
        askForFile(this, u"saveDialog"_s, tr("Save the scenario"), m_session->draft().baseDir,
                   {tr("JSON scenario (*.json)")}, u"json"_s,
                   [this](const QString &path, const QString &) {
                       QString error;
                       const bool saved = saveScenarioFile(path, &error);
                       m_session->setStatus(
                           saved ? tr("Saved the scenario to %1").arg(path) : error, !saved);
                   });
    });

    // The scenario's own fields.
    section(tr("Scenario"));
    m_topForm = new FieldForm(u"scenario."_s, w);
    m_topForm->addField(u"name"_s, tr("Name"), tr("e.g. my burst"));
    m_topForm->addField(u"duration"_s, tr("Duration"), tr("e.g. 30s, 5m"));
    m_topForm->addField(u"bin"_s, tr("Bin"), tr("one chart point per bin, e.g. 100ms"));
    m_topForm->addField(u"measure_window"_s, tr("Measure window"),
                        tr("span of \"max in window\", e.g. 10s"));
    m_topForm->addField(u"subjects"_s, tr("Subjects"), tr("clients 10.0.0.1, …; default 1"));
    m_topForm->addField(u"seed"_s, tr("Seed"), tr("same seed, same traffic; default 1"));
    box->addWidget(m_topForm);

    // Traffic patterns: a list and the selected one's fields.
    section(tr("Traffic patterns"));
    QPushButton *addPattern = nullptr;
    QPushButton *removePattern = nullptr;
    m_patternList =
        list(u"pattern"_s, 86, tr("Add pattern"), &addPattern, &removePattern, &m_trafficError);
    m_trafficError->setObjectName(u"trafficError"_s);
    box->addWidget(m_trafficError);
    m_patternForm = new PatternForm(u"traffic."_s, sim::TrafficPattern::kindNames(), w);
    m_patternForm->setNoteShown(false);
    box->addWidget(m_patternForm);

    // Rules: a list and the selected one's fields.
    section(tr("Rules"));
    QPushButton *addRule = nullptr;
    QPushButton *removeRule = nullptr;
    m_ruleList = list(u"rule"_s, 120, tr("Add rule"), &addRule, &removeRule, &m_rulesError);
    m_useRules =
        PageHeader::button(tr("Use the rules from the Rules page"), u"useRulesButton"_s, w);
    m_useRules->setEnabled(false);
    m_useRules->setToolTip(tr("No rules on the Rules page yet"));
    box->addWidget(m_useRules);
    m_rulesError->setObjectName(u"rulesError"_s);
    box->addWidget(m_rulesError);
    // The Rules page's words and widgets (RuleFields): one rule form, not two. The labels
    // without their colon, like the scenario's fields above.
    m_ruleForm = new FieldForm(u"rules."_s, w);
    const auto ruleLabel = [](const QString &key) {
        QString label = RuleFields::label(key);
        return label.endsWith(u':') || label.endsWith(u'\uff1a') ? label.chopped(1) : label;
    };
    const auto ruleField = [this, ruleLabel](const QString &key) {
        m_ruleForm->addField(key, ruleLabel(key), RuleFields::placeholder(key));
    };
    ruleField(u"id"_s);
    m_algorithm = RuleFields::algorithmCombo(w);
    m_algorithm->setObjectName(u"rules.algorithm"_s);
    m_ruleForm->addRow(ruleLabel(u"algorithm"_s), m_algorithm);
    auto *scopeCell = new QWidget(w);
    auto *scopeBox = PageHeader::layoutOn<QVBoxLayout>(scopeCell, 1);
    m_scope = RuleFields::scopeField(scopeCell);
    m_scope.kind->setObjectName(u"rules.scope"_s);
    m_scope.name->setObjectName(u"rules.scopeName"_s);
    m_scopeError = PageHeader::note(scopeCell, alarm());
    m_scopeError->setObjectName(u"rules.scopeError"_s);
    m_scopeError->hide();
    scopeBox->addWidget(m_scope.box);
    scopeBox->addWidget(m_scopeError);
    m_ruleForm->addRow(ruleLabel(u"scope"_s), scopeCell, m_scope.kind);
    for (const QString &key : {u"limit"_s, u"window"_s, u"rate"_s, u"burst"_s}) {
        ruleField(key);
    }
    box->addWidget(m_ruleForm);

    // The engine.
    section(tr("Engine"));
    m_engine = new QComboBox(w);
    m_engine->setObjectName(u"engineCombo"_s);
    m_engine->addItem(tr("In-process twins (fast, no Redis)"), u"local"_s);
    m_engine->addItem(tr("The real scripts on the connected Redis"), u"redis"_s);
    m_engine->setToolTip(tr("Both give identical decisions. On Redis the run writes under a "
                            "prefix of its own and removes its keys afterwards."));
    box->addWidget(m_engine);
    m_engineError = PageHeader::note(w, alarm());
    m_engineError->setObjectName(u"engineError"_s);
    m_engineError->hide();
    box->addWidget(m_engineError);
    box->addStretch(1);

    // Edits: recorded into the draft, the lists' texts refreshed, everything checked.
    connect(m_topForm, &FieldForm::edited, this, [this](const QString &key, const QString &text) {
        m_session->setTopField(key, text);
        validateEditor();
    });
    connect(m_patternForm, &PatternForm::changed, this, [this] {
        const int row = m_patternList->currentRow();
        if (!m_session->setPattern(row, m_patternForm->draft())) {
            return;
        }
        m_patternList->item(row)->setText(m_patternForm->draft().summary());
        validateEditor();
    });
    // After an edit of the selected rule went to the session: its summary, fields, check.
    const auto ruleEdited = [this](int row) {
        m_ruleList->item(row)->setText(m_session->draft().rules[size_t(row)].summary());
        showRule();
        validateEditor();
    };
    connect(m_ruleForm, &FieldForm::edited, this,
            [this, ruleEdited](const QString &key, const QString &text) {
                const int row = m_ruleList->currentRow();
                if (m_session->setRuleValue(row, key, text)) {
                    ruleEdited(row);
                }
            });
    connect(m_algorithm, &QComboBox::activated, this, [this, ruleEdited](int index) {
        const int row = m_ruleList->currentRow();
        if (m_session->setRuleKind(row, m_algorithm->itemData(index).toString())) {
            ruleEdited(row);
        }
    });
    const auto scopeEdited = [this, ruleEdited] {
        RuleFields::updateScopeName(m_scope);
        const int row = m_ruleList->currentRow();
        if (m_session->setRuleValue(row, u"scope"_s, RuleFields::scopeText(m_scope))) {
            ruleEdited(row);
        }
    };
    connect(m_scope.kind, &QComboBox::activated, this, scopeEdited);
    connect(m_scope.name, &QLineEdit::textEdited, this, scopeEdited);
    connect(m_patternList, &QListWidget::currentRowChanged, this, [this] { showPattern(); });
    connect(m_ruleList, &QListWidget::currentRowChanged, this, [this] { showRule(); });
    const auto changeList = [this](QListWidget *list, int current) {
        refreshLists();
        list->setCurrentRow(current);
        validateEditor();
    };
    connect(addPattern, &QPushButton::clicked, this,
            [this, changeList] { changeList(m_patternList, m_session->addPattern()); });
    connect(removePattern, &QPushButton::clicked, this, [this, changeList] {
        changeList(m_patternList, m_session->removePattern(m_patternList->currentRow()));
    });
    connect(addRule, &QPushButton::clicked, this,
            [this, changeList] { changeList(m_ruleList, m_session->addRule()); });
    connect(removeRule, &QPushButton::clicked, this, [this, changeList] {
        changeList(m_ruleList, m_session->removeRule(m_ruleList->currentRow()));
    });
    connect(m_useRules, &QPushButton::clicked, this, [this, changeList] {
        m_session->usePageRules();
        changeList(m_ruleList, m_session->draft().rules.empty() ? -1 : 0);
    });
    connect(m_engine, &QComboBox::activated, this, [this] {
        m_session->clearEngineProblem();
        m_engineError->hide();
    });
    return w;
}

void SimulationPage::showDraft()
{
    const ScenarioDraft &draft = m_session->draft();
    m_topForm->setValues(draft.top);
    const QString description = draft.top.value(u"description"_s);
    m_presetNote->setText(description);
    m_presetNote->setVisible(!description.isEmpty());
    refreshLists();
    m_patternList->setCurrentRow(draft.patterns.empty() ? -1 : 0);
    m_ruleList->setCurrentRow(draft.rules.empty() ? -1 : 0);
    validateEditor();
}

void SimulationPage::refreshLists()
{
    const ScenarioDraft &draft = m_session->draft();
    const QSignalBlocker b1(m_patternList);
    const QSignalBlocker b2(m_ruleList);
    m_patternList->clear();
    for (const PatternDraft &p : draft.patterns) {
        m_patternList->addItem(p.summary());
    }
    m_ruleList->clear();
    for (size_t i = 0; i < draft.rules.size(); ++i) {
        auto *item = new QListWidgetItem(draft.rules[i].summary(), m_ruleList);
        QPixmap swatch(10, 10);
        swatch.fill(SimulationCharts::ruleColor(int(i)));
        item->setIcon(QIcon(swatch));
    }
}

void SimulationPage::showPattern()
{
    const ScenarioDraft &draft = m_session->draft();
    const int row = m_patternList->currentRow();
    const bool has = row >= 0 && size_t(row) < draft.patterns.size();
    m_patternForm->setDraft(has ? std::optional(draft.patterns[size_t(row)]) : std::nullopt);
    m_patternForm->setErrors(has && size_t(row) < draft.patternErrors.size()
                                 ? draft.patternErrors[size_t(row)]
                                 : FieldErrors());
}

void SimulationPage::showRule()
{
    const ScenarioDraft &draft = m_session->draft();
    const int row = m_ruleList->currentRow();
    const bool has = row >= 0 && size_t(row) < draft.rules.size();
    const RuleDraft r = has ? draft.rules[size_t(row)] : RuleDraft();
    {
        const QSignalBlocker block(m_algorithm);
        m_algorithm->setEnabled(has);
        m_algorithm->setCurrentIndex(has ? m_algorithm->findData(r.kind) : -1);
    }
    {
        const QSignalBlocker block(m_scope.kind);
        const QSignalBlocker blockName(m_scope.name);
        if (RuleFields::scopeText(m_scope) != r.values.value(u"scope"_s)) {
            RuleFields::setScope(m_scope, r.values.value(u"scope"_s));
        }
        m_scope.kind->setEnabled(has);
        m_scope.name->setEnabled(has);
    }
    m_ruleForm->showOnly(has ? r.keys() : QStringList());
    m_ruleForm->setValues(r.values);
    const FieldErrors errors = has && size_t(row) < draft.ruleErrors.size()
                                   ? draft.ruleErrors[size_t(row)]
                                   : FieldErrors();
    m_ruleForm->setErrors(errors);
    m_scopeError->setText(errors.value(u"scope"_s));
    m_scopeError->setVisible(!errors.value(u"scope"_s).isEmpty());
}

sim::scenario::Loaded SimulationPage::validateEditor()
{
    sim::scenario::Loaded loaded = m_session->check();
    const ScenarioDraft &draft = m_session->draft();
    m_topForm->setErrors(draft.topErrors);
    m_trafficError->setText(draft.trafficProblems.join(u'\n'));
    m_trafficError->setVisible(!draft.trafficProblems.isEmpty());
    m_rulesError->setText(draft.ruleProblems.join(u'\n'));
    m_rulesError->setVisible(!draft.ruleProblems.isEmpty());
    // Items with a problem are marked in their list, so that one off screen is found.
    const auto mark = [](QListWidget *list, const std::vector<FieldErrors> &errs) {
        for (int i = 0; i < list->count(); ++i) {
            const bool bad = size_t(i) < errs.size() && !errs[size_t(i)].isEmpty();
            list->item(i)->setForeground(bad ? QBrush(alarm()) : QBrush());
            QStringList tips;
            if (bad) {
                for (auto e = errs[size_t(i)].cbegin(); e != errs[size_t(i)].cend(); ++e) {
                    tips << e.key() + u": "_s + e.value();
                }
            }
            // Elided in the list: the whole text in the tooltip.
            list->item(i)->setToolTip(bad ? tips.join(u'\n') : list->item(i)->text());
        }
    };
    mark(m_patternList, draft.patternErrors);
    mark(m_ruleList, draft.ruleErrors);
    showPattern();
    showRule();
    const bool ok = loaded.ok();
    m_run->setEnabled(ok && !m_session->isRunning());
    m_run->setToolTip(ok ? tr("Run the scenario through every rule (Ctrl+R)")
                         : tr("Fix the problems marked in the scenario first"));
    return loaded;
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
    if (!m_session->loadPreset(name, error)) {
        return false;
    }
    showDraft();
    m_preset->setCurrentIndex(m_preset->findData(name));
    return true;
}

bool SimulationPage::loadScenarioFile(const QString &path, QString *error)
{
    if (!m_session->loadFile(path, error)) {
        return false;
    }
    showDraft();
    m_preset->setCurrentIndex(-1);
    return true;
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
    m_useRules->setEnabled(!set.rules.empty());
    m_useRules->setToolTip(set.rules.empty()
                               ? tr("No rules on the Rules page yet")
                               : tr("Replace the scenario's rules with the %n rule(s) of the "
                                    "Rules page",
                                    nullptr, int(set.rules.size())));
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
    const bool onRedis = m_engine->currentData().toString() == u"redis"_s;
    const bool started = m_session->run(onRedis ? SimulationSession::Engine::Redis
                                                : SimulationSession::Engine::Local);
    m_engineError->setText(m_session->engineProblem());
    m_engineError->setVisible(!started && !m_session->engineProblem().isEmpty());
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
    m_status->setText(m_session->status());
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::WindowText, m_session->statusIsProblem() ? alarm() : tone::muted());
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
