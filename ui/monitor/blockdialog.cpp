#include "blockdialog.h"

#include "monitorsession.h"

#include "ui/common/durationfield.h"
#include "ui/common/overridefields.h"

#include "core/common/bytes.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace sluice::ui {

BlockDialog::BlockDialog(QList<OverrideTarget> targets, QWidget *parent)
    : QDialog(parent)
    , m_targets(std::move(targets))
{
    setObjectName(QStringLiteral("blockDialog"));
    setWindowTitle(tr("Block"));
    auto *box = new QVBoxLayout(this);
    QStringList who;
    for (const OverrideTarget &t : m_targets.mid(0, 5)) {
        who << tr("%1 on rule %2").arg(bytes::printable(t.subject), t.ruleId);
    }
    if (m_targets.size() > 5) {
        who << tr("and %n more", nullptr, int(m_targets.size() - 5));
    }
    box->addWidget(OverrideFields::intro(
        tr("Deny every request of %1 for the time below: an override stored in Redis, which the "
           "rule's key does not change and which ends by itself.")
            .arg(who.join(QStringLiteral(", "))),
        this));
    auto *form = new QFormLayout;
    const OverrideFields fields(MonitorSession::defaultBlockUs, QStringLiteral("block"), this);
    m_duration = fields.duration;
    m_note = fields.note;
    form->addRow(tr("Block &for:"), m_duration);
    form->addRow(tr("&Note:"), m_note);
    box->addLayout(form);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    QPushButton *ok = buttons->addButton(tr("Block"), QDialogButtonBox::AcceptRole);
    ok->setObjectName(QStringLiteral("blockConfirmButton"));
    ok->setEnabled(m_duration->isValid());
    box->addWidget(buttons);
    connect(m_duration, &DurationField::validityChanged, ok, &QPushButton::setEnabled);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (const auto us = m_duration->us()) {
            Q_EMIT blockRequested(m_targets, *us, m_note->text().trimmed());
            accept();
        }
    });
}

} // namespace sluice::ui
