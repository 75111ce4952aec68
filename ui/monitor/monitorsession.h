#pragma once

#include "monitorsnapshot.h"
#include "monitorworker.h"

#include "ui/common/pagemessage.h"
#include "ui/common/workerthread.h"

#include "core/load/loadgenerator.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

namespace sluice::ui {

class ConnectionController;
struct ConnectionState;

// The Monitor page's controller, widget-free (CONSOLE.md "Monitor"): one MonitorWorker on a
// thread of its own (WorkerThread) that reads once a second; the session generation (a new one
// on every ConnectionController::sessionChanged, so that reads for an older endpoint are
// dropped); the rules and the rule whose top subjects are shown; the last good snapshot (a
// failed read keeps it, and says why); the unblock requests and their outcome in words; the
// status line. The GUI thread never waits on Redis: every call to the worker is queued.
class MonitorSession : public QObject
{
    Q_OBJECT
public:
    explicit MonitorSession(ConnectionController *connection, QObject *parent = nullptr);
    MonitorSession(ConnectionController *connection, MonitorWorker::Options options,
                   QObject *parent = nullptr);
    ~MonitorSession() override;

    const RuleSet &rules() const { return m_rules; }
    // The last good snapshot (empty before the first read of the session). Its limited
    // subjects (and their key count) are those of the last read that scanned the keys.
    const MonitorSnapshot &snapshot() const { return m_snapshot; }
    // The last read's error; empty when it worked.
    QString error() const { return m_error; }
    bool isConnectionLost() const { return m_connectionLost; }
    // Increases on every session of the connection; the snapshots carry it.
    quint64 generation() const { return m_generation; }

    // The rule whose top subjects are asked for: a rule id, MonitorSnapshot::busiestRule, or
    // empty (no rules).
    QString topRule() const { return m_topRule; }
    // The top subjects of topRule() (empty until a read for it comes).
    const QList<stats::TopSubject> &topSubjects() const { return m_top; }
    // The busiest rule of the last read for busiestRule; empty: none yet, or no traffic.
    QString busiestRuleId() const { return m_busiestId; }
    // "Busiest rule", "Busiest: login".
    QString busiestLabel() const;

    // The charts' time range (CONSOLE.md "Monitor"): one of ranges() in seconds, or 0 for auto,
    // the default: the shortest of autoSteps() that holds the latest burst of decisions (from
    // burstStart() to now; when there is none, a minute). A second load long after the first
    // fills the chart again: auto follows the traffic, not the time the console connected.
    static QList<int> ranges() { return {60, 5 * 60, 15 * 60, 60 * 60}; }
    static QList<int> autoSteps() { return {15, 30, 60, 120, 180, 300, 600, 900}; }
    // A quiet stretch this long (seconds with no decision of any rule) ends a burst.
    static constexpr int burstGap = 60;
    int range() const { return m_range; }
    // The range the charts show now: range(), or auto's pick from the last snapshot.
    int shownSeconds() const;
    static int autoSeconds(const QList<stats::RuleSeries> &series, qint64 nowSecond);
    // The first second of the latest burst: the newest second with decisions, and every
    // earlier one reached without a quiet stretch of burstGap seconds; -1 when none has any.
    static qint64 burstStart(const QList<stats::RuleSeries> &series, qint64 nowSecond);
    // "1 min", "15 s", "1 h".
    static QString rangeText(int seconds);
    // What the range shows, in words, and where it has no data: "Auto: the last 30 s, the
    // shortest range that holds the latest burst of decisions (from 12:01:05)." / "The statistics
    // keep 16 minutes: nothing before 12:04 in this hour." / "No decisions recorded in the last 5
    // min."
    QString rangeNote() const;

    // The rules whose recorded decisions were made on other keys than theirs, such as the Load
    // page's own, and which have no key under their prefix in the last complete key scan:
    // those that decided in the last seconds, and those of a run of this console's Load page
    // on its own keys in the last 15 minutes (noteLoad). Empty before the first scan.
    QStringList unwatchedRules() const;
    // The note under Top subjects (empty when there is nothing to say).
    QString topNote() const;

    // The status line in words (plain text) and its tone (Info: neutral).
    PageMessage status() const;
    // The list of limited subjects is a read from before Redis stopped answering (the last
    // read failed, or the connection is lost): the heading and the note say so, and the rows
    // are drawn grey, never an all-clear.
    bool isLimitedStale() const;
    // "Limited right now (3)", and the note under the list.
    QString limitedHeading() const;
    QString limitedNote() const;

    // The unblock question for a subject, and its outcome in words (rich text) and tone.
    static QString unblockQuestion(const LimitedSubject &subject);
    static PageMessage describeUnblock(const QByteArray &key, bool existed, const QString &error);
    bool isUnblocking() const { return m_unblocking > 0; }

    // "Allow for 1 h…" and "Block…": stored overrides (OverrideStore) for subjects of the rules.
    static constexpr qint64 allowTtlUs = 3600LL * 1'000'000;
    static constexpr qint64 defaultBlockUs = 3600LL * 1'000'000;
    // The question before an allow, naming the subjects and rules.
    static QString allowQuestion(const QList<OverrideTarget> &targets);
    // What the outcome says: each subject stored (with its end) or failed (with why), by rule.
    static PageMessage describeOverrides(const QList<OverrideResult> &results);
    bool isOverriding() const { return m_overriding > 0; }
    // The RuleStore namespace of the stored overrides (default "{sluice}:"); tests give theirs.
    void setStoreNamespace(const QByteArray &ns);

public Q_SLOTS:
    // The rules to chart; the top rule is kept when still there, else the busiest rule.
    void setRules(const sluice::RuleSet &rules);
    void setTopRule(const QString &ruleId);
    // One of ranges(), or 0 for auto.
    void setRange(int seconds);
    // A Load page run ended: on keys of its own (progress.keyPrefix set), its rules' recorded
    // decisions are not on their keys; on the real keys, they are again.
    void noteLoad(const sluice::load::LoadProgress &progress);
    // Reads now instead of at the next tick.
    void refresh();
    // The page is on screen: its limiter keys are scanned (off: the statistics only).
    void setPageVisible(bool visible);
    // Deletes the subject's state key (no question asked here: the view asks first).
    void unblock(const QByteArray &key);
    // Stores an allow or deny override for each target, ending ttlUs from now (no question
    // asked here: the view asks first).
    void storeOverrides(const QList<sluice::ui::OverrideTarget> &targets,
                        sluice::Override::Action action, qint64 ttlUs, const QString &note = {});

Q_SIGNALS:
    // A new session started: everything read before is gone.
    void reset();
    // A snapshot came (good or failed), after it was swapped in.
    void updated();
    // The limited subjects changed (a read that scanned the keys).
    void limitedChanged();
    // topSubjects() or busiestLabel() changed.
    void topChanged();
    // range() changed (shownSeconds() may change with every snapshot too: updated()).
    void rangeChanged();
    // statusText() may have changed.
    void statusChanged();
    void unblockingChanged();
    // An unblock finished: `error` empty on success.
    void unblockFinished(const QByteArray &key, bool existed, const QString &error);
    void overridingChanged();
    // Stored overrides were written (or not): one result per target.
    void overrideFinished(const QList<sluice::ui::OverrideResult> &results);

private:
    void onSession();
    bool ownKeysRun(const QString &ruleId) const;
    QString unwatchedNote(const QStringList &unwatched) const;
    void onConnectionState(const ConnectionState &state);
    void onSnapshot(const MonitorSnapshot &s);
    void onUnblocked(const QByteArray &key, bool existed, const QString &error);
    void onOverridden(const QList<OverrideResult> &results);

    ConnectionController *m_connection;
    quint64 m_generation = 0;
    RuleSet m_rules;
    QString m_topRule;
    QList<stats::TopSubject> m_top;
    QString m_busiestId;
    MonitorSnapshot m_snapshot; // last good one
    QString m_error;            // of the last read, empty when it worked
    bool m_connectionLost = false;
    int m_unblocking = 0;
    int m_overriding = 0;
    int m_range = 0; // auto
    qint64 m_lastUnblockMs = 0;
    bool m_keysRead = false;              // a key scan of this session came
    QHash<QString, qint64> m_ownKeyRuns;  // rule id -> when a run on its own keys ended (ms)
    QHash<QString, qint64> m_realKeyRuns; // rule id -> when a run on the real keys ended (ms)
    qint64 m_failedSinceMs = 0;           // when reads began to fail (0: they work)
    WorkerThread<MonitorWorker> m_worker; // last: its thread stops first
};

} // namespace sluice::ui
