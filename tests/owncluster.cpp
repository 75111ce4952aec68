#include "owncluster.h"

#include "core/redis/connection.h"

#include <QDeadlineTimer>
#include <QRandomGenerator>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace sluice::test {

namespace {

bool portFree(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const bool ok = ::bind(fd, reinterpret_cast<sockaddr *>(&a), sizeof a) == 0;
    ::close(fd);
    return ok;
}

// A port below 55535 that is free, with its cluster bus port (+10000) free as well, and
// neither of them one of `taken` (the other nodes' ports and bus ports, not bound yet).
quint16 clusterPort(QList<quint16> &taken)
{
    for (int i = 0; i < 200; ++i) {
        const auto p = quint16(20000 + QRandomGenerator::global()->bounded(35000));
        const auto bus = quint16(p + 10000);
        if (!taken.contains(p) && !taken.contains(bus) && portFree(p) && portFree(bus)) {
            taken << p << bus;
            return p;
        }
    }
    return 0;
}

QByteArray commandText(const Endpoint &e, const QList<QByteArray> &argv)
{
    auto c = Connection::open(e);
    if (!c) {
        return {};
    }
    auto r = c->command(argv);
    return r ? r->str : QByteArray();
}

} // namespace

OwnCluster::OwnCluster(int masters, int replicas)
    : m_masters(masters)
    , m_replicas(replicas)
{
    QList<quint16> taken;
    for (int i = 0; i < masters * (1 + replicas); ++i) {
        m_nodes.push_back(std::make_unique<OwnRedis>(clusterPort(taken)));
    }
}

OwnCluster::~OwnCluster() = default;

Endpoint OwnCluster::nodeEndpoint(int i) const
{
    Endpoint e = m_nodes[size_t(i)]->endpoint();
    e.singleNode = true;
    return e;
}

QString OwnCluster::url() const
{
    QStringList hosts;
    for (int i = 0; i < m_masters; ++i) {
        hosts << QStringLiteral("127.0.0.1:%1").arg(m_nodes[size_t(i)]->port());
    }
    return QStringLiteral("redis://") + hosts.join(QLatin1Char(','));
}

Endpoint OwnCluster::endpoint() const
{
    Endpoint e = m_nodes[0]->endpoint();
    for (int i = 0; i < m_masters; ++i) {
        e.seeds << HostPort{e.host, m_nodes[size_t(i)]->port()};
    }
    return e;
}

int OwnCluster::indexOfPort(quint16 port) const
{
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        if (m_nodes[i]->port() == port) {
            return int(i);
        }
    }
    return -1;
}

QByteArray OwnCluster::nodeId(int i) const
{
    return commandText(nodeEndpoint(i), {"CLUSTER", "MYID"});
}

bool OwnCluster::start(QString *why)
{
    const QStringList args{QStringLiteral("--cluster-enabled"), QStringLiteral("yes"),
                           QStringLiteral("--cluster-config-file"), QStringLiteral("nodes.conf"),
                           QStringLiteral("--cluster-node-timeout"), QString::number(nodeTimeoutMs),
                           QStringLiteral("--cluster-replica-validity-factor"), QStringLiteral("0"),
                           // a replica's first sync starts at once, not 5 s later
                           QStringLiteral("--repl-diskless-sync-delay"), QStringLiteral("0")};
    QList<quint16> taken;
    for (const auto &n : m_nodes) {
        taken << n->port() << quint16(n->port() + 10000);
    }
    for (size_t i = 0; i < m_nodes.size(); ++i) {
        // A port (or its bus port) taken by someone else meanwhile: another one, twice more.
        for (int attempt = 0; !m_nodes[i]->start(args); ++attempt) {
            if (attempt == 2) {
                *why = QStringLiteral("cluster node %1 did not start: %2")
                           .arg(i)
                           .arg(QString::fromUtf8(m_nodes[i]->output().right(2000)));
                return false;
            }
            m_nodes[i] = std::make_unique<OwnRedis>(clusterPort(taken));
        }
    }
    auto fail = [&](const QString &what) {
        *why = what;
        return false;
    };
    const quint16 first = m_nodes[0]->port();
    for (int i = 0; i < size(); ++i) {
        auto c = Connection::open(nodeEndpoint(i));
        if (!c) {
            return fail(c.error().message);
        }
        if (i < m_masters) {
            const int from = i * 16384 / m_masters;
            const int to = (i + 1) * 16384 / m_masters - 1;
            auto r = c->command(
                {"CLUSTER", "ADDSLOTSRANGE", QByteArray::number(from), QByteArray::number(to)});
            if (!r) {
                return fail(QStringLiteral("CLUSTER ADDSLOTSRANGE: ") + r.error().message);
            }
            (void)c->command({"CLUSTER", "SET-CONFIG-EPOCH", QByteArray::number(i + 1)});
        }
        if (i > 0) {
            auto r = c->command({"CLUSTER", "MEET", "127.0.0.1", QByteArray::number(first)});
            if (!r) {
                return fail(QStringLiteral("CLUSTER MEET: ") + r.error().message);
            }
        }
    }
    // Everyone knows everyone (no handshake left), then the replicas follow their masters.
    const QDeadlineTimer deadline(20'000);
    for (int i = 0; i < size(); ++i) {
        for (;;) {
            const QByteArray nodes = commandText(nodeEndpoint(i), {"CLUSTER", "NODES"});
            if (nodes.count('\n') >= size() && !nodes.contains("handshake") &&
                !nodes.contains("noaddr")) {
                break;
            }
            if (deadline.hasExpired()) {
                return fail(QStringLiteral("node %1 did not meet the others: %2")
                                .arg(i)
                                .arg(QString::fromUtf8(nodes)));
            }
            QTest::qWait(20);
        }
    }
    for (int i = m_masters; i < size(); ++i) {
        const QByteArray master = nodeId((i - m_masters) % m_masters);
        for (;;) {
            auto c = Connection::open(nodeEndpoint(i));
            auto r = c ? c->command({"CLUSTER", "REPLICATE", master}) : Result<Reply>(c.error());
            if (r) {
                break;
            }
            if (deadline.hasExpired()) {
                return fail(QStringLiteral("CLUSTER REPLICATE on node %1: %2")
                                .arg(i)
                                .arg(r.error().message));
            }
            QTest::qWait(20);
        }
    }
    if (!waitHealthy(int(deadline.remainingTime()))) {
        return fail(QStringLiteral("the cluster did not become healthy"));
    }
    // Replicas in sync: a failover can promote them.
    for (int i = m_masters; i < size(); ++i) {
        while (!commandText(nodeEndpoint(i), {"INFO", "replication"})
                    .contains("master_link_status:up")) {
            if (deadline.hasExpired()) {
                return fail(QStringLiteral("replica %1 did not sync").arg(i));
            }
            QTest::qWait(20);
        }
    }
    return true;
}

int OwnCluster::masterOf(int slot) const
{
    for (int i = 0; i < size(); ++i) {
        if (!m_nodes[size_t(i)]->isRunning()) {
            continue;
        }
        auto c = Connection::open(nodeEndpoint(i));
        if (!c) {
            continue;
        }
        auto r = c->command({"CLUSTER", "SLOTS"});
        if (!r) {
            continue;
        }
        for (const Reply &range : r->elements) {
            if (range.elements.size() >= 3 && range.elements[0].integer <= slot &&
                slot <= range.elements[1].integer) {
                return indexOfPort(quint16(range.elements[2].elements.at(1).integer));
            }
        }
        return -1;
    }
    return -1;
}

bool OwnCluster::waitHealthy(int ms) const
{
    const QDeadlineTimer deadline(ms);
    for (;;) {
        bool ok = true;
        for (int i = 0; i < size() && ok; ++i) {
            if (!m_nodes[size_t(i)]->isRunning()) {
                continue;
            }
            const QByteArray info = commandText(nodeEndpoint(i), {"CLUSTER", "INFO"});
            ok = info.contains("cluster_state:ok") && info.contains("cluster_slots_ok:16384");
        }
        if (ok) {
            return true;
        }
        if (deadline.hasExpired()) {
            return false;
        }
        QTest::qWait(50);
    }
}

bool OwnCluster::uncover(int i, int from, int to, QString *why) const
{
    auto admin = Connection::open(nodeEndpoint(i));
    if (!admin) {
        *why = admin.error().message;
        return false;
    }
    auto r = admin->command(
        {"CLUSTER", "DELSLOTSRANGE", QByteArray::number(from), QByteArray::number(to)});
    if (!r) {
        *why = r.error().message;
        return false;
    }
    return true;
}

} // namespace sluice::test
