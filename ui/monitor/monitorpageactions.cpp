#include "monitorpage.h"

#include "blockdialog.h"
#include "limitedmodel.h"
#include "monitorsession.h"

#include "ui/common/messagebanner.h"

#include <QItemSelectionModel>
#include <QTableView>

// The Monitor page's actions on the subjects of "Limited right now": Allow, Block, Unblock and
// what they ended in.

namespace sluice::ui {

QList<LimitedSubject> MonitorPage::selectedRows() const
{
    QList<LimitedSubject> out;
    for (const QModelIndex &i : m_limitedView->selectionModel()->selectedRows()) {
        const LimitedSubject r = m_limited->rows().value(i.row());
        if (r.adoptedAs.isEmpty() && !r.subject.isEmpty()) {
            out << r;
        }
    }
    return out;
}

namespace {

QList<OverrideTarget> targetsOf(const QList<LimitedSubject> &rows)
{
    QList<OverrideTarget> out;
    for (const LimitedSubject &r : rows) {
        const OverrideTarget t{r.ruleId, r.subject};
        if (!out.contains(t)) {
            out << t;
        }
    }
    return out;
}

} // namespace

void MonitorPage::allowSelected()
{
    const QList<OverrideTarget> targets = targetsOf(selectedRows());
    if (targets.isEmpty()) {
        return;
    }
    askToConfirm(this, m_confirmHook, tr("Allow for one hour"),
                 MonitorSession::allowQuestion(targets), tr("Allow for 1 h"), [this, targets] {
                     m_session->storeOverrides(targets, Override::Action::Allow,
                                               MonitorSession::allowTtlUs);
                 });
}

void MonitorPage::blockSelected()
{
    const QList<OverrideTarget> targets = targetsOf(selectedRows());
    if (targets.isEmpty() || m_blockDialog) {
        return;
    }
    auto *d = new BlockDialog(targets, this);
    m_blockDialog = d;
    d->setAttribute(Qt::WA_DeleteOnClose);
    connect(d, &QObject::destroyed, this, [this] { m_blockDialog = nullptr; });
    connect(d, &BlockDialog::blockRequested, this,
            [this](const QList<OverrideTarget> &t, qint64 us, const QString &note) {
                m_session->storeOverrides(t, Override::Action::Deny, us, note);
            });
    d->open();
}

void MonitorPage::onOverridden(const QList<OverrideResult> &results)
{
    m_banner->showMessage(MonitorSession::describeOverrides(results));
    updateUnblockButton();
    Q_EMIT overrideFinished(results);
}

void MonitorPage::unblockSelected()
{
    const QModelIndexList sel = m_limitedView->selectionModel()->selectedRows();
    if (sel.size() != 1) {
        return;
    }
    const LimitedSubject r = m_limited->rows().value(sel.first().row());
    askToConfirm(
        this, m_confirmHook, tr("Unblock a subject"), MonitorSession::unblockQuestion(r),
        tr("Unblock"), [this, key = r.key] { m_session->unblock(key); },
        QMessageBox::DestructiveRole);
}

void MonitorPage::onUnblocked(const QByteArray &key, bool existed, const QString &error)
{
    m_banner->showMessage(MonitorSession::describeUnblock(key, existed, error));
    updateUnblockButton();
    Q_EMIT unblockFinished(key, error);
}

} // namespace sluice::ui
