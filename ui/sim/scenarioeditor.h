#pragma once

#include "ui/rules/rulefields.h"

#include "core/rules/rule.h"
#include "core/sim/scenario.h"

#include <QWidget>

class QComboBox;
class QLabel;
class QListWidget;
class QPushButton;
class QVBoxLayout;

namespace sluice::ui {

class FieldForm;
class PatternForm;
class SimulationSession;

// The Simulation page's scenario editor (CONSOLE.md "Simulation"), the left column: the presets
// with Open and Save, the scenario's fields, the traffic patterns and the rules as lists with
// the selected one's fields, and the engine. Every edit goes to the SimulationSession's draft
// and is checked at once, each problem written beside its field; checked() says whether the
// scenario can run.
class ScenarioEditor : public QWidget
{
    Q_OBJECT
public:
    explicit ScenarioEditor(SimulationSession *session, QWidget *parent = nullptr);

    // Checks the draft and shows its problems.
    sim::scenario::Loaded validate();
    // A preset or a scenario file into the draft, shown; false with the problems in `error`.
    bool loadPreset(const QString &name, QString *error);
    bool loadFile(const QString &path, QString *error);
    // The Rules page's rules, offered as "Use the rules from the Rules page".
    void offerPageRules(const RuleSet &set);
    // The engine chosen, and why it could not run (empty: hidden).
    bool onRedis() const;
    void showEngineProblem(const QString &problem);

Q_SIGNALS:
    // After every check: whether the scenario as edited can run.
    void checked(bool ok);

private:
    void buildPresets(QVBoxLayout *box);
    void buildScenario(QVBoxLayout *box);
    void buildPatterns(QVBoxLayout *box);
    void buildRules(QVBoxLayout *box);
    void buildRuleForm(QVBoxLayout *box);
    void buildEngine(QVBoxLayout *box);
    QListWidget *addList(QVBoxLayout *box, const QString &name, int height, const QString &addText,
                         QPushButton **add, QPushButton **remove, QLabel **error);
    void connectRuleEdits();
    void changeList(QListWidget *list, int current);
    void ruleEdited(int row);
    void followTheme();
    void showDraft();
    void refreshLists();
    void showPattern();
    void showRule();

    SimulationSession *m_session;
    QComboBox *m_preset = nullptr;
    QLabel *m_presetNote = nullptr;
    FieldForm *m_topForm = nullptr;
    QListWidget *m_patternList = nullptr;
    QLabel *m_trafficError = nullptr;
    PatternForm *m_patternForm = nullptr;
    QListWidget *m_ruleList = nullptr;
    QLabel *m_rulesError = nullptr;
    QComboBox *m_algorithm = nullptr;
    FieldForm *m_ruleForm = nullptr;
    RuleFields::Scope m_scope; // the Rules page's scope combo and name field
    QLabel *m_scopeError = nullptr;
    QPushButton *m_useRules = nullptr;
    QComboBox *m_engine = nullptr;
    QLabel *m_engineError = nullptr;
};

} // namespace sluice::ui
