#include "simulationcharts.h"

#include "ui/common/tone.h"

#include "core/common/duration.h"

#include <QAreaSeries>
#include <QBrush>
#include <QChart>
#include <QCoreApplication>
#include <QFile>
#include <QFontMetricsF>
#include <QGraphicsLineItem>
#include <QGraphicsRectItem>
#include <QGraphicsScene>
#include <QGraphicsSimpleTextItem>
#include <QGraphicsTextItem>
#include <QImage>
#include <QLineSeries>
#include <QLocale>
#include <QPainter>
#include <QPen>
#include <QScopeGuard>
#include <QSvgGenerator>
#include <QTextDocument>
#include <QTextDocumentFragment>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <utility>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

// Figure geometry, in pixels.
constexpr qreal legendHeight = 46; // title line + legend line
constexpr qreal axisHeight = 40;   // the time axis's labels and title under the last row
constexpr qreal leftMargin = 62;   // y labels + the "per bin" title
constexpr qreal rightMargin = 62;  // cumulative labels + title
constexpr qreal rowHeaderHeight = 19;
constexpr qreal rowGap = 7;

// The figure's colours, from tone.h's light or dark variants: the light ones for a figure
// that leaves the console (an export, sluice-cli simulate --png/--svg), the theme's on the page.
struct Palette
{
    bool dark = false;
    QColor surface; // the background
    QColor ink;     // the title, the rows' headers, the legend's words
    QColor muted;   // axis labels and titles, a rule's description
    QColor grid;
    QColor axis;
    QColor offeredLine;
    QColor offeredFill;
    QColor cumulative;   // its line and the right axis's labels
    QColor alarm;        // a limit exceeded, a lost TTL
    int shadeAlpha = 26; // the busiest window's shade of the rule's colour

    // A rule's colour made to stand out from the background: darker on light, lighter on dark.
    QColor strong(const QColor &c, int factor) const
    {
        return dark ? c.lighter(factor) : c.darker(factor);
    }
};

Palette palette(bool dark)
{
    // tone.h gives the variant in use: asked with its flag at `dark`, which is then put back.
    bool &flag = tone::darkFlag();
    const bool was = std::exchange(flag, dark);
    const auto restore = qScopeGuard([&flag, was] { flag = was; });
    Palette p;
    p.dark = dark;
    p.surface = tone::surface();
    p.ink = tone::ink();
    p.muted = tone::muted();
    p.grid = tone::grid();
    p.axis = tone::line();
    // Offered in the faint grey, its area 45% of the way from the background to it.
    p.offeredLine = tone::faint();
    const auto mix = [](int from, int to) { return from + (to - from) * 45 / 100; };
    p.offeredFill = QColor(mix(p.surface.red(), p.offeredLine.red()),
                           mix(p.surface.green(), p.offeredLine.green()),
                           mix(p.surface.blue(), p.offeredLine.blue()));
    p.cumulative = tone::ink();
    p.alarm = tone::text(Tone::Bad);
    p.shadeAlpha = dark ? 30 : 26;
    return p;
}

QFont smallFont(qreal points)
{
    QFont f;
    f.setPointSizeF(points);
    return f;
}

// The smallest of 1, 2, 2.5, 5 x 10^k at least `v` / 2: axes with three ticks (0, half, max)
// that read as round numbers.
qreal niceHalf(qreal v)
{
    if (v <= 1) {
        return 1;
    }
    const qreal half = v / 2;
    const qreal p = std::pow(10.0, std::floor(std::log10(half)));
    for (const qreal m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (m * p >= half) {
            return m * p;
        }
    }
    return 10 * p;
}

// A time-axis step giving about `ticks` intervals over `seconds`.
qreal niceStep(qreal seconds, int ticks)
{
    const qreal raw = std::max(seconds / ticks, 1e-3);
    const qreal p = std::pow(10.0, std::floor(std::log10(raw)));
    for (const qreal m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * p >= raw) {
            return m * p;
        }
    }
    return 10 * p;
}

QString grouped(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

QValueAxis *valueAxis(QChart *chart, Qt::Alignment side, const Palette &p)
{
    auto *axis = new QValueAxis(chart);
    axis->setLabelsFont(smallFont(7.5));
    axis->setLabelsColor(p.muted);
    axis->setTitleFont(smallFont(7.5));
    axis->setTitleBrush(p.muted);
    axis->setLinePenColor(p.axis);
    axis->setGridLineColor(p.grid);
    axis->setMinorGridLineVisible(false);
    chart->addAxis(axis, side);
    return axis;
}

QLineSeries *lineSeries(QObject *parent, const QString &name)
{
    auto *s = new QLineSeries(parent);
    s->setName(name);
    s->setPointsVisible(false);
    return s;
}

} // namespace

SimulationCharts::SimulationCharts(QObject *parent)
    : QObject(parent)
    , m_scene(new QGraphicsScene(this))
{
    m_scene->setBackgroundBrush(palette(m_dark).surface);
}

SimulationCharts::~SimulationCharts()
{
    deleteFigure();
}

QColor SimulationCharts::ruleColor(int index)
{
    // Tableau 10 without its grey: distinct hues, all darker than the offered grey.
    static const QColor colors[] = {
        QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b), QColor(0xe1, 0x57, 0x59),
        QColor(0x59, 0xa1, 0x4f), QColor(0x76, 0xb7, 0xb2), QColor(0xb0, 0x7a, 0xa1),
        QColor(0xed, 0xc9, 0x48), QColor(0x9c, 0x75, 0x5f), QColor(0xff, 0x9d, 0xa7)};
    constexpr int n = int(std::size(colors));
    return colors[((index % n) + n) % n];
}

QList<QPointF> SimulationCharts::downsample(const std::vector<double> &values, double x0, double dx,
                                            int buckets)
{
    QList<QPointF> out;
    const qint64 n = qint64(values.size());
    if (n == 0) {
        return out;
    }
    buckets = std::max(buckets, 1);
    if (n <= 2 * qint64(buckets)) {
        out.reserve(n);
        for (qint64 i = 0; i < n; ++i) {
            out.append(QPointF(x0 + double(i) * dx, values[size_t(i)]));
        }
        return out;
    }
    out.reserve(2 * buckets);
    for (int b = 0; b < buckets; ++b) {
        const qint64 from = n * b / buckets;
        const qint64 to = n * (b + 1) / buckets; // exclusive, > from since n > buckets
        qint64 lo = from;
        qint64 hi = from;
        for (qint64 i = from + 1; i < to; ++i) {
            if (values[size_t(i)] < values[size_t(lo)]) {
                lo = i;
            }
            if (values[size_t(i)] > values[size_t(hi)]) {
                hi = i;
            }
        }
        const qint64 first = std::min(lo, hi);
        const qint64 second = std::max(lo, hi);
        out.append(QPointF(x0 + double(first) * dx, values[size_t(first)]));
        if (second != first) {
            out.append(QPointF(x0 + double(second) * dx, values[size_t(second)]));
        }
    }
    return out;
}

QSize SimulationCharts::defaultSize(int rules)
{
    return QSize(1200, int(legendHeight + axisHeight + 16 + std::max(rules, 1) * 120));
}

void SimulationCharts::setResult(const sim::SimResult &result, const sim::Scenario &scenario)
{
    deleteFigure();
    m_result = result;
    m_rules = scenario.rules;
    m_size = QSizeF();
    m_plotWidth = 0;
    build();
}

void SimulationCharts::setDark(bool dark)
{
    if (dark == m_dark) {
        return;
    }
    m_dark = dark;
    m_scene->setBackgroundBrush(palette(dark).surface);
    if (isEmpty()) {
        return;
    }
    // Built again in the other colours, at the size it had.
    const QSizeF size = m_size;
    deleteFigure();
    build();
    m_plotWidth = 0;
    if (!size.isEmpty()) {
        layout(size);
    }
}

void SimulationCharts::clear()
{
    deleteFigure();
    m_result = sim::SimResult();
    m_rules.clear();
    m_size = QSizeF();
    m_plotWidth = 0;
}

void SimulationCharts::deleteFigure()
{
    for (Row &row : m_rows) {
        m_scene->removeItem(row.chart);
        delete row.chart; // owns its series, axes and header
    }
    m_rows.clear();
    for (QGraphicsItem *item : std::as_const(m_decor)) {
        m_scene->removeItem(item);
        delete item;
    }
    m_decor.clear();
    m_title = nullptr;
}

QChart *SimulationCharts::chart(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[size_t(row)].chart : nullptr;
}

QList<QPointF> SimulationCharts::points(int row, Role role) const
{
    if (row < 0 || row >= rowCount()) {
        return {};
    }
    // In Role's order.
    constexpr QLineSeries *Row::*series[] = {&Row::offered, &Row::admitted, &Row::released,
                                             &Row::cumulative, &Row::worst};
    QLineSeries *s = m_rows[size_t(row)].*series[int(role)];
    return s ? s->points() : QList<QPointF>();
}

bool SimulationCharts::fitsOneLine(QGraphicsTextItem *item, qreal width)
{
    item->setTextWidth(-1);
    return item->document()->size().width() <= width;
}

QGraphicsTextItem *SimulationCharts::header(int row) const
{
    return row >= 0 && row < rowCount() ? m_rows[size_t(row)].header : nullptr;
}

QString SimulationCharts::rowHeader(int index, int detail) const
{
    const sim::RuleResult &x = m_result.rules[size_t(index)];
    const Rule *rule = size_t(index) < m_rules.size() ? &m_rules[size_t(index)] : nullptr;
    const QString window = duration::formatUs(m_result.measureWindowUs);
    const Palette p = palette(m_dark);
    QString html = u"<span style=\"color:%1; font-weight:700\">%2</span>"_s.arg(
        p.strong(ruleColor(index), 125).name(), x.rule.toHtmlEscaped());
    const std::optional<sim::AdoptedRun> &adopted = x.adopted;
    if (adopted && detail >= 3) {
        html += u"&nbsp;&nbsp;<span style=\"color:%1\">%2</span>"_s.arg(
            p.muted.name(), tr("adopted %1 (%2), %3 per %4")
                                .arg(adopted->layout, adopted->script, grouped(adopted->limit),
                                     duration::formatUs(adopted->windowUs))
                                .toHtmlEscaped());
    } else if (rule && detail >= 3) {
        html += u"&nbsp;&nbsp;<span style=\"color:%1\">%2</span>"_s.arg(
            p.muted.name(), rule->describe().toHtmlEscaped());
    }
    const double share = x.offered > 0 ? 100.0 * double(x.admitted) / double(x.offered) : 0;
    if (detail >= 1) {
        html += u"&nbsp;&nbsp;·&nbsp;&nbsp;"_s + tr("admitted %1 of %2 (%3%)")
                                                     .arg(grouped(x.admitted), grouped(x.offered))
                                                     .arg(share, 0, 'f', share < 10 ? 1 : 0);
    }
    // The figure the page is about: the most admitted in any one measure window, against
    // the rule's own limit when the rule counts in windows of that length.
    QString busiest = tr("%1 in the busiest %2").arg(grouped(x.maxAdmittedInWindow), window);
    bool over = false;
    qint64 limit = 0;
    if (adopted && adopted->windowUs == m_result.measureWindowUs) {
        limit = adopted->limit;
    } else if (!adopted && rule && algorithm::isWindow(rule->algorithm) &&
               rule->windowUs == m_result.measureWindowUs) {
        limit = rule->limit;
    }
    if (limit > 0) {
        over = x.maxAdmittedInWindow > limit;
        busiest += u" "_s + tr("(limit %1: %2×)")
                                .arg(grouped(limit))
                                .arg(double(x.maxAdmittedInWindow) / double(limit), 0, 'f', 1);
    }
    html += u"&nbsp;&nbsp;·&nbsp;&nbsp;<span style=\"color:%1;%2\">%3</span>"_s.arg(
        over ? p.alarm.name() : p.ink.name(), over ? u" font-weight:700"_s : QString(),
        busiest.toHtmlEscaped());
    if (x.algorithm == Algorithm::LeakyBucket && detail >= 2) {
        html += u"&nbsp;&nbsp;·&nbsp;&nbsp;"_s +
                tr("released at most %1 per %2").arg(grouped(x.maxReleasedInWindow), window);
    }
    if (adopted && adopted->lostTtlAtUs >= 0) {
        // The classic bug, said where its flat line starts.
        html +=
            u"&nbsp;&nbsp;·&nbsp;&nbsp;<span style=\"color:%1; font-weight:700\">%2</span>"_s.arg(
                p.alarm.name(), tr("lost its TTL at %1: never resets")
                                    .arg(duration::formatUs(adopted->lostTtlAtUs))
                                    .toHtmlEscaped());
    }
    return html;
}

void SimulationCharts::build()
{
    const int n = int(m_result.rules.size());
    if (n == 0) {
        return;
    }
    const Palette p = palette(m_dark);
    for (int i = 0; i < n; ++i) {
        Row row;
        auto *chart = new QChart;
        row.chart = chart;
        chart->setBackgroundVisible(false);
        chart->setBackgroundRoundness(0);
        chart->setMargins(QMargins(0, 0, 0, 0));
        chart->legend()->hide();
        chart->setAnimationOptions(QChart::NoAnimation);
        const QColor color = ruleColor(i);

        auto *x = valueAxis(chart, Qt::AlignBottom, p);
        auto *y = valueAxis(chart, Qt::AlignLeft, p);
        auto *c = valueAxis(chart, Qt::AlignRight, p);
        row.time = x;
        row.perBin = y;
        row.total = c;
        c->setGridLineVisible(false);
        c->setLabelsColor(p.cumulative);

        // Drawn in this order: the shaded window behind everything, offered, admitted, then
        // the lines.
        row.worst = lineSeries(chart, tr("busiest window"));
        auto *worst = new QAreaSeries(row.worst);
        row.worst->setParent(worst);
        worst->setName(tr("busiest window"));
        QColor shade = color;
        shade.setAlpha(p.shadeAlpha);
        worst->setBrush(shade);
        worst->setPen(Qt::NoPen);

        row.offered = lineSeries(chart, tr("offered"));
        auto *offered = new QAreaSeries(row.offered);
        row.offered->setParent(offered);
        offered->setName(tr("offered"));
        offered->setBrush(p.offeredFill);
        offered->setPen(QPen(p.offeredLine, 1));

        row.admitted = lineSeries(chart, tr("admitted"));
        auto *admitted = new QAreaSeries(row.admitted);
        row.admitted->setParent(admitted);
        admitted->setName(tr("admitted"));
        QColor fill = color;
        fill.setAlpha(170);
        admitted->setBrush(fill);
        admitted->setPen(QPen(p.strong(color, 115), 1.2));

        for (QAbstractSeries *s :
             {static_cast<QAbstractSeries *>(worst), static_cast<QAbstractSeries *>(offered),
              static_cast<QAbstractSeries *>(admitted)}) {
            chart->addSeries(s);
            s->attachAxis(x);
            s->attachAxis(y);
        }
        if (m_result.rules[size_t(i)].algorithm == Algorithm::LeakyBucket) {
            row.released = lineSeries(chart, tr("released"));
            QPen pen(p.strong(color, 160), 1.6, Qt::DashLine);
            pen.setDashPattern({4, 2.5});
            row.released->setPen(pen);
            chart->addSeries(row.released);
            row.released->attachAxis(x);
            row.released->attachAxis(y);
        }
        row.cumulative = lineSeries(chart, tr("cumulative admitted"));
        row.cumulative->setPen(QPen(p.cumulative, 1.6));
        chart->addSeries(row.cumulative);
        row.cumulative->attachAxis(x);
        row.cumulative->attachAxis(c);

        row.header = new QGraphicsTextItem(chart);
        row.header->setFont(smallFont(8.5));
        row.header->setDefaultTextColor(p.ink);
        row.header->setHtml(rowHeader(i));

        m_scene->addItem(chart);
        m_rows.push_back(row);
    }
}

// Shared scales: every row on the same time axis, the same per-bin scale and the same
// cumulative scale, so that heights compare from row to row.
SimulationCharts::Scales SimulationCharts::scalesFor(const QSizeF &requested) const
{
    Scales s;
    const int n = rowCount();
    s.width = std::max<qreal>(requested.width(), 480);
    s.rowHeight = std::max(minRowHeight, (requested.height() - legendHeight - axisHeight) / n);
    s.plotWidth = s.width - leftMargin - rightMargin;
    s.pixels = std::max(1, int(s.plotWidth));
    const qint64 bins = m_result.bins();
    s.binS = double(m_result.binUs) / 1e6;
    s.spanS = std::max(double(bins) * s.binS, s.binS);
    double perBinMax = 1;
    qint64 totalMax = 1;
    for (size_t r = 0; r < m_result.series.size(); ++r) {
        for (const sim::SeriesBin &b : m_result.series[r]) {
            perBinMax = std::max({perBinMax, double(b.offered), double(b.released)});
        }
        totalMax = std::max(totalMax, m_result.rules[r].admitted);
    }
    s.yHalf = niceHalf(perBinMax);
    s.cHalf = niceHalf(double(totalMax));
    s.xStep = niceStep(s.spanS, std::max(4, int(s.plotWidth / 90)));
    s.binText = duration::formatUs(m_result.binUs);
    return s;
}

void SimulationCharts::layout(const QSizeF &requested)
{
    if (m_laying) {
        return;
    }
    m_laying = true;
    const auto done = qScopeGuard([this] { m_laying = false; });
    const int n = rowCount();
    if (n == 0) {
        m_size = requested;
        m_scene->setSceneRect(QRectF(QPointF(0, 0), requested));
        return;
    }
    const Scales s = scalesFor(requested);
    const QSizeF size(s.width, legendHeight + axisHeight + s.rowHeight * n);
    const bool resample = s.pixels != m_plotWidth;
    m_size = size;
    m_plotWidth = s.pixels;
    m_scene->setSceneRect(QRectF(QPointF(0, 0), size));
    for (int i = 0; i < n; ++i) {
        layoutRow(i, s);
        if (resample) {
            resampleRow(i, s);
        }
    }
    // The title and the legend above the rows, rebuilt at this width.
    for (QGraphicsItem *item : std::as_const(m_decor)) {
        m_scene->removeItem(item);
        delete item;
    }
    m_decor.clear();
    m_title = nullptr;
    addTitle(s);
    addLegend(s);
}

// A row's place, header and axes.
void SimulationCharts::layoutRow(int i, const Scales &s)
{
    Row &row = m_rows[size_t(i)];
    const bool last = i == rowCount() - 1;
    const qreal rowHeight = s.rowHeight;
    // Qt Charts gives a horizontal axis at most 40% of its chart's height and elides its
    // labels and title to fit ("..."): the last chart reaches below the figure far enough
    // for the time axis to get its room (nothing is drawn there).
    const qreal height =
        last ? std::max(rowHeight + axisHeight, (rowGap + axisHeight) / 0.4 + 1) : rowHeight;
    row.chart->setGeometry(QRectF(0, legendHeight + i * rowHeight, s.width, height));
    row.chart->setPlotArea(
        QRectF(leftMargin, rowHeaderHeight, s.plotWidth, rowHeight - rowHeaderHeight - rowGap));
    row.header->setPos(leftMargin - 4, 0);
    // One line, never onto the plot nor past its right edge (the right axis's top label
    // is there): the rule's description, then the leaky bucket's release, then the share
    // admitted give way (the table under the figure has them). The document's margins
    // (4 px each side) take the rest.
    const qreal headerWidth = s.plotWidth + 8;
    for (int detail = 3; detail >= 0; --detail) {
        row.header->setHtml(rowHeader(i, detail));
        if (fitsOneLine(row.header, headerWidth)) {
            break;
        }
    }
    row.header->setTextWidth(headerWidth);
    row.header->setToolTip(QTextDocumentFragment::fromHtml(rowHeader(i)).toPlainText());

    row.time->setRange(0, s.spanS);
    row.time->setTickType(QValueAxis::TicksDynamic);
    row.time->setTickAnchor(0);
    row.time->setTickInterval(s.xStep);
    row.time->setLabelFormat(s.xStep >= 1 ? u"%.0f"_s : u"%.1f"_s);
    row.time->setLabelsVisible(last);
    row.time->setTitleText(last ? tr("time since the start of the scenario (s)") : QString());
    row.perBin->setRange(0, 2 * s.yHalf);
    // Qt Charts elide every label of an axis too short for them: two ticks in low rows.
    const int ticks = rowHeight - rowHeaderHeight - rowGap < 70 ? 2 : 3;
    row.perBin->setTickCount(ticks);
    row.perBin->setLabelFormat(s.yHalf >= 1 || ticks == 2 ? u"%.0f"_s : u"%.1f"_s);
    row.perBin->setTitleText(tr("/%1").arg(s.binText));
    row.total->setRange(0, 2 * s.cHalf);
    row.total->setTickCount(ticks);
    row.total->setLabelFormat(u"%.0f"_s);
    row.total->setTitleText(tr("total"));
}

// A row's series at the plot's width in pixels.
void SimulationCharts::resampleRow(int i, const Scales &s)
{
    Row &row = m_rows[size_t(i)];
    const std::vector<sim::SeriesBin> &series = m_result.series[size_t(i)];
    std::vector<double> offered(series.size());
    std::vector<double> admitted(series.size());
    std::vector<double> released(series.size());
    std::vector<double> cumulative(series.size() + 1);
    double total = 0;
    cumulative[0] = 0;
    for (size_t b = 0; b < series.size(); ++b) {
        offered[b] = double(series[b].offered);
        admitted[b] = double(series[b].admitted);
        released[b] = double(series[b].released);
        total += admitted[b];
        cumulative[b + 1] = total; // at the end of bin b
    }
    // A bin's count is drawn at its middle; the running total at the bins' edges.
    const double binS = s.binS;
    row.offered->replace(downsample(offered, binS / 2, binS, s.pixels));
    row.admitted->replace(downsample(admitted, binS / 2, binS, s.pixels));
    if (row.released) {
        row.released->replace(downsample(released, binS / 2, binS, s.pixels));
    }
    row.cumulative->replace(downsample(cumulative, 0, binS, s.pixels));
    const sim::RuleResult &x = m_result.rules[size_t(i)];
    if (x.maxAdmittedWindowStartUs >= 0 && x.maxAdmittedInWindow > 0) {
        const double from = double(x.maxAdmittedWindowStartUs) / 1e6;
        const double to = std::min(from + double(m_result.measureWindowUs) / 1e6, s.spanS);
        row.worst->replace({QPointF(from, 4 * s.yHalf), QPointF(to, 4 * s.yHalf)});
    } else {
        row.worst->clear();
    }
}

// The scenario's name and what was run, in one line within the figure.
void SimulationCharts::addTitle(const Scales &s)
{
    const qreal width = s.width;
    const double spanS = s.spanS;
    const QString &binText = s.binText;
    const Palette p = palette(m_dark);
    auto *title = new QGraphicsTextItem;
    title->setFont(smallFont(9.5));
    title->setDefaultTextColor(p.ink);
    const qint64 offeredTotal = m_result.rules.front().offered;
    const QString span = duration::formatUs(qint64(std::llround(spanS * 1e6)));
    const QString backend =
        m_result.backend == u"redis"_s ? tr("the scripts in Redis") : tr("the in-process twins");
    // One line within the figure: the full sentence, a shorter one, the name alone.
    const QStringList summaries = {
        tr("%1 requests offered to every rule over %2 · %3 · bins of %4")
            .arg(grouped(offeredTotal), span, backend, binText),
        tr("%1 requests over %2 · %3").arg(grouped(offeredTotal), span, backend),
        QString(),
    };
    for (const QString &summary : summaries) {
        title->setHtml(u"<b>%1</b>&nbsp;&nbsp;<span style=\"color:%2\">%3</span>"_s.arg(
            m_result.scenario.toHtmlEscaped(), p.muted.name(), summary.toHtmlEscaped()));
        if (fitsOneLine(title, width - leftMargin + 4)) {
            break;
        }
    }
    title->setToolTip(summaries.front());
    title->setPos(leftMargin - 4, 0);
    m_title = title;
    m_scene->addItem(title);
    m_decor.append(title);
}

// The legend in one line under the title.
void SimulationCharts::addLegend(const Scales &s)
{
    const qreal width = s.width;
    const int n = rowCount();
    const Palette p = palette(m_dark);
    const QFont legendFont = smallFont(8);
    const QFontMetricsF fm(legendFont);
    bool leaky = false;
    for (const sim::RuleResult &x : m_result.rules) {
        leaky = leaky || x.algorithm == Algorithm::LeakyBucket;
    }
    // The legend in one line within the figure: the words in full, else the short ones (the
    // tooltip of the title has the rest).
    const QString busiest = tr("busiest %1").arg(duration::formatUs(m_result.measureWindowUs));
    QStringList words{tr("offered"), tr("admitted (rule's colour)"), tr("released (leaky bucket)"),
                      tr("cumulative admitted (right)"), busiest};
    const QStringList shortWords{tr("offered"), tr("admitted"), tr("released"),
                                 tr("cumulative (right)"), busiest};
    const auto legendWidth = [&](const QStringList &w) {
        qreal total = 21 + 5 + std::min(n, 3) * 6 + 23 + 21 + (leaky ? 23 : 0);
        for (int i = 0; i < w.size(); ++i) {
            if (i != 2 || leaky) {
                total += fm.horizontalAdvance(w[i]) + 18;
            }
        }
        return total;
    };
    // Short words start at the figure's left edge, closer together.
    qreal gap = 18;
    qreal xPos = leftMargin;
    if (leftMargin + legendWidth(words) > width) {
        words = shortWords;
        xPos = 8;
        gap = 12;
    }
    const qreal yMid = 33;
    const auto addText = [&](const QString &text) {
        auto *t = new QGraphicsSimpleTextItem(text);
        t->setFont(legendFont);
        t->setBrush(p.ink);
        t->setPos(xPos, yMid - fm.height() / 2);
        m_scene->addItem(t);
        m_decor.append(t);
        xPos += fm.horizontalAdvance(text) + gap;
    };
    const auto addRect = [&](const QBrush &brush, const QPen &pen) {
        auto *r = new QGraphicsRectItem(xPos, yMid - 5, 16, 10);
        r->setBrush(brush);
        r->setPen(pen);
        m_scene->addItem(r);
        m_decor.append(r);
        xPos += 21;
    };
    const auto addLine = [&](const QPen &pen) {
        auto *l = new QGraphicsLineItem(xPos, yMid, xPos + 18, yMid);
        l->setPen(pen);
        m_scene->addItem(l);
        m_decor.append(l);
        xPos += 23;
    };
    addRect(p.offeredFill, QPen(p.offeredLine, 1));
    addText(words[0]);
    // Admitted: a strip of the rules' colours.
    for (int k = 0; k < std::min(n, 3); ++k) {
        auto *r = new QGraphicsRectItem(xPos + k * 6, yMid - 5, 6, 10);
        r->setBrush(ruleColor(k));
        r->setPen(Qt::NoPen);
        m_scene->addItem(r);
        m_decor.append(r);
    }
    xPos += std::min(n, 3) * 6 + 5;
    addText(words[1]);
    if (leaky) {
        QPen dashed(p.ink, 1.6, Qt::DashLine);
        dashed.setDashPattern({4, 2.5});
        addLine(dashed);
        addText(words[2]);
    }
    addLine(QPen(p.cumulative, 1.3));
    addText(words[3]);
    QColor shade = ruleColor(0);
    shade.setAlpha(p.shadeAlpha);
    addRect(shade, Qt::NoPen);
    addText(words[4]);
}

void SimulationCharts::render(QPainter *painter, const QRectF &target)
{
    // Qt Charts lay their axes out (tick count, label format, titles) in posted layout
    // requests: headless, nothing else runs them before the scene is drawn.
    // The figure keeps the size it was laid out at meanwhile (a view resizing now must not
    // lay it out again).
    const bool laying = m_laying;
    m_laying = true;
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents(QEventLoop::ExcludeUserInputEvents);
    m_laying = laying;
    m_scene->render(painter, target, QRectF(QPointF(0, 0), m_size));
}

QImage SimulationCharts::toImage(const QSize &size)
{
    layout(QSizeF(size));
    QImage image(m_size.toSize(), QImage::Format_ARGB32_Premultiplied);
    image.fill(m_scene->backgroundBrush().color());
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::TextAntialiasing);
    render(&painter, QRectF(QPointF(0, 0), m_size));
    painter.end();
    return image;
}

bool SimulationCharts::saveSvg(const QString &path, const QSize &size, QString *error)
{
    layout(QSizeF(size));
    QFile probe(path);
    if (!probe.open(QIODevice::WriteOnly)) {
        if (error) {
            *error = tr("cannot write %1: %2").arg(path, probe.errorString());
        }
        return false;
    }
    probe.close();
    QSvgGenerator svg;
    svg.setFileName(path);
    svg.setSize(m_size.toSize());
    svg.setViewBox(QRectF(QPointF(0, 0), m_size));
    svg.setTitle(m_result.scenario);
    svg.setDescription(tr("Sluice simulation: offered and admitted requests per rule"));
    QPainter painter;
    if (!painter.begin(&svg)) {
        if (error) {
            *error = tr("cannot write %1").arg(path);
        }
        return false;
    }
    painter.fillRect(QRectF(QPointF(0, 0), m_size), m_scene->backgroundBrush().color());
    render(&painter, QRectF(QPointF(0, 0), m_size));
    painter.end();
    return true;
}

} // namespace sluice::ui
