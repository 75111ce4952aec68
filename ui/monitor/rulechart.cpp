#include "rulechart.h"

#include "ui/common/pageheader.h"
#include "ui/common/theme.h"
#include "ui/common/tone.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QLocale>
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
    auto *box = PageHeader::layoutOn<QVBoxLayout>(this, 2, {10, 8, 10, 4});
    auto *header = new QHBoxLayout;
    header->setSpacing(8);
    m_title = new QLabel(this);
    QFont f = m_title->font();
    f.setBold(true);
    m_title->setFont(f);
    m_describe = new QLabel(this);
    m_describe->setStyleSheet(QStringLiteral("color: %1;").arg(tone::hex(tone::muted())));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("chartSummary"));
    m_summary->setTextFormat(Qt::RichText);
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
    m_x->setTickCount(4);
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
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setMinimumHeight(120);
    m_view->setFrameShape(QFrame::NoFrame);
    box->addWidget(m_view, 1);

    const qint64 now = QDateTime::currentSecsSinceEpoch();
    m_x->setRange(QDateTime::fromSecsSinceEpoch(now - 15 * 60), QDateTime::fromSecsSinceEpoch(now));
    setRule(rule);
    m_shadow->setVisible(m_shadowRule);
}

void RuleChart::setRule(const Rule &rule)
{
    m_ruleId = rule.id;
    m_shadowRule = rule.shadow;
    m_title->setText(rule.id);
    QString words = rule.describe();
    if (rule.shadow) {
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

void RuleChart::setSeries(const stats::RuleSeries &s, int windowSeconds)
{
    const qsizetype n = s.seconds.size();
    QList<QPointF> allowed, denied, shadow;
    allowed.reserve(n);
    denied.reserve(n);
    shadow.reserve(n);
    stats::Counts total;
    stats::Counts lastMinute;
    double top = 0;
    for (qsizetype i = 0; i < n; ++i) {
        const stats::Counts &c = s.seconds[i];
        const double x = double(s.firstSecond + i) * 1000.0;
        allowed << QPointF(x, double(c.allowed));
        denied << QPointF(x, double(c.denied));
        shadow << QPointF(x, double(c.shadowDenied));
        total.allowed += c.allowed;
        total.denied += c.denied;
        total.shadowDenied += c.shadowDenied;
        if (i >= n - 60) {
            lastMinute.allowed += c.allowed;
            lastMinute.denied += c.denied;
            lastMinute.shadowDenied += c.shadowDenied;
        }
        top = std::max({top, double(c.allowed), double(c.denied), double(c.shadowDenied)});
    }
    m_totals = total;
    m_allowed->replace(allowed);
    m_denied->replace(denied);
    m_shadow->replace(shadow);
    m_shadow->setVisible(m_shadowRule || total.shadowDenied > 0);
    const qint64 last = s.firstSecond + std::max<qsizetype>(n, 1) - 1;
    m_x->setRange(QDateTime::fromSecsSinceEpoch(last - windowSeconds + 1),
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

    const QLocale loc;
    QString text = tr("last minute: %1 %2 allowed  %3 %4 denied")
                       .arg(swatch(allowedColor), loc.toString(lastMinute.allowed),
                            swatch(deniedColor), loc.toString(lastMinute.denied));
    if (m_shadow->isVisible()) {
        text += tr("  %1 %2 shadow-denied")
                    .arg(swatch(shadowColor), loc.toString(lastMinute.shadowDenied));
    }
    m_summary->setText(text);
    m_summary->setToolTip(tr("Last %1 min: %2 allowed, %3 denied, %4 shadow-denied")
                              .arg(windowSeconds / 60)
                              .arg(loc.toString(total.allowed), loc.toString(total.denied),
                                   loc.toString(total.shadowDenied)));
}

} // namespace sluice::ui
