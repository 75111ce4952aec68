#pragma once

#include "core/load/loadgenerator.h"
#include "core/rules/rule.h"

#include "ui/common/confirm.h"

#include <QWidget>

class QChart;
class QLabel;
class QLineSeries;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QValueAxis;

namespace sluice::ui {

class KeyScope;
class LoadSession;
class StatsWatch;
class MessageBanner;
class PatternForm;

class ConnectionController;

// The Load page, a view over LoadSession (which holds the form's state, the
// run and its outcome): drives real decisions against the session's Redis with
// load::LoadGenerator: the rules picked, one traffic pattern of the simulation lab (constant,
// burst, poisson, ramp, each field validated as it is typed, the message beside the field),
// a duration, threads and subjects. Start / Stop; the counters (sent, allowed, denied, errors,
// rate) and a decisions-per-second chart are refreshed four times a second from
// LoadGenerator::progress() by a QTimer (a snapshot under a mutex: never blocks). The run stops
// by itself at the end of the pattern. Every decision is recorded into a StatsRecorder that a
// StatsFlusher writes to Redis once a second, so the Monitor page shows the traffic.
class LoadPage : public QWidget
{
    Q_OBJECT
public:
    explicit LoadPage(ConnectionController *connection, QWidget *parent = nullptr);
    ~LoadPage() override;

    LoadSession *session() const { return m_session; }
    // Whether the statistics of the runs are written (the window's status bar says so).
    StatsWatch *statsWatch() const;
    bool isRunning() const;
    // The last progress shown (the final one after finished()).
    const load::LoadProgress &progress() const;

public Q_SLOTS:
    void setRules(const sluice::RuleSet &rules);
    // Starts a run: on keys of its own, or on the rules' real keys once the user confirms.
    void start();
    void stop();
    // Answers "use the real keys?" for the user (tests); none: a message box.
    void setConfirm(ConfirmHook hook) { m_confirm = std::move(hook); }

Q_SIGNALS:
    void started();
    // The run is over (by itself, stopped, or failed): the final counters.
    void finished(const sluice::load::LoadProgress &progress);

private:
    // The constructor's steps, in the page's order (the tab order follows it).
    QWidget *buildControls(ConnectionController *connection);
    QWidget *buildCounters();
    QWidget *buildChart();
    void buildPerRuleTable();
    void connectSession();
    void buildForm(QWidget *parent);
    void showRules();
    void showCheck();
    void onStarted();
    void showProgress();

    LoadSession *m_session;
    ConfirmHook m_confirm;

    QListWidget *m_ruleList;
    QLabel *m_rulesError;
    PatternForm *m_patternForm;
    QSpinBox *m_threads;
    QSpinBox *m_subjects;
    QSpinBox *m_seed;
    QLabel *m_plan;
    QPushButton *m_start;
    KeyScope *m_keyScope;
    QPushButton *m_stop;

    QLabel *m_sent;
    QLabel *m_allowed;
    QLabel *m_denied;
    QLabel *m_errors;
    QLabel *m_rateValue;
    QLabel *m_elapsed;
    QProgressBar *m_bar;
    QTableWidget *m_perRule;
    QChart *m_chart;
    QLineSeries *m_allowedSeries;
    QLineSeries *m_deniedSeries;
    QValueAxis *m_x;
    QValueAxis *m_y;
    MessageBanner *m_banner;
};

} // namespace sluice::ui
