#pragma once

#include "scenariodraft.h"

#include "core/sim/metrics.h"
#include "core/sim/scenario.h"

#include "core/rules/rule.h"

#include <QHash>
#include <QString>
#include <QWidget>

#include <optional>
#include <vector>

class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QTableView;
class QVBoxLayout;

namespace sluice::ui {

class ConnectionController;
class ScenarioEditor;
class SimulationChartView;
class SimulationCharts;
class SimulationMetricsModel;
class SimulationSession;

// The Simulation page (CONSOLE.md "Simulation"): a scenario editor on the left (ScenarioEditor:
// the presets first, then the traffic patterns and the rules as editable lists, duration, bin,
// measure window, subjects, seed, and the engine), the charts of the last run on the right with its
// metrics table below. Every field is checked as it is typed, with the problem written beside
// it. The scenario, the runs and the status line are a SimulationSession's (runs on a worker
// thread with progress and Cancel; on Redis, the connection's endpoint, under a run-scoped
// prefix whose keys are removed afterwards): the page renders them and forwards the user's
// edits and actions. GUI thread.
class SimulationPage : public QWidget
{
    Q_OBJECT
public:
    explicit SimulationPage(ConnectionController *connection, QWidget *parent = nullptr);
    ~SimulationPage() override;

    // A scenario file (.json, .yaml, .yml) into the editor; false with every problem in
    // `error` (the editor is left as it was).
    bool loadScenarioFile(const QString &path, QString *error);
    // The edited scenario as a JSON scenario file; false when it is invalid (the problems are
    // shown beside their fields) or cannot be written.
    bool saveScenarioFile(const QString &path, QString *error);
    // One of the presets of sim::scenario::presetNames().
    bool loadPreset(const QString &name, QString *error = nullptr);
    // The last run's figure or series by extension: .png, .svg (the figure at
    // SimulationCharts::defaultSize) or .csv (FORMATS.md's time series).
    bool exportTo(const QString &path, QString *error);

    bool isRunning() const;
    // The scenario as edited, checked; nullopt when a field is wrong (its message is shown).
    std::optional<sim::Scenario> editedScenario();
    // The last run's outcome (empty before the first).
    const sim::SimResult &lastResult() const;
    SimulationSession *session() const { return m_session; }

    SimulationCharts *charts() const { return m_charts; }
    SimulationMetricsModel *metricsModel() const { return m_metrics; }

public Q_SLOTS:
    // Ctrl+R: runs the edited scenario (unless a field is wrong or a run is going).
    void run();
    void cancel();
    // Ctrl+E: asks for a file and exports the figure (PNG, SVG) or the series (CSV).
    void exportFigure();
    // The Rules page's rules, offered as "Use the rules from the Rules page".
    void setRules(const sluice::RuleSet &set);
    // Simulation > Replay a log…: the one replay dialog of the page, shown.
    void openReplay();
    // The Rules page's answer to the replay's *Use this limit*.
    void limitUsed(bool written, const QString &detail);

protected:
    void resizeEvent(QResizeEvent *event) override;

Q_SIGNALS:
    // A run ended: its result is shown (cancelled runs too), or the failure in the status.
    void runFinished();
    // The replay's *Use this limit*: write `limit` into rule `ruleId` on the Rules page.
    void useLimitRequested(const QString &ruleId, qint64 limit);

private:
    void buildHeader(QVBoxLayout *root);
    void buildEditor(QHBoxLayout *body);
    void buildResults(QHBoxLayout *body);
    void connectSession();
    static int editorWidth(int pageWidth);
    sim::scenario::Loaded validateEditor();
    void setBusy(bool busy);
    void onProgress(qint64 done, qint64 total);
    void onFinished();
    void onFailed();
    void showStatus();

    ConnectionController *m_connection;
    SimulationSession *m_session;
    SimulationCharts *m_charts;
    SimulationMetricsModel *m_metrics;

    QWidget *m_editorArea = nullptr;
    ScenarioEditor *m_editor = nullptr;

    QPushButton *m_run = nullptr;
    QPushButton *m_cancel = nullptr;
    QPushButton *m_export = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_status = nullptr;
    SimulationChartView *m_chartView = nullptr;
    QTableView *m_table = nullptr;
};

} // namespace sluice::ui
