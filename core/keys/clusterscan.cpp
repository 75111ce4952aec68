#include "clusterscan.h"
#include "keyscanner_p.h"

#include "core/redis/cluster.h"
#include "core/redis/lazyconnection.h"

#include <QElapsedTimer>
#include <QStringList>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

using scanstep::cancelled;

// The scan of a Redis Cluster (KeyScanner::run on a cluster connection): one shard after
// another, each on a connection of its own, their progress merged into one.
class ClusterScan
{
public:
    ClusterScan(const KeyReader &reader, Connection &c, const KeyScanner::Options &options,
                const KeyScanner::PageCallback &onPage)
        : m_reader(reader)
        , m_c(c)
        , m_options(options)
        , m_onPage(onPage)
    {
        m_clock.start();
    }

    ScanSummary run()
    {
        if (auto r = reconnectIfBroken(m_c); !r) {
            m_summary.error = r.error();
            return finish(ScanSummary::Status::Failed);
        }
        m_cluster = m_c.cluster();
        if (auto r = m_cluster->refresh(); !r) {
            m_summary.error = r.error();
            return finish(ScanSummary::Status::Failed);
        }
        m_all = m_cluster->nodes();
        planShards();
        const qsizetype shards = m_progress.nodes.size();
        for (qsizetype i = 0; i < shards; ++i) {
            if (cancelled(m_options) || !scanShard(i)) {
                for (qsizetype j = i; j < shards; ++j) {
                    m_progress.nodes[j].state = NodeScan::State::Cancelled;
                }
                return finish(ScanSummary::Status::Cancelled);
            }
        }
        m_progress.fraction = 1.0;
        return finishWithCoverage();
    }

private:
    ScanSummary finish(ScanSummary::Status status)
    {
        m_summary.status = status;
        m_progress.elapsedMs = m_clock.elapsed();
        return m_summary;
    }

    // One node per shard: its master, or with `replicas` its first replica that is online.
    void planShards()
    {
        for (const redis::Cluster::Node &m : m_all) {
            if (!m.master || m.slots.isEmpty()) {
                continue;
            }
            NodeScan n;
            n.address = n.masterAddress = m.address.display();
            if (m_options.replicas) {
                n.noReplica = true;
                for (const redis::Cluster::Node &r : m_all) {
                    if (!r.master && r.masterId == m.id &&
                        (r.health.isEmpty() || r.health == QLatin1String("online"))) {
                        n.address = r.address.display();
                        n.replica = true;
                        n.noReplica = false;
                        break;
                    }
                }
            }
            m_progress.nodes << n;
        }
    }

    HostPort addressOf(const QString &display) const
    {
        for (const redis::Cluster::Node &n : m_all) {
            if (n.address.display() == display) {
                return n.address;
            }
        }
        return HostPort{};
    }

    void failNode(NodeScan &node, const QString &why)
    {
        node.state = NodeScan::State::Failed;
        node.error = why;
        m_failures << u"%1: %2"_s.arg(node.address, why);
    }

    // Shard i on a connection of its own; a shard that fails is noted and the scan goes on.
    // False: cancelled.
    bool scanShard(qsizetype i)
    {
        NodeScan &node = m_progress.nodes[i];
        node.state = NodeScan::State::Scanning;
        if (m_onPage) {
            m_onPage({}, m_progress);
        }
        LazyConnection shard(m_cluster->nodeEndpoint(addressOf(node.address)),
                             m_cluster->options());
        auto nc = shard.get();
        if (!nc) {
            failNode(node, nc.error().message);
            return true;
        }
        if (node.replica) {
            // A replica serves reads of its master's slots once told READONLY.
            if (auto r = (*nc)->command({QByteArrayLiteral("READONLY")}); !r) {
                failNode(node, u"READONLY refused: %1"_s.arg(r.error().message));
                return true;
            }
        }
        const ScanProgress base = m_progress;
        KeyScanner inner(m_reader);
        const ScanSummary part =
            inner.run(**nc, m_options, [&](const QList<KeyInfo> &page, const ScanProgress &p) {
                merge(base, p, i, node);
                if (!m_onPage) {
                    return;
                }
                QList<KeyInfo> tagged = page;
                for (KeyInfo &k : tagged) {
                    k.node = node.address;
                }
                m_onPage(tagged, m_progress);
            });
        merge(base, part.progress, i, node);
        m_summary.health.add(part.health);
        m_summary.gone += part.gone;
        m_summary.duplicates += part.duplicates;
        m_summary.reconnects += part.reconnects;
        if (i == 0) {
            m_summary.server = part.server;
            m_summary.noTouch = part.noTouch;
        } else {
            m_summary.noTouch = m_summary.noTouch && part.noTouch;
        }
        m_summary.serverRestarted = m_summary.serverRestarted || part.serverRestarted;
        switch (part.status) {
        case ScanSummary::Status::Completed:
            node.state = NodeScan::State::Done;
            node.fraction = 1.0;
            break;
        case ScanSummary::Status::Cancelled:
            return false;
        case ScanSummary::Status::Failed:
            failNode(node, part.error ? part.error->message : u"the scan failed"_s);
            break;
        }
        return true;
    }

    // The whole scan's progress: the shards before (`base`) and shard i's own (`p`). `node` is
    // shard i's entry as scanShard() holds it: `base` shares the list, so indexing it here
    // would detach the list from that entry.
    void merge(const ScanProgress &base, const ScanProgress &p, qsizetype i, NodeScan &node)
    {
        const qsizetype shards = m_progress.nodes.size();
        m_progress.keys = base.keys + p.keys;
        m_progress.pages = base.pages + p.pages;
        m_progress.roundTrips = base.roundTrips + p.roundTrips;
        m_progress.latencyProbes = base.latencyProbes + p.latencyProbes;
        m_progress.backoffs = base.backoffs + p.backoffs;
        m_progress.pausedMs = base.pausedMs + p.pausedMs;
        m_progress.keysWalked = base.keysWalked + p.keysWalked;
        m_progress.count = p.count;
        m_progress.paceKeysPerS = p.paceKeysPerS;
        m_progress.latencyUs = p.latencyUs;
        m_progress.baselineLatencyUs = p.baselineLatencyUs;
        m_progress.dbSize =
            p.dbSize < 0 ? base.dbSize : std::max<qint64>(base.dbSize, 0) + p.dbSize;
        m_progress.fraction = (double(i) + p.fraction) / double(shards);
        m_progress.elapsedMs = m_clock.elapsed();
        node.keys = p.keys;
        node.dbSize = p.dbSize;
        node.fraction = p.fraction;
    }

    // Completed only when every shard was scanned and every slot has a master.
    ScanSummary finishWithCoverage()
    {
        // Slots no master serves (CLUSTER DELSLOTS, a failed master with no replica to
        // promote): their keys, wherever they sit, were not walked, so the scan is not clean
        // either.
        const QList<std::pair<int, int>> uncovered = m_cluster->uncoveredSlots();
        if (m_failures.isEmpty() && uncovered.isEmpty()) {
            return finish(ScanSummary::Status::Completed);
        }
        QStringList parts;
        if (!m_failures.isEmpty()) {
            parts << u"%1 of the %2 shards of the Redis Cluster at %3 could not be scanned (%4)"_s
                         .arg(m_failures.size())
                         .arg(m_progress.nodes.size())
                         .arg(m_c.endpoint().display(), m_failures.join(u"; "_s));
        }
        if (!uncovered.isEmpty()) {
            parts << u"slots %1 of the Redis Cluster at %2 are served by no master: their keys "
                     "were not scanned"_s.arg(redis::slotRangesText(uncovered),
                                              m_c.endpoint().display());
        }
        m_summary.error = Error::make(
            Error::Kind::Io, parts.join(u"; "_s) + u"; the keys of the other shards are listed"_s);
        return finish(ScanSummary::Status::Failed);
    }

    const KeyReader &m_reader;
    Connection &m_c;
    const KeyScanner::Options &m_options;
    const KeyScanner::PageCallback &m_onPage;
    redis::Cluster *m_cluster = nullptr;
    QList<redis::Cluster::Node> m_all; // the nodes as the map showed them at the start
    ScanSummary m_summary;
    ScanProgress &m_progress = m_summary.progress;
    QElapsedTimer m_clock;
    QStringList m_failures; // "address: why", a shard each
};
} // namespace

ScanSummary scanCluster(const KeyReader &reader, Connection &c, const KeyScanner::Options &options,
                        const KeyScanner::PageCallback &onPage)
{
    return ClusterScan(reader, c, options, onPage).run();
}

} // namespace sluice::keys
