#pragma once

#include "core/sim/metrics.h"
#include "core/sim/scenario.h"

#include <QString>

namespace sluice::ui {

// A run's figure or series by the path's extension: .png, .svg (the figure at
// SimulationCharts::defaultSize, drawn by a builder of its own, as sluice-cli draws it) or .csv
// (FORMATS.md's time series). False with the reason in `error`.
bool exportRun(const sim::SimResult &result, const sim::Scenario &scenario, const QString &path,
               QString *error);

// 1,234,567: request counts in the status line.
QString groupedCount(qint64 n);

// What a run did, for the status line: how many requests through how many rules where, or
// where it was cancelled; its warning last.
QString runSummary(const sim::SimResult &result);

} // namespace sluice::ui
