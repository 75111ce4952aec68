#include "peakchartview.h"

#include "core/common/duration.h"
#include "core/replay/replay.h"

#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QMouseEvent>
#include <QValueAxis>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::ui {

PeakChartView::PeakChartView(QWidget *parent)
    : QChartView(new QChart, parent)
{
    setObjectName(u"peakChart"_s);
    setRenderHint(QPainter::Antialiasing);
    setMinimumHeight(200);
    chart()->legend()->hide();
    chart()->setTitle(tr("Subjects above each peak"));
    m_curve = new QLineSeries(chart());
    m_line = new QLineSeries(chart());
    const auto redLine = [this] {
        QPen pen(tone::color(Tone::Bad));
        pen.setWidth(2);
        m_line->setPen(pen);
    };
    redLine();
    connect(&Theme::instance(), &Theme::changed, this, redLine);
    chart()->addSeries(m_curve);
    chart()->addSeries(m_line);
    m_x = new QLogValueAxis(chart());
    m_x->setBase(10);
    m_x->setLabelFormat(u"%g"_s);
    m_x->setMinorTickCount(8);
    m_y = new QValueAxis(chart());
    m_y->setRange(0, 100);
    m_y->setLabelFormat(u"%d %%"_s);
    chart()->addAxis(m_x, Qt::AlignBottom);
    chart()->addAxis(m_y, Qt::AlignLeft);
    Theme::styleChart(chart());
    for (QLineSeries *s : {m_curve, m_line}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
}

void PeakChartView::show(const replay::RuleReport *rule)
{
    m_curve->clear();
    m_rule = rule;
    if (rule == nullptr || rule->peaks.empty()) {
        m_line->clear();
        return;
    }
    chart()->setTitle(
        tr("Subjects whose peak in %1 is above the limit").arg(duration::formatUs(rule->windowUs)));
    // A step curve: the share of subjects whose peak is above x.
    QList<QPointF> points;
    const double n = double(rule->peaks.size());
    size_t i = 0;
    while (i < rule->peaks.size()) {
        const quint32 v = rule->peaks[i];
        size_t j = i;
        while (j < rule->peaks.size() && rule->peaks[j] == v) {
            ++j;
        }
        const double before = 100.0 * (n - double(i)) / n;
        const double after = 100.0 * (n - double(j)) / n;
        points << QPointF(std::max(1.0, double(v) - 0.5), before)
               << QPointF(double(v) + 0.5, after);
        i = j;
    }
    m_curve->replace(points);
    m_x->setRange(0.5, std::max(10.0, double(rule->peaks.back()) * 2));
}

void PeakChartView::setLimit(qint64 limit)
{
    m_line->replace({QPointF(double(limit) + 0.5, 0), QPointF(double(limit) + 0.5, 100)});
}

void PeakChartView::mouseMoveEvent(QMouseEvent *e)
{
    if (e->buttons() & Qt::LeftButton) {
        drag(e);
    }
}

void PeakChartView::drag(QMouseEvent *e)
{
    if (m_rule == nullptr || m_rule->peaks.empty()) {
        return;
    }
    const QPointF value = chart()->mapToValue(e->position(), m_curve);
    const qint64 limit = std::max<qint64>(1, qint64(std::floor(value.x())));
    Q_EMIT limitDragged(limit);
}

} // namespace sluice::ui
