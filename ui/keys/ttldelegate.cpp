#include "ttldelegate.h"

#include "keypresentation.h"
#include "keysmodel.h"
#include "ui/common/tone.h"

#include <QApplication>
#include <QPainter>

namespace sluice::ui {

TtlDelegate::TtlDelegate(QObject *parent)
    : QStyledItemDelegate(parent)
{}

QSize TtlDelegate::sizeHint(const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    QSize s = QStyledItemDelegate::sizeHint(option, index);
    s.setWidth(std::max(s.width(), 130));
    return s;
}

void TtlDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option,
                        const QModelIndex &index) const
{
    // Background and selection as every other cell, without text.
    QStyleOptionViewItem opt = option;
    initStyleOption(&opt, index);
    opt.text.clear();
    const QWidget *widget = option.widget;
    QStyle *style = widget ? widget->style() : QApplication::style();
    style->drawControl(QStyle::CE_ItemViewItem, &opt, painter, widget);

    const qint64 left = index.data(KeysModel::RemainingRole).toLongLong();
    const qint64 pttl = index.data(KeysModel::PttlRole).toLongLong();
    const qint64 maxTtl = index.data(KeysModel::MaxTtlRole).toLongLong();
    const auto health = keys::Health(index.data(KeysModel::HealthRole).toInt());
    const bool selected = option.state & QStyle::State_Selected;

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing);
    const QRect cell = option.rect.adjusted(6, 4, -6, -4);
    QColor textColor = selected ? option.palette.color(QPalette::HighlightedText)
                                : option.palette.color(QPalette::Text);
    QString text;
    if (left < 0) {
        if (left == -1) {
            text = tr("∞ never");
            textColor = selected ? textColor : keypresentation::flagColor(keys::Health::NoTtl);
            QFont f = painter->font();
            f.setBold(true);
            painter->setFont(f);
        } else {
            text = left == -2 ? tr("gone") : tr("unknown");
            textColor = selected ? textColor : tone::faint();
        }
        painter->setPen(textColor);
        painter->drawText(cell, Qt::AlignVCenter | Qt::AlignRight, text);
        painter->restore();
        return;
    }

    const qint64 full = maxTtl > 0 ? maxTtl : std::max<qint64>(pttl, 1);
    const double fraction = std::clamp(double(left) / double(full), 0.0, 1.0);
    const bool tooLong = health == keys::Health::TtlExceedsRule;
    const QColor barColor = tooLong     ? keypresentation::flagColor(keys::Health::TtlExceedsRule)
                            : left == 0 ? tone::faint()
                                        : tone::accent();
    // The time on the right, the bar on the left of it.
    text = left == 0 ? tr("expired") : keypresentation::ttlText(left);
    const QFontMetrics fm(painter->font());
    const int textWidth =
        std::max(fm.horizontalAdvance(tr("59 min 59 s")), fm.horizontalAdvance(text));
    const QRect textRect(cell.right() - textWidth, cell.top(), textWidth, cell.height());
    const int barHeight = 8;
    const QRectF track(cell.left(), cell.center().y() - barHeight / 2.0 + 1,
                       std::max(0, cell.width() - textWidth - 8), barHeight);
    if (track.width() > 12) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(selected ? QColor(255, 255, 255, 70) : tone::track());
        painter->drawRoundedRect(track, 3, 3);
        QRectF bar = track;
        bar.setWidth(std::max(track.width() * fraction, fraction > 0 ? 3.0 : 0.0));
        painter->setBrush(barColor);
        painter->drawRoundedRect(bar, 3, 3);
    }
    painter->setPen(tooLong && !selected ? barColor : textColor);
    painter->drawText(textRect, Qt::AlignVCenter | Qt::AlignRight, text);
    painter->restore();
}

} // namespace sluice::ui
