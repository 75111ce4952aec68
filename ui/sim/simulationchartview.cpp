#include "simulationchartview.h"

#include "simulationcharts.h"

#include <QResizeEvent>
#include <QScrollBar>

namespace sluice::ui {

SimulationChartView::SimulationChartView(SimulationCharts *charts, QWidget *parent)
    : QGraphicsView(charts->scene(), parent)
    , m_charts(charts)
{
    setRenderHint(QPainter::Antialiasing);
    setRenderHint(QPainter::TextAntialiasing);
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    setFrameShape(QFrame::StyledPanel);
    // No brush of its own: the scene's background (the figure's, light or dark) fills it.
}

void SimulationChartView::relayout()
{
    // The width of a vertical scroll bar is kept free when the figure would need one.
    QSizeF size = viewport()->size();
    if (!m_charts->isEmpty()) {
        m_charts->layout(size);
        if (m_charts->size().height() > size.height() + 1) {
            size.setWidth(size.width() - verticalScrollBar()->sizeHint().width());
            m_charts->layout(size);
        }
    } else {
        m_charts->layout(size);
    }
    setSceneRect(QRectF(QPointF(0, 0), m_charts->size()));
}

void SimulationChartView::resizeEvent(QResizeEvent *event)
{
    QGraphicsView::resizeEvent(event);
    relayout();
}

} // namespace sluice::ui
