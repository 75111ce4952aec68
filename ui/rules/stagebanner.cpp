#include "stagebanner.h"

#include "rulessession.h"

#include <QPushButton>

namespace sluice::ui {

StageBanner::StageBanner(RulesSession *session, QWidget *parent)
    : MessageBanner(QStringLiteral("stageBanner"), QStringLiteral("stageText"), parent)
    , m_session(session)
{
    m_promote = addButton(tr("&Promote…"), QStringLiteral("promoteButton"), true);
    m_promote->setToolTip(tr("Enforce the staged rules: a new version in the history"));
    m_discard = addButton(tr("Disc&ard…"), QStringLiteral("discardStageButton"), true);
    m_discard->setToolTip(tr("Drop the staged rules; the enforced ones stay as they are"));
    connect(m_promote, &QPushButton::clicked, this, [this] { ask(true); });
    connect(m_discard, &QPushButton::clicked, this, [this] { ask(false); });
    hide();
}

void StageBanner::refresh()
{
    const auto &stage = m_session->stage();
    if (!stage) {
        hide();
        return;
    }
    QStringList what;
    if (!stage->changed.isEmpty()) {
        what << tr("changes %1").arg(stage->changed.join(QStringLiteral(", ")));
    }
    if (!stage->added.isEmpty()) {
        what << tr("adds %1").arg(stage->added.join(QStringLiteral(", ")));
    }
    if (!stage->removed.isEmpty()) {
        what << tr("removes %1").arg(stage->removed.join(QStringLiteral(", ")));
    }
    QString detail = tr("Staged at version %1 by %2: %3. The service decides by the enforced "
                        "rules and, in shadow, by these; the Monitor shows them side by side.")
                         .arg(stage->version)
                         .arg(stage->author.isEmpty() ? tr("someone") : stage->author,
                              what.join(QStringLiteral("; ")));
    if (!stage->message.isEmpty()) {
        detail += QLatin1Char('\n') + tr("Why: %1").arg(stage->message);
    }
    showMessage(
        PageMessage::headlined(Tone::Warning, tr("A change is staged, running in shadow"), detail));
    setBusy(m_session->isBusy() || !m_session->canTalkToRedis());
    show();
}

QString StageBanner::summary(bool promote) const
{
    const auto &stage = m_session->stage();
    if (!stage) {
        return {};
    }
    const RuleSet &enforced = m_session->storeSet();
    QStringList lines;
    // For whom: each rule's own words ("3 per 5s per IP"), and its route when it has one.
    auto limit = [](const Rule &r) {
        return r.route.isEmpty() ? r.describe() : tr("%1 on %2").arg(r.describe(), r.route);
    };
    for (const QString &id : stage->changed) {
        const Rule *was = enforced.find(id);
        const Rule *will = stage->set.find(id);
        if (was && will) {
            lines << (promote ? tr("• %1: %2 → %3").arg(id, limit(*was), limit(*will))
                              : tr("• %1 stays %2 (not %3)").arg(id, limit(*was), limit(*will)));
        }
    }
    for (const QString &id : stage->added) {
        if (const Rule *will = stage->set.find(id)) {
            lines << (promote ? tr("• %1 is added: %2").arg(id, limit(*will))
                              : tr("• %1 is not added").arg(id));
        }
    }
    for (const QString &id : stage->removed) {
        lines << (promote ? tr("• %1 is removed: its subjects are no longer limited by it").arg(id)
                          : tr("• %1 stays").arg(id));
    }
    const QString head =
        promote ? tr("Promote the change staged at version %1? From then on every service "
                     "deciding from the store enforces:")
                      .arg(stage->version)
                : tr("Discard the change staged at version %1? The enforced rules stay as they "
                     "are:")
                      .arg(stage->version);
    const QString page =
        promote ? tr("The rules here become the promoted version (edits you made after staging "
                     "are kept, unsaved).")
                : tr("The rules here go back to the enforced ones (edits you made after staging "
                     "are kept, unsaved).");
    return head + QStringLiteral("\n\n") + lines.join(QLatin1Char('\n')) + QStringLiteral("\n\n") +
           page;
}

void StageBanner::ask(bool promote)
{
    askToConfirm(
        this, m_confirm,
        promote ? tr("Promote the staged change") : tr("Discard the staged change"),
        summary(promote), promote ? tr("Promote") : tr("Discard"),
        [this, promote] { promote ? m_session->promote() : m_session->discard(); },
        promote ? QMessageBox::AcceptRole : QMessageBox::DestructiveRole);
}

} // namespace sluice::ui
