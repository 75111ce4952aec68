#include "rulechart.h"

#include "core/rules/rulestore.h"

#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QEvent>
#include <QGraphicsLayout>
#include <QGraphicsLineItem>
#include <QHBoxLayout>
#include <QLabel>
#include <QLegend>
#include <QLineSeries>
#include <QLocale>
#include <QMouseEvent>
#include <QPen>
#include <QSizePolicy>
#include <QVBoxLayout>
#include <QValueAxis>

#include <algorithm>
#include <cmath>

namespace sluice::ui {

namespace {

const QColor allowedColor = tone::color(Tone::Good);
const QColor deniedColor = tone::color(Tone::Bad);
const QColor shadowColor = tone::color(Tone::Warning);

// 1, 2, 5, 10, 20, 50, ... at or above v: axis tops that read well.
double niceCeil(double v)
{
    if (v <= 4) {
        return 4; // steps of 2
    }
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * p >= v) {
            return m * p;
        }
    }
    return 10 * p;
}

QLineSeries *makeSeries(const QString &name, const QColor &color, Qt::PenStyle style,
                        QObject *parent)
{
    auto *s = new QLineSeries(parent);
    s->setObjectName(name);
    QPen pen(color);
    pen.setWidthF(1.5);
    pen.setStyle(style);
    s->setPen(pen);
    return s;
}

QString swatch(const QColor &c)
{
    return QStringLiteral("<span style=\"color:%1;\">\u25A0</span>").arg(c.name());
}

} // namespace

RuleChart::RuleChart(const Rule &rule, QWidget *parent)
    : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("chart:") + rule.id);
    Theme::followStyleSheet(this, [] {
        return QStringLiteral("sluice--ui--RuleChart { background: %1; border: 1px solid %2; "
                              "border-radius: 4px; }")
            .arg(tone::hex(tone::surface()), tone::hex(tone::border()));
    });
    setMinimumHeight(minimumChartHeight);
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 2, {10, 8, 10, 4});
    auto *header = new QHBoxLayout;
    header->setSpacing(8);
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("chartTitle"));
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    m_describe = new QLabel(this);
    m_describe->setStyleSheet(QStringLiteral("color: %1;").arg(tone::hex(tone::muted())));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("chartSummary"));
    m_summary->setTextFormat(Qt::RichText);
    // The hover line is longer than the totals: it must not widen the chart.
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    // The description may be long (a shadow rule says so): it gives way, elided by width.
    m_describe->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    header->addWidget(m_title);
    header->addWidget(m_describe, 1);
    box->addLayout(header);
    box->addWidget(m_summary);

    m_chart = new QChart;
    m_chart->legend()->hide();
    m_chart->setMargins(QMargins(0, 0, 0, 0));
    m_chart->setBackgroundRoundness(0);
    m_chart->layout()->setContentsMargins(0, 0, 0, 0);
    m_allowed = makeSeries(QStringLiteral("allowedSeries"), allowedColor, Qt::SolidLine, m_chart);
    m_denied = makeSeries(QStringLiteral("deniedSeries"), deniedColor, Qt::SolidLine, m_chart);
    m_shadow = makeSeries(QStringLiteral("shadowSeries"), shadowColor, Qt::DashLine, m_chart);
    m_allowed->setName(tr("allowed"));
    m_denied->setName(tr("denied"));
    m_shadow->setName(tr("shadow-denied"));
    m_chart->addSeries(m_allowed);
    m_chart->addSeries(m_shadow);
    m_chart->addSeries(m_denied);
    m_x = new QDateTimeAxis(m_chart);
    m_x->setFormat(QStringLiteral("HH:mm"));
    m_x->setTickCount(5);
    m_y = new QValueAxis(m_chart);
    m_y->setLabelFormat(QStringLiteral("%.0f"));
    m_y->setTickType(QValueAxis::TicksDynamic);
    m_y->setTickAnchor(0);
    m_y->setTickInterval(2);
    m_y->setRange(0, 4);
    QFont axisFont = font();
    axisFont.setPointSizeF(axisFont.pointSizeF() * 0.85);
    for (QAbstractAxis *a :
         {static_cast<QAbstractAxis *>(m_x), static_cast<QAbstractAxis *>(m_y)}) {
        a->setLabelsFont(axisFont);
    }
    m_chart->addAxis(m_x, Qt::AlignBottom);
    m_chart->addAxis(m_y, Qt::AlignLeft);
    Theme::styleChart(m_chart); // the axes' and the background's colours, in both themes
    for (QLineSeries *s : {m_allowed, m_denied, m_shadow}) {
        s->attachAxis(m_x);
        s->attachAxis(m_y);
    }
    m_view = new QChartView(m_chart, this);
    m_view->setObjectName(QStringLiteral("chartView"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(150);
    m_view->setFrameShape(QFrame::NoFrame);
    m_view->setMouseTracking(true);
    m_view->viewport()->setMouseTracking(true);
    m_viewport = m_view->viewport();
    m_viewport->installEventFilter(this);
    m_view->viewport()->setCursor(Qt::PointingHandCursor);
    m_view->setToolTip(tr("Point at the chart for the values of a second; click to open it "
                          "large"));
    box->addWidget(m_view, 1);

    QPen markerPen(tone::muted());
    markerPen.setWidthF(1);
    markerPen.setStyle(Qt::DotLine);
    m_marker = new QGraphicsLineItem(m_chart);
    m_marker->setPen(markerPen);
    m_marker->setZValue(10);
    m_marker->hide();

    const qint64 now = QDateTime::currentSecsSinceEpoch();
    m_x->setRange(QDateTime::fromSecsSinceEpoch(now - 15 * 60), QDateTime::fromSecsSinceEpoch(now));
    setRule(rule);
    m_shadow->setVisible(m_shadowRule);
}

void RuleChart::setRule(const Rule &rule)
{
    m_ruleId = rule.id;
    m_shadowRule = rule.shadow;
    const QString stagedOf = rules::RuleStore::stagedOf(rule.id);
    m_candidate = !stagedOf.isEmpty();
    m_title->setText(stagedOf.isEmpty() ? rule.id : tr("%1 · staged candidate").arg(stagedOf));
    QString words = rule.describe();
    if (!stagedOf.isEmpty()) {
        words += tr(" · in shadow: dashed, what it would deny");
    } else if (rule.shadow) {
        words += tr(" · shadow (denies nothing, counts what it would)");
    }
    if (!rule.enabled) {
        words += tr(" · disabled");
    }
    m_describe->setText(words);
    QStringList tip{words};
    for (const QString &more : {rule.route, rule.description}) {
        if (!more.isEmpty()) {
            tip << more;
        }
    }
    m_describe->setToolTip(tip.join(QLatin1Char('\n')));
}

void RuleChart::setLegendShown(bool shown)
{
    m_chart->legend()->setVisible(shown);
    m_chart->legend()->setAlignment(Qt::AlignBottom);
}

void RuleChart::setSeries(const stats::RuleSeries &s, int rangeSeconds)
{
    m_series = s;
    m_range = std::max(rangeSeconds, 1);
    const qsizetype n = s.seconds.size();
    // Only the seconds in the range are plotted (and scale the y axis).
    const qsizetype from = std::max<qsizetype>(0, n - m_range);
    QList<QPointF> allowed, denied, shadow;
    allowed.reserve(n - from);
    denied.reserve(n - from);
    shadow.reserve(n - from);
    stats::Counts total;
    stats::Counts lastMinute;
    double top = 0;
    for (qsizetype i = from; i < n; ++i) {
        const stats::Counts &c = s.seconds[i];
        const double x = double(s.firstSecond + i) * 1000.0;
        allowed << QPointF(x, double(c.allowed));
        denied << QPointF(x, double(c.denied));
        shadow << QPointF(x, double(c.shadowDenied));
        total += c;
        top = std::max({top, double(c.allowed), double(c.denied), double(c.shadowDenied)});
    }
    for (qsizetype i = std::max<qsizetype>(0, n - 60); i < n; ++i) {
        lastMinute += s.seconds[i];
    }
    m_totals = total;
    m_lastMinute = lastMinute;
    m_allowed->replace(allowed);
    m_denied->replace(denied);
    m_shadow->replace(shadow);
    m_shadow->setVisible(m_shadowRule || total.shadowDenied > 0);
    const qint64 last = s.firstSecond + std::max<qsizetype>(n, 1) - 1;
    // Seconds on the axis when the range is short enough for them to matter.
    m_x->setFormat(m_range <= 5 * 60 ? QStringLiteral("HH:mm:ss") : QStringLiteral("HH:mm"));
    m_x->setRange(QDateTime::fromSecsSinceEpoch(last - m_range + 1),
                  QDateTime::fromSecsSinceEpoch(last));
    const double yTop = niceCeil(top * 1.1);
    if (yTop != m_y->max()) {
        // Two round steps (0, 50, 100; not 0, 2.5 shown as "3", 5).
        m_y->setRange(0, yTop);
        m_y->setTickInterval(yTop / 2);
        // Qt Charts sizes an axis to its labels when the chart is laid out, not when its
        // range changes: wider labels ("200" after "5") were elided to "..." until a resize.
        m_chart->layout()->invalidate();
    }
    if (m_hoverText.isEmpty()) {
        showSummary();
    }
    const QLocale loc;
    m_summary->setToolTip(tr("Shown: %1 allowed, %2 denied, %3 shadow-denied")
                              .arg(loc.toString(total.allowed), loc.toString(total.denied),
                                   loc.toString(total.shadowDenied)));
}

void RuleChart::showSummary()
{
    if (m_candidate && m_totals.total() == 0) {
        // Only a decider running the candidate feeds its chart: say which, not a flat 0.
        const QString feed =
            tr("Nothing decided it yet: a check service that reads its rules from Redis decides "
               "it beside the enforced rule, and so does a run on the Load page.");
        m_summary->setWordWrap(true);
        m_summary->setText(feed.toHtmlEscaped());
        m_summary->setToolTip(feed);
        return;
    }
    m_summary->setWordWrap(false);
    const QLocale loc;
    QString text = tr("last minute: %1 %2 allowed  %3 %4 denied")
                       .arg(swatch(allowedColor), loc.toString(m_lastMinute.allowed),
                            swatch(deniedColor), loc.toString(m_lastMinute.denied));
    if (m_shadow->isVisible()) {
        text += tr("  %1 %2 shadow-denied")
                    .arg(swatch(shadowColor), loc.toString(m_lastMinute.shadowDenied));
    }
    m_summary->setText(text);
}

QString RuleChart::valuesAt(const QPoint &viewPos) const
{
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(viewPos));
    if (!m_chart->plotArea().contains(inChart) || m_series.seconds.isEmpty()) {
        return {};
    }
    const QPointF value = m_chart->mapToValue(inChart, m_allowed);
    const qint64 second = qint64(std::llround(value.x() / 1000.0));
    const qint64 i = second - m_series.firstSecond;
    const QLocale loc;
    const QString time = QDateTime::fromSecsSinceEpoch(second).toString(QStringLiteral("HH:mm:ss"));
    if (i < 0 || i >= m_series.seconds.size()) {
        return tr("%1 · nothing kept for this second (the statistics keep %2 minutes)")
            .arg(time)
            .arg(stats::ttlSeconds / 60);
    }
    const stats::Counts &c = m_series.seconds[i];
    QString text = tr("%1 · %2 allowed/s · %3 denied/s")
                       .arg(time, loc.toString(c.allowed), loc.toString(c.denied));
    if (m_shadow->isVisible()) {
        text += tr(" · %1 shadow-denied/s").arg(loc.toString(c.shadowDenied));
    }
    return text;
}

void RuleChart::hoverAt(const QPoint &viewPos)
{
    const QString text = valuesAt(viewPos);
    if (text.isEmpty()) {
        endHover();
        return;
    }
    m_hoverText = text;
    m_summary->setText(QStringLiteral("<b>%1</b>").arg(text.toHtmlEscaped()));
    const QPointF inChart = m_chart->mapFromScene(m_view->mapToScene(viewPos));
    const qint64 second =
        qint64(std::llround(m_chart->mapToValue(inChart, m_allowed).x() / 1000.0));
    const qreal x = m_chart->mapToPosition(QPointF(double(second) * 1000.0, 0), m_allowed).x();
    const QRectF plot = m_chart->plotArea();
    m_marker->setLine(x, plot.top(), x, plot.bottom());
    m_marker->show();
}

void RuleChart::endHover()
{
    if (m_hoverText.isEmpty()) {
        return;
    }
    m_hoverText.clear();
    m_marker->hide();
    showSummary();
}

bool RuleChart::eventFilter(QObject *watched, QEvent *event)
{
    // The viewport kept, not asked of the view: its last events come while the view is being
    // destroyed, its QAbstractScrollArea part already gone.
    if (watched == m_viewport) {
        switch (event->type()) {
        case QEvent::MouseMove:
            hoverAt(static_cast<QMouseEvent *>(event)->position().toPoint());
            break;
        case QEvent::Leave:
            endHover();
            break;
        case QEvent::MouseButtonRelease:
            if (static_cast<QMouseEvent *>(event)->button() == Qt::LeftButton) {
                Q_EMIT clicked(m_ruleId);
            }
            break;
        default:
            break;
        }
    }
    return QFrame::eventFilter(watched, event);
}

} // namespace sluice::ui
