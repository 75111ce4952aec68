#pragma once

#include "core/sim/metrics.h"
#include "core/sim/scenario.h"

#include "core/rules/rule.h"

#include <QColor>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QSizeF>

#include <vector>

class QGraphicsScene;
class QGraphicsTextItem;
class QImage;
class QPainter;

class QChart;
class QGraphicsItem;
class QLineSeries;
class QValueAxis;

namespace sluice::ui {

// The figure of a simulation run (CONSOLE.md "Simulation"): small multiples, one row per rule,
// all sharing one time axis and one scale, so that rows compare at a glance. In each row:
// offered requests per bin in grey, admitted in the rule's colour, released (admission + delay)
// dashed for the leaky bucket, cumulative admitted on the right axis, and the busiest measure
// window of the rule shaded; the row's header gives the rule and its key figures. A legend
// and the units sit above the rows, the time axis below the last one.
//
// The series are downsampled to the pixel width of the plot (per pixel: the minimum and the
// maximum of the bins that fall in it, in time order), so a run of a million requests over
// any number of bins draws at most two points per pixel and still shows every peak.
//
// The figure lives in a QGraphicsScene: the page shows it in a QGraphicsView, and
// render()/toImage()/saveSvg() draw it headless (sluice-cli simulate --png/--svg). It is drawn
// light (a figure for documents: every export) unless setDark(true), which the page sets from
// the console's theme. GUI thread only (Qt Charts are widgets); needs a QApplication.
class SimulationCharts : public QObject
{
    Q_OBJECT
public:
    explicit SimulationCharts(QObject *parent = nullptr);
    ~SimulationCharts() override;

    QGraphicsScene *scene() const { return m_scene; }

    // A run's outcome and the scenario it ran (for the rules' descriptions). Keeps a copy of
    // the series; call layout() to build the figure at a size.
    void setResult(const sim::SimResult &result, const sim::Scenario &scenario);
    void clear();
    bool isEmpty() const { return m_result.rules.empty(); }

    // Draws the figure in tone.h's dark variants (the page's surface, light text), or in the
    // light ones (the default); a figure already built is built again at its size.
    void setDark(bool dark);
    bool isDark() const { return m_dark; }

    // Builds (or rebuilds) the figure at `size` pixels: rows share the height left by the
    // legend and the time axis, each at least minRowHeight (the figure is then taller).
    void layout(const QSizeF &size);
    QSizeF size() const { return m_size; }
    // Readable: two y labels, the row's header line and room for a burst (the view scrolls).
    static constexpr qreal minRowHeight = 110;

    // Draws the figure as laid out into `target` of a painter.
    void render(QPainter *painter, const QRectF &target);
    // Lays the figure out at `size` and draws it on its background (white unless setDark).
    QImage toImage(const QSize &size);
    // Lays the figure out at `size` and writes it as SVG; false with a message on failure.
    bool saveSvg(const QString &path, const QSize &size, QString *error);
    // A figure size that gives every rule a readable row: width 1200, height by rule count.
    static QSize defaultSize(int rules);

    // For tests and the page: the rows' charts, and a row's series by role.
    int rowCount() const { return int(m_rows.size()); }
    QChart *chart(int row) const;
    enum class Role { Offered, Admitted, Released, Cumulative, Worst };
    // The points a series draws (after downsampling); empty when the row has no such series.
    QList<QPointF> points(int row, Role role) const;
    // The plot width, in pixels, the series were downsampled to.
    int plotWidth() const { return m_plotWidth; }
    // The row's header and the figure's title as laid out: each on one line within the
    // figure, shortened when the full text does not fit (its tooltip keeps the full one).
    QGraphicsTextItem *header(int row) const;
    QGraphicsTextItem *title() const { return m_title; }
    // Whether the item's text, unwrapped, is at most `width` wide (it is left unwrapped).
    static bool fitsOneLine(QGraphicsTextItem *item, qreal width);

    // The colour of the i-th rule, in both variants: distinguishable on white and on the dark
    // surface, and from the grey of offered.
    static QColor ruleColor(int index);
    // Min/max per pixel bucket: values[i] is at x0 + i * dx; at most 2 * buckets points, each
    // bucket's minimum and maximum in their time order (one point when they coincide). With
    // no more values than 2 * buckets, every value is returned as a point.
    static QList<QPointF> downsample(const std::vector<double> &values, double x0, double dx,
                                     int buckets);

private:
    struct Row
    {
        QChart *chart = nullptr;
        QGraphicsTextItem *header = nullptr;
        QValueAxis *time = nullptr;
        QValueAxis *perBin = nullptr;
        QValueAxis *total = nullptr;
        QLineSeries *offered = nullptr;
        QLineSeries *admitted = nullptr;
        QLineSeries *released = nullptr;
        QLineSeries *cumulative = nullptr;
        QLineSeries *worst = nullptr;
    };
    // The figure's sizes and the scales every row shares (layout()).
    struct Scales
    {
        qreal width = 0;
        qreal rowHeight = 0;
        qreal plotWidth = 0;
        int pixels = 1;
        double binS = 1;
        double spanS = 1;
        qreal yHalf = 1;
        qreal cHalf = 1;
        qreal xStep = 1;
        QString binText;
    };
    Scales scalesFor(const QSizeF &requested) const;
    void layoutRow(int index, const Scales &s);
    void resampleRow(int index, const Scales &s);
    void addTitle(const Scales &s);
    void addLegend(const Scales &s);
    void build();
    void deleteFigure();
    // detail 3: everything; 2: without the rule's description; 1: without the leaky bucket's
    // release; 0: the name and the busiest window only.
    QString rowHeader(int index, int detail = 3) const;

    QGraphicsScene *m_scene;
    sim::SimResult m_result;
    std::vector<Rule> m_rules;
    std::vector<Row> m_rows;
    QList<QGraphicsItem *> m_decor;       // legend and axis notes
    QGraphicsTextItem *m_title = nullptr; // one of m_decor
    QSizeF m_size;
    int m_plotWidth = 0;
    bool m_dark = false;
    // Set while laying out: a view that resizes because the scene did must not lay the figure
    // out again in the middle (an export would then draw the view's size).
    bool m_laying = false;
};

} // namespace sluice::ui
