#include "simulationpage.h"

#include "common/pageheader.h"
#include "common/tone.h"

#include "simulationcharts.h"
#include "simulationchartview.h"
#include "simulationmetricsmodel.h"
#include "simulationrunner.h"

#include "connection/connectioncontroller.h"

#include "common/duration.h"
#include "sim/trafficpattern.h"

#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QIcon>
#include <QImage>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QLocale>
#include <QPixmap>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSaveFile>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

const QColor alarm = tone::color(Tone::Bad);
const QColor muted = tone::muted();

QString grouped(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

// FORMATS.md's spelling of a time, 0 included ("0s", not "0d").
QString timeText(qint64 us)
{
    return us == 0 ? u"0s"_s : duration::formatUs(us);
}

// The fields each pattern kind takes (FORMATS.md "Scenario file"), in the editor's order.
QStringList patternKeys(const QString &kind)
{
    if (kind == u"constant"_s || kind == u"poisson"_s) {
        return {u"rate"_s, u"from"_s, u"to"_s, u"subject"_s};
    }
    if (kind == u"burst"_s) {
        return {u"at"_s, u"count"_s, u"spread"_s, u"subject"_s};
    }
    if (kind == u"ramp"_s) {
        return {u"from_rate"_s, u"to_rate"_s, u"from"_s, u"to"_s, u"subject"_s};
    }
    if (kind == u"replay"_s) {
        return {u"file"_s, u"from"_s, u"to"_s};
    }
    return {};
}

QStringList ruleKeys(const QString &algorithmName)
{
    const auto a = algorithm::fromName(algorithmName);
    if (a && !algorithm::isWindow(*a)) {
        return {u"rate"_s, u"burst"_s};
    }
    return {u"limit"_s, u"window"_s};
}

// Fields written as JSON integers (when they read as one; otherwise as the text, which the
// scenario reader then names as wrong).
bool integerKey(const QString &key)
{
    return key == u"count"_s || key == u"seed"_s || key == u"subjects"_s || key == u"limit"_s ||
           key == u"burst"_s;
}

// The next free row of a form grid (QGridLayout::rowCount() is 1 when it is empty).
int nextRow(const QGridLayout *grid)
{
    return grid->count() == 0 ? 0 : grid->rowCount();
}

// A label beside its field, right-aligned, at the height of the field's first line.
void addLabelled(QGridLayout *grid, QLabel *label, QWidget *field, int firstLineHeight)
{
    const int row = nextRow(grid);
    label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    label->setMinimumHeight(firstLineHeight);
    grid->addWidget(label, row, 0, Qt::AlignRight | Qt::AlignTop);
    grid->addWidget(field, row, 1);
}

void put(QJsonObject &o, const QString &key, const QString &raw)
{
    const QString text = raw.trimmed();
    if (text.isEmpty()) {
        return;
    }
    if (integerKey(key)) {
        bool ok = false;
        const qint64 n = text.toLongLong(&ok);
        if (ok) {
            o.insert(key, n);
            return;
        }
    }
    o.insert(key, text);
}

} // namespace

SimulationPage::SimulationPage(ConnectionController *connection, QWidget *parent)
    : QWidget(parent)
    , m_connection(connection)
    , m_runner(new SimulationRunner(this))
    , m_charts(new SimulationCharts(this))
    , m_metrics(new SimulationMetricsModel(this))
{
    setObjectName(u"simulationPage"_s);
    auto *root = new QVBoxLayout(this);
    root->setContentsMargins(24, 20, 24, 20);
    root->setSpacing(6);

    auto *header =
        new PageHeader(tr("Simulation"),
                       tr("Every rule decides the same traffic on its own, on a virtual clock: see "
                          "where each one lets bursts through and where it smooths them."),
                       this);
    m_run = new QPushButton(tr("Run"), this);
    m_run->setObjectName(u"runButton"_s);
    m_run->setToolTip(tr("Run the scenario through every rule (Ctrl+R)"));
    m_run->setDefault(true);
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setObjectName(u"cancelButton"_s);
    m_cancel->setEnabled(false);
    m_export = new QPushButton(tr("Export…"), this);
    m_export->setObjectName(u"exportButton"_s);
    m_export->setToolTip(tr("Save the charts as PNG or SVG, or the time series as CSV (Ctrl+E)"));
    m_export->setEnabled(false);
    header->addAction(m_run);
    header->addAction(m_cancel);
    header->addAction(m_export);
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
    scroll->setFixedWidth(372);
    body->addWidget(scroll);

    auto *right = new QVBoxLayout;
    right->setSpacing(6);
    body->addLayout(right, 1);
    auto *statusRow = new QHBoxLayout;
    m_status = PageHeader::note(this);
    m_status->setObjectName(u"statusLabel"_s);
    m_status->setText(tr("Choose a preset or edit the scenario, then Run."));
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
    m_table = new QTableView(split);
    m_table->setObjectName(u"metricsTable"_s);
    m_table->setModel(m_metrics);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(22);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setAlternatingRowColors(true);
    m_table->setMinimumHeight(90);
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

    connect(m_runner, &SimulationRunner::progress, this, &SimulationPage::onProgress);
    connect(m_runner, &SimulationRunner::finished, this, &SimulationPage::onFinished);
    connect(m_runner, &SimulationRunner::failed, this, &SimulationPage::onFailed);

    // Start from the classic comparison.
    loadPreset(u"boundary-burst"_s);
}

SimulationPage::~SimulationPage()
{
    // The view draws m_charts, a QObject child deleted before the child widgets: the view goes
    // first.
    delete m_chartView;
    m_chartView = nullptr;
}

SimulationPage::Field SimulationPage::addField(QGridLayout *form, const QString &objectPrefix,
                                               const QString &key, const QString &label,
                                               const QString &hint)
{
    Field f;
    f.row = new QWidget(form->parentWidget());
    auto *box = new QVBoxLayout(f.row);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(1);
    f.edit = new QLineEdit(f.row);
    f.edit->setObjectName(objectPrefix + key);
    f.edit->setPlaceholderText(hint);
    box->addWidget(f.edit);
    f.error = PageHeader::note(f.row, alarm);
    f.error->setObjectName(objectPrefix + key + u"Error"_s);
    f.error->hide();
    box->addWidget(f.error);
    f.label = new QLabel(label, form->parentWidget());
    f.label->setBuddy(f.edit);
    addLabelled(form, f.label, f.row, f.edit->sizeHint().height());
    return f;
}

void SimulationPage::setFieldShown(const Field &f, bool shown)
{
    // A grid row whose widgets are all hidden takes no space and no spacing.
    f.label->setVisible(shown);
    f.row->setVisible(shown);
}

QWidget *SimulationPage::buildEditor()
{
    auto *w = new QWidget;
    auto *box = new QVBoxLayout(w);
    box->setContentsMargins(0, 0, 8, 0);
    box->setSpacing(6);
    // Label | field grids, placed in the editor where they are made (so that the fields made
    // next have their parent widget). Not QFormLayout: see m_patternForm.
    const auto newForm = [box] {
        auto *form = new QGridLayout;
        form->setHorizontalSpacing(10);
        form->setVerticalSpacing(4);
        form->setColumnStretch(1, 1);
        box->addLayout(form);
        return form;
    };

    // Presets first.
    box->addWidget(PageHeader::heading(tr("Preset"), 1.0, w));
    auto *presetRow = new QHBoxLayout;
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
    auto *open = new QPushButton(tr("Open…"), w);
    open->setObjectName(u"openButton"_s);
    auto *save = new QPushButton(tr("Save…"), w);
    save->setObjectName(u"saveButton"_s);
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
        auto *dialog = new QFileDialog(this, tr("Open a scenario"), m_baseDir,
                                       tr("Scenarios (*.json *.yaml *.yml)"));
        dialog->setObjectName(u"openDialog"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setFileMode(QFileDialog::ExistingFile);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
            QString error;
            if (!loadScenarioFile(path, &error)) {
                setStatus(error, true);
            }
        });
        dialog->open();
    });
    connect(save, &QPushButton::clicked, this, [this] {
        auto *dialog =
            new QFileDialog(this, tr("Save the scenario"), m_baseDir, tr("JSON scenario (*.json)"));
        dialog->setObjectName(u"saveDialog"_s);
        dialog->setAttribute(Qt::WA_DeleteOnClose);
        dialog->setAcceptMode(QFileDialog::AcceptSave);
        dialog->setDefaultSuffix(u"json"_s);
        connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
            QString error;
            if (saveScenarioFile(path, &error)) {
                setStatus(tr("Saved the scenario to %1").arg(path), false);
            } else {
                setStatus(error, true);
            }
        });
        dialog->open();
    });

    // The scenario's own fields.
    box->addSpacing(6);
    box->addWidget(PageHeader::heading(tr("Scenario"), 1.0, w));
    auto *topForm = newForm();
    const QString topPrefix = u"scenario."_s;
    m_topFields.insert(u"name"_s,
                       addField(topForm, topPrefix, u"name"_s, tr("Name"), tr("e.g. my burst")));
    m_topFields.insert(u"duration"_s, addField(topForm, topPrefix, u"duration"_s, tr("Duration"),
                                               tr("e.g. 30s, 5m")));
    m_topFields.insert(u"bin"_s, addField(topForm, topPrefix, u"bin"_s, tr("Bin"),
                                          tr("one chart point per bin, e.g. 100ms")));
    m_topFields.insert(u"measure_window"_s,
                       addField(topForm, topPrefix, u"measure_window"_s, tr("Measure window"),
                                tr("span of \"max in window\", e.g. 10s")));
    m_topFields.insert(u"subjects"_s, addField(topForm, topPrefix, u"subjects"_s, tr("Subjects"),
                                               tr("clients 10.0.0.1, …; default 1")));
    m_topFields.insert(u"seed"_s, addField(topForm, topPrefix, u"seed"_s, tr("Seed"),
                                           tr("same seed, same traffic; default 1")));

    // Traffic patterns: a list and the selected one's fields.
    box->addSpacing(6);
    box->addWidget(PageHeader::heading(tr("Traffic patterns"), 1.0, w));
    m_patternList = new QListWidget(w);
    m_patternList->setObjectName(u"patternList"_s);
    m_patternList->setFixedHeight(86);
    box->addWidget(m_patternList);
    auto *patternButtons = new QHBoxLayout;
    auto *addPattern = new QPushButton(tr("Add pattern"), w);
    addPattern->setObjectName(u"addPatternButton"_s);
    auto *removePattern = new QPushButton(tr("Remove"), w);
    removePattern->setObjectName(u"removePatternButton"_s);
    patternButtons->addWidget(addPattern);
    patternButtons->addWidget(removePattern);
    patternButtons->addStretch(1);
    box->addLayout(patternButtons);
    m_trafficError = PageHeader::note(w, alarm);
    m_trafficError->setObjectName(u"trafficError"_s);
    m_trafficError->hide();
    box->addWidget(m_trafficError);
    m_patternForm = newForm();
    m_patternKind = new QComboBox(w);
    m_patternKind->setObjectName(u"traffic.pattern"_s);
    for (const QString &k : sim::TrafficPattern::kindNames()) {
        m_patternKind->addItem(k, k);
    }
    addLabelled(m_patternForm, new QLabel(tr("Pattern"), w), m_patternKind,
                m_patternKind->sizeHint().height());
    const QString pPrefix = u"traffic."_s;
    m_patternFields.insert(u"rate"_s, addField(m_patternForm, pPrefix, u"rate"_s, tr("Rate"),
                                               tr("requests per time, e.g. 20/s")));
    m_patternFields.insert(u"from_rate"_s, addField(m_patternForm, pPrefix, u"from_rate"_s,
                                                    tr("From rate"), tr("e.g. 1/s")));
    m_patternFields.insert(u"to_rate"_s, addField(m_patternForm, pPrefix, u"to_rate"_s,
                                                  tr("To rate"), tr("e.g. 50/s")));
    m_patternFields.insert(u"at"_s,
                           addField(m_patternForm, pPrefix, u"at"_s, tr("At"), tr("e.g. 9.9s")));
    m_patternFields.insert(u"count"_s, addField(m_patternForm, pPrefix, u"count"_s, tr("Count"),
                                                tr("requests in the burst, e.g. 100")));
    m_patternFields.insert(u"spread"_s, addField(m_patternForm, pPrefix, u"spread"_s, tr("Spread"),
                                                 tr("e.g. 100ms; empty: at once")));
    m_patternFields.insert(
        u"from"_s, addField(m_patternForm, pPrefix, u"from"_s, tr("From"), tr("empty: the start")));
    m_patternFields.insert(
        u"to"_s, addField(m_patternForm, pPrefix, u"to"_s, tr("To"), tr("empty: the end")));
    m_patternFields.insert(u"subject"_s, addField(m_patternForm, pPrefix, u"subject"_s,
                                                  tr("Subject"), tr("empty: any of the subjects")));
    m_patternFields.insert(u"file"_s, addField(m_patternForm, pPrefix, u"file"_s, tr("File"),
                                               tr("CSV of t_ms,subject lines")));

    // Rules: a list and the selected one's fields.
    box->addSpacing(6);
    box->addWidget(PageHeader::heading(tr("Rules"), 1.0, w));
    m_ruleList = new QListWidget(w);
    m_ruleList->setObjectName(u"ruleList"_s);
    m_ruleList->setFixedHeight(120);
    box->addWidget(m_ruleList);
    auto *ruleButtons = new QHBoxLayout;
    auto *addRule = new QPushButton(tr("Add rule"), w);
    addRule->setObjectName(u"addRuleButton"_s);
    auto *removeRule = new QPushButton(tr("Remove"), w);
    removeRule->setObjectName(u"removeRuleButton"_s);
    ruleButtons->addWidget(addRule);
    ruleButtons->addWidget(removeRule);
    ruleButtons->addStretch(1);
    box->addLayout(ruleButtons);
    m_useRules = new QPushButton(tr("Use the rules from the Rules page"), w);
    m_useRules->setObjectName(u"useRulesButton"_s);
    m_useRules->setEnabled(false);
    m_useRules->setToolTip(tr("No rules on the Rules page yet"));
    box->addWidget(m_useRules);
    m_rulesError = PageHeader::note(w, alarm);
    m_rulesError->setObjectName(u"rulesError"_s);
    m_rulesError->hide();
    box->addWidget(m_rulesError);
    m_ruleForm = newForm();
    const QString rPrefix = u"rules."_s;
    m_ruleFields.insert(u"id"_s,
                        addField(m_ruleForm, rPrefix, u"id"_s, tr("Id"), tr("e.g. hello-per-ip")));
    m_algorithm = new QComboBox(w);
    m_algorithm->setObjectName(u"rules.algorithm"_s);
    for (const Algorithm a : algorithm::all) {
        m_algorithm->addItem(algorithm::name(a), algorithm::name(a));
    }
    addLabelled(m_ruleForm, new QLabel(tr("Algorithm"), w), m_algorithm,
                m_algorithm->sizeHint().height());
    {
        Field f = addField(m_ruleForm, rPrefix, u"scope"_s, tr("Scope"),
                           tr("global, ip, user, header:Name, param:name"));
        m_ruleFields.insert(u"scope"_s, f);
    }
    m_ruleFields.insert(u"limit"_s, addField(m_ruleForm, rPrefix, u"limit"_s, tr("Limit"),
                                             tr("requests per window, e.g. 100")));
    m_ruleFields.insert(u"window"_s,
                        addField(m_ruleForm, rPrefix, u"window"_s, tr("Window"), tr("e.g. 10s")));
    m_ruleFields.insert(u"rate"_s, addField(m_ruleForm, rPrefix, u"rate"_s, tr("Rate"),
                                            tr("refill or leak rate, e.g. 10/s")));
    m_ruleFields.insert(u"burst"_s, addField(m_ruleForm, rPrefix, u"burst"_s, tr("Burst"),
                                             tr("bucket capacity, e.g. 20")));

    // The engine.
    box->addSpacing(6);
    box->addWidget(PageHeader::heading(tr("Engine"), 1.0, w));
    m_engine = new QComboBox(w);
    m_engine->setObjectName(u"engineCombo"_s);
    m_engine->addItem(tr("In-process twins (fast, no Redis)"), u"local"_s);
    m_engine->addItem(tr("The real scripts on the connected Redis"), u"redis"_s);
    m_engine->setToolTip(tr("Both give identical decisions. On Redis the run writes under a "
                            "prefix of its own and removes its keys afterwards."));
    box->addWidget(m_engine);
    m_engineError = PageHeader::note(w, alarm);
    m_engineError->setObjectName(u"engineError"_s);
    m_engineError->hide();
    box->addWidget(m_engineError);
    box->addStretch(1);

    // Edits: recorded into the data, the lists' texts refreshed, everything checked.
    for (auto it = m_topFields.cbegin(); it != m_topFields.cend(); ++it) {
        const QString key = it.key();
        connect(it->edit, &QLineEdit::textEdited, this, [this, key](const QString &text) {
            m_top.insert(key, text);
            validateEditor();
        });
    }
    for (auto it = m_patternFields.cbegin(); it != m_patternFields.cend(); ++it) {
        const QString key = it.key();
        connect(it->edit, &QLineEdit::textEdited, this, [this, key](const QString &text) {
            const int row = m_patternList->currentRow();
            if (row < 0 || size_t(row) >= m_patterns.size()) {
                return;
            }
            m_patterns[size_t(row)].values.insert(key, text);
            m_patternList->item(row)->setText(patternText(m_patterns[size_t(row)]));
            validateEditor();
        });
    }
    for (auto it = m_ruleFields.cbegin(); it != m_ruleFields.cend(); ++it) {
        const QString key = it.key();
        connect(it->edit, &QLineEdit::textEdited, this, [this, key](const QString &text) {
            const int row = m_ruleList->currentRow();
            if (row < 0 || size_t(row) >= m_rules.size()) {
                return;
            }
            m_rules[size_t(row)].values.insert(key, text);
            m_ruleList->item(row)->setText(ruleText(m_rules[size_t(row)]));
            validateEditor();
        });
    }
    connect(m_patternKind, &QComboBox::activated, this, [this](int index) {
        const int row = m_patternList->currentRow();
        if (m_filling || row < 0 || size_t(row) >= m_patterns.size()) {
            return;
        }
        m_patterns[size_t(row)].kind = m_patternKind->itemData(index).toString();
        m_patternList->item(row)->setText(patternText(m_patterns[size_t(row)]));
        showPattern();
        validateEditor();
    });
    connect(m_algorithm, &QComboBox::activated, this, [this](int index) {
        const int row = m_ruleList->currentRow();
        if (m_filling || row < 0 || size_t(row) >= m_rules.size()) {
            return;
        }
        m_rules[size_t(row)].kind = m_algorithm->itemData(index).toString();
        m_ruleList->item(row)->setText(ruleText(m_rules[size_t(row)]));
        showRule();
        validateEditor();
    });
    connect(m_patternList, &QListWidget::currentRowChanged, this, [this] { showPattern(); });
    connect(m_ruleList, &QListWidget::currentRowChanged, this, [this] { showRule(); });
    connect(addPattern, &QPushButton::clicked, this, [this] {
        Item p;
        p.kind = u"constant"_s;
        p.values.insert(u"rate"_s, u"10/s"_s);
        m_patterns.push_back(p);
        refreshLists();
        m_patternList->setCurrentRow(int(m_patterns.size()) - 1);
        validateEditor();
    });
    connect(removePattern, &QPushButton::clicked, this, [this] {
        const int row = m_patternList->currentRow();
        if (row >= 0 && size_t(row) < m_patterns.size()) {
            m_patterns.erase(m_patterns.begin() + row);
            refreshLists();
            m_patternList->setCurrentRow(std::min(row, int(m_patterns.size()) - 1));
            validateEditor();
        }
    });
    connect(addRule, &QPushButton::clicked, this, [this] {
        Item r;
        r.kind = u"fixed_window"_s;
        r.values.insert(u"id"_s, u"rule-%1"_s.arg(m_rules.size() + 1));
        r.values.insert(u"scope"_s, u"ip"_s);
        r.values.insert(u"limit"_s, u"10"_s);
        r.values.insert(u"window"_s, u"1s"_s);
        m_rules.push_back(r);
        refreshLists();
        m_ruleList->setCurrentRow(int(m_rules.size()) - 1);
        validateEditor();
    });
    connect(removeRule, &QPushButton::clicked, this, [this] {
        const int row = m_ruleList->currentRow();
        if (row >= 0 && size_t(row) < m_rules.size()) {
            m_rules.erase(m_rules.begin() + row);
            refreshLists();
            m_ruleList->setCurrentRow(std::min(row, int(m_rules.size()) - 1));
            validateEditor();
        }
    });
    connect(m_useRules, &QPushButton::clicked, this, [this] {
        m_rules.clear();
        for (const Rule &rule : m_pageRules.rules) {
            Item r;
            r.kind = algorithm::name(rule.algorithm);
            r.values.insert(u"id"_s, rule.id);
            r.values.insert(u"scope"_s, rule.scope.toString());
            if (algorithm::isWindow(rule.algorithm)) {
                r.values.insert(u"limit"_s, QString::number(rule.limit));
                r.values.insert(u"window"_s, timeText(rule.windowUs));
            } else {
                r.values.insert(u"rate"_s, duration::formatRate(rule.rate));
                r.values.insert(u"burst"_s, QString::number(rule.burst));
            }
            m_rules.push_back(r);
        }
        refreshLists();
        m_ruleList->setCurrentRow(m_rules.empty() ? -1 : 0);
        validateEditor();
        setStatus(
            tr("Using the %n rule(s) of the Rules page.", nullptr, int(m_pageRules.rules.size())),
            false);
    });
    connect(m_engine, &QComboBox::activated, this, [this] { m_engineError->hide(); });
    return w;
}

void SimulationPage::showScenario(const sim::Scenario &s, const QString &baseDir)
{
    m_baseDir = baseDir;
    m_top.clear();
    m_top.insert(u"name"_s, s.name);
    m_top.insert(u"description"_s, s.description);
    m_top.insert(u"duration"_s, timeText(s.durationUs));
    m_top.insert(u"bin"_s, timeText(s.binUs));
    m_top.insert(u"measure_window"_s, timeText(s.measureWindowUs));
    m_top.insert(u"subjects"_s, QString::number(s.subjects));
    m_top.insert(u"seed"_s, QString::number(s.seed));
    m_patterns.clear();
    for (const sim::TrafficPattern &p : s.traffic) {
        Item item;
        item.kind = sim::TrafficPattern::kindName(p.kind);
        using K = sim::TrafficPattern::Kind;
        auto &v = item.values;
        switch (p.kind) {
        case K::Constant:
        case K::Poisson:
            v.insert(u"rate"_s, duration::formatRate(p.rate));
            break;
        case K::Burst:
            v.insert(u"at"_s, timeText(p.atUs));
            v.insert(u"count"_s, QString::number(p.count));
            if (p.spreadUs > 0) {
                v.insert(u"spread"_s, timeText(p.spreadUs));
            }
            break;
        case K::Ramp:
            v.insert(u"from_rate"_s, duration::formatRate(p.fromRate));
            v.insert(u"to_rate"_s, duration::formatRate(p.toRate));
            break;
        case K::Replay:
            v.insert(u"file"_s, p.file);
            break;
        }
        if (p.kind != K::Burst) {
            if (p.fromUs > 0) {
                v.insert(u"from"_s, timeText(p.fromUs));
            }
            if (p.toUs) {
                v.insert(u"to"_s, timeText(*p.toUs));
            }
        }
        if (!p.subject.isEmpty() && p.kind != K::Replay) {
            v.insert(u"subject"_s, QString::fromUtf8(p.subject));
        }
        m_patterns.push_back(item);
    }
    m_rules.clear();
    for (const Rule &rule : s.rules) {
        Item r;
        r.kind = algorithm::name(rule.algorithm);
        r.values.insert(u"id"_s, rule.id);
        r.values.insert(u"scope"_s, rule.scope.toString());
        if (!rule.description.isEmpty()) {
            r.values.insert(u"description"_s, rule.description);
        }
        if (!rule.route.isEmpty()) {
            r.values.insert(u"route"_s, rule.route);
        }
        if (algorithm::isWindow(rule.algorithm)) {
            r.values.insert(u"limit"_s, QString::number(rule.limit));
            r.values.insert(u"window"_s, timeText(rule.windowUs));
        } else {
            r.values.insert(u"rate"_s, duration::formatRate(rule.rate));
            r.values.insert(u"burst"_s, QString::number(rule.burst));
        }
        m_rules.push_back(r);
    }
    m_filling = true;
    for (auto it = m_topFields.cbegin(); it != m_topFields.cend(); ++it) {
        it->edit->setText(m_top.value(it.key()));
    }
    m_filling = false;
    m_presetNote->setText(s.description);
    m_presetNote->setVisible(!s.description.isEmpty());
    refreshLists();
    m_patternList->setCurrentRow(m_patterns.empty() ? -1 : 0);
    m_ruleList->setCurrentRow(m_rules.empty() ? -1 : 0);
    showPattern();
    showRule();
    validateEditor();
}

QString SimulationPage::patternText(const Item &p) const
{
    const auto v = [&p](const char *key) { return p.values.value(QString::fromLatin1(key)); };
    QString text;
    if (p.kind == u"constant"_s || p.kind == u"poisson"_s) {
        text = tr("%1 %2").arg(p.kind, v("rate"));
    } else if (p.kind == u"burst"_s) {
        text = tr("burst of %1 at %2").arg(v("count"), v("at"));
        if (!v("spread").isEmpty()) {
            text += tr(" over %1").arg(v("spread"));
        }
    } else if (p.kind == u"ramp"_s) {
        text = tr("ramp %1 → %2").arg(v("from_rate"), v("to_rate"));
    } else {
        text = tr("replay %1").arg(v("file"));
    }
    if (p.kind != u"burst"_s && (!v("from").isEmpty() || !v("to").isEmpty())) {
        text += tr(", %1 to %2")
                    .arg(v("from").isEmpty() ? tr("start") : v("from"),
                         v("to").isEmpty() ? tr("end") : v("to"));
    }
    return text;
}

QString SimulationPage::ruleText(const Item &r) const
{
    const QString id = r.values.value(u"id"_s);
    const auto a = algorithm::fromName(r.kind);
    const QString params =
        a && !algorithm::isWindow(*a)
            ? tr("%1, burst %2").arg(r.values.value(u"rate"_s), r.values.value(u"burst"_s))
            : tr("%1 per %2").arg(r.values.value(u"limit"_s), r.values.value(u"window"_s));
    return tr("%1 · %2 %3, %4").arg(id, r.kind, params, r.values.value(u"scope"_s));
}

void SimulationPage::refreshLists()
{
    const QSignalBlocker b1(m_patternList);
    const QSignalBlocker b2(m_ruleList);
    m_patternList->clear();
    for (size_t i = 0; i < m_patterns.size(); ++i) {
        m_patternList->addItem(patternText(m_patterns[i]));
    }
    m_ruleList->clear();
    for (size_t i = 0; i < m_rules.size(); ++i) {
        auto *item = new QListWidgetItem(ruleText(m_rules[i]), m_ruleList);
        QPixmap swatch(10, 10);
        swatch.fill(SimulationCharts::ruleColor(int(i)));
        item->setIcon(QIcon(swatch));
    }
}

void SimulationPage::showPattern()
{
    const int row = m_patternList->currentRow();
    const bool has = row >= 0 && size_t(row) < m_patterns.size();
    const Item empty;
    const Item &p = has ? m_patterns[size_t(row)] : empty;
    const QStringList keys = patternKeys(p.kind);
    m_filling = true;
    m_patternKind->setEnabled(has);
    m_patternKind->setCurrentIndex(has ? m_patternKind->findData(p.kind) : -1);
    m_filling = false;
    for (auto it = m_patternFields.cbegin(); it != m_patternFields.cend(); ++it) {
        const bool shown = has && keys.contains(it.key());
        setFieldShown(*it, shown);
        it->edit->setText(p.values.value(it.key()));
        const QString error = has && size_t(row) < m_patternErrors.size()
                                  ? m_patternErrors[size_t(row)].value(it.key())
                                  : QString();
        it->error->setText(error);
        it->error->setVisible(shown && !error.isEmpty());
    }
}

void SimulationPage::showRule()
{
    const int row = m_ruleList->currentRow();
    const bool has = row >= 0 && size_t(row) < m_rules.size();
    const Item empty;
    const Item &r = has ? m_rules[size_t(row)] : empty;
    QStringList keys = ruleKeys(r.kind);
    keys << u"id"_s << u"scope"_s;
    m_filling = true;
    m_algorithm->setEnabled(has);
    m_algorithm->setCurrentIndex(has ? m_algorithm->findData(r.kind) : -1);
    m_filling = false;
    for (auto it = m_ruleFields.cbegin(); it != m_ruleFields.cend(); ++it) {
        const bool shown = has && keys.contains(it.key());
        setFieldShown(*it, shown);
        it->edit->setText(r.values.value(it.key()));
        const QString error = has && size_t(row) < m_ruleErrors.size()
                                  ? m_ruleErrors[size_t(row)].value(it.key())
                                  : QString();
        it->error->setText(error);
        it->error->setVisible(shown && !error.isEmpty());
    }
}

QByteArray SimulationPage::documentJson() const
{
    QJsonObject root;
    for (const QString &key : {u"name"_s, u"description"_s, u"duration"_s, u"seed"_s, u"bin"_s,
                               u"measure_window"_s, u"subjects"_s}) {
        put(root, key, m_top.value(key));
    }
    QJsonArray traffic;
    for (const Item &p : m_patterns) {
        QJsonObject o;
        o.insert(u"pattern"_s, p.kind);
        for (const QString &key : patternKeys(p.kind)) {
            put(o, key, p.values.value(key));
        }
        traffic.append(o);
    }
    root.insert(u"traffic"_s, traffic);
    QJsonArray rules;
    for (const Item &r : m_rules) {
        QJsonObject o;
        put(o, u"id"_s, r.values.value(u"id"_s));
        put(o, u"description"_s, r.values.value(u"description"_s));
        put(o, u"route"_s, r.values.value(u"route"_s));
        put(o, u"scope"_s, r.values.value(u"scope"_s));
        o.insert(u"algorithm"_s, r.kind);
        for (const QString &key : ruleKeys(r.kind)) {
            put(o, key, r.values.value(key));
        }
        rules.append(o);
    }
    root.insert(u"rules"_s, rules);
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}

sim::scenario::Loaded SimulationPage::validateEditor()
{
    sim::scenario::Loaded loaded = sim::scenario::parseJson(documentJson(), QString(), m_baseDir);
    showErrors(loaded.errors);
    return loaded;
}

void SimulationPage::showErrors(const QList<Diagnostic> &errors)
{
    m_topErrors.clear();
    m_patternErrors.assign(m_patterns.size(), {});
    m_ruleErrors.assign(m_rules.size(), {});
    QStringList traffic;
    QStringList rules;
    QStringList other;
    static const QRegularExpression itemPath(
        QStringLiteral("^(traffic|rules)\\[(\\d+)\\](?:\\.([A-Za-z_]+))?"));
    for (const Diagnostic &d : errors) {
        const auto m = itemPath.match(d.path);
        if (m.hasMatch()) {
            const bool isTraffic = m.captured(1) == u"traffic"_s;
            const size_t index = size_t(m.captured(2).toLongLong());
            const QString field = m.captured(3);
            auto &list = isTraffic ? m_patternErrors : m_ruleErrors;
            bool known = false;
            if (isTraffic && index < m_patterns.size()) {
                known = patternKeys(m_patterns[index].kind).contains(field);
            } else if (!isTraffic && index < m_rules.size()) {
                known = field == u"id"_s || field == u"scope"_s ||
                        ruleKeys(m_rules[index].kind).contains(field);
            }
            if (index < list.size() && known) {
                QString &slot = list[index][field];
                slot = slot.isEmpty() ? d.message : slot + u'\n' + d.message;
            } else {
                (isTraffic ? traffic : rules)
                    << (isTraffic ? tr("Pattern %1: %2") : tr("Rule %1: %2"))
                           .arg(index + 1)
                           .arg(d.message);
            }
        } else if (d.path == u"traffic"_s) {
            traffic << d.message;
        } else if (d.path == u"rules"_s) {
            rules << d.message;
        } else if (m_topFields.contains(d.path)) {
            QString &slot = m_topErrors[d.path];
            slot = slot.isEmpty() ? d.message : slot + u'\n' + d.message;
        } else {
            other << (d.path.isEmpty() ? d.message : d.path + u": "_s + d.message);
        }
    }
    for (auto it = m_topFields.cbegin(); it != m_topFields.cend(); ++it) {
        const QString error = m_topErrors.value(it.key());
        it->error->setText(error);
        it->error->setVisible(!error.isEmpty());
    }
    m_trafficError->setText(traffic.join(u'\n'));
    m_trafficError->setVisible(!traffic.isEmpty());
    rules << other;
    m_rulesError->setText(rules.join(u'\n'));
    m_rulesError->setVisible(!rules.isEmpty());
    // Items with a problem are marked in their list, so that one off screen is found.
    const auto mark = [](QListWidget *list, const std::vector<QHash<QString, QString>> &errs) {
        for (int i = 0; i < list->count(); ++i) {
            const bool bad = size_t(i) < errs.size() && !errs[size_t(i)].isEmpty();
            list->item(i)->setForeground(bad ? QBrush(alarm) : QBrush());
            QStringList tips;
            if (bad) {
                for (auto e = errs[size_t(i)].cbegin(); e != errs[size_t(i)].cend(); ++e) {
                    tips << e.key() + u": "_s + e.value();
                }
            }
            list->item(i)->setToolTip(tips.join(u'\n'));
        }
    };
    mark(m_patternList, m_patternErrors);
    mark(m_ruleList, m_ruleErrors);
    showPattern();
    showRule();
    m_run->setEnabled(errors.isEmpty() && !m_runner->isRunning());
    m_run->setToolTip(errors.isEmpty() ? tr("Run the scenario through every rule (Ctrl+R)")
                                       : tr("Fix the problems marked in the scenario first"));
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
    const sim::scenario::Loaded loaded = sim::scenario::preset(name);
    if (!loaded.ok()) {
        if (error) {
            QStringList lines;
            for (const Diagnostic &d : loaded.errors) {
                lines << d.toString();
            }
            *error = lines.join(u'\n');
        }
        return false;
    }
    showScenario(loaded.scenario, QString());
    m_preset->setCurrentIndex(m_preset->findData(name));
    return true;
}

bool SimulationPage::loadScenarioFile(const QString &path, QString *error)
{
    const sim::scenario::Loaded loaded = sim::scenario::loadFile(path);
    if (!loaded.ok()) {
        if (error) {
            QStringList lines;
            for (const Diagnostic &d : loaded.errors) {
                lines << d.toString();
            }
            *error = lines.join(u'\n');
        }
        return false;
    }
    showScenario(loaded.scenario, QFileInfo(path).absolutePath());
    m_preset->setCurrentIndex(-1);
    setStatus(tr("Loaded %1").arg(QFileInfo(path).fileName()), false);
    return true;
}

bool SimulationPage::saveScenarioFile(const QString &path, QString *error)
{
    const sim::scenario::Loaded loaded = validateEditor();
    if (!loaded.ok()) {
        if (error) {
            *error = tr("The scenario has %n problem(s), marked beside their fields; it was not "
                        "saved.",
                        nullptr, int(loaded.errors.size()));
        }
        return false;
    }
    if (!path.endsWith(u".json"_s, Qt::CaseInsensitive)) {
        if (error) {
            *error = tr("%1: scenarios are saved as JSON; give the file a .json name").arg(path);
        }
        return false;
    }
    QSaveFile f(path);
    const QByteArray bytes = documentJson();
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
        if (error) {
            *error = tr("Cannot write %1: %2").arg(path, f.errorString());
        }
        return false;
    }
    return true;
}

void SimulationPage::setRules(const sluice::RuleSet &set)
{
    m_pageRules = set;
    m_useRules->setEnabled(!set.rules.empty());
    m_useRules->setToolTip(set.rules.empty()
                               ? tr("No rules on the Rules page yet")
                               : tr("Replace the scenario's rules with the %n rule(s) of the "
                                    "Rules page",
                                    nullptr, int(set.rules.size())));
}

bool SimulationPage::isRunning() const
{
    return m_runner->isRunning();
}

void SimulationPage::run()
{
    if (m_runner->isRunning()) {
        return;
    }
    const std::optional<sim::Scenario> scenario = editedScenario();
    if (!scenario) {
        setStatus(tr("Fix the problems marked in the scenario first."), true);
        return;
    }
    std::optional<Endpoint> redis;
    m_engineError->hide();
    if (m_engine->currentData().toString() == u"redis"_s) {
        redis = m_connection ? m_connection->endpoint() : std::nullopt;
        if (!redis) {
            m_engineError->setText(tr("Not connected to Redis: connect on the Connection page, "
                                      "or run on the in-process twins."));
            m_engineError->show();
            setStatus(tr("Nothing was run."), true);
            return;
        }
    }
    m_runner->start(*scenario, redis);
    setBusy(true);
    setStatus(tr("Generating about %1 requests…")
                  .arg(grouped(qint64(std::llround(scenario->expectedOffered())))),
              false);
}

void SimulationPage::cancel()
{
    if (m_runner->isRunning()) {
        m_runner->cancel();
        setStatus(tr("Cancelling…"), false);
    }
}

void SimulationPage::setBusy(bool busy)
{
    m_run->setEnabled(!busy);
    m_cancel->setEnabled(busy);
    m_export->setEnabled(!busy && !m_lastResult.rules.empty());
    m_progress->setVisible(busy);
    m_progress->setValue(0);
}

void SimulationPage::onProgress(qint64 done, qint64 total)
{
    if (!m_runner->isRunning() || total <= 0) {
        return;
    }
    m_progress->setValue(int(done * 1000 / total));
    setStatus(
        tr("Deciding: %1 of %2 requests through every rule").arg(grouped(done), grouped(total)),
        false);
}

void SimulationPage::onFinished(const sim::SimResult &result, const sim::Scenario &scenario)
{
    m_lastResult = result;
    m_lastScenario = scenario;
    m_charts->setResult(result, scenario);
    m_chartView->relayout();
    m_metrics->setResult(result);
    setBusy(false);
    validateEditor();
    m_run->setEnabled(true);
    const QString where =
        result.backend == u"redis"_s ? tr("the scripts in Redis") : tr("the in-process twins");
    if (result.cancelled) {
        QString text = tr("Cancelled after %1 of %2 requests; the charts show what was decided "
                          "until then.")
                           .arg(grouped(result.processed), grouped(result.total));
        if (result.backend == u"redis"_s && result.warning.isEmpty()) {
            text += u" "_s + tr("The run's keys were removed from Redis.");
        }
        setStatus(text, false);
    } else {
        setStatus(
            tr("%1 requests through %n rule(s) on %2 in %3 s.", nullptr, int(result.rules.size()))
                .arg(grouped(result.processed), where)
                .arg(result.wallSeconds, 0, 'f', 2),
            false);
    }
    if (!result.warning.isEmpty()) {
        setStatus(m_status->text() + u" "_s + result.warning, true);
    }
    Q_EMIT runFinished();
}

void SimulationPage::onFailed(const QString &message)
{
    setBusy(false);
    m_run->setEnabled(true);
    setStatus(tr("The run failed: %1").arg(message), true);
    Q_EMIT runFinished();
}

void SimulationPage::setStatus(const QString &text, bool problem)
{
    m_status->setText(text);
    QPalette pal = m_status->palette();
    pal.setColor(QPalette::WindowText, problem ? alarm : muted);
    m_status->setPalette(pal);
}

void SimulationPage::exportFigure()
{
    if (m_lastResult.rules.empty()) {
        setStatus(tr("Run a simulation first: there is nothing to export yet."), true);
        return;
    }
    auto *dialog = new QFileDialog(this, tr("Export the simulation"), m_baseDir);
    dialog->setObjectName(u"exportDialog"_s);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setNameFilters(
        {tr("PNG image (*.png)"), tr("SVG drawing (*.svg)"), tr("CSV time series (*.csv)")});
    dialog->setDefaultSuffix(u"png"_s);
    connect(dialog, &QFileDialog::filterSelected, dialog, [dialog](const QString &filter) {
        dialog->setDefaultSuffix(filter.contains(u"*.svg"_s)   ? u"svg"_s
                                 : filter.contains(u"*.csv"_s) ? u"csv"_s
                                                               : u"png"_s);
    });
    connect(dialog, &QFileDialog::fileSelected, this, [this](const QString &path) {
        QString error;
        if (exportTo(path, &error)) {
            setStatus(tr("Exported to %1").arg(path), false);
        } else {
            setStatus(error, true);
        }
    });
    dialog->open();
}

bool SimulationPage::exportTo(const QString &path, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error) {
            *error = message;
        }
        return false;
    };
    if (m_lastResult.rules.empty()) {
        return fail(tr("Run a simulation first: there is nothing to export yet."));
    }
    const QString suffix = QFileInfo(path).suffix().toLower();
    const QSize size = SimulationCharts::defaultSize(m_charts->rowCount());
    bool ok = true;
    QString message;
    // The figure is drawn by a builder of its own, as sluice-cli draws it: the one on screen
    // keeps the view's size.
    SimulationCharts figure;
    if (suffix == u"png"_s || suffix == u"svg"_s) {
        figure.setResult(m_lastResult, m_lastScenario);
    }
    if (suffix == u"png"_s) {
        const QImage image = figure.toImage(size);
        if (!image.save(path, "PNG")) {
            ok = false;
            message = tr("Cannot write %1").arg(path);
        }
    } else if (suffix == u"svg"_s) {
        ok = figure.saveSvg(path, size, &message);
    } else if (suffix == u"csv"_s) {
        QSaveFile f(path);
        const QByteArray bytes = sim::report::csv(m_lastResult);
        if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit()) {
            ok = false;
            message = tr("Cannot write %1: %2").arg(path, f.errorString());
        }
    } else {
        return fail(tr("%1: export to .png, .svg or .csv").arg(path));
    }
    return ok ? true : fail(message);
}

} // namespace sluice::ui
