#include "rulechartdialog.h"

#include "rulechart.h"

#include <QDialogButtonBox>
#include <QVBoxLayout>

#include <algorithm>

namespace sluice::ui {

RuleChartDialog::RuleChartDialog(QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("chartDialog"));
    setAttribute(Qt::WA_DeleteOnClose);
    auto *box = new QVBoxLayout(this);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    box->addWidget(buttons);
}

void RuleChartDialog::showRule(const Rule &rule)
{
    delete m_chart;
    m_chart = new RuleChart(rule, this);
    m_chart->setObjectName(QStringLiteral("largeChart"));
    m_chart->setLegendShown(true);
    static_cast<QVBoxLayout *>(layout())->insertWidget(0, m_chart, 1);
    setWindowTitle(tr("Monitor: %1").arg(rule.id));
    // Most of the window, never more than the screen.
    const QSize avail = parentWidget() ? parentWidget()->window()->size() : QSize();
    resize(std::max(640, avail.width() * 4 / 5), std::max(420, avail.height() * 3 / 4));
    show();
    raise();
}

void RuleChartDialog::setSeries(const stats::RuleSeries &series, int rangeSeconds)
{
    if (m_chart && m_chart->ruleId() == series.ruleId) {
        m_chart->setSeries(series, rangeSeconds);
    }
}

} // namespace sluice::ui
