#pragma once

#include "connection.h"
#include "slot.h"

#include <QHash>
#include <QList>
#include <QString>

#include <array>
#include <chrono>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sluice::redis {

// Slot ranges as text: "0-99, 200, 300-399" (the first five and "and N more ranges" past six).
QString slotRangesText(const QList<std::pair<int, int>> &ranges);

// A Redis Cluster behind one Connection (docs/ARCHITECTURE.md "Redis Cluster"): Connection
// forwards every call here when its endpoint is a cluster, so callers (the engine's pipelined
// batches, the rule store, stats, the key scanner) do not change.
//
// - Discovery: CLUSTER SHARDS (Redis >= 7), CLUSTER SLOTS where that is unknown, asked of any
//   node known (the seeds first): the slot map and every node with its role.
// - Routing: each command goes to the master serving its key's slot (slot.h); one Connection
//   per node, opened on first use with the endpoint's TLS, user and password. Keyless commands
//   go to one master; SCRIPT LOAD/FLUSH, FLUSHDB/FLUSHALL and DBSIZE to every master (DBSIZE
//   sums); SCAN walks the masters one after another under one cursor; DEL, UNLINK, EXISTS and
//   TOUCH over keys of several slots are split per slot and their counts summed; any other
//   command whose keys are in several slots is refused here with a CROSSSLOT error naming the
//   keys. MULTI ... EXEC goes, whole, to the node of its keys.
// - Pipelines: what was appended is split per node, every node's part written before any
//   reply is read: one round trip however many nodes a batch spans. Replies come back in the
//   order of append().
// - Redirects: MOVED updates the slot (and refreshes the whole map once), ASK sends ASKING
//   first, TRYAGAIN and CLUSTERDOWN are retried with a growing pause; all of it within the
//   command timeout, and at most `maxRedirects` times per command. What is left then is the
//   reply.
// - Scripts: SCRIPT LOAD bodies are remembered, so a node that has not loaded a script (a
//   replica just promoted, a restarted node, NOSCRIPT) gets it before the EVALSHA.
// - A node that cannot be reached: commands for it get an error reply naming the node and the
//   slot ("CLUSTERDOWN ... unreachable"), which callers treat as Redis being unavailable
//   (on_redis_error); the map is asked again (every `refreshInterval` at most), so a replica
//   promoted by a failover takes over. Commands that were written to a node that then failed
//   may have run: they get a transport error, and the cluster is broken until reconnect().
class Cluster
{
public:
    using RawReply = Connection::RawReply;

    static constexpr int maxRedirects = 16;
    static constexpr std::chrono::milliseconds refreshInterval{200};

    struct Node
    {
        QByteArray id;
        HostPort address;
        bool master = false;
        QByteArray masterId;              // a replica's master
        QString health;                   // CLUSTER SHARDS: online, failed, loading; "" (SLOTS)
        QList<std::pair<int, int>> slots; // a master's ranges, inclusive
        bool connected = false;           // a connection to it is open
        QString lastError;                // why the last connection to it failed
    };
    struct Counters
    {
        qint64 moved = 0;
        qint64 ask = 0;
        qint64 tryAgain = 0;    // TRYAGAIN and CLUSTERDOWN replies retried
        qint64 unreachable = 0; // commands answered "unreachable" for a node that is down
        qint64 refreshes = 0;   // slot maps read
        // Passes of "write every node's part, then read every reply": one per batch, plus one
        // per round of redirects.
        qint64 roundTrips = 0;
    };

    // Reads the slot map from the first seed that answers. Fails naming every seed and why
    // (unreachable, not a cluster node, ...).
    static Result<std::unique_ptr<Cluster>> open(const Endpoint &endpoint,
                                                 Connection::Options options);
    ~Cluster();

    // Connection's interface (see there).
    void append(int argc, const char **argv, const size_t *argvlen, const ReplyBound &bound);
    void appendEncoded(const char *resp, size_t size, const ReplyBound &bound);
    Result<RawReply> readRaw();
    Result<void> flush();
    Result<std::optional<RawReply>> waitReply(std::chrono::milliseconds wait, int wakeFd,
                                              bool *woken);
    bool isBroken() const { return m_broken.has_value(); }
    // Drops what is pending and reads the slot map again.
    Result<void> reconnect();

    // The nodes as the last slot map showed them, masters first (by address).
    QList<Node> nodes() const;
    Counters counters() const { return m_counters; }
    // The master serving `slot` now, or nullopt when the slot is not covered.
    std::optional<HostPort> masterOf(int slot) const;
    // Slot ranges that no master serves (empty when the cluster covers every slot).
    QList<std::pair<int, int>> uncoveredSlots() const;
    // The map again, now (also done by itself after MOVED and failures).
    Result<void> refresh();
    // One node talked to as itself (Endpoint::singleNode, database 0), with the cluster's TLS,
    // user and password: what this client's own per-node connections use, and what a caller
    // that must walk every node (the key scanner, the console's node list) opens.
    Endpoint nodeEndpoint(const HostPort &address) const;
    Connection::Options options() const { return m_options; }

private:
    struct NodeState;
    struct Op;
    struct Sent
    {
        qint64 op = -1; // the Op's sequence number; -1 for our own ASKING or SCRIPT LOAD
        QByteArray sha; // our own SCRIPT LOAD: the script it loads
    };

    Cluster(Endpoint endpoint, Connection::Options options);
    Op &opAt(qint64 seq);
    // Routing one command (route() is the entry; each step answers or sends it).
    struct Routing;
    void route(qint64 seq);
    Routing routingOf(qint64 seq);
    void refuseCrossSlot(const Routing &r);
    int ownerOf(qint64 seq, int slot, const QByteArray &key); // -1: answered CLUSTERDOWN
    void routeInTransaction(const Routing &r);
    void routeBroadcast(const Routing &r);
    void routeScan(const Routing &r);
    void routeKeyed(const Routing &r);
    void routeSplit(const Routing &r);
    void sendTo(qint64 seq, int node, bool asking);
    void answer(qint64 seq, RawReply reply);
    void answerError(qint64 seq, const QByteArray &message);
    Connection *connectionTo(int node, QString *error);
    int nodeAt(const HostPort &address);
    int defaultNode();
    QList<int> masters() const;
    void failNode(int node, const Error &e);
    void handle(qint64 seq, int node, RawReply reply,
                std::vector<std::pair<qint64, std::pair<int, bool>>> &retry, bool &backoff);
    Result<void> collect();
    void refreshIfDue();
    Result<void> readMap(Connection &c);
    QString slotText(int slot) const;

    Endpoint m_endpoint; // the cluster's (seeds, credentials, TLS)
    Connection::Options m_options;
    std::vector<std::unique_ptr<NodeState>> m_nodes;
    std::array<qint16, clusterSlots> m_slotNode{}; // index into m_nodes; -1 uncovered
    std::deque<Op> m_ops;                          // appended, reply not taken yet
    qint64 m_opBase = 0;                           // sequence number of m_ops.front()
    qint64 m_nextSeq = 0;
    qint64 m_routed = 0; // ops before this were routed (sent, or answered at once)
    // A MULTI routed, its EXEC not yet: the transaction goes, whole, to the node of its first
    // key (m_txnSlot); what comes before that key waits in m_txnDeferred.
    bool m_txnOpen = false;
    int m_txnNode = -1;
    int m_txnSlot = -1;
    std::vector<qint64> m_txnDeferred;
    int m_watchNode = -1; // the node of the last WATCH (a transaction follows it)
    int m_pubsub = -1;    // SUBSCRIBE went to this node: from then on, everything goes there
    std::chrono::steady_clock::time_point m_deadline{}; // of the batch being collected
    QHash<QByteArray, QByteArray> m_scripts;            // sha1 -> body, from SCRIPT LOAD
    bool m_refreshDue = false;
    std::chrono::steady_clock::time_point m_nextRefresh{};
    std::optional<Error> m_broken;
    Counters m_counters;
};

} // namespace sluice::redis
