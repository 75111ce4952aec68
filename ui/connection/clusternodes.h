#pragma once

#include "core/common/result.h"
#include "core/rules/rule.h"

#include "ui/common/tone.h"

#include <QList>
#include <QMetaType>
#include <QString>

#include <utility>

namespace sluice {
class Connection;
}

namespace sluice::ui {

// One node of a Redis Cluster as CLUSTER NODES shows it: the Connection page's node list
// (CONSOLE.md "Redis Cluster"). A value, sent from the connection worker to the GUI.
struct ClusterNode
{
    enum class Health {
        Ok,
        Failing,     // suspected: "fail?" (PFAIL: the node asked cannot reach it), its link
                     // down, or still in the handshake
        Unreachable, // "fail": the masters agreed it is down, or it has no address
    };
    QString id;
    QString address; // host:port
    bool master = false;
    QString masterAddress;            // a replica's master; empty when not known
    QList<std::pair<int, int>> slots; // a master's ranges, inclusive
    Health health = Health::Ok;
    QString flags; // as Redis gives them: "myself,master", "slave,fail?"

    int slotCount() const;
};

// The text of CLUSTER NODES, masters first (by address), each followed by its replicas.
// A line that is not a node is an error quoting the line.
Result<QList<ClusterNode>> parseClusterNodes(const QByteArray &text);
// CLUSTER NODES asked on `c` (a cluster connection asks one node, which answers for all).
Result<QList<ClusterNode>> readClusterNodes(Connection &c);

// "0-5460", "0-5460, 10923", "—" for none.
QString slotRangesText(const QList<std::pair<int, int>> &ranges);
// In the user's language: "ok", "failing", "unreachable".
QString healthText(ClusterNode::Health h);
// In the user's language: "master", "replica of 127.0.0.1:7001", "replica".
QString roleText(const ClusterNode &n);
// Why the health is what it is, for a tooltip: the flags and what they mean.
QString healthReason(const ClusterNode &n);

// The slot view (CONSOLE.md "Slot view"): where each rule's keys land on the cluster.
struct RuleSpread
{
    QString ruleId;
    bool global = false; // one key ({global}): one slot on one node
    QByteArray key;      // global: the one key
    int slot = -1;       // global: its slot
    QString node;        // global: the master serving it; empty when uncovered
    // Per-subject rules: each master's share of the slots, which is its expected share of
    // the rule's keys and requests (CRC16 spreads subjects evenly): (address, 0..1).
    QList<std::pair<QString, double>> shares;
};
QList<RuleSpread> ruleSpreads(const RuleSet &rules, const QList<ClusterNode> &nodes);
// The master serving `slot`, empty when none does.
QString nodeOfSlot(const QList<ClusterNode> &nodes, int slot);
// The share of one node's capacity that `rate` requests a second take: rate / capacity (0
// when the capacity is unknown, <= 0).
double hotKeyShare(double rate, double capacity);
// The node capacity the slot view assumes until the user enters the node's own figure:
// decisions a second of one Redis node on this 2-core machine, the redis-benchmark ceiling of
// fixed_window pipelined 64 (README "Engine vs redis-benchmark": 107,096/s, rounded down).
inline constexpr double defaultNodeCapacity = 100'000;
// The slot view's words for one rule: where its keys go and, for a global rule, the hot-key
// warning at `rate` requests a second against `capacity` decisions a second of one node.
struct SpreadText
{
    QString keys;    // "one key, slot 4362", "one key per subject, over every slot"
    QString nodes;   // "127.0.0.1:7002"; spread: "3 masters, 33% each"
    QString detail;  // spread: "127.0.0.1:7001 33%, 127.0.0.1:7002 33%, ..."
    QString load;    // global: "12% of the node"; empty otherwise
    QString warning; // global: the sentence; empty otherwise
    Tone tone = Tone::Info;
    double share = 0; // global: of the node, rate / capacity
};
SpreadText describeSpread(const RuleSpread &s, double rate, double capacity);

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::ClusterNode)
