#pragma once

#include <QStyledItemDelegate>

namespace sluice::ui {

// The TTL cell of the Keys table: a bar that shrinks as the key nears expiry, with the time
// left written on it, counting down between refreshes (the page repaints the column every
// 250 ms; the time comes from the row's PTTL and when it was read, KeysModel::RemainingRole).
// The bar's full length is the most the key's rule can need (MaxTtlRole), or the PTTL first
// read when there is no rule. A key that never expires gets a red "∞ never" and no bar; a TTL
// too long for its rule an amber bar, full. Reads roles only, never the model's class.
class TtlDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    explicit TtlDelegate(QObject *parent = nullptr);

    void paint(QPainter *painter, const QStyleOptionViewItem &option,
               const QModelIndex &index) const override;
    QSize sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const override;
};

} // namespace sluice::ui
