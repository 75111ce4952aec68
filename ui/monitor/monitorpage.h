#pragma once

#include "ui/common/confirm.h"

#include "monitorsnapshot.h"

#include "core/rules/rule.h"

#include <QHash>
#include <QWidget>

#include <functional>

class QComboBox;
class QFrame;
class QGridLayout;
class QLabel;
class QPushButton;
class QScrollArea;
class QTableView;

namespace sluice::ui {

class ConnectionController;
class LimitedModel;
class MessageBanner;
class MonitorSession;
class RuleChart;
class TopSubjectsModel;

// The Monitor page (issue 6 item 2, CONSOLE.md): per rule, allowed and denied decisions per
// second over the last 15 minutes as small multiples; "Limited right now", the subjects whose
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
    RuleChart *chart(const QString &ruleId) const { return m_charts.value(ruleId); }

    // Tests: answers the Unblock confirmation instead of a dialog (true: go ahead). Without a
    // hook a QMessageBox asks (open(), not exec(): no nested event loop).
    void setConfirmHook(ConfirmHook hook);

protected:
    // The limiter keys are scanned only while the page is on screen.
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

public Q_SLOTS:
    void setRules(const sluice::RuleSet &rules);
    // Reads now instead of at the next tick.
    void refresh();
    // Asks to unblock the selected row of "Limited right now" (confirmation first).
    void unblockSelected();

Q_SIGNALS:
    // A snapshot was swapped in (good or failed): tests wait on it.
    void updated();
    // An unblock finished: `error` empty on success.
    void unblockFinished(const QByteArray &key, const QString &error);

private:
    void onUpdated();
    void onLimitedChanged();
    void onTopChanged();
    void onUnblocked(const QByteArray &key, bool existed, const QString &error);
    void rebuildCharts();
    void rebuildTopCombo();
    void updateStatus();
    void updateLimitedHeading();
    void updateUnblockButton();

    MonitorSession *m_session;
    ConfirmHook m_confirmHook;

    QLabel *m_status;
    MessageBanner *m_banner;
    QScrollArea *m_chartArea;
    QWidget *m_chartBox;
    QGridLayout *m_chartGrid;
    QLabel *m_noRules;
    QHash<QString, RuleChart *> m_charts;
    LimitedModel *m_limited;
    QTableView *m_limitedView;
    QLabel *m_limitedHeading;
    QLabel *m_limitedNote;
    QPushButton *m_unblock;
    TopSubjectsModel *m_top;
    QTableView *m_topView;
    QComboBox *m_topRule;
};

} // namespace sluice::ui
