#pragma once

// The one glob matcher, in the two syntaxes Sluice reads:
//  - Subject: an override's `match` (docs/FORMATS.md): '*' any run of bytes (also none), '?' one
//    byte, '\' makes the next byte literal; everything else, '[' included, is itself.
//  - Redis: SCAN MATCH's (stringmatchlen), for a rule's adopt.match: the same, and [abc],
//    [^abc], [a-z] (either order), '\' inside a set; a set left open runs to the end.
// Case-sensitive. Iterative, with one backtracking point (the last '*'): time at most the
// pattern's length times the string's, never exponential, whatever a rule file holds.

#include <QByteArrayView>

namespace sluice::glob {

enum class Syntax { Subject, Redis };

bool matches(QByteArrayView pattern, QByteArrayView s, Syntax syntax);
// Whether `pattern` can match more than the one string it spells.
bool hasWildcards(QByteArrayView pattern, Syntax syntax);

} // namespace sluice::glob
