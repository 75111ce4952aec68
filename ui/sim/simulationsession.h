#pragma once

#include "scenariodraft.h"

#include "ui/common/pagemessage.h"

#include "core/rules/rule.h"
#include "core/sim/metrics.h"
#include "core/sim/scenario.h"

#include <QObject>
#include <QString>

#include <functional>

namespace sluice::ui {

class ConnectionController;
class SimulationRunner;

// The Simulation page's controller, widget-free (CONSOLE.md "Simulation"): the scenario as
// edited (a ScenarioDraft, checked by the scenario reader after every change), the rules the
// Rules page offers, the run (a SimulationRunner on a WorkerThread: the twins, or the scripts
// on the connection's Redis under a run-scoped prefix removed afterwards), its progress, the
// last result with the scenario it ran, and the status line in words. The page renders these
// and forwards what the user does; it checks again after each edit it forwards. GUI thread.
class SimulationSession : public QObject
{
    Q_OBJECT
public:
    explicit SimulationSession(ConnectionController *connection, QObject *parent = nullptr);
    ~SimulationSession() override;

    // The scenario as edited, and its messages as of the last check().
    const ScenarioDraft &draft() const { return m_draft; }
    // Checks the draft again (its messages are the reader's); ok() when it can run.
    sim::scenario::Loaded check();

    // Edits (no check: the page calls check() when it has shown the change).
    void setTopField(const QString &key, const QString &text) { m_draft.top.insert(key, text); }
    // False when `row` is not a pattern (a rule) of the draft.
    bool setPattern(int row, const PatternDraft &pattern);
    bool setRuleKind(int row, const QString &kind);
    bool setRuleValue(int row, const QString &key, const QString &text);
    // The index to select afterwards (-1: none).
    int addPattern() { return m_draft.addPattern(); }
    int removePattern(int row) { return m_draft.removePattern(row); }
    int addRule() { return m_draft.addRule(); }
    int removeRule(int row) { return m_draft.removeRule(row); }

    // A preset, a scenario file (.json, .yaml, .yml) into the draft; false with every problem
    // in `error` (the draft is left as it was). Saving checks first.
    bool loadPreset(const QString &name, QString *error = nullptr);
    bool loadFile(const QString &path, QString *error);
    bool save(const QString &path, QString *error);

    // The Rules page's rules, offered in place of the scenario's.
    const RuleSet &pageRules() const { return m_pageRules; }
    void setPageRules(const RuleSet &set) { m_pageRules = set; }
    // The scenario's rules replaced by them (status says so).
    void usePageRules();

    // The run.
    enum class Engine { Local, Redis };
    bool isRunning() const;
    // Starts the edited scenario; false (and message() says why, and engineProblem() when the
    // engine is the reason) when a field is wrong, a run is going or Redis is not connected.
    bool run(Engine engine);
    // Asks the run to stop; runFinished() then comes with a cancelled result.
    void cancel();
    // The last run's outcome (empty before the first) and the scenario it ran.
    const sim::SimResult &lastResult() const { return m_lastResult; }
    const sim::Scenario &lastScenario() const { return m_lastScenario; }
    // The last run's figure or series by extension (.png, .svg, .csv).
    bool exportTo(const QString &path, QString *error) const;

    // The status line: what the last action came to, the page sessions' one message type
    // (plain text; a problem in Tone::Bad, a run's warning in Tone::Warning).
    PageMessage message() const { return m_message; }
    void setStatus(const QString &text, bool problem);
    // Why the chosen engine cannot run (empty: it can).
    QString engineProblem() const { return m_engineProblem; }
    void clearEngineProblem() { m_engineProblem.clear(); }

Q_SIGNALS:
    void messageChanged();
    // A run started.
    void started();
    // Decisions made so far, of `total`.
    void progressed(qint64 done, qint64 total);
    // A run ended: lastResult() holds it (cancelled runs too).
    void runFinished();
    // A run could not be made or failed: message() says why.
    void runFailed();

private:
    void onFinished(const sim::SimResult &result, const sim::Scenario &scenario);
    bool editRule(int row, const std::function<void(RuleDraft &)> &change);

    ConnectionController *m_connection;
    SimulationRunner *m_runner;
    ScenarioDraft m_draft;
    RuleSet m_pageRules;
    sim::SimResult m_lastResult;
    sim::Scenario m_lastScenario; // the scenario m_lastResult ran
    PageMessage m_message;
    QString m_engineProblem;
};

} // namespace sluice::ui
