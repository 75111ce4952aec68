#pragma once

#include <QChartView>

class QLineSeries;
class QLogValueAxis;
class QValueAxis;

namespace sluice::replay {
struct RuleReport;
}

namespace sluice::ui {

// The chart of one rule's subject peaks (the share of subjects above each peak) with the
// candidate limit as a vertical line the user drags; emits the limit under the mouse.
class PeakChartView : public QChartView
{
    Q_OBJECT
public:
    explicit PeakChartView(QWidget *parent);
    void show(const replay::RuleReport *rule);
    void setLimit(qint64 limit);

Q_SIGNALS:
    void limitDragged(qint64 limit);

protected:
    void mousePressEvent(QMouseEvent *e) override { drag(e); }
    void mouseMoveEvent(QMouseEvent *e) override;

private:
    void drag(QMouseEvent *e);

    QLineSeries *m_curve;
    QLineSeries *m_line;
    QLogValueAxis *m_x;
    QValueAxis *m_y;
    const replay::RuleReport *m_rule = nullptr;
};

} // namespace sluice::ui
