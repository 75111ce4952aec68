#pragma once

#include "rulediff.h"

#include "core/keys/changepreview.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QVBoxLayout;
class QTreeWidget;

namespace sluice::ui {

// Shows a RuleDiff before it is acted upon, and asks what to do:
//  - Push: "what a push would change in Redis" -> Push / Cancel;
//  - Review: after a conflict, "what your rules change over Redis vN" -> Keep mine (rebase on
//    vN, to push after review) / Use Redis vN (discard mine) / Cancel.
// Opened with open() (window-modal, never a nested event loop); the answer comes in finished()
// as a Choice. `unchanged`: how many rules stay as they are (shown as one line). Widgets are named
// for tests: diffTree, confirmPushButton, stageButton, keepMineButton, useRedisButton,
// pushMessage.
class RuleDiffDialog : public QDialog
{
    Q_OBJECT
public:
    enum class Mode { Push, Review };
    // Stage: push's alternative, the rules staged in shadow beside the enforced ones.
    enum Choice { Cancel = QDialog::Rejected, Push = 2, KeepMine = 3, UseRedis = 4, Stage = 5 };

    RuleDiffDialog(Mode mode, const RuleDiff &diff, const QString &headline, const QString &note,
                   qint64 storeVersion, int unchanged, QWidget *parent = nullptr);

    QTreeWidget *tree() const { return m_tree; }
    // Push: the message typed for the history (trimmed; empty when none).
    QString message() const;
    // Push: who the change limits now (RulesSession::DiffPrompt::preview), listed under the
    // diff: per rule, denied now and after, released and newly denied with their subjects.
    // `error`: why it could not be worked out (said instead). Tree named previewTree.
    void setPreview(const QList<keys::RulePreview> &preview, const QString &error);

    // The diff as the dialog lists it (Added / Changed / Removed groups, `unchanged` counted):
    // also the History panel's.
    static void fillTree(QTreeWidget *tree, const RuleDiff &diff, int unchanged);
    // An empty tree of two columns, "Rule" and `detailTitle`, the rule's as wide as its
    // contents: the dialog's diff and preview, and the History panel's diff.
    static QTreeWidget *makeTree(const QString &objectName, const QString &detailTitle,
                                 QWidget *parent);

private:
    QTreeWidget *m_tree;
    QLineEdit *m_message = nullptr;
    QVBoxLayout *m_box = nullptr;
};

} // namespace sluice::ui
