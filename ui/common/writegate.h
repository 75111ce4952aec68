#pragma once

#include <QList>
#include <QObject>
#include <QPointer>
#include <QString>

class QComboBox;
class QWidget;

namespace sluice::ui {

// Keeps every action that writes to Redis off while the connection is read-only, with the
// reason as its tooltip: the pages register their write buttons (and the combo box items that
// choose a write, such as the simulation on Redis) once, and go on enabling them by their own
// logic; the gate holds them off over it (it watches their enabled state) and gives them back
// their tooltips when the connection may write again. GUI thread.
class WriteGate : public QObject
{
    Q_OBJECT
public:
    explicit WriteGate(QObject *parent = nullptr);

    void guard(const QList<QWidget *> &widgets);
    // An item of a combo box: disabled (and left, to the first item, when it was current).
    void guardItem(QComboBox *combo, int index);

    void setReadOnly(bool readOnly, const QString &reason);
    bool isReadOnly() const { return m_readOnly; }
    QString reason() const { return m_reason; }
    // For tests: the widgets held off (or that would be).
    QList<QWidget *> widgets() const;

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Guarded
    {
        QPointer<QWidget> widget;
        QString toolTip;    // its own, given back when writes are allowed again
        bool wanted = true; // what the page last set
    };
    struct Item
    {
        QPointer<QComboBox> combo;
        int index;
        QString toolTip;
    };
    void apply(Guarded &g);
    void applyItem(Item &item);

    QList<Guarded> m_widgets;
    QList<Item> m_items;
    bool m_readOnly = false;
    bool m_applying = false;
    QString m_reason;
};

} // namespace sluice::ui
