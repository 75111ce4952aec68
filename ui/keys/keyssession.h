#pragma once

#include "core/keys/keyfixer.h"
#include "core/keys/keyinfo.h"
#include "core/keys/keyscanner.h"
#include "core/keys/keysworker.h"
#include "core/rules/rule.h"

#include "ui/common/pagemessage.h"
#include "ui/common/workerthread.h"

#include <QHash>
#include <QObject>

#include <memory>
#include <optional>

class QTimer;

namespace sluice::ui {

class ConnectionController;
class KeysModel;
class KeysScanState;
struct ConnectionState;

// The Keys page's controller, widget-free (CONSOLE.md "Keys"): one keys::KeysWorker on a
// WorkerThread of its own per session of the connection (made again on sessionChanged), the scans
// (their pages appended to the model as they come; a newer scan cancels the one running), the
// once-a-second re-reads of the visible and selected keys, the fixes (the question to ask, the
// fix, its report in words), and the message line: the connection's note (lost, not
// connected), gone when Redis answers again, and the last scan's (stopped, restarted), gone
// with the next scan. The GUI thread never waits on Redis. Signals of a replaced worker are
// dropped.
class KeysSession : public QObject
{
    Q_OBJECT
public:
    KeysSession(ConnectionController *connection, KeysModel *model, QObject *parent = nullptr);
    ~KeysSession() override;

    // A worker for the connection's endpoint, and a first scan; a note when not connected.
    void startSession();
    // The worker stops (within one round trip); `wait`: until its thread is gone (closing).
    void stopSession(bool wait);
    bool hasSession() const { return m_worker != nullptr; }
    // A session if there is none, else a new scan of the whole match (F5, Scan again).
    void refresh();
    // A manual scan sees the whole match; a live one (on show, on the timer) walks at most
    // what the scan budget allows in one rescan interval, and says so when it stops there.
    enum class ScanKind { Manual, Live };
    void startScan(ScanKind kind = ScanKind::Manual);
    // The page was shown: a live rescan now (unless one runs, or rescans are off).
    void pageShown();

    // The one model of the last scan (scanstate.h): the banner, the navigation badge, the
    // status bar's link and the audit panel read it.
    KeysScanState *scanState() const { return m_scanState; }
    // The rescan interval in force (ms; the profile's keysRescanSeconds); 0: off.
    qint64 rescanInterval() const;
    // Cancels the scan or the fix running.
    void cancel();

    bool isScanning() const { return m_pendingScans > 0; }
    // The scan budget the session's worker was given (keys a second; 0: none): the profile's.
    double scanBudget() const { return m_scanBudget; }
    bool isFixing() const { return m_fixing; }
    // The running scan's share of the keyspace, 0..1; -1 before its first page.
    double scanFraction() const { return m_fraction; }
    // "12 keys · scanned in 40 ms", "3 keys so far".
    QString countText() const { return m_countText; }

    // Redis Cluster (CONSOLE.md "Keys on a Redis Cluster"): the session's endpoint is a
    // cluster, or its last scan walked shards. The page shows the Node column and the
    // per-shard progress then.
    bool isCluster() const;
    // The scans read one replica per shard instead of the masters (READONLY); a change
    // rescans. Off a cluster it changes nothing.
    void setScanReplicas(bool replicas);
    bool scanReplicas() const { return m_replicas; }
    // The shards of the running (or last) scan, and one line of words for each:
    // "127.0.0.1:7001: 12,400 keys, done", "127.0.0.1:7004 (replica of 127.0.0.1:7001):
    // 3,100 keys, 40%", "... waiting", "... failed: why". The heading says what was read.
    const QList<keys::NodeScan> &nodeScans() const { return m_nodes; }
    static QString describeNode(const keys::NodeScan &node);
    QString nodesHeading() const;
    // The message line: both notes, one a line, in the graver tone (plain text); empty: none.
    PageMessage message() const;

    const std::optional<RuleSet> &rules() const { return m_rules; }
    // Keys are judged and decoded by the set; rescans.
    void setRules(const RuleSet &rules);
    const Rule *ruleOf(const keys::KeyInfo &info) const;
    // The globs typed (none: the rules' default patterns, defaultPatterns()).
    void setPatterns(const QList<QByteArray> &globs) { m_patterns = globs; }
    QList<QByteArray> patterns() const { return m_patterns; }
    QString defaultPatterns() const;

    // The keys on screen (key -> model row) and the selected one: re-read every second.
    void setVisibleKeys(const QHash<QByteArray, int> &rows);
    void setSelectedKey(const std::optional<QByteArray> &key);

    // A fix asks first: the question and the word of its yes button.
    struct Question
    {
        QString text;
        QString yes;
        // Non-empty: the user types it to go ahead (deleting keys that match no rule's prefix,
        // which may not be limiter keys at all, needs their count typed in).
        QString typeToConfirm;
    };
    // nullopt when there is nothing to do, with why in `nothing` (empty: say nothing).
    std::optional<Question> fixSelectionQuestion(const QList<keys::KeyInfo> &keys, bool deleteKeys,
                                                 QString *nothing) const;
    std::optional<Question> fixAllQuestion(bool deleteKeys) const;
    void fixSelection(const QList<keys::KeyInfo> &keys, bool deleteKeys);
    void fixAll(bool deleteKeys);
    // A fix's outcome in words: a line, its tone, and the first outcomes one a line (the
    // tooltip).
    static PageMessage describe(const keys::KeyFixer::Report &report);

Q_SIGNALS:
    // The session, a scan or a fix started or ended, or the scan moved: progress and actions.
    void busyChanged();
    void countTextChanged();
    // nodeScans() changed (a page of the scan, its end).
    void nodesChanged();
    void messageChanged();
    void scanFinished(const sluice::keys::ScanSummary &summary);
    // The selected key, read again, and its raw value.
    void selectedRefreshed(const sluice::keys::KeyInfo &info);
    void valueRead(const sluice::keys::KeysWorker::RawValue &value);
    void fixFinished(const sluice::keys::KeyFixer::Report &report);
    // For the navigation badge: keys that never expire, keys flagged.
    void healthChanged(qint64 neverExpiring, qint64 flagged);

private:
    void onScanStarted();
    void onPage(const QList<keys::KeyInfo> &keys, const keys::ScanProgress &p);
    void onScanFinished(const keys::ScanSummary &summary);
    void onRefreshed(const QList<keys::KeyInfo> &keys);
    void onConnectionError(const QString &message);
    void onWorkerError(const QString &message); // this page's worker lost Redis
    void onConnectionState(const ConnectionState &state);
    void onFixFinished(const keys::KeyFixer::Report &report);
    void onCountsChanged();
    // The worker got answers from Redis: reported to the console's connection state, and the
    // note about a lost connection goes. True when that note was up.
    bool workerReached();
    void connectionBack();
    void beginFix();
    void setConnectionNote(const QString &text, Tone tone = Tone::Warning);
    void setScanNote(const QString &text, Tone tone = Tone::Warning);
    void setCountText(const QString &text);
    void setNodes(const QList<keys::NodeScan> &nodes);
    void scheduleLive();
    void onLiveTimer();
    keys::HealthSummary healthNow() const;

    ConnectionController *m_connection;
    KeysModel *m_model;
    std::optional<RuleSet> m_rules;
    QList<QByteArray> m_patterns;
    std::unique_ptr<WorkerThread<keys::KeysWorker>> m_thread; // one per session
    keys::KeysWorker *m_worker = nullptr;                     // m_thread's, while it runs
    int m_pendingScans = 0;
    double m_fraction = -1;
    double m_scanBudget = 0;
    bool m_fixing = false;
    bool m_connectionTrouble = false;
    bool m_controllerLost = false; // the console's connection state was Lost or Failed
    bool m_scanFailed = false;
    QString m_connectionNote;
    Tone m_connectionTone = Tone::Warning;
    QString m_scanNote;
    Tone m_scanTone = Tone::Warning;
    QString m_countText;
    bool m_replicas = false;
    QList<keys::NodeScan> m_nodes;
    qint64 m_lastNeverExpiring = -1;
    qint64 m_lastFlagged = -1;
    KeysScanState *m_scanState;
    QTimer *m_liveTimer;
    std::optional<QList<QByteArray>> m_lastScanPatterns; // of the last scan started
    QList<QList<QByteArray>> m_scanQueue; // the patterns of the scans queued, in their order
    QHash<QByteArray, int> m_visibleRows; // key -> model row, of the keys sent to the worker
    std::optional<QByteArray> m_selected;
};

} // namespace sluice::ui
