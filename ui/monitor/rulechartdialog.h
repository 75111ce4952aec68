#pragma once

#include "core/rules/rule.h"
#include "core/stats/stats.h"

#include <QDialog>

namespace sluice::ui {

class RuleChart;

// One rule's chart large, with its legend: what a click on a Monitor chart opens. The page
// keeps it current with setSeries() while it is open. Close (or Escape) closes it, and it is
// deleted on close. objectName "chartDialog"; its chart is "largeChart". GUI thread.
class RuleChartDialog : public QDialog
{
    Q_OBJECT
public:
    explicit RuleChartDialog(QWidget *parent);

    // Shows `rule` in place of the chart shown before, sized to most of the parent's window
    // (never less than 640x420), and raises the dialog.
    void showRule(const Rule &rule);
    // The series of the rule shown, `rangeSeconds` of it; another rule's is passed over.
    void setSeries(const stats::RuleSeries &series, int rangeSeconds);
    RuleChart *chart() const { return m_chart; }

private:
    RuleChart *m_chart = nullptr;
};

} // namespace sluice::ui
