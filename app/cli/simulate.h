#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli simulate SCENARIO [--backend local|redis] [--url URL] [--json] [--csv FILE]
//   [--png FILE] [--svg FILE] (FORMATS.md): every rule of a scenario on the same traffic, on the
//   in-process twins or on the scripts in Redis; Ctrl+C cancels and removes the run's keys.
//   --png/--svg draw the console's charts (ui/sim/SimulationCharts) headless.
// sluice-cli simulate --bench [--url URL] [--requests N] [--rounds R] [--json]: the simulator's
//   throughput, the median of R runs (default 3).
int simulate(const QList<QByteArray> &argv);

// True for "simulate ... --png/--svg ...": those draw with Qt Charts and need a QApplication,
// which main() must not have made a QCoreApplication before.
bool simulateDrawsCharts(int argc, char **argv);
// Makes that QApplication (on the offscreen platform when there is no display) and runs
// simulate() with argv[2..].
int simulateWithCharts(int argc, char **argv);

} // namespace sluice::cli
