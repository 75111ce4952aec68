#include "sparkline.h"

#include "ui/common/tone.h"

#include <QPainter>
#include <QPainterPath>

#include <algorithm>

namespace sluice::ui {

Sparkline::Sparkline(QWidget *parent)
    : QWidget(parent)
{
    setMinimumSize(120, 28);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void Sparkline::add(qint64 atUs, double value, double ceiling)
{
    if (!m_points.empty() && atUs <= m_points.back().atUs) {
        return;
    }
    m_points.push_back({atUs, value});
    while (!m_points.empty() && m_points.front().atUs < atUs - spanS * 1'000'000) {
        m_points.pop_front();
    }
    m_ceiling = ceiling;
    update();
}

void Sparkline::clear()
{
    m_points.clear();
    update();
}

void Sparkline::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF box = QRectF(rect()).adjusted(1, 3, -1, -3);
    // The frame: a baseline and the ceiling, faint.
    p.setPen(QPen(tone::line(), 1));
    p.drawLine(box.bottomLeft(), box.bottomRight());
    p.setPen(QPen(tone::line(), 1, Qt::DotLine));
    p.drawLine(box.topLeft(), box.topRight());
    if (m_points.empty()) {
        return;
    }
    double top = m_ceiling;
    if (top <= 0) {
        for (const Point &pt : m_points) {
            top = std::max(top, pt.value);
        }
    }
    top = std::max(top, 1.0);
    const qint64 endUs = m_points.back().atUs;
    const qint64 startUs = endUs - spanS * 1'000'000;
    const auto at = [&](const Point &pt) {
        const double x = box.left() + box.width() * double(pt.atUs - startUs) / (spanS * 1e6);
        const double y = box.bottom() - box.height() * std::clamp(pt.value / top, 0.0, 1.0);
        return QPointF(x, y);
    };
    QPainterPath line;
    line.moveTo(at(m_points.front()));
    for (const Point &pt : m_points) {
        line.lineTo(at(pt));
    }
    const bool full = m_points.back().value >= top && m_ceiling > 0;
    const QColor color = full ? tone::color(Tone::Bad) : tone::accent();
    QPainterPath area = line;
    area.lineTo(at(m_points.back()).x(), box.bottom());
    area.lineTo(at(m_points.front()).x(), box.bottom());
    area.closeSubpath();
    QColor fill = color;
    fill.setAlpha(40);
    p.fillPath(area, fill);
    p.setPen(QPen(color, 1.5));
    p.drawPath(line);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    p.drawEllipse(at(m_points.back()), 2.5, 2.5);
}

} // namespace sluice::ui
