#pragma once

#include <QByteArray>
#include <QList>

namespace sluice::cli {

// sluice-cli keys [fix] (FORMATS.md): the console's Keys page on the command line, on the same
// core/keys code (KeyScanner, KeyHealth, KeyFixer).
int keys(const QList<QByteArray> &argv);

} // namespace sluice::cli
