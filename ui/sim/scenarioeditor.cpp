#include "scenarioeditor.h"

#include "simulationcharts.h"
#include "simulationsession.h"

#include "ui/common/fieldform.h"
#include "ui/common/filedialog.h"
#include "ui/common/pageheader.h"
#include "ui/common/patternform.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QIcon>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPixmap>
#include <QPushButton>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

// The red of a field's problem, in the theme in use.
QColor alarm()
{
    return tone::color(Tone::Bad);
}

void section(QVBoxLayout *box, const QString &title, QWidget *parent)
{
    box->addSpacing(6);
    box->addWidget(PageHeader::heading(title, 1.0, parent));
}

// A rule field's label without its colon, like the scenario's fields.
QString ruleLabel(const QString &key)
{
    QString label = RuleFields::label(key);
    return label.endsWith(u':') || label.endsWith(u'\uff1a') ? label.chopped(1) : label;
}

} // namespace

ScenarioEditor::ScenarioEditor(SimulationSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
{
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 6, {0, 0, 8, 0});
    buildPresets(box);
    buildScenario(box);
    buildPatterns(box);
    buildRules(box);
    buildEngine(box);
    box->addStretch(1);
    followTheme();
    connect(&Theme::instance(), &Theme::changed, this, &ScenarioEditor::followTheme);
}

// Presets first, with Open and Save.
void ScenarioEditor::buildPresets(QVBoxLayout *box)
{
    box->addWidget(PageHeader::heading(tr("Preset"), 1.0, this));
    m_preset = new QComboBox(this);
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
    auto *open = PageHeader::button(tr("Open…"), u"openButton"_s, this);
    auto *save = PageHeader::button(tr("Save…"), u"saveButton"_s, this);
    presetRow->addWidget(open);
    presetRow->addWidget(save);
    presetRow->addStretch(1);
    box->addLayout(presetRow);
    m_presetNote = PageHeader::note(this);
    m_presetNote->setObjectName(u"scenarioDescription"_s);
    box->addWidget(m_presetNote);
    connect(m_preset, &QComboBox::activated, this,
            [this](int index) { loadPreset(m_preset->itemData(index).toString(), nullptr); });
    connect(open, &QPushButton::clicked, this, [this] {
        askForFile(this, u"openDialog"_s, tr("Open a scenario"), m_session->draft().baseDir,
                   {tr("Scenarios (*.json *.yaml *.yml)")}, QString(),
                   [this](const QString &path, const QString &) {
                       QString error;
                       if (!loadFile(path, &error)) {
                           m_session->setStatus(error, true);
                       }
                   });
    });
    connect(save, &QPushButton::clicked, this, [this] {
        askForFile(this, u"saveDialog"_s, tr("Save the scenario"), m_session->draft().baseDir,
                   {tr("JSON scenario (*.json)")}, u"json"_s,
                   [this](const QString &path, const QString &) {
                       validate();
                       QString error;
                       const bool saved = m_session->save(path, &error);
                       m_session->setStatus(
                           saved ? tr("Saved the scenario to %1").arg(path) : error, !saved);
                   });
    });
}

// The scenario's own fields.
void ScenarioEditor::buildScenario(QVBoxLayout *box)
{
    section(box, tr("Scenario"), this);
    m_topForm = new FieldForm(u"scenario."_s, this);
    m_topForm->addField(u"name"_s, tr("Name"), tr("e.g. my burst"));
    m_topForm->addField(u"duration"_s, tr("Duration"), tr("e.g. 30s, 5m"));
    m_topForm->addField(u"bin"_s, tr("Bin"), tr("one chart point per bin, e.g. 100ms"));
    m_topForm->addField(u"measure_window"_s, tr("Measure window"),
                        tr("span of \"max in window\", e.g. 10s"));
    m_topForm->addField(u"subjects"_s, tr("Subjects"), tr("clients 10.0.0.1, …; default 1"));
    m_topForm->addField(u"seed"_s, tr("Seed"), tr("same seed, same traffic; default 1"));
    box->addWidget(m_topForm);
    connect(m_topForm, &FieldForm::edited, this, [this](const QString &key, const QString &text) {
        m_session->setTopField(key, text);
        validate();
    });
}

// A list of items with Add and Remove under it, and its message.
QListWidget *ScenarioEditor::addList(QVBoxLayout *box, const QString &name, int height,
                                     const QString &addText, QPushButton **add,
                                     QPushButton **remove, QLabel **error)
{
    auto *l = new QListWidget(this);
    l->setObjectName(name + u"List"_s);
    l->setFixedHeight(height);
    l->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    l->setTextElideMode(Qt::ElideRight);
    box->addWidget(l);
    auto *buttons = new QHBoxLayout;
    const QString capital = name.at(0).toUpper() + name.mid(1);
    *add = new QPushButton(addText, this);
    (*add)->setObjectName(u"add"_s + capital + u"Button"_s);
    *remove = new QPushButton(tr("Remove"), this);
    (*remove)->setObjectName(u"remove"_s + capital + u"Button"_s);
    buttons->addWidget(*add);
    buttons->addWidget(*remove);
    buttons->addStretch(1);
    box->addLayout(buttons);
    *error = PageHeader::note(this, alarm());
    (*error)->hide();
    return l;
}

void ScenarioEditor::changeList(QListWidget *list, int current)
{
    refreshLists();
    list->setCurrentRow(current);
    validate();
}

// Traffic patterns: a list and the selected one's fields.
void ScenarioEditor::buildPatterns(QVBoxLayout *box)
{
    section(box, tr("Traffic patterns"), this);
    QPushButton *add = nullptr;
    QPushButton *remove = nullptr;
    m_patternList =
        addList(box, u"pattern"_s, 86, tr("Add pattern"), &add, &remove, &m_trafficError);
    m_trafficError->setObjectName(u"trafficError"_s);
    box->addWidget(m_trafficError);
    m_patternForm = new PatternForm(u"traffic."_s, sim::TrafficPattern::kindNames(), this);
    m_patternForm->setNoteShown(false);
    box->addWidget(m_patternForm);
    connect(m_patternForm, &PatternForm::changed, this, [this] {
        const int row = m_patternList->currentRow();
        if (!m_session->setPattern(row, m_patternForm->draft())) {
            return;
        }
        m_patternList->item(row)->setText(m_patternForm->draft().summary());
        validate();
    });
    connect(m_patternList, &QListWidget::currentRowChanged, this, [this] { showPattern(); });
    connect(add, &QPushButton::clicked, this,
            [this] { changeList(m_patternList, m_session->addPattern()); });
    connect(remove, &QPushButton::clicked, this, [this] {
        changeList(m_patternList, m_session->removePattern(m_patternList->currentRow()));
    });
}

// Rules: a list, the Rules page's rules on offer, and the selected one's fields.
void ScenarioEditor::buildRules(QVBoxLayout *box)
{
    section(box, tr("Rules"), this);
    QPushButton *add = nullptr;
    QPushButton *remove = nullptr;
    m_ruleList = addList(box, u"rule"_s, 120, tr("Add rule"), &add, &remove, &m_rulesError);
    m_useRules =
        PageHeader::button(tr("Use the rules from the Rules page"), u"useRulesButton"_s, this);
    m_useRules->setEnabled(false);
    m_useRules->setToolTip(tr("No rules on the Rules page yet"));
    box->addWidget(m_useRules);
    m_rulesError->setObjectName(u"rulesError"_s);
    box->addWidget(m_rulesError);
    buildRuleForm(box);
    connect(m_ruleList, &QListWidget::currentRowChanged, this, [this] { showRule(); });
    connect(add, &QPushButton::clicked, this,
            [this] { changeList(m_ruleList, m_session->addRule()); });
    connect(remove, &QPushButton::clicked, this,
            [this] { changeList(m_ruleList, m_session->removeRule(m_ruleList->currentRow())); });
    connect(m_useRules, &QPushButton::clicked, this, [this] {
        m_session->usePageRules();
        changeList(m_ruleList, m_session->draft().rules.empty() ? -1 : 0);
    });
    connectRuleEdits();
}

// The Rules page's words and widgets (RuleFields): one rule form, not two.
void ScenarioEditor::buildRuleForm(QVBoxLayout *box)
{
    m_ruleForm = new FieldForm(u"rules."_s, this);
    const auto ruleField = [this](const QString &key) {
        m_ruleForm->addField(key, ruleLabel(key), RuleFields::placeholder(key));
    };
    ruleField(u"id"_s);
    m_algorithm = RuleFields::algorithmCombo(this);
    m_algorithm->setObjectName(u"rules.algorithm"_s);
    m_ruleForm->addRow(ruleLabel(u"algorithm"_s), m_algorithm);
    auto *scopeCell = new QWidget(this);
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
}

// After an edit of the selected rule went to the session: its summary, fields, check.
void ScenarioEditor::ruleEdited(int row)
{
    m_ruleList->item(row)->setText(m_session->draft().rules[size_t(row)].summary());
    showRule();
    validate();
}

void ScenarioEditor::connectRuleEdits()
{
    connect(m_ruleForm, &FieldForm::edited, this, [this](const QString &key, const QString &text) {
        const int row = m_ruleList->currentRow();
        if (m_session->setRuleValue(row, key, text)) {
            ruleEdited(row);
        }
    });
    connect(m_algorithm, &QComboBox::activated, this, [this](int index) {
        const int row = m_ruleList->currentRow();
        if (m_session->setRuleKind(row, m_algorithm->itemData(index).toString())) {
            ruleEdited(row);
        }
    });
    const auto scopeEdited = [this] {
        RuleFields::updateScopeName(m_scope);
        const int row = m_ruleList->currentRow();
        if (m_session->setRuleValue(row, u"scope"_s, RuleFields::scopeText(m_scope))) {
            ruleEdited(row);
        }
    };
    connect(m_scope.kind, &QComboBox::activated, this, scopeEdited);
    connect(m_scope.name, &QLineEdit::textEdited, this, scopeEdited);
}

// The engine.
void ScenarioEditor::buildEngine(QVBoxLayout *box)
{
    section(box, tr("Engine"), this);
    m_engine = new QComboBox(this);
    m_engine->setObjectName(u"engineCombo"_s);
    m_engine->addItem(tr("In-process twins (fast, no Redis)"), u"local"_s);
    m_engine->addItem(tr("The real scripts on the connected Redis"), u"redis"_s);
    m_engine->setToolTip(tr("Both give identical decisions. On Redis the run writes under a "
                            "prefix of its own and removes its keys afterwards."));
    box->addWidget(m_engine);
    m_engineError = PageHeader::note(this, alarm());
    m_engineError->setObjectName(u"engineError"_s);
    m_engineError->hide();
    box->addWidget(m_engineError);
    connect(m_engine, &QComboBox::activated, this, [this] {
        m_session->clearEngineProblem();
        m_engineError->hide();
    });
}

// The fields' problems in the theme's red, again on every switch (View > Theme).
void ScenarioEditor::followTheme()
{
    for (QLabel *l : {m_trafficError, m_rulesError, m_scopeError, m_engineError}) {
        QPalette pal = l->palette();
        pal.setColor(QPalette::WindowText, alarm());
        l->setPalette(pal);
    }
}

bool ScenarioEditor::onRedis() const
{
    return m_engine->currentData().toString() == u"redis"_s;
}

void ScenarioEditor::showEngineProblem(const QString &problem)
{
    m_engineError->setText(problem);
    m_engineError->setVisible(!problem.isEmpty());
}

void ScenarioEditor::offerPageRules(const RuleSet &set)
{
    m_useRules->setEnabled(!set.rules.empty());
    m_useRules->setToolTip(set.rules.empty()
                               ? tr("No rules on the Rules page yet")
                               : tr("Replace the scenario's rules with the %n rule(s) of the "
                                    "Rules page",
                                    nullptr, int(set.rules.size())));
}

bool ScenarioEditor::loadPreset(const QString &name, QString *error)
{
    if (!m_session->loadPreset(name, error)) {
        return false;
    }
    showDraft();
    m_preset->setCurrentIndex(m_preset->findData(name));
    return true;
}

bool ScenarioEditor::loadFile(const QString &path, QString *error)
{
    if (!m_session->loadFile(path, error)) {
        return false;
    }
    showDraft();
    m_preset->setCurrentIndex(-1);
    return true;
}

void ScenarioEditor::showDraft()
{
    const ScenarioDraft &draft = m_session->draft();
    m_topForm->setValues(draft.top);
    const QString description = draft.top.value(u"description"_s);
    m_presetNote->setText(description);
    m_presetNote->setVisible(!description.isEmpty());
    refreshLists();
    m_patternList->setCurrentRow(draft.patterns.empty() ? -1 : 0);
    m_ruleList->setCurrentRow(draft.rules.empty() ? -1 : 0);
    validate();
}

void ScenarioEditor::refreshLists()
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

void ScenarioEditor::showPattern()
{
    const ScenarioDraft &draft = m_session->draft();
    const int row = m_patternList->currentRow();
    const bool has = row >= 0 && size_t(row) < draft.patterns.size();
    m_patternForm->setDraft(has ? std::optional(draft.patterns[size_t(row)]) : std::nullopt);
    m_patternForm->setErrors(has && size_t(row) < draft.patternErrors.size()
                                 ? draft.patternErrors[size_t(row)]
                                 : FieldErrors());
}

void ScenarioEditor::showRule()
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

sim::scenario::Loaded ScenarioEditor::validate()
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
    Q_EMIT checked(loaded.ok());
    return loaded;
}

} // namespace sluice::ui
