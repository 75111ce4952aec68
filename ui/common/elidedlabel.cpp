#include "elidedlabel.h"

#include <QEvent>
#include <QPainter>
#include <QStyle>

namespace sluice::ui {

ElidedLabel::ElidedLabel(QWidget *parent)
    : ElidedLabel(QString(), parent)
{}

ElidedLabel::ElidedLabel(const QString &text, QWidget *parent)
    : QLabel(text, parent)
{
    setTextFormat(Qt::PlainText);
    setWordWrap(false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
}

void ElidedLabel::setText(const QString &text)
{
    QLabel::setText(text);
    updateTip();
}

void ElidedLabel::setOwnToolTip(const QString &tip)
{
    m_ownTip = tip;
    updateTip();
}

bool ElidedLabel::isElided() const
{
    return fontMetrics().horizontalAdvance(text()) > contentsRect().width();
}

QSize ElidedLabel::minimumSizeHint() const
{
    // Room for a few letters and the ellipsis: the layout may give it less than its text.
    const QSize hint = QLabel::minimumSizeHint();
    const int few = fontMetrics().horizontalAdvance(QStringLiteral(u"Www\u2026"));
    return {qMin(hint.width(), few + contentsMargins().left() + contentsMargins().right()),
            hint.height()};
}

void ElidedLabel::paintEvent(QPaintEvent *event)
{
    if (!isElided()) {
        QLabel::paintEvent(event);
        return;
    }
    QPainter p(this);
    const QRect r = contentsRect();
    const QString shown = fontMetrics().elidedText(text(), Qt::ElideRight, r.width());
    style()->drawItemText(&p, r, int(alignment()), palette(), isEnabled(), shown, foregroundRole());
}

void ElidedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    updateTip();
}

void ElidedLabel::changeEvent(QEvent *event)
{
    QLabel::changeEvent(event);
    if (event->type() == QEvent::FontChange) {
        updateTip();
    }
}

void ElidedLabel::updateTip()
{
    if (!m_ownTip.isEmpty()) {
        setToolTip(m_ownTip);
    } else {
        setToolTip(isElided() ? text() : QString());
    }
}

} // namespace sluice::ui
