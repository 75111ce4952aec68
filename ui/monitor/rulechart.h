#pragma once

#include "core/rules/rule.h"
#include "core/stats/stats.h"

#include <QFrame>

class QChart;
class QChartView;
class QDateTimeAxis;
class QGraphicsLineItem;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace sluice::ui {

// One rule's small multiple on the Monitor page: allowed (green) and denied (red) per second
// over the range shown, shadow-denied (amber, dashed) when there are any; a header with the
// rule in words and the totals of the last minute. Hovering the plot shows the second under the
// pointer and its values in the summary line (and a marker); a click emits clicked() (the page
// opens the chart large, with its legend). setSeries() replaces the points (QXYSeries::replace:
// one repaint, no per-point signals). objectName "chart:<rule id>"; the series are named
// "allowedSeries", "deniedSeries" and "shadowSeries". GUI thread.
class RuleChart : public QFrame
{
    Q_OBJECT
public:
    // The smallest height at which the plot stays readable (axis labels, two grid lines and
    // room for a spike): the page scrolls rather than squeezing a chart below it.
    static constexpr int minimumChartHeight = 220;

    explicit RuleChart(const Rule &rule, QWidget *parent = nullptr);

    void setRule(const Rule &rule);
    QString ruleId() const { return m_ruleId; }
    // `s` ends at s.firstSecond + s.seconds.size() - 1; the x axis shows the last
    // `rangeSeconds` up to it, local time (a range longer than the series: the seconds before
    // it are empty, not kept).
    void setSeries(const stats::RuleSeries &s, int rangeSeconds);
    // The large chart of the page's dialog: a legend under the plot.
    void setLegendShown(bool shown);

    QLineSeries *allowedSeries() const { return m_allowed; }
    QLineSeries *deniedSeries() const { return m_denied; }
    QLineSeries *shadowSeries() const { return m_shadow; }
    QChartView *view() const { return m_view; }
    QChart *chart() const { return m_chart; }
    QDateTimeAxis *timeAxis() const { return m_x; }
    int rangeSeconds() const { return m_range; }
    const stats::RuleSeries &series() const { return m_series; }
    // Totals over the range shown (tests compare them with what was recorded).
    const stats::Counts &totals() const { return m_totals; }

    // The values at a point of the view (viewport coordinates), as hovering shows them: "12:04:31
    // · 25 allowed/s · 3 denied/s · 0 shadow-denied/s"; empty outside the plot or the series.
    QString valuesAt(const QPoint &viewPos) const;
    // What the summary line shows while hovering (empty: not hovering).
    QString hoverText() const { return m_hoverText; }
    // Hovering at a view point (what a mouse move over the plot does); a point outside the
    // plot ends it.
    void hoverAt(const QPoint &viewPos);
    void endHover();

Q_SIGNALS:
    void clicked(const QString &ruleId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void showSummary();

    QString m_ruleId;
    bool m_shadowRule = false;
    bool m_candidate = false; // a staged candidate's chart ("<id>@staged")
    QLabel *m_title;
    QLabel *m_describe;
    QLabel *m_summary;
    QChart *m_chart;
    QChartView *m_view;
    QObject *m_viewport = nullptr; // m_view's, watched for hovers and clicks
    QLineSeries *m_allowed;
    QLineSeries *m_denied;
    QLineSeries *m_shadow;
    QDateTimeAxis *m_x;
    QValueAxis *m_y;
    QGraphicsLineItem *m_marker = nullptr;
    stats::RuleSeries m_series;
    int m_range = 15 * 60;
    stats::Counts m_totals;
    stats::Counts m_lastMinute;
    QString m_hoverText;
};

} // namespace sluice::ui
