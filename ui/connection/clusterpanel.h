#pragma once

#include "clusternodes.h"
#include "connectionstate.h"

#include "core/rules/rule.h"

#include <QWidget>

#include <optional>

class QDoubleSpinBox;
class QLabel;
class QSpinBox;
class QTableView;

namespace sluice::ui {

class ConnectionController;
class ClusterNodesModel;
class RuleSpreadModel;

// The Connection page's Redis Cluster section (CONSOLE.md "Redis Cluster"), shown while the
// session is a cluster: its nodes (address, role, slot ranges, health) as the connection
// worker reads them every 2 s on its thread (ConnectionState::nodes), and the slot view: where
// each rule's keys land, with the hot-key warning of a global rule at the request rate typed
// against the node capacity typed. A thin view over clusternodes.h; it never talks to Redis.
class ClusterPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ClusterPanel(ConnectionController *controller, QWidget *parent = nullptr);

    // The Rules page's set, for the slot view.
    void setRules(const RuleSet &rules);
    void setRate(double requestsPerSecond);
    void setCapacity(double decisionsPerSecond);
    // The warnings shown (tests).
    QString warnings() const;

private:
    void onState(const ConnectionState &state);
    void updateSpread();

    std::optional<RuleSet> m_rules;
    QList<ClusterNode> m_nodes;
    ClusterNodesModel *m_nodesModel;
    RuleSpreadModel *m_spreadModel;
    QLabel *m_summary;
    QTableView *m_nodesView;
    QTableView *m_spreadView;
    QSpinBox *m_rate;
    QSpinBox *m_capacity;
    QLabel *m_capacityNote;
    QLabel *m_warnings;
};

} // namespace sluice::ui
