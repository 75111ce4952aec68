#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli simulate SCENARIO [--backend local|redis] [--url URL] [--json] [--csv FILE]
//   (FORMATS.md): every rule of a scenario on the same traffic, on the in-process twins or on
//   the scripts in Redis; Ctrl+C cancels and removes the run's keys.
// sluice-cli simulate --bench [--url URL] [--requests N] [--json]: the simulator's throughput.
int simulate(const QList<QByteArray> &argv);

} // namespace sluice::cli
