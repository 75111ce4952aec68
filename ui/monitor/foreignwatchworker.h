#pragma once

#include "core/keys/keywatcher.h"
#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/redis/lazyconnection.h"

#include <QList>
#include <QObject>
#include <QString>

#include <atomic>
#include <optional>

class QTimer;

namespace sluice::ui {

// The worker behind the Monitor's "Other limiters" (foreignwatchpanel.h): lives on a QThread of
// its own with its own Connection; every `intervalMs` (2 s; a sample that takes longer than a
// fifth of it is followed by a pause four times as long) it samples the keys of other
// limiters whose limit is known (keys::KeyWatcher, read-only) and, from the second sample on,
// emits the comparison of the last two. The panel calls its slots queued (WorkerThread::post).
class ForeignWatchWorker : public QObject
{
    Q_OBJECT
public:
    explicit ForeignWatchWorker(int intervalMs = 2000, QObject *parent = nullptr);
    ~ForeignWatchWorker() override;

    // Thread-safe: a sample under way stops within a round trip.
    void cancel() { m_cancel = true; }

    // The slots below run in the worker thread.
    void start();
    // Where to read (nullopt: stop); `session` is echoed in reportReady.
    void setEndpoint(std::optional<sluice::Endpoint> endpoint, quint64 session, double scanBudget);
    // The limits of counters: the rule set's adopt blocks.
    void setAdoptions(QList<sluice::keys::Adoption> adoptions);
    // Samples only while the page is on screen; on again: a sample at once.
    void setActive(bool on);

Q_SIGNALS:
    // `error` empty: a comparison of two samples; `keys` the keys the last sample watched.
    void reportReady(quint64 session, const sluice::keys::WatchReport &report,
                     const QString &error);

private:
    void tick();
    void restartSamples();

    int m_intervalMs;
    QTimer *m_timer = nullptr;
    std::optional<LazyConnection> m_connection; // none: not connected
    quint64 m_session = 0;
    double m_scanBudget = keys::defaultScanBudget;
    QList<keys::Adoption> m_adoptions;
    std::optional<keys::WatchSample> m_last;
    bool m_active = false;
    std::atomic<bool> m_cancel{false};
};

} // namespace sluice::ui
