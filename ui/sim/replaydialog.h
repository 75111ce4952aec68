#pragma once

#include "core/replay/replay.h"

#include "ui/common/workerthread.h"

#include <QDialog>
#include <QObject>

#include <atomic>
#include <memory>

class QChart;
class QChartView;
class QDateTimeAxis;
class QValueAxis;
class QComboBox;
class QLabel;
class QLineEdit;
class QLineSeries;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace sluice::ui {

// Runs replay::run in its own thread (the GUI thread never waits on a log): progress at most
// ten times a second, the report or the error at the end.
class ReplayWorker : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;
    void run(replay::Options options, const std::atomic<bool> *cancel);

Q_SIGNALS:
    void progress(qint64 lines, qint64 bytes, qint64 totalBytes, double linesPerSecond);
    void finished(const sluice::replay::Report &report);
    void failed(const QString &message);
};

// The chart of one rule's subject peaks (the share of subjects above each peak) with the
// candidate limit as a vertical line the user drags; emits the limit under the mouse.
class PeakChartView;

// Simulation > Replay a log…: access logs through a rule file on the in-process twins
// (CONSOLE.md "Replay a log"): the logs and the rules, the format detected (editable), a
// progress bar with lines/s and Cancel; the report as tables (per rule; the most denied
// subjects of the selected rule) and charts (denials over time per rule; the selected rule's
// peak distribution with the draggable candidate limit and the shares it would deny); export
// as CSV (the per-rule table and the denials over time), PNG or SVG (the charts).
class ReplayDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ReplayDialog(QWidget *parent = nullptr);
    ~ReplayDialog() override;

    // For tests and the page: set the inputs as the user would type them.
    void setLogs(const QStringList &paths);
    void setRulesFile(const QString &path);
    // The Rules page's rules: replayed when no rule file is chosen (the field's placeholder
    // says so), so a replay starts from the rules being edited.
    void setPageRules(const sluice::RuleSet &set);
    void start();
    void cancel();
    bool running() const { return m_running; }
    const replay::Report &report() const { return m_report; }
    // The candidate limit on the peak chart and what it would deny (the label's text).
    qint64 candidateLimit() const { return m_limit; }
    QString sharesText() const;
    void setCandidateLimit(qint64 limit);
    bool exportTo(const QString &path, QString *error) const;

Q_SIGNALS:
    void replayFinished();

private:
    void detectFormat();
    void onProgress(qint64 lines, qint64 bytes, qint64 totalBytes, double linesPerSecond);
    void onFinished(const replay::Report &report);
    void onFailed(const QString &message);
    void showRule(int row);
    void fillCharts();
    void setStatus(const QString &text, bool problem);
    void setRunning(bool running);
    int selectedRule() const; // index into the replayed rules, -1 none
    const replay::RuleReport *rule(int index) const;

    QLineEdit *m_logs;
    QLineEdit *m_rules;
    RuleSet m_pageRules;
    QComboBox *m_format;
    QLabel *m_detected;
    QLineEdit *m_logFormat;
    QPushButton *m_start;
    QPushButton *m_cancel;
    QPushButton *m_export;
    QProgressBar *m_progress;
    QLabel *m_status;
    QTableWidget *m_summary;
    QTableWidget *m_top;
    QChart *m_timeChart;
    QChartView *m_timeView;
    QDateTimeAxis *m_timeX;
    QValueAxis *m_timeY;
    PeakChartView *m_peakView;
    QLabel *m_shares;
    QWidget *m_charts;
    std::atomic<bool> m_cancelFlag{false};
    WorkerThread<ReplayWorker> m_worker{QStringLiteral("sluice-replay")};
    replay::Report m_report;
    std::vector<const replay::RuleReport *> m_replayed; // rows of m_summary
    qint64 m_limit = 0;
    bool m_running = false;
};

} // namespace sluice::ui
