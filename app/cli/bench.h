#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli bench (FORMATS.md): decisions/s per algorithm, one at a time and pipelined,
// beside redis-benchmark running the same script with the same arguments on the same server.
int bench(const QList<QByteArray> &argv);

} // namespace sluice::cli
