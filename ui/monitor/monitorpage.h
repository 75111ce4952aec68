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
class QThread;

namespace sluice::ui {

class ConnectionController;
struct ConnectionState;
class LimitedModel;
class MessageBanner;
class MonitorWorker;
class RuleChart;
class TopSubjectsModel;

// The Monitor page (issue 6 item 2, CONSOLE.md): per rule, allowed and denied decisions per
// second over the last 15 minutes as small multiples; "Limited right now", the subjects whose
// limiter state admits nothing now, with the time left and an Unblock action (deletes the state
// key after a confirmation); the busiest subjects of one rule. Everything is read from Redis
// (stats keys written by every process that records statistics, and the limiter keys), so the
// charts are there again after a console restart.
//
// Threading: a MonitorWorker on its own QThread reads once a second and sends snapshots; the
// GUI thread only swaps them in. A lost connection keeps the last data on screen and says so.
class MonitorPage : public QWidget
{
    Q_OBJECT
public:
    explicit MonitorPage(ConnectionController *connection, QWidget *parent = nullptr);
    ~MonitorPage() override;

    const RuleSet &rules() const { return m_rules; }
    // The last good snapshot (empty before the first read).
    const MonitorSnapshot &snapshot() const { return m_snapshot; }
    LimitedModel *limitedModel() const { return m_limited; }
    TopSubjectsModel *topModel() const { return m_top; }
    RuleChart *chart(const QString &ruleId) const { return m_charts.value(ruleId); }

    // Tests: answers the Unblock confirmation instead of a dialog (true: go ahead). Without a
    // hook a QMessageBox asks (open(), not exec(): no nested event loop).
    void setConfirmHook(ConfirmHook hook);

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
    void onSession();
    void onConnectionState(const ConnectionState &state);
    void onSnapshot(const MonitorSnapshot &s);
    void onUnblocked(const QByteArray &key, bool existed, const QString &error);
    void doUnblock(const QByteArray &key);
    void rebuildCharts();
    void updateStatus();
    void updateLimitedHeading();
    void updateUnblockButton();

    ConnectionController *m_connection;
    QThread *m_thread;
    MonitorWorker *m_worker;
    quint64 m_session = 0;
    RuleSet m_rules;
    MonitorSnapshot m_snapshot; // last good one
    QString m_error;            // of the last read, empty when it worked
    bool m_connectionLost = false;
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
