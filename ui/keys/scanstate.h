#pragma once

#include "core/keys/keyhealth.h"

#include "ui/common/tone.h"

#include <QDateTime>
#include <QObject>
#include <QString>

class QTimer;

namespace sluice::ui {

// The one model of the Keys page's last scan (CONSOLE.md "Keys: live and honest"), owned by
// the KeysSession; the health banner, the navigation badge, the status bar's link and the
// audit panel all read it, so that they cannot disagree. It holds what the last scan that
// delivered keys saw (when it finished, how long it took, how many keys, whether it saw the
// whole match or stopped at the scan budget), the health of the rows now (the model's counts,
// which the 1 s re-reads keep current), and whether Redis failed since. From the clock and the
// rescan interval it says how current that is, allowing each interval the time its rescan
// takes (the next result comes one interval after this one finished, plus the scan itself:
// the last scan's duration twice, at least a second, so that a rescan on time never reads as
// late):
// - fresh: finished less than one interval (and that time) ago, and nothing failed since;
// - aging: up to two intervals (no green any more, not yet stale);
// - stale: older than that, or a scan or the connection failed since.
// A green "healthy" (mayShowHealthy()) needs fresh and the whole match. GUI thread.
class KeysScanState : public QObject
{
    Q_OBJECT
public:
    enum class Freshness { None, Fresh, Aging, Stale };

    explicit KeysScanState(QObject *parent = nullptr);

    // The rescan interval (ms); 0: no automatic rescans, and a result is judged against the
    // default interval (ConnectionProfile::defaultKeysRescanSeconds) all the same.
    void setInterval(qint64 ms);
    qint64 interval() const { return m_intervalMs; }
    qint64 freshFor() const; // the interval, or the default one when off

    // The session's reports.
    void reset(); // a new session: nothing known
    void setScanning(bool scanning);
    // A scan that delivered its keys: `complete`: it saw the whole match; else `fraction` of
    // the keyspace was walked (`atCap`: it stopped at the scan budget of one interval).
    void scanDone(qint64 durationMs, qint64 keys, bool complete, double fraction, bool atCap);
    // A scan that failed, or a connection lost: the last good result stays, marked stale.
    void failed(const QString &why);
    void setHealth(const keys::HealthSummary &health);

    // What is known.
    bool hasResult() const { return m_finishedAt.isValid(); }
    bool isScanning() const { return m_scanning; }
    QDateTime finishedAt() const { return m_finishedAt; }
    qint64 durationMs() const { return m_durationMs; }
    qint64 keysScanned() const { return m_keys; }
    bool isComplete() const { return m_complete; }
    bool stoppedAtCap() const { return m_atCap; }
    double fraction() const { return m_fraction; }
    QString failure() const { return m_failure; }
    QDateTime failedAt() const { return m_failedAt; }
    const keys::HealthSummary &health() const { return m_health; }
    qint64 flagged() const { return m_health.keys - m_health.ok; } // every key not ok
    qint64 neverExpiring() const { return m_health.noTtl; }

    Freshness freshness() const;
    bool isCurrent() const { return freshness() == Freshness::Fresh; }
    // A green "No limiter keys" or "All healthy" may be shown.
    bool mayShowHealthy() const;

    // The words every reader uses.
    // "scanned 12:04:31, 0.2 s, 217 keys" (+ ", 31 % of the keyspace" when partial,
    // + " · stale" when stale); "not scanned yet".
    QString scanLine() const;
    // Why the result is not current, in a sentence; empty when it is.
    QString notCurrentText() const;
    // The status bar's link: "3 keys never expire", "5 flagged keys", "Keys: partial scan",
    // "Keys: stale since 12:04:31"; empty: nothing to say (healthy and current).
    QString headline() const;
    Tone headlineTone() const;
    // The navigation item: "Keys", "Keys  3"; its tooltip: what is flagged, and scanLine().
    QString badgeText() const;
    QString badgeToolTip() const;

    // For tests: the clock (ms since the epoch) the judgement uses; 0: the real one.
    void setNowForTest(qint64 msSinceEpoch) { m_nowForTest = msSinceEpoch; }

Q_SIGNALS:
    // Anything above changed, the freshness included (checked every second).
    void changed();

private:
    qint64 now() const;
    void tick();
    void notify();

    qint64 m_intervalMs = 10'000;
    bool m_scanning = false;
    QDateTime m_finishedAt;
    qint64 m_durationMs = 0;
    qint64 m_keys = 0;
    bool m_complete = false;
    bool m_atCap = false;
    double m_fraction = 0;
    QString m_failure;
    QDateTime m_failedAt;
    keys::HealthSummary m_health;
    Freshness m_lastFreshness = Freshness::None;
    QTimer *m_tick;
    qint64 m_nowForTest = 0;
};

} // namespace sluice::ui
