#include "fieldform.h"

#include "pageheader.h"
#include "tone.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QVBoxLayout>

using namespace Qt::StringLiterals;

namespace sluice::ui {

FieldForm::FieldForm(const QString &objectPrefix, QWidget *parent, const QString &editSuffix)
    : QWidget(parent)
    , m_prefix(objectPrefix)
    , m_suffix(editSuffix)
    , m_grid(new QGridLayout(this))
{
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setHorizontalSpacing(10);
    m_grid->setVerticalSpacing(4);
    m_grid->setColumnStretch(1, 1);
}

int FieldForm::nextRow() const
{
    // QGridLayout::rowCount() is 1 when it is empty.
    return m_grid->count() == 0 ? 0 : m_grid->rowCount();
}

QLineEdit *FieldForm::addField(const QString &key, const QString &label, const QString &placeholder,
                               const QString &toolTip, QWidget *trailing)
{
    Row r;
    r.box = new QWidget(this);
    auto *box = new QVBoxLayout(r.box);
    box->setContentsMargins(0, 0, 0, 0);
    box->setSpacing(1);
    r.edit = new QLineEdit(r.box);
    r.edit->setObjectName(m_prefix + key + m_suffix);
    r.edit->setPlaceholderText(placeholder);
    r.edit->setToolTip(toolTip);
    if (trailing) {
        auto *line = new QHBoxLayout;
        line->setSpacing(8);
        line->addWidget(r.edit, 1);
        trailing->setParent(r.box);
        line->addWidget(trailing);
        box->addLayout(line);
    } else {
        box->addWidget(r.edit);
    }
    r.error = PageHeader::note(r.box, tone::color(Tone::Bad));
    r.error->setObjectName(m_prefix + key + u"Error"_s);
    r.error->hide();
    box->addWidget(r.error);
    r.label = new QLabel(label, this);
    r.label->setBuddy(r.edit);
    // At the height of the field's first line, not beside its message.
    r.label->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
    r.label->setMinimumHeight(r.edit->sizeHint().height());
    const int row = nextRow();
    m_grid->addWidget(r.label, row, 0, Qt::AlignRight | Qt::AlignTop);
    m_grid->addWidget(r.box, row, 1);
    connect(r.edit, &QLineEdit::textEdited, this,
            [this, key](const QString &text) { Q_EMIT edited(key, text); });
    connect(r.edit, &QLineEdit::returnPressed, this, &FieldForm::submitted);
    m_rows.insert(key, r);
    m_order << key;
    return r.edit;
}

void FieldForm::addRow(const QString &label, QWidget *field, QWidget *buddy)
{
    field->setParent(this);
    const int row = nextRow();
    if (!label.isEmpty()) {
        auto *l = new QLabel(label, this);
        l->setBuddy(buddy ? buddy : field);
        l->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        l->setMinimumHeight(field->sizeHint().height());
        m_grid->addWidget(l, row, 0, Qt::AlignRight | Qt::AlignTop);
        m_rowLabels.insert(field, l);
    }
    m_grid->addWidget(field, row, 1);
}

void FieldForm::setRowShown(QWidget *field, bool shown)
{
    field->setVisible(shown);
    if (QLabel *l = m_rowLabels.value(field)) {
        l->setVisible(shown);
    }
}

void FieldForm::setSpacing(int horizontal, int vertical)
{
    m_grid->setHorizontalSpacing(horizontal);
    m_grid->setVerticalSpacing(vertical);
}

QLineEdit *FieldForm::edit(const QString &key) const
{
    return m_rows.value(key).edit;
}

QLabel *FieldForm::error(const QString &key) const
{
    return m_rows.value(key).error;
}

void FieldForm::showOnly(const QStringList &keys)
{
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it) {
        // A grid row whose widgets are all hidden takes no space and no spacing.
        const bool shown = keys.contains(it.key());
        it->label->setVisible(shown);
        it->box->setVisible(shown);
    }
}

void FieldForm::setValues(const QHash<QString, QString> &values)
{
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it) {
        const QString text = values.value(it.key());
        if (it->edit->text() != text) {
            const QSignalBlocker block(it->edit);
            it->edit->setText(text);
        }
    }
}

QHash<QString, QString> FieldForm::values() const
{
    QHash<QString, QString> out;
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it) {
        out.insert(it.key(), it->edit->text());
    }
    return out;
}

void FieldForm::setErrors(const QHash<QString, QString> &errors)
{
    for (auto it = m_rows.cbegin(); it != m_rows.cend(); ++it) {
        const QString text = errors.value(it.key());
        it->error->setText(text);
        it->error->setVisible(!text.isEmpty());
    }
}

void FieldForm::setFieldsEnabled(bool enabled)
{
    for (const Row &r : std::as_const(m_rows)) {
        r.edit->setEnabled(enabled);
    }
}

} // namespace sluice::ui
