#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli simulate SCENARIO [--backend local|redis] [--url URL] [--json] [--csv FILE]
//   [--png FILE] [--svg FILE] (FORMATS.md): every rule of a scenario on the same traffic, on the
//   in-process twins or on the scripts in Redis; Ctrl+C cancels and removes the run's keys.
//   --png/--svg draw the console's charts (ui/sim/SimulationCharts) headless, by running
//   sluice-render from this program's folder (sluice-cli itself links no Qt Gui/Widgets).
// sluice-cli simulate --bench [--url URL] [--requests N] [--rounds R] [--json]: the simulator's
//   throughput, the median of R runs (default 3).
int simulate(const QList<QByteArray> &argv);

} // namespace sluice::cli
