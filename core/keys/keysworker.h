#pragma once

#include "keyfixer.h"
#include "keyinfo.h"
#include "keyscanner.h"

#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/redis/lazyconnection.h"
#include "core/rules/rule.h"

#include <QElapsedTimer>
#include <QList>
#include <QMutex>
#include <QObject>

#include <atomic>
#include <memory>
#include <optional>

class QTimer;

namespace sluice::keys {

// The Keys page's worker (ARCHITECTURE.md "Threads"): lives in a QThread of its own with its
// own connection; the page calls its slots queued and gets value snapshots back in signals.
// Nothing here blocks the GUI thread, however large the keyspace or slow the server.
//
//   auto *w = new KeysWorker(endpoint, rules);
//   w->moveToThread(thread);                  // then start the thread
//   QMetaObject::invokeMethod(w, [=] { w->scan({}); });   // or a queued connection
//   w->cancel();                              // direct, from the GUI thread
//
// - scan(): pages of KeyInfo, batched so that pageReady() comes at most every
//   `pageInterval` (10 a second by default), then scanFinished() with the health summary.
// - Visible rows: setVisibleKeys() (direct, any thread) names them; they are re-read in one
//   pipelined round trip every `refreshInterval` (1 s) and sent with refreshed(), also while
//   a scan runs (between its pages, on the same connection).
// - fix(): KeyFixer on the keys given (a selection); fixAllFlagged(): scan and fix page by
//   page (KeyFixer::sweep); fixFinished() with the report. cancel() stops either.
// Errors never throw: a failed scan ends with scanFinished() carrying the error; a failed
// refresh emits connectionError() once per failure streak and is retried on the next tick.
class KeysWorker : public QObject
{
    Q_OBJECT
public:
    // The raw value of one key for the Keys page's details pane (requestValue()): bounded
    // reads, never the whole of a big value. `entries` hold, per type: string: one ("", the
    // first `valueCap` bytes); hash: (field, value) from one HSCAN page; zset: (member, score)
    // of the 20 lowest; list: ("", item) of the first 20; set: ("", member) from one SSCAN
    // page; other types (gcra, stream, ...): none. Values longer than 1 KiB are cut there, on
    // the server (a small read-only script, EVALSHA_RO): a 20 MB member is never transferred.
    // Without scripting (an ACL without +evalsha_ro / +script|load): plain reads, where a hash
    // is read by field names (HRANDFIELD) and HSTRLEN, and a value above 1 KiB is not read at
    // all; lists, sorted sets and sets then come whole per member, as before.
    struct RawValue
    {
        QByteArray key;
        QByteArray type;  // TYPE; "none" when the key is gone
        qint64 size = -1; // STRLEN, HLEN, ZCARD, LLEN, SCARD; -1 for other types
        qint64 pttlMs = -2;
        QList<QPair<QByteArray, QByteArray>> entries;
        // The full byte length of each entry's two parts, as the server has them (entries are
        // cut at 1 KiB): a part longer than its entry's bytes was cut.
        QList<QPair<qint64, qint64>> entryLengths;
        bool serverSideCut = false; // read through the script (false: plain reads)
        QString error;              // non-empty: the read failed (connection lost, ...)
    };
    // The bounded read behind requestValue(), on `c` (tests call it directly).
    static RawValue readValue(Connection &c, const QByteArray &key);

    struct Options
    {
        int refreshIntervalMs = 1000;
        int pageIntervalMs = 100;
        // A batch of rows handed to the page holds at most this many keys, however fast the
        // scan: the GUI thread merges a key in about 3 us at 1M rows, so a batch of 100 ms of
        // a fast scan (20,000 keys) held it for 60 ms and more.
        int pageMaxKeys = 8000;
        KeyReader::Options reader;
        KeyScanner::Options scanner; // patterns and cancel are set per scan
    };

    KeysWorker(Endpoint endpoint, std::optional<RuleSet> rules, Options options,
               QObject *parent = nullptr);
    KeysWorker(Endpoint endpoint, std::optional<RuleSet> rules, QObject *parent = nullptr);
    ~KeysWorker() override;

    // Thread-safe; call directly from any thread.
    void cancel();
    void setVisibleKeys(const QList<QByteArray> &keys);
    // Redis Cluster: the next scans read one replica per shard instead of the masters
    // (KeyScanner::Options::replicas). Fixes always scan the masters.
    void setScanReplicas(bool replicas) { m_replicas.store(replicas, std::memory_order_relaxed); }
    // Reads `key`'s raw value (valueRead() later): as soon as the worker is idle, or between
    // two pages of a running scan. Only the latest request is kept.
    void requestValue(const QByteArray &key);

public Q_SLOTS:
    // All run in the worker's thread: call them queued.
    // `patterns` empty: every rule's key prefix. `maxKeysWalked` > 0: the scan stops (as
    // Cancelled, with ScanSummary::stoppedAtCap) once it has walked that many keys, counted as
    // the budget counts them (ScanProgress::keysWalked): the Keys page's automatic rescans
    // walk at most what the scan budget allows in one interval.
    void scan(const QList<QByteArray> &patterns, qint64 maxKeysWalked = 0);
    void refreshVisible();
    void fix(const QList<sluice::keys::KeyInfo> &keys, bool deleteKeys, bool dryRun);
    // "Fix all from rules" / "delete all flagged": KeyFixer::sweep over `patterns` (empty:
    // every rule's key prefix); fixFinished() with every key that was not ok. A scan that
    // failed midway is reported as the report's error, after the fixes done before it.
    void fixAllFlagged(const QList<QByteArray> &patterns, bool deleteKeys, bool dryRun);
    void setRules(const sluice::RuleSet &rules);
    void startRefreshing(); // the 1 s timer; call once the worker is in its thread
    void stopRefreshing();

Q_SIGNALS:
    void scanStarted();
    void pageReady(const QList<sluice::keys::KeyInfo> &keys,
                   const sluice::keys::ScanProgress &progress);
    void scanFinished(const sluice::keys::ScanSummary &summary);
    void refreshed(const QList<sluice::keys::KeyInfo> &keys);
    void fixFinished(const sluice::keys::KeyFixer::Report &report);
    void connectionError(const QString &message);
    void valueRead(const sluice::keys::KeysWorker::RawValue &value);

private:
    Connection *connection(QString *error); // opens (or reopens) it; nullptr on failure
    Connection *fixConnection(bool dryRun);
    void refreshNow();
    void readPendingValue(); // worker thread: serves requestValue()

    Options m_options;
    LazyConnection m_connection;
    KeyReader m_reader;
    QTimer *m_timer = nullptr;
    std::atomic<bool> m_cancel{false};
    std::atomic<bool> m_replicas{false};
    QMutex m_visibleMutex;
    QList<QByteArray> m_visible;
    std::optional<QByteArray> m_valueRequest; // guarded by m_visibleMutex
    QElapsedTimer m_sinceRefresh;
    bool m_refreshFailing = false;
};

} // namespace sluice::keys

Q_DECLARE_METATYPE(sluice::keys::KeysWorker::RawValue)
