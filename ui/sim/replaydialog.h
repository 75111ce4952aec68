#pragma once

#include "core/replay/replay.h"

#include <QDialog>

class QChart;
class QChartView;
class QDateTimeAxis;
class QValueAxis;
class QComboBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QTabWidget;
class QTableWidget;
class QVBoxLayout;

namespace sluice::ui {

class MessageBanner;
class PeakChartView;
class ReplaySession;

// Simulation > Replay a log…: access logs through the Rules page's rules or a rule file on the
// in-process twins (CONSOLE.md "Replay a log"), drawn from a ReplaySession: the logs and the
// rules, the format detected (editable), a progress bar and Cancel; the report as tables (per
// rule, with why a rule decided nothing; the subjects the dragged limit would deny; the most
// denied subjects) and charts (denials over time per rule; the selected rule's peak
// distribution with the draggable candidate limit and the shares it would deny); *Use this
// limit* into the Rules page's editor; export as CSV, PNG or SVG.
class ReplayDialog : public QDialog
{
    Q_OBJECT
public:
    explicit ReplayDialog(QWidget *parent = nullptr);
    ~ReplayDialog() override;

    ReplaySession *session() const { return m_session; }
    // For tests and the page: set the inputs as the user would type them.
    void setLogs(const QStringList &paths);
    void setRulesFile(const QString &path);
    // The Rules page's rules: replayed when no rule file is chosen (the field's placeholder
    // says so), so a replay starts from the rules being edited.
    void setPageRules(const sluice::RuleSet &set);
    void start();
    void cancel();
    bool running() const;
    const replay::Report &report() const;
    // The candidate limit on the peak chart and what it would deny (the label's text).
    qint64 candidateLimit() const;
    QString sharesText() const;
    void setCandidateLimit(qint64 limit);
    bool exportTo(const QString &path, QString *error) const;

Q_SIGNALS:
    void replayFinished();

private:
    void buildInputs(QVBoxLayout *root);
    QHBoxLayout *fileRow(QLineEdit **edit, const QString &name, const QString &placeholder,
                         const QString &title, const QStringList &filters);
    void buildActions(QVBoxLayout *root);
    void buildResults(QVBoxLayout *root);
    QWidget *buildCharts(QWidget *parent);
    QWidget *buildSubjects(QWidget *parent);
    void connectSession();
    void detectFormat();
    void askExport();
    void showMessage();
    void setRunning(bool running);
    void onFinished();
    void fillSummary();
    void fillCharts();
    void showRule();
    void showLimit();
    bool exportCsv(const QString &path, QString *error) const;

    ReplaySession *m_session;
    QLineEdit *m_logs;
    QLineEdit *m_rules;
    QComboBox *m_format;
    QLabel *m_detected;
    QLineEdit *m_logFormat;
    QPushButton *m_start;
    QPushButton *m_cancel;
    QPushButton *m_export;
    QProgressBar *m_progress;
    MessageBanner *m_banner;
    QTableWidget *m_summary;
    QTabWidget *m_subjectTabs;
    QLabel *m_denyNote;
    QTableWidget *m_wouldDeny;
    QTableWidget *m_top;
    QChart *m_timeChart;
    QChartView *m_timeView;
    QDateTimeAxis *m_timeX;
    QValueAxis *m_timeY;
    PeakChartView *m_peakView;
    QLabel *m_shares;
    QPushButton *m_useLimit;
    QWidget *m_charts;
};

} // namespace sluice::ui
