#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli load (FORMATS.md): real decisions against a real Redis, in real
// time, following a simulation lab pattern or a scenario file; live counters on stderr once a
// second, a summary on stdout, every decision counted in the per-rule statistics.
int load(const QList<QByteArray> &argv);

} // namespace sluice::cli
