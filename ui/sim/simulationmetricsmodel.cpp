#include "simulationmetricsmodel.h"

#include "simulationcharts.h"

#include "core/common/duration.h"

#include <QHeaderView>
#include <QLocale>
#include <QTableView>

#include <cstdlib>

using namespace Qt::StringLiterals;

namespace sluice::ui {

namespace {

QString algorithmWords(Algorithm a)
{
    switch (a) {
    case Algorithm::FixedWindow:
        return SimulationMetricsModel::tr("fixed window");
    case Algorithm::SlidingLog:
        return SimulationMetricsModel::tr("sliding window (log)");
    case Algorithm::SlidingCounter:
        return SimulationMetricsModel::tr("sliding window counter");
    case Algorithm::TokenBucket:
        return SimulationMetricsModel::tr("token bucket");
    case Algorithm::LeakyBucket:
        return SimulationMetricsModel::tr("leaky bucket");
    case Algorithm::Gcra:
        return SimulationMetricsModel::tr("GCRA");
    }
    return algorithm::name(a);
}

// An adopted limiter's twin is named by the layout it adopts: "adopted string_counter".
QString algorithmWords(const sim::RuleResult &r)
{
    return r.adopted ? SimulationMetricsModel::tr("adopted %1").arg(r.adopted->layout)
                     : algorithmWords(r.algorithm);
}

} // namespace

SimulationMetricsModel::SimulationMetricsModel(QObject *parent)
    : TableModel(parent)
{}

void SimulationMetricsModel::setResult(const sim::SimResult &result)
{
    resetWith([&] {
        m_rows = result.rules;
        m_window = duration::formatUs(result.measureWindowUs);
        m_bin = duration::formatUs(result.binUs);
    });
    Q_EMIT headerDataChanged(Qt::Horizontal, 0, ColumnCount - 1);
}

void SimulationMetricsModel::clear()
{
    resetWith([&] { m_rows.clear(); });
}

QVariant SimulationMetricsModel::cell(const QModelIndex &index, int role) const
{
    const sim::RuleResult &r = m_rows[size_t(index.row())];
    const double share = r.offered > 0 ? 100.0 * double(r.admitted) / double(r.offered) : 0;
    const QLocale locale(QLocale::English);
    if (role == Qt::UserRole) { // the values the columns sort by, in column order (titles())
        const QVariantList values{r.rule,
                                  r.adopted ? r.adopted->layout : algorithm::name(r.algorithm),
                                  r.offered,
                                  r.admitted,
                                  r.rejected,
                                  share,
                                  r.maxAdmittedInWindow,
                                  r.maxReleasedInWindow,
                                  r.peakAdmittedPerBin,
                                  r.meanDelayMs,
                                  r.maxDelayMs};
        return values.value(index.column());
    }
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case RuleColumn:
            return r.rule;
        case AlgorithmColumn:
            return algorithmWords(r);
        case AdmittedColumn: // with its share: the share's own column is hidden on the page
            return u"%1 (%2 %)"_s.arg(locale.toString(r.admitted))
                .arg(share, 0, 'f', share < 10 ? 1 : 0);
        case AdmittedShareColumn:
            return u"%1 %"_s.arg(share, 0, 'f', share < 10 ? 1 : 0);
        case MeanDelayColumn: // with the max: the max's own column is hidden on the page
            return u"%1 / %2"_s.arg(locale.toString(r.meanDelayMs, 'f', 1),
                                    locale.toString(r.maxDelayMs));
        default:
            return locale.toString(data(index, Qt::UserRole).toLongLong());
        }
    }
    if (role == Qt::TextAlignmentRole) {
        return index.column() <= AlgorithmColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                                 : int(Qt::AlignRight | Qt::AlignVCenter);
    }
    if (role == Qt::DecorationRole && index.column() == RuleColumn) {
        return SimulationCharts::ruleColor(index.row());
    }
    if (role == Qt::ToolTipRole && index.column() == RuleColumn) {
        // The page hides the algorithm's column when the table is narrow: it is said here.
        return u"%1 · %2"_s.arg(r.rule, algorithmWords(r));
    }
    return {};
}

namespace {

// A long header on two lines, broken at the space (or before the '/') nearest its middle, so
// that the numbers' columns stay as narrow as their numbers.
QString twoLines(QString text)
{
    if (text.size() <= 6) {
        return text;
    }
    qsizetype best = -1;
    for (qsizetype i = 1; i < text.size(); ++i) {
        const bool breakable = text.at(i) == QLatin1Char(' ') || text.at(i) == QLatin1Char('/');
        if (breakable &&
            (best < 0 || std::abs(i - text.size() / 2) < std::abs(best - text.size() / 2))) {
            best = i;
        }
    }
    if (best > 0) {
        if (text.at(best) == QLatin1Char(' ')) {
            text[best] = QLatin1Char('\n');
        } else {
            text.insert(best, QLatin1Char('\n'));
        }
    }
    return text;
}

} // namespace

QStringList SimulationMetricsModel::titles() const
{
    return {tr("Rule"),
            tr("Algorithm"),
            tr("Offered"),
            tr("Admitted"),
            tr("Rejected"),
            tr("Admitted %"),
            tr("Max/%1").arg(m_window),
            tr("Released max/%1").arg(m_window),
            tr("Peak/%1").arg(m_bin),
            tr("Delay ms mean/max"),
            tr("Delay max ms")};
}

QVariant SimulationMetricsModel::headerData(int section, Qt::Orientation orientation,
                                            int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return TableModel::headerData(section, orientation, role);
    }
    if (role == Qt::DisplayRole) {
        return twoLines(titles().value(section));
    }
    if (role == Qt::EditRole) {
        return titles().value(section);
    }
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case MaxInWindowColumn:
            return tr("The most requests admitted in any span of %1 (the busiest window, "
                      "shaded in the charts)")
                .arg(m_window);
        case MaxReleasedColumn:
            return tr("The same on release times (admission + delay): the leaky bucket's "
                      "output");
        case PeakPerBinColumn:
            return tr("The most requests admitted in one bin of %1").arg(m_bin);
        case MeanDelayColumn:
        case MaxDelayColumn:
            return tr("The delay the leaky bucket asks an admitted request to wait");
        default:
            break;
        }
    }
    if (role == Qt::TextAlignmentRole) {
        return section <= AlgorithmColumn ? int(Qt::AlignLeft | Qt::AlignVCenter)
                                          : int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QTableView *SimulationMetricsModel::makeTable(SimulationMetricsModel *model, QWidget *parent)
{
    QTableView *table = makeTableView(u"metricsTable"_s, model, parent);
    table->verticalHeader()->setDefaultSectionSize(22);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    // The rule's name gives way (elided, whole in its tooltip, its colour beside it) so that
    // the numbers' columns and their headers stay whole beside the form at 1100 pixels.
    table->horizontalHeader()->setSectionResizeMode(RuleColumn, QHeaderView::Stretch);
    table->setTextElideMode(Qt::ElideRight);
    // No stretched last column: its number would sit a screen away from its header.
    table->horizontalHeader()->setStretchLastSection(false);
    table->setMinimumHeight(90);
    const auto hideAlgorithm = [table] {
        table->setColumnHidden(AlgorithmColumn, true);
        table->setColumnHidden(AdmittedShareColumn, true);
        table->setColumnHidden(MaxDelayColumn, true);
    };
    hideAlgorithm();
    connect(model, &QAbstractItemModel::modelReset, table, hideAlgorithm);
    return table;
}

} // namespace sluice::ui
