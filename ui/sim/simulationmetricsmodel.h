#pragma once

#include "core/sim/metrics.h"

#include "ui/common/tablemodel.h"

class QTableView;

#include <vector>

namespace sluice::ui {

// The metrics of a run, one row per rule (FORMATS.md's result fields, in words): what each
// rule admitted of the same traffic and how bursty its output was. Values swapped in whole by
// setResult() (begin/endResetModel). Qt::DecorationRole of the first column is the rule's
// colour in the charts; Qt::UserRole of every cell is the raw number (for sorting and tests).
class SimulationMetricsModel : public TableModel
{
    Q_OBJECT
public:
    enum Column {
        RuleColumn,
        AlgorithmColumn,
        OfferedColumn,
        AdmittedColumn,
        RejectedColumn,
        AdmittedShareColumn,
        MaxInWindowColumn,
        MaxReleasedColumn,
        PeakPerBinColumn,
        MeanDelayColumn,
        MaxDelayColumn,
        ColumnCount
    };

    // The table the page shows the model in: the numbers' columns as narrow as their numbers
    // (long headers on two lines), the algorithm in the rule's tooltip and the share admitted
    // beside the count rather than columns of their own, so that every column fits beside the
    // form at 1280 pixels.
    static QTableView *makeTable(SimulationMetricsModel *model, QWidget *parent);

    explicit SimulationMetricsModel(QObject *parent = nullptr);

    void setResult(const sim::SimResult &result);
    void clear();

    // The titles on two lines (Qt::DisplayRole), on one (Qt::EditRole), and what the numbers
    // mean (Qt::ToolTipRole).
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    int count() const override { return int(m_rows.size()); }
    QStringList titles() const override;
    QVariant cell(const QModelIndex &index, int role) const override;

    std::vector<sim::RuleResult> m_rows;
    QString m_window; // "10s": the measure window, for headers
    QString m_bin;
};

} // namespace sluice::ui
