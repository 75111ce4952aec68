#pragma once

#include "core/keys/keyfixer.h"
#include "core/keys/keyinfo.h"
#include "core/keys/keyscanner.h"
#include "core/keys/keysworker.h"
#include "core/rules/rule.h"

#include "ui/common/confirm.h"
#include "ui/common/tone.h"

#include <QHash>
#include <QPointer>
#include <QWidget>

#include <functional>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QSplitter;
class QStackedWidget;
class QTableView;
class QVBoxLayout;
class QTimer;

namespace sluice::ui {

class AuditPanel;
class ConnectionController;
class HealthBanner;
class KeyDetails;
class KeysScanState;
class KeysTree;
class KeysFilterProxy;
class KeysModel;
class KeysSession;
class MessageBanner;
struct ConnectionState;

// The console's Keys page (CONSOLE.md "Keys"): the limiter keys of the session's Redis, their
// state and TTL, and what is wrong with them. A thin view over a KeysSession (the worker
// thread, the scans, the re-reads of the visible rows, the fixes and the messages): the scan
// comes in pages that the table shows as they arrive, the visible rows (and the selected one)
// are read again every second. The GUI thread never waits on the network.
//
// - Health banner on top, with "Show them" (only flagged), "Fix all from rules", "Delete all
//   flagged"; Set TTL / Delete for the selection. Every write asks first, saying how many
//   keys, and ends with a report in the page.
// - A lost connection shows a message; the table keeps its last data and recovers by itself
//   (the worker reconnects on its next refresh). A scan cut by a Redis restart ends with a
//   message; the keys read before stay.
// - Without rules (until setRules()) keys are judged by their TTL only, scanned with the
//   pattern typed, or "rate_limit:*".
class KeysPage : public QWidget
{
    Q_OBJECT
public:
    explicit KeysPage(ConnectionController *connection, QWidget *parent = nullptr);
    ~KeysPage() override;

    // Asks the user before a write: returns whether to go ahead. The default opens a message
    // box (window-modal, answered asynchronously); tests install one that answers at once.
    void setConfirm(ConfirmHook confirm);

    KeysModel *model() const { return m_model; }
    KeysFilterProxy *proxy() const { return m_proxy; }
    KeysSession *session() const { return m_session; }
    AuditPanel *audit() const { return m_audit; } // the "Audit the whole keyspace" mode
    KeysTree *tree() const { return m_tree; }
    // The one model of the last scan: the banner, the navigation badge, the status bar's link
    // and the audit panel read it (scanstate.h).
    KeysScanState *scanState() const;
    // The tree in place of the table (the same rows); off: the flat table.
    void setTreeShown(bool tree);
    bool isTreeShown() const;
    bool isScanning() const;
    bool isFixing() const;
    QString message() const;

public Q_SLOTS:
    // The Rules page's set: keys are judged and decoded by it; rescans.
    void setRules(const sluice::RuleSet &rules);
    void refresh();     // F5: scan again
    void focusFilter(); // Ctrl+F

Q_SIGNALS:
    // For the navigation badge and the status bar's headline.
    void healthChanged(qint64 neverExpiring, qint64 flagged);
    // A scan ended (completed, cancelled or failed); the table holds what it delivered.
    void scanFinished(const sluice::keys::ScanSummary &summary);
    // A fix or delete ended; the report is also shown in the page.
    void fixFinished(const sluice::keys::KeyFixer::Report &report);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;
    void showEvent(QShowEvent *event) override;

private:
    void buildHeader(QVBoxLayout *root);
    void buildFilters(QVBoxLayout *root);
    void buildTable();
    void buildModes(QVBoxLayout *root);
    void connectControls();
    void connectSession();
    QList<QByteArray> patterns() const;
    void updatePatternHint();
    void updateBusy();
    void updateCluster(); // the Node column, the replicas option and the shards' progress
    void updateBanner();
    void onCurrentChanged();
    void updateVisible();
    // New flagged keys are not left out of sight below the fold: see the .cpp.
    void bringFlaggedIntoView();
    void repaintTtl();
    void updateActions();
    void updateCount();
    void selectKey(const QByteArray &key);
    QList<keys::KeyInfo> selectedKeys() const;
    void fixSelection(bool deleteKeys);
    void fixAll(bool deleteKeys);

    ConnectionController *m_connection;
    ConfirmHook m_confirm;
    QHash<QByteArray, int> m_visibleRows; // key -> source row, of the keys sent to the worker

    KeysModel *m_model;
    KeysSession *m_session;
    KeysFilterProxy *m_proxy;
    HealthBanner *m_banner;
    MessageBanner *m_message;
    MessageBanner *m_reportBox;
    QLineEdit *m_pattern;
    QLineEdit *m_filter;
    QCheckBox *m_onlyFlagged;
    QCheckBox *m_replicas;
    QLabel *m_nodes;
    QProgressBar *m_progress;
    QLabel *m_count;
    QPushButton *m_cancel;
    QPushButton *m_setTtl;
    QPushButton *m_delete;
    QPushButton *m_rescan;
    QSplitter *m_splitter;
    QTableView *m_view;
    QObject *m_viewport = nullptr; // m_view's, watched for resizes
    KeyDetails *m_details;
    QTimer *m_visibleTimer;
    QTimer *m_filterTimer;
    QTimer *m_ttlTimer;
    QPushButton *m_auditToggle;
    AuditPanel *m_audit;
    KeysTree *m_tree;
    QPushButton *m_treeToggle;
    QStackedWidget *m_views;
    bool m_columnsFitted = false;
    qint64 m_flaggedSeen = 0; // the flagged count when the table last scrolled to one
};

} // namespace sluice::ui
