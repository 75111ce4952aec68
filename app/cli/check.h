#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli check (FORMATS.md): real decisions through the scripts in Redis.
int check(const QList<QByteArray> &argv);

} // namespace sluice::cli
