#pragma once

#include "ui/common/patterndraft.h"

#include "core/rules/rule.h"
#include "core/sim/scenario.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonObject>
#include <QString>

#include <vector>

namespace sluice::ui {

// One rule of a scenario as typed: its algorithm and the fields' texts ("id", "scope",
// "limit", ...).
struct RuleDraft
{
    Q_DECLARE_TR_FUNCTIONS(RuleDraft)
public:
    QString kind = QStringLiteral("fixed_window"); // the algorithm
    QHash<QString, QString> values;
    // A rule's adopt block and key_prefix, carried as they came (not edited here): the
    // simulator runs the adopted counter's twin beside the rule (FORMATS.md "simulate").
    QJsonObject adopt;
    QString keyPrefix;
    // The rule's count_rejected, carried as it came (not edited here): written while the
    // algorithm takes it, so the simulation counts denials as the rule does.
    bool countRejected = false;

    // The fields the algorithm takes, id and scope first.
    static QStringList keys(const QString &algorithm);
    QStringList keys() const { return keys(kind); }
    static RuleDraft from(const Rule &rule);
    // "id · fixed window 10 per 1s, per IP address", for a list (the Rules page's words).
    QString summary() const;
};

// The Simulation page's scenario as edited (CONSOLE.md "Simulation"), widget-free: the
// scenario's own fields, its patterns and rules as typed, and the reader's messages sorted by
// where they are shown. Checked by writing it as a scenario file and reading it back with
// sim::scenario::parseJson, so the messages are the file's.
class ScenarioDraft
{
    Q_DECLARE_TR_FUNCTIONS(ScenarioDraft)
public:
    // The scenario's own fields, keyed as in the file ("name", "duration", "bin", ...).
    QHash<QString, QString> top;
    std::vector<PatternDraft> patterns;
    std::vector<RuleDraft> rules;
    QString baseDir; // where replay files are read

    // The messages of the last check(): by field of the scenario, of each pattern and rule; and
    // those about the traffic or the rules as a whole (or no field of an item).
    FieldErrors topErrors;
    std::vector<FieldErrors> patternErrors;
    std::vector<FieldErrors> ruleErrors;
    QStringList trafficProblems;
    QStringList ruleProblems;
    qsizetype problemCount = 0; // the reader's messages, all told

    static QStringList topKeys();

    void setScenario(const sim::Scenario &s, const QString &dir = {});
    // A scenario read (a preset, a file) into the draft; false with every problem in `error`
    // (the draft is left as it was).
    bool load(const sim::scenario::Loaded &loaded, const QString &dir, QString *error);
    // The draft as a JSON scenario file; false when it has problems (check() first) or cannot
    // be written.
    bool save(const QString &path, QString *error) const;
    // A constant pattern, a window rule: the index of the new one.
    int addPattern();
    int addRule();
    // The index to select afterwards (-1: none left).
    int removePattern(int index);
    int removeRule(int index);
    // The rules of a rule set in place of the scenario's.
    void useRules(const RuleSet &set);

    // The scenario file the draft makes (JSON).
    QByteArray documentJson() const;
    // Reads documentJson() back: the scenario, or the errors, which are also sorted into the
    // message fields above.
    sim::scenario::Loaded check();
};

} // namespace sluice::ui
