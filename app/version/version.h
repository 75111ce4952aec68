#pragma once

#include <QString>

namespace sluice::version {

// The project's version (CMakeLists.txt project(VERSION)) and the git revision it was built
// from (`git describe --always --dirty`, "unknown" outside a checkout): what
// `sluice-cli --version`, `sluice-console --version` and the console's About show.
QString number();   // "0.1.0"
QString revision(); // "654a054e1f2b" or "654a054e1f2b-dirty"
// "sluice-cli 0.1.0 (git 654a054e1f2b)"
QString line(const QString &program);

} // namespace sluice::version
