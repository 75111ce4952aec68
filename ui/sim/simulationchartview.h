#pragma once

#include <QGraphicsView>

namespace sluice::ui {

class SimulationCharts;

// Shows a SimulationCharts figure and lays it out again at the viewport's width (and height,
// down to the figure's minimum row height, below which it scrolls), so that the series are
// always downsampled to the pixels they get.
class SimulationChartView : public QGraphicsView
{
    Q_OBJECT
public:
    explicit SimulationChartView(SimulationCharts *charts, QWidget *parent = nullptr);

    // Lays the figure out at the viewport's size now (after a new result).
    void relayout();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    SimulationCharts *m_charts;
};

} // namespace sluice::ui
