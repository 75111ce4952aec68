#pragma once

#include "ui/common/confirm.h"

#include "monitorsnapshot.h"
#include "monitorworker.h"

#include "core/rules/rule.h"

#include <QHash>
#include <QWidget>

#include <functional>

class QComboBox;
class QDialog;
class QFrame;
class QGridLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QScrollArea;
class QTableView;
class QVBoxLayout;

namespace sluice::ui {

class ConnectionController;
class LimitedModel;
class MessageBanner;
class ElidedLabel;
class ForeignWatchPanel;
class MonitorSession;
class RuleChart;
class RuleChartDialog;
class TopSubjectsModel;

// The Monitor page (CONSOLE.md): per rule, allowed and denied decisions per
// second as small multiples over a range (auto by default: the span of what was recorded; 1
// min, 5 min, 15 min, 1 h), values on hover, a click opens one chart large; they keep
// RuleChart::minimumChartHeight and the grid scrolls; "Limited right now", the subjects whose
// limiter state admits nothing now, with the time left and an Unblock action (deletes the state
// key after a confirmation); the busiest subjects of one rule. Everything is read from Redis
// (stats keys written by every process that records statistics, and the limiter keys), so the
// charts are there again after a console restart.
//
// A thin view over MonitorSession (the worker thread, the session generation, the snapshots,
// the unblock requests, the words): the page lays out what the session holds. A lost connection
// keeps the last data on screen and says so.
class MonitorPage : public QWidget
{
    Q_OBJECT
public:
    explicit MonitorPage(ConnectionController *connection, QWidget *parent = nullptr);
    ~MonitorPage() override;

    MonitorSession *session() const { return m_session; }
    const RuleSet &rules() const;
    // The last good snapshot (empty before the first read).
    const MonitorSnapshot &snapshot() const;
    LimitedModel *limitedModel() const { return m_limited; }
    TopSubjectsModel *topModel() const { return m_top; }
    // "Other limiters": the limiters Sluice does not run, from their keys.
    ForeignWatchPanel *foreignWatch() const { return m_foreign; }
    RuleChart *chart(const QString &ruleId) const { return m_charts.value(ruleId); }
    // The large chart a click opened (null when its dialog is closed).
    RuleChart *largeChart() const;

    // Tests: answers the Unblock confirmation instead of a dialog (true: go ahead). Without a
    // hook a QMessageBox asks (open(), not exec(): no nested event loop).
    void setConfirmHook(ConfirmHook hook);

protected:
    // The pointer on "Limited right now" holds its order (onLimitedChanged).
    bool eventFilter(QObject *watched, QEvent *event) override;
    // The limiter keys are scanned only while the page is on screen.
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

public Q_SLOTS:
    void setRules(const sluice::RuleSet &rules);
    // Reads now instead of at the next tick.
    void refresh();
    // Asks to unblock the selected row of "Limited right now" (confirmation first).
    void unblockSelected();
    // Asks to allow the selected subjects for an hour (confirmation first), then stores an
    // allow override for each (MonitorSession::storeOverrides).
    void allowSelected();
    // Opens the Block dialog (blockDialog: how long, default 1 h, and a note) for the selected
    // subjects; its Block stores a deny override for each.
    void blockSelected();
    // The Block dialog while it is open (null otherwise).
    QDialog *blockDialog() const { return m_blockDialog; }
    // Opens one rule's chart large, with its legend, in a dialog kept up to date.
    void openLarge(const QString &ruleId);

Q_SIGNALS:
    // A snapshot was swapped in (good or failed): tests wait on it.
    void updated();
    // An unblock finished: `error` empty on success.
    void unblockFinished(const QByteArray &key, const QString &error);
    // Allow or Block finished: one result per subject.
    void overrideFinished(const QList<sluice::ui::OverrideResult> &results);

private:
    void buildHeader(QVBoxLayout *root);
    QWidget *buildCharts(QWidget *parent);
    QVBoxLayout *buildLimited(QWidget *parent);
    QVBoxLayout *buildTop(QWidget *parent);
    void connectSession();
    void onUpdated();
    void onLimitedChanged();
    void onTopChanged();
    void onUnblocked(const QByteArray &key, bool existed, const QString &error);
    void rebuildCharts();
    void rebuildTopCombo();
    void updateStatus();
    void updateRange();
    void updateLimitedHeading();
    void updateUnblockButton();
    void onOverridden(const QList<OverrideResult> &results);
    // The selected rows of "Limited right now" that an override can name (adopted keys are
    // another limiter's: an override of the rule does not decide for them).
    QList<LimitedSubject> selectedRows() const;

    MonitorSession *m_session;
    ConfirmHook m_confirmHook;

    ElidedLabel *m_status;
    MessageBanner *m_banner;
    QScrollArea *m_chartArea;
    QWidget *m_chartBox;
    QGridLayout *m_chartGrid;
    QLabel *m_noRules;
    QComboBox *m_range;
    QLabel *m_rangeNote;
    RuleChartDialog *m_largeDialog = nullptr;
    ElidedLabel *m_topNote;
    QHash<QString, RuleChart *> m_charts;
    LimitedModel *m_limited;
    QTableView *m_limitedView;
    ElidedLabel *m_limitedHeading;
    ElidedLabel *m_limitedNote;
    bool m_limitedHeld = false;    // the pointer is on the list: its order holds
    bool m_limitedPending = false; // a newer list waits for the pointer to leave
    QPushButton *m_unblock;
    QPushButton *m_allow;
    QPushButton *m_block;
    QDialog *m_blockDialog = nullptr;
    TopSubjectsModel *m_top;
    QTableView *m_topView;
    QComboBox *m_topRule;
    ForeignWatchPanel *m_foreign;
};

} // namespace sluice::ui
