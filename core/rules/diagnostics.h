#pragma once

#include "jsonlocator.h"
#include "rule.h"

#include <QString>

namespace sluice::rules {

// What the readers of rule files (codec.cpp) and of scenario files (core/sim/scenario.cpp)
// share to report a file's problems, written once.

// A problem of `file` at field `path` (empty: the whole document), at `pos` when it is known
// (line 0: to be placed later from the path).
Diagnostic diagnostic(const QString &file, const QString &path, const QString &message,
                      TextPosition pos = {});

// The edit distance of two names (insertions, deletions, substitutions), for "did you mean";
// the names compared are short (quadratic in their lengths).
qsizetype editDistance(const QString &a, const QString &b);

} // namespace sluice::rules
