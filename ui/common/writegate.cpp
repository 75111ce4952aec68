#include "writegate.h"

#include <QComboBox>
#include <QEvent>
#include <QStandardItemModel>
#include <QWidget>

namespace sluice::ui {

WriteGate::WriteGate(QObject *parent)
    : QObject(parent)
{}

void WriteGate::guard(const QList<QWidget *> &widgets)
{
    for (QWidget *w : widgets) {
        if (!w) {
            continue;
        }
        m_widgets.append({w, w->toolTip(), !w->testAttribute(Qt::WA_ForceDisabled)});
        w->installEventFilter(this);
        apply(m_widgets.last());
    }
}

void WriteGate::guardItem(QComboBox *combo, int index)
{
    auto *model = qobject_cast<QStandardItemModel *>(combo->model());
    if (!model || !model->item(index)) {
        return;
    }
    m_items.append({combo, index, model->item(index)->toolTip()});
    applyItem(m_items.last());
}

QList<QWidget *> WriteGate::widgets() const
{
    QList<QWidget *> out;
    for (const Guarded &g : m_widgets) {
        if (g.widget) {
            out << g.widget;
        }
    }
    return out;
}

void WriteGate::setReadOnly(bool readOnly, const QString &reason)
{
    m_readOnly = readOnly;
    m_reason = reason;
    for (Guarded &g : m_widgets) {
        apply(g);
    }
    for (Item &item : m_items) {
        applyItem(item);
    }
}

void WriteGate::apply(Guarded &g)
{
    if (!g.widget) {
        return;
    }
    m_applying = true;
    g.widget->setEnabled(g.wanted && !m_readOnly);
    g.widget->setToolTip(m_readOnly ? m_reason : g.toolTip);
    m_applying = false;
}

void WriteGate::applyItem(Item &item)
{
    if (!item.combo) {
        return;
    }
    auto *model = qobject_cast<QStandardItemModel *>(item.combo->model());
    QStandardItem *it = model ? model->item(item.index) : nullptr;
    if (!it) {
        return;
    }
    it->setEnabled(!m_readOnly);
    it->setToolTip(m_readOnly ? m_reason : item.toolTip);
    if (m_readOnly && item.combo->currentIndex() == item.index) {
        item.combo->setCurrentIndex(item.index == 0 ? 1 : 0);
    }
}

bool WriteGate::eventFilter(QObject *watched, QEvent *event)
{
    if (m_applying ||
        (event->type() != QEvent::EnabledChange && event->type() != QEvent::ToolTipChange)) {
        return false;
    }
    for (Guarded &g : m_widgets) {
        if (g.widget != watched) {
            continue;
        }
        // The page changed it: remember what it wants, and hold it off while read-only. (A
        // page that disables a button already held off sends no event: the gate gives back
        // the last state it saw, and the pages set theirs again on the new session anyway.)
        if (event->type() == QEvent::EnabledChange) {
            g.wanted = !g.widget->testAttribute(Qt::WA_ForceDisabled);
        } else {
            g.toolTip = g.widget->toolTip();
        }
        if (m_readOnly) {
            apply(g);
        }
        break;
    }
    return false;
}

} // namespace sluice::ui
