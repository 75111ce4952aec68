#pragma once

#include "jsonlocator.h"
#include "rule.h"

#include <QJsonValue>
#include <QString>
#include <QStringList>

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

// " (did you mean 'X'?)" for a name the reader does not know, or empty: X is the allowed name
// the same but for case, '_', '-' and spaces (keyPrefix, Key-Prefix, LIMIT), else the nearest
// within two edits (case aside; the first 64 characters of `name` compared).
QString didYouMean(const QString &name, const QStringList &allowed);

// How a reader names what it expected or found, in the file's own words (`yaml`: a mapping and
// a list, else an object and an array): "an object", "a list", and a value it did not expect,
// "null", "true", "the number 3", "the string \"x\"" (shortened).
QString objectWord(bool yaml);
QString arrayWord(bool yaml);
QString describeValue(const QJsonValue &v, bool yaml);

} // namespace sluice::rules
