#pragma once

#include "monitorsnapshot.h"

#include "core/keys/keyscanner.h"
#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/redis/lazyconnection.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <optional>

class QTimer;

namespace sluice::ui {

// One subject of a rule that the Monitor's "Allow for 1 h…" or "Block…" writes a stored
// override for (OverrideStore), and how that went.
struct OverrideTarget
{
    QString ruleId;
    QByteArray subject;
    friend bool operator==(const OverrideTarget &, const OverrideTarget &) = default;
};
struct OverrideResult
{
    OverrideTarget target;
    Override::Action action = Override::Action::Allow;
    QString error;        // empty: stored
    qint64 expiresUs = 0; // the stored override's end (unix µs, the server's clock)
};

// The Monitor page's worker (ARCHITECTURE.md "Threads"): lives on a QThread of its own with its
// own Connection; the page calls its slots queued (QMetaObject::invokeMethod with a lambda) and
// gets MonitorSnapshot values back. Once a second (`tickMs`) it reads:
// - the last `windowSeconds` of every rule's allowed / denied / shadow-denied per second
//   (StatsReader::readSeries: one pipelined round trip for all rules) and the top subjects of
//   the rule the page shows (readTopSubjects: one more);
// - every `scanEveryTicks` ticks, the limiter keys (KeyScanner over the rules' prefixes, one
//   round trip per SCAN page, at most `maxKeysScanned` keys), keeping the subjects whose state
//   admits nothing now (limitedsubject.h). A scan that takes long is repeated less often: the
//   next one waits at least 10 times its duration, so that a large keyspace costs the server
//   at most about a tenth of one connection's time.
// Errors never throw: a failed read emits a snapshot with only `error`, the connection is
// reopened by LazyConnection's rule on the next tick, and the page keeps its last data meanwhile.
class MonitorWorker : public QObject
{
    Q_OBJECT
public:
    struct Options
    {
        int tickMs = 1000;
        int windowSeconds = 15 * 60;
        int topCount = 10;
        int scanEveryTicks = 2;
        qint64 maxKeysScanned = 50'000;
    };

    explicit MonitorWorker(Options options, QObject *parent = nullptr);
    explicit MonitorWorker(QObject *parent = nullptr);
    ~MonitorWorker() override;

    // Thread-safe, direct from any thread: makes a running scan stop within a round trip (the
    // page calls it before stopping the thread).
    void cancel();

    // The slots below run in the worker thread (queued calls).
    // Starts the timer (call once, after moveToThread and QThread::start).
    void start();
    // Where to read; nullopt: stop reading. `session` is echoed in the snapshots.
    // `scanBudget`: keys a second the limited-subjects scan walks at most (the profile's).
    void setEndpoint(std::optional<Endpoint> endpoint, quint64 session,
                     double scanBudget = keys::defaultScanBudget);
    // The rules to read, and the one whose top subjects to read (empty: none); reads at once.
    void setRules(RuleSet rules, QString topRule);
    void setTopRule(QString ruleId);
    // Reads now (the next tick comes a full interval later); `withKeys` scans the keys too.
    void refresh(bool withKeys = true);
    // Whether the limiter keys are scanned at all (the console scans the keyspace
    // only for a page on screen): off, the statistics are still read, the keys are not. On
    // again: a scan at once.
    void setScanKeys(bool on);
    // Deletes the state key (the subject is admitted again at once), then rescans the keys.
    // unblocked() tells the outcome; `existed` false: the key was already gone.
    void unblock(QByteArray key);
    // Stores an override of `action` (Allow or Deny) for each target through OverrideStore,
    // ending `ttlUs` from the server's clock, replacing a stored override of the same subject
    // (the user picked what it gets now), then rescans the keys. overridden() tells the
    // outcome, one result per target.
    void storeOverrides(QList<sluice::ui::OverrideTarget> targets, sluice::Override::Action action,
                        qint64 ttlUs, QString note);
    // The RuleStore namespace the stored overrides live under ("{sluice}:"; tests give theirs).
    void setStoreNamespace(QByteArray ns);

Q_SIGNALS:
    void snapshotReady(const sluice::ui::MonitorSnapshot &snapshot);
    void unblocked(const QByteArray &key, bool existed, const QString &error);
    void overridden(const QList<sluice::ui::OverrideResult> &results);

private:
    void tick();
    bool ensureConnection(QString *error);
    MonitorSnapshot read(bool withKeys);
    void scanLimited(MonitorSnapshot &s);
    // Marks the rows decided by an override (the rule file's, and the stored ones read now) and
    // adds the subjects an exact deny override blocks that have no full key.
    void applyOverrides(MonitorSnapshot &s);

    Options m_options;
    QTimer *m_timer = nullptr;
    std::optional<LazyConnection> m_connection; // none: not connected
    quint64 m_session = 0;
    RuleSet m_rules;
    QString m_topRule;
    int m_ticks = 0;
    bool m_scanKeys = true;
    qint64 m_nextScanMs = 0; // local ms since the epoch; see the back-off above
    double m_scanBudget = keys::defaultScanBudget;
    std::atomic<bool> m_cancel{false};
    QByteArray m_ns = "{sluice}:";
};

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::OverrideTarget)
Q_DECLARE_METATYPE(sluice::ui::OverrideResult)
