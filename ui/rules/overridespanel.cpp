#include "overridespanel.h"

#include "overridesmodel.h"
#include "rulessession.h"

#include "ui/common/pageheader.h"
#include "ui/common/tablemodel.h"

#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

namespace sluice::ui {

OverridesPanel::OverridesPanel(RulesSession *session, QWidget *parent)
    : QWidget(parent)
    , m_session(session)
    , m_model(new OverridesModel(this))
{
    setObjectName(QStringLiteral("overridesPanel"));
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 4, {0, 6, 0, 0});
    auto *title = new QHBoxLayout;
    m_heading = PageHeader::heading(tr("Overrides"), 1.0, this);
    m_heading->setObjectName(QStringLiteral("overridesHeading"));
    m_remove = PageHeader::button(
        tr("&Remove override…"), QStringLiteral("removeOverrideButton"), this,
        tr("Remove the selected override from Redis: the rule decides for its subjects again"));
    m_remove->setEnabled(false);
    m_add = PageHeader::button(
        tr("Add override…"), QStringLiteral("addOverrideButton"), this,
        tr("Store an override of the selected rule in Redis: allow or deny a subject or a "
           "network for a time, whether it is limited right now or not"));
    m_add->setEnabled(false);
    title->addWidget(m_heading);
    title->addStretch(1);
    title->addWidget(m_add);
    title->addWidget(m_remove);
    box->addLayout(title);
    m_view = makeTableView(QStringLiteral("overridesTable"), m_model, this, Qt::ElideMiddle);
    fitColumnsToView(m_view, OverridesModel::NoteColumn, {}, {OverridesModel::MatchColumn});
    box->addWidget(m_view, 1);
    m_note = PageHeader::note(this);
    m_note->setObjectName(QStringLiteral("overridesNote"));
    box->addWidget(m_note);
    setMinimumHeight(130);

    connect(m_session, &RulesSession::overridesChanged, this, &OverridesPanel::refresh);
    connect(m_view->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &OverridesPanel::updateRemove);
    connect(m_remove, &QPushButton::clicked, this, &OverridesPanel::removeSelected);
    connect(m_add, &QPushButton::clicked, this, &OverridesPanel::addOverride);
}

void OverridesPanel::refresh()
{
    const Rule *rule = m_session->rules().find(m_session->overridesRule());
    const QModelIndexList sel = m_view->selectionModel()->selectedRows();
    const OverridesModel::Row current =
        sel.isEmpty() ? OverridesModel::Row{} : m_model->rows().value(sel.first().row());
    if (!rule) {
        m_model->setRows(Rule{}, {});
        m_heading->setText(tr("Overrides"));
        m_note->setText(tr("Select a rule to see its per-subject overrides."));
        m_remove->setEnabled(false);
        m_add->setEnabled(false);
        return;
    }
    m_model->setRows(*rule, m_session->storedOverrides());
    // Keep the selected override across a new read.
    for (int i = 0; i < m_model->rows().size() && !sel.isEmpty(); ++i) {
        const OverridesModel::Row &r = m_model->rows()[i];
        if (r.stored == current.stored && r.override.kind == current.override.kind &&
            r.override.pattern == current.override.pattern) {
            m_view->selectRow(i);
            break;
        }
    }
    const qsizetype stored = m_session->storedOverrides().size();
    const qsizetype inFile = qsizetype(rule->overrides.size());
    m_heading->setText(tr("Overrides of %1 (%2)").arg(rule->id).arg(stored + inFile));
    QString note;
    if (m_session->isReadingOverrides()) {
        note = tr("Reading the overrides stored in Redis…");
    } else if (!m_session->overridesError().isEmpty()) {
        note = tr("%n in the rule file. The overrides stored in Redis are not known: %1.", nullptr,
                  int(inFile))
                   .arg(m_session->overridesError());
    } else if (stored + inFile == 0) {
        note = tr("None: the rule's limit applies to every subject. The Monitor's Allow and Block "
                  "store overrides; sluice-cli overrides add does too.");
    } else {
        note = tr("%1 in the rule file, %2 stored in Redis (those win over the file's, and end by "
                  "themselves).")
                   .arg(inFile)
                   .arg(stored);
    }
    m_note->setText(note);
    updateRemove();
}

void OverridesPanel::updateRemove()
{
    const QModelIndexList now = m_view->selectionModel()->selectedRows();
    m_remove->setEnabled(!now.isEmpty() && !m_session->isReadingOverrides() &&
                         m_model->rows().value(now.first().row()).stored);
    m_add->setEnabled(m_session->rules().find(m_session->overridesRule()) &&
                      !m_session->isReadingOverrides());
}

void OverridesPanel::removeSelected()
{
    const QModelIndexList sel = m_view->selectionModel()->selectedRows();
    if (sel.isEmpty()) {
        return;
    }
    const OverridesModel::Row r = m_model->rows().value(sel.first().row());
    const QString ruleId = m_session->overridesRule();
    if (!r.stored || ruleId.isEmpty()) {
        return;
    }
    askToConfirm(
        this, m_confirm, tr("Remove an override"),
        tr("Remove the override %1 (%2) of rule %3 from Redis?\n\nThe rule's own limit then "
           "applies to it again, wherever the rules come from the store.")
            .arg(r.override.describeMatch(), Override::actionName(r.override.action), ruleId),
        tr("Remove"),
        [this, ruleId, kind = r.override.kind, pattern = r.override.pattern] {
            m_session->removeStoredOverride(ruleId, kind, pattern);
        },
        QMessageBox::DestructiveRole);
}

} // namespace sluice::ui
