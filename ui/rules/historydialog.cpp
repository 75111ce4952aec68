#include "historydialog.h"

#include "rulediffdialog.h"
#include "rulessession.h"

#include "ui/common/pageheader.h"
#include "ui/common/tone.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sluice::ui {

namespace {

QString changesText(const QStringList &added, const QStringList &changed,
                    const QStringList &removed)
{
    QStringList parts;
    if (!added.isEmpty()) {
        parts << HistoryDialog::tr("added %1").arg(added.join(QStringLiteral(", ")));
    }
    if (!changed.isEmpty()) {
        parts << HistoryDialog::tr("changed %1").arg(changed.join(QStringLiteral(", ")));
    }
    if (!removed.isEmpty()) {
        parts << HistoryDialog::tr("removed %1").arg(removed.join(QStringLiteral(", ")));
    }
    return parts.isEmpty() ? HistoryDialog::tr("no changes") : parts.join(QStringLiteral("; "));
}

// What an entry did, a staging step said as one.
QString changesText(const rules::RuleStore::Entry &e)
{
    const QString changes = changesText(e.added, e.changed, e.removed);
    const QString of = e.stageOf ? QString::number(*e.stageOf) : QStringLiteral("?");
    if (e.stageOp == QLatin1String("stage")) {
        return HistoryDialog::tr("staged in shadow: %1")
            .arg(changesText(e.stagedAdded, e.stagedChanged, e.stagedRemoved));
    }
    if (e.stageOp == QLatin1String("promote")) {
        return HistoryDialog::tr("promoted the stage of v%1: %2").arg(of, changes);
    }
    if (e.stageOp == QLatin1String("discard")) {
        return e.added.isEmpty() && e.changed.isEmpty() && e.removed.isEmpty()
                   ? HistoryDialog::tr("discarded the stage of v%1").arg(of)
                   : HistoryDialog::tr("%1; discarded the stage of v%2").arg(changes, of);
    }
    return changes;
}

} // namespace

HistoryDialog::HistoryDialog(RulesSession *session, ConfirmHook confirm, QWidget *parent)
    : QDialog(parent)
    , m_session(session)
    , m_confirm(std::move(confirm))
{
    setObjectName(QStringLiteral("historyDialog"));
    setWindowTitle(tr("Rule history"));
    setWindowModality(Qt::WindowModal);
    resize(820, 560);

    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 10, {18, 16, 18, 14});
    m_summary = new QLabel(tr("Reading the history from Redis…"), this);
    m_summary->setObjectName(QStringLiteral("historySummary"));
    m_summary->setWordWrap(true);
    QFont f = m_summary->font();
    f.setBold(true);
    m_summary->setFont(f);
    box->addWidget(m_summary);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setChildrenCollapsible(false);
    m_list = new QTreeWidget(split);
    m_list->setObjectName(QStringLiteral("historyList"));
    m_list->setColumnCount(5);
    m_list->setHeaderLabels(
        {tr("Version"), tr("Time (UTC)"), tr("Author"), tr("Changes"), tr("Message")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setAlternatingRowColors(true);
    m_list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(3, QHeaderView::Interactive);
    m_list->header()->setStretchLastSection(true);
    m_list->setColumnWidth(3, 300);
    m_list->setTextElideMode(Qt::ElideRight);

    auto *lower = new QWidget(split);
    auto *lowerBox = PageHeader::layoutOn<QVBoxLayout>(lower, 6, {0, 6, 0, 0});
    m_diffTitle = new QLabel(tr("Select a version to see what a rollback to it changes."), lower);
    m_diffTitle->setObjectName(QStringLiteral("historyDiffTitle"));
    m_diffTitle->setWordWrap(true);
    lowerBox->addWidget(m_diffTitle);
    m_diff = RuleDiffDialog::makeTree(QStringLiteral("historyDiff"), tr("What a rollback changes"),
                                      lower);
    lowerBox->addWidget(m_diff, 1);
    PageHeader::shareSplit(split, 3, 2);
    box->addWidget(split, 1);

    auto *buttons = new QDialogButtonBox(this);
    m_rollback = buttons->addButton(tr("&Roll back…"), QDialogButtonBox::ActionRole);
    m_rollback->setObjectName(QStringLiteral("rollbackButton"));
    m_rollback->setEnabled(false);
    auto *close = buttons->addButton(QDialogButtonBox::Close);
    close->setObjectName(QStringLiteral("closeButton"));
    connect(close, &QPushButton::clicked, this, &QDialog::reject);
    connect(m_rollback, &QPushButton::clicked, this, &HistoryDialog::rollback);
    box->addWidget(buttons);

    connect(m_list, &QTreeWidget::itemSelectionChanged, this, &HistoryDialog::select);
    connect(m_session, &RulesSession::historyReady, this, &HistoryDialog::showHistory);
    connect(m_session, &RulesSession::versionReady, this, &HistoryDialog::showVersion);
    connect(m_session, &RulesSession::historyFailed, this, [this](const QString &error) {
        m_summary->setText(tr("The history could not be read: %1").arg(error));
        m_summary->setStyleSheet(
            QStringLiteral("color: %1;").arg(tone::hex(tone::text(Tone::Bad))));
    });
    // After a rollback the store has a new version: read the history again.
    connect(m_session, &RulesSession::rolledBack, this, [this] { m_session->loadHistory(); });
    m_session->loadHistory();
}

void HistoryDialog::showHistory(const rules::RuleStore::History &history)
{
    m_history = history;
    m_summary->setStyleSheet(QString());
    if (history.version == 0) {
        m_summary->setText(tr("No rules were ever pushed to this Redis."));
    } else {
        m_summary->setText(tr("Rules in Redis: version %1 · %n change(s) kept", nullptr,
                              int(history.entries.size()))
                               .arg(history.version) +
                           (history.restorable.size() > 2 ? tr(" · can roll back to v%1 … v%2")
                                                                .arg(history.restorable.back())
                                                                .arg(history.restorable.at(1))
                            : history.restorable.size() == 2
                                ? tr(" · can roll back to v%1").arg(history.restorable.at(1))
                                : tr(" · no earlier version can be rebuilt")));
    }
    m_list->clear();
    for (const auto &e : history.entries) {
        QString version = QStringLiteral("v%1").arg(e.version);
        if (e.version == history.version) {
            version += tr(" (stored)");
        }
        QString changes = changesText(e);
        if (e.rollbackOf) {
            changes = tr("rollback to v%1: %2").arg(*e.rollbackOf).arg(changes);
        }
        if (e.forced) {
            changes += tr(" (forced)");
        }
        auto *item = new QTreeWidgetItem(m_list, {version, e.time, e.author, changes, e.message});
        item->setData(0, Qt::UserRole, e.version);
        for (int c = 0; c < 5; ++c) {
            item->setToolTip(c, item->text(c));
        }
        if (!history.restorable.contains(e.version)) {
            item->setForeground(0, tone::muted());
            item->setToolTip(0, tr("This version cannot be rebuilt: a later change kept no "
                                   "record of what it replaced"));
        }
    }
    // The version before the oldest kept entry is rebuilt too (the rules before its change).
    if (!history.entries.isEmpty()) {
        const qint64 before = history.entries.back().version - 1;
        if (before >= 1 && history.restorable.contains(before)) {
            auto *item = new QTreeWidgetItem(
                m_list, {QStringLiteral("v%1").arg(before), QString(), QString(),
                         tr("(before the oldest change kept)"), QString()});
            item->setData(0, Qt::UserRole, before);
        }
    }
    m_selected = 0;
    m_rollback->setEnabled(false);
    m_diff->clear();
}

void HistoryDialog::select()
{
    const QList<QTreeWidgetItem *> items = m_list->selectedItems();
    m_rollback->setEnabled(false);
    if (items.isEmpty()) {
        return;
    }
    m_selected = items.front()->data(0, Qt::UserRole).toLongLong();
    m_diff->clear();
    if (m_selected == m_history.version) {
        m_diffTitle->setText(
            tr("v%1 is the stored version: a rollback to it changes nothing.").arg(m_selected));
        return;
    }
    if (!m_history.restorable.contains(m_selected)) {
        m_diffTitle->setText(tr("v%1 cannot be rebuilt from the kept history.").arg(m_selected));
        return;
    }
    m_diffTitle->setText(tr("Reading v%1…").arg(m_selected));
    m_session->loadVersion(m_selected);
}

void HistoryDialog::showVersion(qint64 version, const rules::RuleDiff &diff, int unchanged)
{
    if (version != m_selected) {
        return;
    }
    m_diffTitle->setText(diff.isEmpty()
                             ? tr("v%1 has the same rules as the stored version.").arg(version)
                             : tr("A rollback to v%1 would change, in Redis:").arg(version));
    RuleDiffDialog::fillTree(m_diff, diff, unchanged);
    m_rollback->setText(tr("&Roll back to v%1…").arg(version));
    m_rollback->setEnabled(!diff.isEmpty() && m_session->canTalkToRedis());
}

void HistoryDialog::rollback()
{
    const qint64 version = m_selected;
    const QString question =
        tr("Store the rules of version %1 as version %2? Every service that follows the rule "
           "store serves them at once. The history keeps every version, so this can be undone "
           "the same way.")
            .arg(version)
            .arg(m_history.version + 1);
    askToConfirm(this, m_confirm, tr("Roll back the rules"), question,
                 tr("Roll back to v%1").arg(version), [this, version] {
                     m_rollback->setEnabled(false);
                     m_session->rollback(version);
                 });
}

} // namespace sluice::ui
