#pragma once

#include "core/rules/rule.h"
#include "core/stats/stats.h"

#include <QFrame>

class QChart;
class QChartView;
class QDateTimeAxis;
class QLabel;
class QLineSeries;
class QValueAxis;

namespace sluice::ui {

// One rule's small multiple on the Monitor page: allowed (green) and denied (red) per second
// over the window, shadow-denied (amber, dashed) when there are any; a header with the rule in
// words and the totals of the last minute. setSeries() replaces the points (QXYSeries::replace:
// one repaint, no per-point signals). objectName "chart:<rule id>"; the series are named
// "allowedSeries", "deniedSeries" and "shadowSeries". GUI thread.
class RuleChart : public QFrame
{
    Q_OBJECT
public:
    explicit RuleChart(const Rule &rule, QWidget *parent = nullptr);

    void setRule(const Rule &rule);
    QString ruleId() const { return m_ruleId; }
    // `s` ends at s.firstSecond + s.seconds.size() - 1; the x axis shows `windowSeconds` up to
    // it, local time.
    void setSeries(const stats::RuleSeries &s, int windowSeconds);

    QLineSeries *allowedSeries() const { return m_allowed; }
    QLineSeries *deniedSeries() const { return m_denied; }
    QLineSeries *shadowSeries() const { return m_shadow; }
    // Totals over the whole series shown (tests compare them with what was recorded).
    const stats::Counts &totals() const { return m_totals; }

private:
    QString m_ruleId;
    bool m_shadowRule = false;
    QLabel *m_title;
    QLabel *m_describe;
    QLabel *m_summary;
    QChart *m_chart;
    QChartView *m_view;
    QLineSeries *m_allowed;
    QLineSeries *m_denied;
    QLineSeries *m_shadow;
    QDateTimeAxis *m_x;
    QValueAxis *m_y;
    stats::Counts m_totals;
};

} // namespace sluice::ui
