#pragma once

#include "metrics.h"

#include "core/common/result.h"

#include <QByteArray>

// A run's outcome as bytes, whole (results and series), for the chart renderer that
// `sluice-cli simulate --png/--svg` hands it to (sluice-render, docs/ARCHITECTURE.md): a private
// format between two programs of the same build, not a public one (FORMATS.md has the JSON
// and the CSV). A magic and a version come first, so a renderer of another build says so
// instead of drawing garbage.
namespace sluice::sim {

QByteArray encodeResult(const SimResult &r);
// Kind::Invalid naming what is wrong (not a result file, another version, cut short).
Result<SimResult> decodeResult(const QByteArray &bytes);

} // namespace sluice::sim
