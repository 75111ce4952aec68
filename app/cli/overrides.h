#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli overrides add | remove | list (FORMATS.md "Stored overrides"): per-subject
// overrides kept in Redis beside the stored rules (OverrideStore), without a new rule version.
int overrides(const QList<QByteArray> &argv);

} // namespace sluice::cli
