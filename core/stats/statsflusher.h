#pragma once

#include "stats.h"

#include "core/redis/connection.h"
#include "core/redis/endpoint.h"
#include "core/redis/lazyconnection.h"

#include <QByteArray>
#include <QString>

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

namespace sluice::stats {

class StatsRecorder;

// Writes what a StatsRecorder aggregated to Redis (layout in stats.h), on its own std::thread
// with its own Connection, so CLI commands without an event loop use it as the GUI does.
//
// Once per interval (1 s) it take()s the recorder and, if anything is pending, writes all of it
// in ONE pipelined round trip: MULTI, HINCRBY/ZINCRBY/ZREMRANGEBYRANK/HINCRBY + EXPIRE per
// rule and second, EXEC. The transaction means a key is never written without its TTL, even if
// the connection drops mid-pipeline. Nothing pending: no round trip. So a process costs Redis at
// most one round trip per second for statistics, whatever its decision rate (plus a reconnect
// attempt per interval while Redis is unreachable).
//
// Redis down: record() never notices (it does no I/O). The flusher keeps what it could not write
// in a backlog, merged per rule and second, bounded by Options::maxBacklog buckets and to the
// last ttlSeconds (older seconds are dropped, counted in Status::dropped); status() says so, and
// the next successful flush writes the backlog. Thread-safe: start/stop/status from any thread.
//
// Idempotent: every transaction also SETs a marker {ns}flush:<batch id> (EX the TTL). A batch
// whose answer never came (a stall longer than the timeout, a connection cut after the send)
// may have been applied: it is kept as it was and, on the next attempt, the marker is checked
// under WATCH; present, the batch is skipped (Status::skippedApplied); absent, the same batch is
// sent again, and a late arrival of the first copy aborts it (WATCH). Counts are never doubled.
class StatsFlusher
{
public:
    struct Options
    {
        QByteArray ns = defaultNamespace;
        std::chrono::milliseconds interval{1000};
        int ttlSeconds = stats::ttlSeconds;
        int topKept = stats::topKept;
        qsizetype maxBacklog = 100'000; // rule x second buckets held while Redis is down
        // Short timeouts: a dead Redis delays only this thread (and stop()), never decisions.
        Connection::Options connection{std::chrono::milliseconds(1000),
                                       std::chrono::milliseconds(2000)};
    };

    struct Status
    {
        bool running = false;
        bool redisOk = true;   // the last attempt wrote (or there was nothing to write)
        QString lastError;     // of the last failed attempt; empty after a success
        qint64 flushes = 0;    // successful writes
        qint64 roundTrips = 0; // pipelines sent (successful or not), connects excluded
        qint64 connects = 0;   // connection attempts
        qint64 commands = 0;   // commands sent in those pipelines
        qint64 bucketsWritten = 0;
        qint64 backlog = 0;        // buckets waiting for Redis
        qint64 dropped = 0;        // buckets given up (backlog bound, older than the TTL)
        qint64 skippedApplied = 0; // timed-out batches found applied on the retry: not re-sent
        qint64 lastFlushMs = 0;    // unix ms of the last successful write, 0 = never
    };

    StatsFlusher(Endpoint endpoint, StatsRecorder *recorder);
    StatsFlusher(Endpoint endpoint, StatsRecorder *recorder, Options options);
    ~StatsFlusher(); // stop()
    StatsFlusher(const StatsFlusher &) = delete;
    StatsFlusher &operator=(const StatsFlusher &) = delete;

    // Starts the thread; the first flush is one interval later. Idempotent.
    void start();
    // Flushes the rest (one last round trip, bounded by the connection timeouts) and joins.
    // Idempotent; start() may be called again after it.
    void stop();
    // Asks for a flush now instead of at the end of the interval (e.g. before a process exits
    // without stopping). Does not wait.
    void flushSoon();
    Status status() const;

private:
    void run();
    // One round trip with what is pending; true if it was written.
    bool flushOnce();
    // A batch sent whose answer never came (a timeout, a broken connection): sent again only as
    // itself, under WATCH of its marker, so it is applied once whatever happened to it.
    // Returns false while it is still unsettled.
    bool settleInflight();
    void inflightApplied(bool earlier);
    void mergeIntoBacklog();
    void trimBacklog();

    StatsRecorder *m_recorder;
    Options m_options;

    mutable std::mutex m_mutex; // guards m_status, m_stop, m_soon
    std::condition_variable m_wake;
    bool m_stop = false;
    bool m_soon = false;
    Status m_status;
    std::thread m_thread;

    // Flusher thread only.
    LazyConnection m_connection;
    std::map<std::pair<qint64, QString>, SecondBucket> m_backlog; // (second, rule) -> bucket
    struct Inflight
    {
        QByteArray marker;
        QList<QList<QByteArray>> commands; // MULTI ... EXEC, the marker's SET inside
        qsizetype buckets = 0;
    };
    std::optional<Inflight> m_inflight;
    quint64 m_batchSerial = 0;
};

} // namespace sluice::stats

namespace sluice {
using stats::StatsFlusher;
}
