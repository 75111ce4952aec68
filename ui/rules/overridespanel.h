#pragma once

#include "ui/common/confirm.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableView;

namespace sluice::ui {

class OverridesModel;
class RulesSession;

// The selected rule's overrides under the Rules table (CONSOLE.md "Rules"): those of the rule
// file and those stored in Redis, one row each, a note saying where they come from (or why the
// stored ones are not known), and Remove override… for a stored one (asked first). A view over
// the session's overridesRule(), storedOverrides() and overridesError(); GUI thread.
class OverridesPanel : public QWidget
{
    Q_OBJECT
public:
    explicit OverridesPanel(RulesSession *session, QWidget *parent = nullptr);

    OverridesModel *model() const { return m_model; }
    // Answers "remove this stored override?" at once (tests).
    void setConfirm(ConfirmHook hook) { m_confirm = std::move(hook); }
    // The list, heading and note again, from the session (the selected override kept).
    void refresh();

private:
    void removeSelected();
    void updateRemove();
    // Opens AddOverrideDialog for the selected rule (addoverridedialog.cpp).
    void addOverride();

    RulesSession *m_session;
    OverridesModel *m_model;
    QTableView *m_view;
    QLabel *m_heading;
    QLabel *m_note;
    QPushButton *m_remove;
    QPushButton *m_add;
    ConfirmHook m_confirm;
};

} // namespace sluice::ui
