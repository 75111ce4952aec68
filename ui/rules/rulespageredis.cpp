// The Rules page and the Redis rule store (CONSOLE.md "Rules"): pull, push with its preview, the
// review of differences, the History panel, and the banner's offers of what to do next.
#include "rulespage.h"

#include "historydialog.h"
#include "rulediff.h"
#include "rulediffdialog.h"
#include "rulessession.h"

namespace sluice::ui {

void RulesPage::pull()
{
    m_session->pull();
}

void RulesPage::push()
{
    m_session->push();
}

void RulesPage::showPushPreview(const RulesSession::DiffPrompt &p)
{
    auto *dialog = new RuleDiffDialog(RuleDiffDialog::Mode::Push, p.diff, p.headline, p.note,
                                      p.version, p.unchanged, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setPreview(p.preview, p.previewError);
    connect(dialog, &QDialog::finished, this, [this, dialog](int result) {
        if (result == RuleDiffDialog::Push) {
            m_session->confirmPush(dialog->message());
        } else if (result == RuleDiffDialog::Stage) {
            m_session->confirmStage(dialog->message());
        }
    });
    dialog->open();
}

HistoryDialog *RulesPage::showHistory()
{
    auto *dialog = new HistoryDialog(m_session, m_historyConfirm, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    return dialog;
}

void RulesPage::showReview(const RulesSession::DiffPrompt &p)
{
    auto *dialog = new RuleDiffDialog(RuleDiffDialog::Mode::Review, p.diff, p.headline, p.note,
                                      p.version, p.unchanged, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this, p](int result) {
        if (result == RuleDiffDialog::UseRedis) {
            m_session->useRedis(p);
        } else if (result == RuleDiffDialog::KeepMine) {
            m_session->keepMine(p.version);
        }
    });
    dialog->open();
}

void RulesPage::showMessage(const PageMessage &m, const QList<RulesSession::Offer> &offers)
{
    QList<MessageBanner::Action> actions;
    for (const RulesSession::Offer offer : offers) {
        switch (offer) {
        case RulesSession::Offer::Pull:
            actions.append(
                {tr("Pull"), QStringLiteral("bannerPullButton"), [this] { m_session->pull(); }});
            break;
        case RulesSession::Offer::PullAndReview:
            // Beside Force push it answers a conflict; alone, a store that moved on.
            actions.append({tr("Pull and review"),
                            offers.contains(RulesSession::Offer::ForcePush)
                                ? QStringLiteral("pullReviewButton")
                                : QStringLiteral("bannerPullButton"),
                            [this] { m_session->pullForReview(); }});
            break;
        case RulesSession::Offer::ForcePush:
            actions.append({tr("Push anyway (force)"), QStringLiteral("forcePushButton"),
                            [this] { m_session->forcePush(); }});
            break;
        case RulesSession::Offer::ReloadFile:
            actions.append({tr("Reload the file"), QStringLiteral("reloadFileButton"),
                            [this] { m_session->reloadFile(); }});
            break;
        case RulesSession::Offer::KeepEdits:
            actions.append({tr("Keep the rules here"), QStringLiteral("keepEditsButton"),
                            [this] { m_session->keepEdits(); }});
            break;
        case RulesSession::Offer::OverwriteFile:
            actions.append(
                {tr("Overwrite the file"), QStringLiteral("overwriteFileButton"), [this] {
                     saveTo(m_session->filePath(), {true, false}, {});
                 }});
            break;
        case RulesSession::Offer::SaveWithoutComments:
            actions.append(
                {tr("Save without the comments"), QStringLiteral("dropCommentsButton"), [this] {
                     saveTo(m_session->filePath(), {false, true}, {});
                 }});
            break;
        case RulesSession::Offer::SaveAs:
            actions.append(
                {tr("Save as…"), QStringLiteral("bannerSaveAsButton"), [this] { saveAs(); }});
            break;
        }
    }
    m_banner->showMessage(m, actions);
}

} // namespace sluice::ui
