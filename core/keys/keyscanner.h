#pragma once

#include "keyhealth.h"
#include "keyinfo.h"
#include "keyreader.h"

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/redis/serverfeatures.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>

namespace sluice::keys {

// Redis Cluster: the scan of one shard, on its master or on one of its replicas.
struct NodeScan
{
    enum class State { Waiting, Scanning, Done, Failed, Cancelled };
    QString address;       // host:port scanned
    bool replica = false;  // a replica (READONLY) read instead of its master
    QString masterAddress; // the shard's master (the same as address when not a replica)
    // Options::replicas, and this shard had no replica that is online: its master was read.
    bool noReplica = false;
    State state = State::Waiting;
    qint64 keys = 0;     // delivered from this node
    qint64 dbSize = -1;  // the node's DBSIZE when its scan started; -1 unknown
    double fraction = 0; // of the node's keyspace walked, 0..1
    QString error;       // Failed: why
};

struct ScanProgress
{
    qint64 keys = 0;       // keys delivered so far
    qint64 pages = 0;      // SCAN calls answered
    qint64 roundTrips = 0; // every round trip of the scan, setup included
    double fraction = 0;   // of the keyspace walked, 0..1 (from the SCAN cursor; see .cpp)
    qint64 dbSize = -1;    // DBSIZE when the scan started; -1 unknown
    int count = 0;         // COUNT of the last SCAN (adaptive)
    qint64 elapsedMs = 0;
    // Added for production-safe scanning (Options::maxKeysPerSecond, latency back-off):
    double paceKeysPerS = 0;       // the budget in force now (0: none)
    qint64 latencyUs = -1;         // the last probe's PING latency; -1: not measured
    qint64 baselineLatencyUs = -1; // the idle PING latency before the scan; -1: not measured
    qint64 backoffs = 0;           // probes after which the scan slowed down
    qint64 latencyProbes = 0;      // PINGs sent for the latency (round trips of their own)
    qint64 pausedMs = 0;           // time spent waiting for the budget or the back-off
    qint64 keysWalked = 0;         // what the budget counts: per SCAN, its COUNT or its keys
    // Redis Cluster: one entry per shard, in the order they are scanned (masters by address);
    // empty off a cluster.
    QList<NodeScan> nodes;
};

// The default scan budget: keys per second a scan walks at most (KeyScanner::Options).
inline constexpr double defaultScanBudget = 20'000;

struct ScanSummary
{
    enum class Status { Completed, Cancelled, Failed };
    Status status = Status::Completed;
    ScanProgress progress;
    HealthSummary health;  // of the keys delivered
    qint64 gone = 0;       // listed by SCAN, deleted or expired before they were read
    qint64 duplicates = 0; // listed twice by SCAN (a rehash during the scan), delivered once
    qint64 reconnects = 0; // connection losses survived by resuming at the cursor
    bool serverRestarted = false;
    // Cancelled because the caller's cap on keys walked was reached (KeysWorker::scan's
    // maxKeysWalked): the keys delivered are a part of the match, not all of it.
    bool stoppedAtCap = false;
    std::optional<Error> error; // Failed: what happened; the keys delivered before are valid
    // What the server offers (one node's, for a cluster), found at the scan's start in the
    // round trip of INFO and DBSIZE; noTouch: CLIENT NO-TOUCH ON was sent and accepted (on
    // every node of a cluster), so the scan's reads left the keys' LRU/LFU alone.
    redis::ServerFeatures server;
    bool noTouch = false;
};

// Reads that ride behind a scan (KeyScanner::Options::follower): once a page's keys are read
// (TYPE and PTTL known, the page about to be delivered), they are queued here; their reads go
// out behind the SCAN of the next round trip sent after that (with the overlap, the round trip
// after next, as the next one went out before this page was read), and are collected after
// its SCAN reply. So a second read of a page (the audit's values) costs no round trip of its
// own. Several batches may be in flight at once, each collected in the order it was appended.
// The scanner keeps the round trips going until nothing is pending. Used from the scanning
// thread only.
class PageFollower
{
public:
    virtual ~PageFollower() = default;
    // A page about to be delivered: its keys, to be read in a round trip to come.
    virtual void queue(const QList<KeyInfo> &page) = 0;
    // Keys queued whose reads are not collected yet (sent or not).
    virtual bool pending() const = 0;
    // Keys queued whose next reads are not sent yet (append() would append something).
    virtual bool unsent() const = 0;
    // Appends the reads of what is pending and not in flight (nothing is sent) as one batch;
    // false: nothing was appended (no batch).
    virtual bool append(Connection &c) = 0;
    // Reads the replies of the oldest batch appended and not collected, in order. A transport
    // error (the connection is then broken) forgets every batch in flight, as resend() does.
    virtual Result<void> collect(Connection &c) = 0;
    // The connection was lost: every batch in flight is forgotten, its keys to be sent again.
    virtual void resend() = 0;
    // Forgets every key: the scan stopped (failed or cancelled) with reads still pending.
    virtual void discard() = 0;
};

// SCAN with MATCH and an adaptive COUNT, reading each page with a KeyReader (ANCHORS.md
// section 4 items 1, 2, 10). Synchronous: run it in a worker thread (KeysWorker); it never
// touches the GUI. Costs and guarantees:
// - One round trip per page: the SCAN of page i+1 leads it, the reads of page i follow. With
//   Options::pageNeedsConnection (and no budget pacing the scan), the next round trip goes out
//   as soon as this one's SCAN reply is read: Redis works on it while the client reads, judges
//   and delivers this page.
// - COUNT adapts so that a round trip takes about `targetRoundTrip` and a page lists about
//   `maxListed` keys at most (at the density its last page showed): a sparse MATCH walks faster, a
//   dense keyspace is not read in bursts that would delay other clients, and a page's keys are
//   still in Redis's caches when their reads come.
// - Every key is delivered once (SCAN may repeat keys across a rehash; 64-bit hashes of the
//   keys seen are kept, 8 to 32 bytes a key; two keys sharing a hash, about 3e-8 for a million
//   keys, would hide one of them). Keys that vanish before they are read are counted, not
//   delivered.
// - `cancel` is checked before every round trip: a cancelled scan stops within one.
// - A budget (Options::maxKeysPerSecond, 20,000 keys/s by default) and a back-off when the
//   server's latency rises (Options::latencyFactor): production-safe by default.
// - Connection lost mid-scan: reconnect (a few attempts). Same server (INFO run_id unchanged):
//   resume at the same cursor, nothing lost or repeated. A different run id (the server
//   restarted) or no reconnection: stop with Failed and a message saying so; everything
//   delivered before stays valid, and the caller keeps it.
class KeyScanner
{
public:
    struct Options
    {
        QList<QByteArray> patterns; // SCAN MATCH globs, one after another; empty: the reader's
                                    // defaultPatterns()
        int initialCount = 200;
        int minCount = 10;
        int maxCount = 10000;
        // COUNT grows no further than a page of about this many keys. A page's keys are read
        // a round trip after their SCAN, with the next SCAN between: Redis finds them still in
        // its caches when the pages are small. Measured at 1M keys of 10 layouts, `keys audit`
        // (the kit's SCAN+TYPE+PTTL 4.1 to 4.5 s): pages of 4,300 keys 4.9 to 5.5 s (PTTL 1.12
        // us of Redis time a call), 1,000 keys 3.9 to 4.1 s, 500 keys 3.7 to 3.8 s (PTTL 0.58
        // us), 300 keys 4.0 to 4.2 s (more round trips). A sparse MATCH still walks up to
        // maxCount a SCAN.
        qint64 maxListed = 500;
        std::chrono::milliseconds targetRoundTrip{25};
        int reconnectAttempts = 3;
        std::chrono::milliseconds reconnectDelay{250}; // before the 2nd, 3rd, ... attempt
        const std::atomic<bool> *cancel = nullptr;     // set from any thread to stop
        // The budget: at most this many keys a second, counted as the keys each SCAN walks
        // (its COUNT, or the keys it listed if more) and read; 0: no budget. A round trip that
        // went faster is followed by a pause (checked against `cancel` every 50 ms).
        double maxKeysPerSecond = defaultScanBudget;
        // Back-off: every 100 ms, between round trips, a PING alone times what another client
        // waits now. When the median of the last 3 is above latencyFactor x the idle latency
        // (3 PINGs before the scan, the fastest) and above latencyFloor, the scan halves its
        // pace and COUNT; below, the pace recovers by a quarter a probe, up to the budget.
        // latencyFactor 0: no back-off. A refused PING (an ACL without +ping) turns the
        // back-off off, never the scan.
        double latencyFactor = 2.0;
        std::chrono::microseconds latencyFloor{2000};
        double minKeysPerSecond = 1000; // the back-off never goes below
        // Asked for each page once its SCAN reply is read, before its reads are collected:
        // false lets the scanner send the next round trip at once, so that Redis reads the
        // next page while this one is read, judged and delivered (the connection is then busy
        // during the page's callback: the callback must leave it alone). Asked only when no
        // budget paces the scan, no latency probe is due and there is a next round trip to
        // send; it is the last condition checked, so false means the next round trip is in
        // flight (or, when the page turns out to need the connection itself, was read back
        // before the callback). Unset: the callback may always use the connection (no overlap).
        std::function<bool()> pageNeedsConnection;
        // Redis Cluster: read one replica per shard (READONLY on its connection) instead of
        // the masters, sparing them; a shard without a replica online (CLUSTER SHARDS health
        // "online": not "loading", which Redis 7.0 also says of a replica whose replication
        // offset the gossip has not carried yet, nor "failed") is read on its master
        // (NodeScan::noReplica). Off a cluster: ignored.
        bool replicas = false;
        // Reads one page behind, in the scan's own round trips (see PageFollower); nullptr:
        // none. Off a cluster and on each node of one, on the connection the scan reads.
        PageFollower *follower = nullptr;
        // Keys a SCAN page lists that this refuses are neither read nor delivered nor counted
        // (unset: every key): one walk (MATCH *) serves several globs matched here, instead of
        // one walk of the whole keyspace per glob.
        std::function<bool(QByteArrayView key)> keyFilter;
    };
    // Called after every round trip, with the keys it read (possibly none: a sparse MATCH) and
    // the progress. Runs in the scanning thread; the connection is idle during the call, so
    // the callback may use it (the Keys worker refreshes visible rows there), unless
    // Options::pageNeedsConnection said it would not.
    using PageCallback = std::function<void(const QList<KeyInfo> &page, const ScanProgress &)>;

    explicit KeyScanner(KeyReader reader);
    KeyReader &reader() { return m_reader; }

    // On a Redis Cluster connection (c.cluster()), every shard is scanned in turn on a
    // connection of its own to its master (or replica, Options::replicas), with the budget and
    // back-off per node, each key delivered with KeyInfo::node, and progress.nodes telling each
    // shard's state. A node that cannot be scanned does not stop the others: the scan ends
    // Failed with an error naming every such node, after the other nodes' keys. The callback
    // may use `c` (the cluster connection) as usual; the node connections are the scanner's.
    ScanSummary run(Connection &c, const Options &options, const PageCallback &onPage);

    // The share of the hash table a SCAN cursor has walked: Redis visits buckets in
    // reverse-binary order, so the cursor's bits reversed, over 2^64, is that share.
    static double cursorFraction(const QByteArray &cursor);

private:
    KeyReader m_reader;
};

} // namespace sluice::keys

Q_DECLARE_METATYPE(sluice::keys::NodeScan)
Q_DECLARE_METATYPE(sluice::keys::ScanProgress)
Q_DECLARE_METATYPE(sluice::keys::ScanSummary)
