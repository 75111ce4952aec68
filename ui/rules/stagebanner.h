#pragma once

#include "ui/common/confirm.h"
#include "ui/common/messagebanner.h"

namespace sluice::ui {

class RulesSession;

// The Rules page's banner for a staged change (CONSOLE.md "Staged rollout"), shown while there
// is one: who staged what and why, and its two ways out. Promote and Discard each ask first,
// with a summary of what becomes enforced and for whom (summary()); the session does the rest.
// GUI thread.
class StageBanner : public MessageBanner
{
    Q_OBJECT
public:
    explicit StageBanner(RulesSession *session, QWidget *parent = nullptr);

    // Answers the Promote / Discard question at once (tests).
    void setConfirm(ConfirmHook hook) { m_confirm = std::move(hook); }
    // From the session's stage: shown with its text, or hidden.
    void refresh();
    // What promoting (true) or discarding the stage does, one line a rule: "api: 5 per 10s per
    // IP → 2 per 10s per IP", and what the rules on the page become.
    QString summary(bool promote) const;

private:
    void ask(bool promote);

    RulesSession *m_session;
    QPushButton *m_promote;
    QPushButton *m_discard;
    ConfirmHook m_confirm;
};

} // namespace sluice::ui
