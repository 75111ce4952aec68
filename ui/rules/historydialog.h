#pragma once

#include "core/common/result.h"
#include "core/rules/rulediff.h"
#include "core/rules/rulestore.h"
#include "ui/common/confirm.h"

#include <QDialog>

class QLabel;
class QPushButton;
class QTreeWidget;

namespace sluice::ui {

class RulesSession;

// The Rules page's History panel (CONSOLE.md "Rules"): the rule store's versions (newest
// first: version, time, author, what changed, message); the selected version's diff against the
// stored rules, which is what a rollback to it would change; and Roll back, after a
// confirmation. Everything it reads comes through the session (the worker thread); opened
// with open(). Widgets are named for tests: historyList, historyDiff, rollbackButton,
// historySummary.
class HistoryDialog : public QDialog
{
    Q_OBJECT
public:
    HistoryDialog(RulesSession *session, ConfirmHook confirm, QWidget *parent = nullptr);

    QTreeWidget *list() const { return m_list; }
    QTreeWidget *diffTree() const { return m_diff; }
    QPushButton *rollbackButton() const { return m_rollback; }

private:
    void showHistory(const rules::RuleStore::History &history);
    void showVersion(qint64 version, const rules::RuleDiff &diff, int unchanged);
    void select();
    void rollback();

    RulesSession *m_session;
    ConfirmHook m_confirm;
    rules::RuleStore::History m_history;
    QLabel *m_summary;
    QTreeWidget *m_list;
    QLabel *m_diffTitle;
    QTreeWidget *m_diff;
    QPushButton *m_rollback;
    qint64 m_selected = 0;
};

} // namespace sluice::ui
