#pragma once

#include "core/load/loadgenerator.h"
#include "core/rules/rule.h"
#include "core/sim/trafficpattern.h"

#include "ui/common/confirm.h"
#include "ui/common/patterndraft.h"

#include <QWidget>

#include <memory>
#include <optional>

class QChart;
class QDateTimeAxis;
class QFrame;
class QLabel;
class QLineSeries;
class QListWidget;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableWidget;
class QTimer;
class QValueAxis;

namespace sluice::stats {
class StatsFlusher;
class StatsRecorder;
} // namespace sluice::stats

namespace sluice::ui {

class KeyScope;
class MessageBanner;
class PatternForm;
class StatsWatch;

class ConnectionController;

// The Load page (issue 6 item 3): drives real decisions against the session's Redis with
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

    bool isRunning() const;
    // The last progress shown (the final one after finished()).
    const load::LoadProgress &progress() const { return m_progress; }
    // The options the form holds now, or the first problem in words (what and where).
    Result<load::LoadOptions> options() const;
    // Whether the statistics of the runs are written (the window's status bar says so).
    StatsWatch *statsWatch() const { return m_statsWatch; }

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
    void buildForm(QWidget *parent);
    void startNow();
    // The pattern and duration alone in a scenario, read by the scenario reader.
    CheckedPattern checked() const;
    void validate();
    void poll();
    void showProgress(const load::LoadProgress &p);
    void finish();
    void setRunning(bool running);

    ConnectionController *m_connection;
    RuleSet m_rules;
    std::unique_ptr<stats::StatsRecorder> m_recorder;
    std::unique_ptr<stats::StatsFlusher> m_flusher;
    QString m_flusherEndpoint; // safeUrl + db of the flusher's endpoint
    StatsWatch *m_statsWatch;
    std::unique_ptr<load::LoadGenerator> m_generator;
    load::LoadProgress m_progress;
    QTimer *m_poll;
    // Chart: decisions per second between polls.
    qint64 m_lastAllowed = 0;
    qint64 m_lastDenied = 0;
    double m_lastElapsed = 0;
    double m_chartTop = 10;

    QListWidget *m_ruleList;
    QLabel *m_rulesError;
    PatternForm *m_patternForm;
    QSpinBox *m_threads;
    QSpinBox *m_subjects;
    QSpinBox *m_seed;
    QLabel *m_plan;
    QPushButton *m_start;
    KeyScope *m_keyScope;
    ConfirmHook m_confirm;
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
