#include "clusternodes.h"

#include "core/redis/connection.h"
#include "core/redis/slot.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

// The words' translation context: "ClusterNodes".
class Text
{
    Q_DECLARE_TR_FUNCTIONS(ClusterNodes)
};

bool addressLess(const QString &a, const QString &b)
{
    const qsizetype ca = a.lastIndexOf(u':');
    const qsizetype cb = b.lastIndexOf(u':');
    const QString ha = a.left(ca);
    const QString hb = b.left(cb);
    return ha != hb ? ha < hb : a.mid(ca + 1).toUInt() < b.mid(cb + 1).toUInt();
}

} // namespace

int ClusterNode::slotCount() const
{
    int n = 0;
    for (const auto &[a, b] : slots) {
        n += b - a + 1;
    }
    return n;
}

Result<QList<ClusterNode>> parseClusterNodes(const QByteArray &text)
{
    struct Parsed
    {
        ClusterNode node;
        QString masterId;
    };
    QList<Parsed> parsed;
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines[i].trimmed();
        if (line.isEmpty()) {
            continue;
        }
        const QList<QByteArray> f = line.split(' ');
        if (f.size() < 8) {
            return Error::make(
                Error::Kind::Protocol,
                u"CLUSTER NODES line %1 is not a node (fewer than 8 fields): '%2'"_s.arg(i + 1).arg(
                    QString::fromUtf8(line.left(120))));
        }
        Parsed p;
        ClusterNode &n = p.node;
        n.id = QString::fromLatin1(f[0]);
        // ip:port@cport[,hostname]
        QByteArray address = f[1];
        address = address.left(address.indexOf('@') < 0 ? address.size() : address.indexOf('@'));
        n.address = QString::fromUtf8(address);
        n.flags = QString::fromLatin1(f[2]);
        const QStringList flags = n.flags.split(u',');
        n.master = flags.contains(u"master"_s);
        p.masterId = f[3] == "-" ? QString() : QString::fromLatin1(f[3]);
        const bool linkUp = f[7] == "connected" || flags.contains(u"myself"_s);
        if (flags.contains(u"fail"_s) || flags.contains(u"noaddr"_s) ||
            n.address.startsWith(u':')) {
            n.health = ClusterNode::Health::Unreachable;
        } else if (flags.contains(u"fail?"_s) || flags.contains(u"handshake"_s) || !linkUp) {
            n.health = ClusterNode::Health::Failing;
        }
        for (qsizetype k = 8; k < f.size(); ++k) {
            const QByteArray &s = f[k];
            if (s.startsWith('[')) {
                continue; // a slot being migrated or imported: its owner is listed as usual
            }
            const qsizetype dash = s.indexOf('-');
            bool ok1 = false, ok2 = false;
            const int a = (dash < 0 ? s : s.left(dash)).toInt(&ok1);
            const int b = dash < 0 ? a : s.mid(dash + 1).toInt(&ok2);
            if (!ok1 || (dash >= 0 && !ok2) || a < 0 || b < a || b >= redis::clusterSlots) {
                return Error::make(
                    Error::Kind::Protocol,
                    u"CLUSTER NODES line %1: '%2' is not a slot range"_s.arg(i + 1).arg(
                        QString::fromUtf8(s)));
            }
            n.slots << std::pair<int, int>(a, b);
        }
        parsed << p;
    }
    if (parsed.isEmpty()) {
        return Error::make(Error::Kind::Protocol, u"CLUSTER NODES listed no node"_s);
    }
    QList<ClusterNode> masters;
    for (const Parsed &p : parsed) {
        if (p.node.master) {
            masters << p.node;
        }
    }
    std::sort(masters.begin(), masters.end(), [](const ClusterNode &a, const ClusterNode &b) {
        return addressLess(a.address, b.address);
    });
    QList<ClusterNode> out;
    QList<ClusterNode> orphans; // replicas of a master not listed
    for (const ClusterNode &m : masters) {
        out << m;
        QList<ClusterNode> replicas;
        for (const Parsed &p : parsed) {
            if (!p.node.master && p.masterId == m.id) {
                ClusterNode r = p.node;
                r.masterAddress = m.address;
                replicas << r;
            }
        }
        std::sort(replicas.begin(), replicas.end(), [](const ClusterNode &a, const ClusterNode &b) {
            return addressLess(a.address, b.address);
        });
        out << replicas;
    }
    for (const Parsed &p : parsed) {
        const bool placed = std::any_of(out.begin(), out.end(),
                                        [&](const ClusterNode &n) { return n.id == p.node.id; });
        if (!placed) {
            orphans << p.node;
        }
    }
    out << orphans;
    return out;
}

Result<QList<ClusterNode>> readClusterNodes(Connection &c)
{
    auto r = c.command({QByteArrayLiteral("CLUSTER"), QByteArrayLiteral("NODES")},
                       ReplyBound::topology("CLUSTER NODES"));
    if (!r) {
        return r.error();
    }
    return parseClusterNodes(r->str);
}

QString slotRangesText(const QList<std::pair<int, int>> &ranges)
{
    if (ranges.isEmpty()) {
        return u"—"_s;
    }
    QStringList out;
    for (const auto &[a, b] : ranges) {
        out << (a == b ? QString::number(a) : u"%1-%2"_s.arg(a).arg(b));
    }
    return out.join(u", "_s);
}

QString healthText(ClusterNode::Health h)
{
    switch (h) {
    case ClusterNode::Health::Ok:
        return Text::tr("ok");
    case ClusterNode::Health::Failing:
        return Text::tr("failing");
    case ClusterNode::Health::Unreachable:
        return Text::tr("unreachable");
    }
    return {};
}

QString roleText(const ClusterNode &n)
{
    if (n.master) {
        return Text::tr("master");
    }
    return n.masterAddress.isEmpty() ? Text::tr("replica")
                                     : Text::tr("replica of %1").arg(n.masterAddress);
}

QString healthReason(const ClusterNode &n)
{
    switch (n.health) {
    case ClusterNode::Health::Ok:
        return Text::tr("The cluster sees it up (flags: %1).").arg(n.flags);
    case ClusterNode::Health::Failing:
        return Text::tr("Suspected down: the node asked cannot reach it, or its link is down "
                        "(flags: %1). The cluster marks it failed if most masters agree.")
            .arg(n.flags);
    case ClusterNode::Health::Unreachable:
        return Text::tr("Down: the masters agreed it failed, or it has no address (flags: %1). A "
                        "replica of a failed master takes over its slots.")
            .arg(n.flags);
    }
    return {};
}

QString nodeOfSlot(const QList<ClusterNode> &nodes, int slot)
{
    for (const ClusterNode &n : nodes) {
        if (!n.master || n.health == ClusterNode::Health::Unreachable) {
            continue;
        }
        for (const auto &[a, b] : n.slots) {
            if (slot >= a && slot <= b) {
                return n.address;
            }
        }
    }
    return {};
}

QList<RuleSpread> ruleSpreads(const RuleSet &rules, const QList<ClusterNode> &nodes)
{
    QList<RuleSpread> out;
    int covered = 0;
    for (const ClusterNode &n : nodes) {
        if (n.master && n.health != ClusterNode::Health::Unreachable) {
            covered += n.slotCount();
        }
    }
    for (const Rule &r : rules.rules) {
        RuleSpread s;
        s.ruleId = r.id;
        s.global = r.scope.kind == Scope::Kind::Global;
        if (s.global) {
            s.key = r.keyFor(QByteArrayLiteral("global"));
            s.slot = redis::keySlot(s.key);
            s.node = nodeOfSlot(nodes, s.slot);
        } else {
            for (const ClusterNode &n : nodes) {
                if (n.master && n.health != ClusterNode::Health::Unreachable && n.slotCount() > 0 &&
                    covered > 0) {
                    s.shares << std::pair<QString, double>(n.address,
                                                           double(n.slotCount()) / covered);
                }
            }
        }
        out << s;
    }
    return out;
}

double hotKeyShare(double rate, double capacity)
{
    return capacity > 0 && rate > 0 ? rate / capacity : 0;
}

SpreadText describeSpread(const RuleSpread &s, double rate, double capacity)
{
    SpreadText t;
    const QLocale locale;
    if (!s.global) {
        t.keys = Text::tr("one key per subject, over every slot");
        QStringList parts;
        double low = 1, high = 0;
        for (const auto &[node, share] : s.shares) {
            parts << u"%1 %2%"_s.arg(node).arg(qRound(share * 100));
            low = std::min(low, share);
            high = std::max(high, share);
        }
        t.detail = parts.join(u", "_s);
        if (parts.isEmpty()) {
            t.nodes = Text::tr("no master serves a slot");
        } else if (high - low < 0.01) {
            t.nodes = Text::tr("%n master(s), %1% each", nullptr, int(parts.size()))
                          .arg(qRound(high * 100));
        } else {
            t.nodes = Text::tr("%n master(s), %1% to %2%", nullptr, int(parts.size()))
                          .arg(qRound(low * 100))
                          .arg(qRound(high * 100));
        }
        return t;
    }
    t.keys = Text::tr("one key, slot %1").arg(s.slot);
    if (s.node.isEmpty()) {
        t.nodes = Text::tr("no master (slot %1 uncovered)").arg(s.slot);
        t.tone = Tone::Bad;
        t.warning = Text::tr("%1 is one key (%2) in slot %3, which no master serves now: its "
                             "decisions fail and follow the rule's on_redis_error.")
                        .arg(s.ruleId, QString::fromUtf8(s.key))
                        .arg(s.slot);
        return t;
    }
    t.nodes = s.node;
    t.share = hotKeyShare(rate, capacity);
    const int percent = qRound(t.share * 100);
    t.load = Text::tr("%1% of the node").arg(percent);
    t.tone = t.share >= 0.5 ? Tone::Bad : t.share >= 0.1 ? Tone::Warning : Tone::Info;
    t.warning =
        Text::tr(
            "Hot key: %1 is one key (%2) in slot %3 on %4, so all its requests go to that node. "
            "At %5 requests/s that is %6% of the node (at %7 decisions/s); more masters do not "
            "spread it.")
            .arg(s.ruleId, QString::fromUtf8(s.key))
            .arg(s.slot)
            .arg(s.node, locale.toString(qint64(rate)))
            .arg(percent)
            .arg(locale.toString(qint64(capacity)));
    if (t.share >= 1) {
        t.warning += u" "_s + Text::tr("That is more than one node can serve: split the limit "
                                       "per subject, or shard it over several rules.");
    }
    return t;
}

} // namespace sluice::ui
