#pragma once

#include "foreignwatchworker.h"

#include "core/rules/rule.h"
#include "ui/common/workerthread.h"

#include <QWidget>

class QLabel;
class QTableView;

namespace sluice::ui {

class ConnectionController;
class ElidedLabel;
class ForeignWatchModel;

// The Monitor's "Other limiters" (CONSOLE.md): what the Monitor shows for Sluice's rules, for
// the limiters Sluice does not run, from their keys alone and read-only: the subjects at or
// near their limit now, the busiest, and the admissions per second between two samples, with
// the resolution said ("sampled every 2 s"). The limit of a counter comes from an adopt block
// of the rule set (setRules); Spring Cloud Gateway's tokens and the block keys say theirs. The
// reading runs in ForeignWatchWorker on its own thread, only while the panel is on screen.
class ForeignWatchPanel : public QWidget
{
    Q_OBJECT
public:
    explicit ForeignWatchPanel(ConnectionController *connection, int intervalMs = 2000,
                               QWidget *parent = nullptr);
    ~ForeignWatchPanel() override;

    ForeignWatchModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QString statusText() const;

public Q_SLOTS:
    void setRules(const sluice::RuleSet &rules);

Q_SIGNALS:
    // A report (or an error) was shown: tests wait on it.
    void updated();

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void onSession();
    void onReport(quint64 session, const sluice::keys::WatchReport &report, const QString &error);

    ConnectionController *m_connection;
    WorkerThread<ForeignWatchWorker> m_worker;
    quint64 m_generation = 0;
    ForeignWatchModel *m_model;
    QTableView *m_view;
    ElidedLabel *m_status;
    QLabel *m_empty;
};

} // namespace sluice::ui
