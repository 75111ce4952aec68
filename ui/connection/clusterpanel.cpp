#include "clusterpanel.h"

#include "connectioncontroller.h"

#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"
#include "ui/common/tone.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace sluice::ui {

// The node list: one row a node, masters each followed by their replicas.
class ClusterNodesModel : public RowsModel<ClusterNode>
{
    Q_OBJECT
public:
    using RowsModel::RowsModel;
    void setNodes(const QList<ClusterNode> &nodes)
    {
        resetWith([&] { m_rows = nodes; });
    }

protected:
    QStringList titles() const override
    {
        return {tr("Node"), tr("Role"), tr("Slots"), tr("Health")};
    }
    QVariant cell(const QModelIndex &index, int role) const override
    {
        const ClusterNode &n = m_rows[index.row()];
        const Tone tone = n.health == ClusterNode::Health::Ok        ? Tone::Good
                          : n.health == ClusterNode::Health::Failing ? Tone::Warning
                                                                     : Tone::Bad;
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case 0:
                return n.address;
            case 1:
                return roleText(n);
            case 2:
                return n.master ? slotRangesText(n.slots) : QStringLiteral("—");
            case 3:
                return healthText(n.health);
            }
        }
        if (role == Qt::ToolTipRole && index.column() == 3) {
            return healthReason(n);
        }
        if (role == Qt::ToolTipRole && index.column() == 2 && n.master) {
            return tr("%n slot(s)", nullptr, n.slotCount());
        }
        if (role == Qt::ForegroundRole && index.column() == 3) {
            return tone::color(tone);
        }
        return {};
    }
};

// The slot view: one row a rule.
class RuleSpreadModel : public RowsModel<RuleSpread>
{
    Q_OBJECT
public:
    using RowsModel::RowsModel;
    void set(const QList<RuleSpread> &spreads, double rate, double capacity)
    {
        resetWith([&] {
            m_rows = spreads;
            m_texts.clear();
            for (const RuleSpread &s : spreads) {
                m_texts << describeSpread(s, rate, capacity);
            }
        });
    }
    const QList<SpreadText> &texts() const { return m_texts; }

protected:
    QStringList titles() const override
    {
        return {tr("Rule"), tr("Keys"), tr("Nodes"), tr("Load at the rate")};
    }
    QVariant cell(const QModelIndex &index, int role) const override
    {
        const RuleSpread &s = m_rows[index.row()];
        const SpreadText &t = m_texts[index.row()];
        if (role == Qt::DisplayRole) {
            switch (index.column()) {
            case 0:
                return s.ruleId;
            case 1:
                return t.keys;
            case 2:
                return t.nodes;
            case 3:
                return s.global ? t.load : tr("spread");
            }
        }
        if (role == Qt::ToolTipRole) {
            return !t.warning.isEmpty() ? t.warning : !t.detail.isEmpty() ? t.detail : t.nodes;
        }
        if (role == Qt::ForegroundRole && index.column() == 3 && s.global && t.tone != Tone::Info) {
            return tone::color(t.tone);
        }
        return {};
    }

private:
    QList<SpreadText> m_texts;
};

ClusterPanel::ClusterPanel(ConnectionController *controller, QWidget *parent)
    : QWidget(parent)
    , m_nodesModel(new ClusterNodesModel(this))
    , m_spreadModel(new RuleSpreadModel(this))
{
    setObjectName(QStringLiteral("clusterPanel"));
    auto *root = new QHBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 0);
    root->setSpacing(24);

    // Left: the nodes.
    auto *left = new QVBoxLayout;
    left->setSpacing(6);
    left->addWidget(PageHeader::heading(tr("Redis Cluster nodes"), 1.0, this));
    m_summary = PageHeader::note(this);
    m_summary->setObjectName(QStringLiteral("clusterSummary"));
    left->addWidget(m_summary);
    m_nodesView = makeTableView(QStringLiteral("clusterNodesTable"), m_nodesModel, this);
    m_nodesView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_nodesView->horizontalHeader()->setStretchLastSection(true);
    left->addWidget(m_nodesView, 1);
    root->addLayout(left, 1);

    // Right: the slot view.
    auto *right = new QVBoxLayout;
    right->setSpacing(6);
    right->addWidget(PageHeader::heading(tr("Slot view: where each rule's keys land"), 1.0, this));
    auto *inputs = new QHBoxLayout;
    inputs->setSpacing(8);
    auto *rateLabel = new QLabel(tr("&Requests/s to a global rule:"), this);
    m_rate = new QSpinBox(this);
    m_rate->setObjectName(QStringLiteral("hotKeyRate"));
    m_rate->setRange(1, 100'000'000);
    m_rate->setSingleStep(1000);
    m_rate->setValue(10'000);
    m_rate->setGroupSeparatorShown(true);
    rateLabel->setBuddy(m_rate);
    auto *capacityLabel = new QLabel(tr("Node &capacity (decisions/s):"), this);
    m_capacity = new QSpinBox(this);
    m_capacity->setObjectName(QStringLiteral("nodeCapacity"));
    m_capacity->setRange(1, 100'000'000);
    m_capacity->setSingleStep(10'000);
    m_capacity->setValue(int(defaultNodeCapacity));
    m_capacity->setGroupSeparatorShown(true);
    capacityLabel->setBuddy(m_capacity);
    inputs->addWidget(rateLabel);
    inputs->addWidget(m_rate);
    inputs->addSpacing(12);
    inputs->addWidget(capacityLabel);
    inputs->addWidget(m_capacity);
    inputs->addStretch(1);
    right->addLayout(inputs);
    m_capacityNote = PageHeader::note(this);
    m_capacityNote->setText(
        tr("The capacity is a figure you give: 100,000 decisions/s by default, what one Redis "
           "node served on a 2-core test machine (README, \"Engine vs redis-benchmark\"). "
           "Measure your node with the command line's bench (sluice-cli bench) against its URL."));
    right->addWidget(m_capacityNote);
    m_spreadView = makeTableView(QStringLiteral("slotViewTable"), m_spreadModel, this);
    m_spreadView->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_spreadView->horizontalHeader()->setStretchLastSection(true);
    m_spreadView->setTextElideMode(Qt::ElideRight);
    right->addWidget(m_spreadView, 1);
    m_warnings = PageHeader::selectable(QStringLiteral("hotKeyWarnings"), this, Qt::PlainText);
    right->addWidget(m_warnings);
    root->addLayout(right, 1);

    connect(controller, &ConnectionController::stateChanged, this, &ClusterPanel::onState);
    connect(m_rate, &QSpinBox::valueChanged, this, &ClusterPanel::updateSpread);
    connect(m_capacity, &QSpinBox::valueChanged, this, &ClusterPanel::updateSpread);
    onState(controller->state());
}

void ClusterPanel::setRules(const RuleSet &rules)
{
    m_rules = rules;
    updateSpread();
}

void ClusterPanel::setRate(double requestsPerSecond)
{
    m_rate->setValue(int(requestsPerSecond));
}

void ClusterPanel::setCapacity(double decisionsPerSecond)
{
    m_capacity->setValue(int(decisionsPerSecond));
}

QString ClusterPanel::warnings() const
{
    return m_warnings->text();
}

void ClusterPanel::onState(const ConnectionState &state)
{
    setVisible(state.cluster);
    if (!state.cluster) {
        return;
    }
    if (!state.nodes.isEmpty()) {
        m_nodes = state.nodes;
        m_nodesModel->setNodes(m_nodes);
    }
    int masters = 0, replicas = 0, down = 0, slots = 0;
    for (const ClusterNode &n : m_nodes) {
        (n.master ? masters : replicas) += 1;
        down += n.health != ClusterNode::Health::Ok ? 1 : 0;
        slots += n.master ? n.slotCount() : 0;
    }
    QStringList parts;
    parts << tr("%n master(s)", nullptr, masters) << tr("%n replica(s)", nullptr, replicas);
    parts << (slots >= 16384 ? tr("every slot served")
                             : tr("%1 of 16,384 slots served").arg(slots));
    if (down > 0) {
        parts << tr("%n node(s) not ok", nullptr, down);
    }
    QString text = parts.join(QStringLiteral(" · "));
    if (!state.nodesError.isEmpty()) {
        text += QLatin1Char('\n') +
                tr("The last read of CLUSTER NODES failed: %1").arg(state.nodesError);
    } else {
        text += QLatin1Char('\n') + tr("Read with CLUSTER NODES every 2 s.");
    }
    m_summary->setText(text);
    updateSpread();
}

void ClusterPanel::updateSpread()
{
    const QList<RuleSpread> spreads =
        m_rules ? ruleSpreads(*m_rules, m_nodes) : QList<RuleSpread>{};
    m_spreadModel->set(spreads, m_rate->value(), m_capacity->value());
    QStringList warnings;
    int globals = 0;
    Tone worst = Tone::Info;
    for (const SpreadText &t : m_spreadModel->texts()) {
        if (!t.warning.isEmpty()) {
            warnings << t.warning;
            worst = std::max(worst, t.tone);
            ++globals;
        }
    }
    if (globals > 1) {
        warnings << tr("Every global rule's key has the hash tag {global}: the %1 global rules "
                       "share one slot, so their loads add up on one node.")
                        .arg(globals);
    }
    if (!m_rules) {
        warnings << tr("No rules yet: open or pull a rule set on the Rules page.");
    }
    m_warnings->setText(warnings.join(QLatin1Char('\n')));
    m_warnings->setStyleSheet(
        QStringLiteral("color: %1;")
            .arg(tone::color(worst == Tone::Info ? Tone::Info : worst).name()));
}

} // namespace sluice::ui

#include "clusterpanel.moc"
