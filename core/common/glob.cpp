#include "core/common/glob.h"

#include <utility>

namespace sluice::glob {

namespace {

// The pattern element at `at` (not a '*'): how many pattern bytes it spans, and whether it
// takes the byte `c`.
struct Element
{
    qsizetype length;
    bool takes;
};

Element setAt(QByteArrayView p, qsizetype at, char c)
{
    qsizetype q = at + 1;
    const bool negate = q < p.size() && p[q] == '^';
    if (negate) {
        ++q;
    }
    bool match = false;
    while (q < p.size() && p[q] != ']') {
        if (p[q] == '\\' && q + 1 < p.size()) {
            ++q;
            match = match || p[q] == c;
        } else if (q + 2 < p.size() && p[q + 1] == '-' && p[q + 2] != ']') {
            char lo = p[q];
            char hi = p[q + 2];
            if (lo > hi) {
                std::swap(lo, hi);
            }
            match = match || (c >= lo && c <= hi);
            q += 2;
        } else {
            match = match || p[q] == c;
        }
        ++q;
    }
    // Past the closing ']'; an open set ends with the pattern.
    const qsizetype end = q < p.size() ? q + 1 : p.size();
    return {end - at, match != negate};
}

Element elementAt(QByteArrayView p, qsizetype at, char c, Syntax syntax)
{
    switch (p[at]) {
    case '?':
        return {1, true};
    case '\\':
        if (at + 1 < p.size()) {
            return {2, p[at + 1] == c};
        }
        break; // a trailing '\' is itself
    case '[':
        if (syntax == Syntax::Redis) {
            return setAt(p, at, c);
        }
        break;
    default:
        break;
    }
    return {1, p[at] == c};
}

} // namespace

bool matches(QByteArrayView pattern, QByteArrayView s, Syntax syntax)
{
    qsizetype g = 0;
    qsizetype i = 0;
    qsizetype starG = -1; // the last '*' seen, and where in `s` it began to take
    qsizetype starI = 0;
    while (i < s.size()) {
        if (g < pattern.size() && pattern[g] == '*') {
            starG = g++;
            starI = i;
            continue;
        }
        if (g < pattern.size()) {
            const Element e = elementAt(pattern, g, s[i], syntax);
            if (e.takes) {
                g += e.length;
                ++i;
                continue;
            }
        }
        if (starG < 0) {
            return false;
        }
        // The last '*' takes one byte more.
        g = starG + 1;
        i = ++starI;
    }
    while (g < pattern.size() && pattern[g] == '*') {
        ++g;
    }
    return g == pattern.size();
}

bool hasWildcards(QByteArrayView pattern, Syntax syntax)
{
    for (char c : pattern) {
        if (c == '*' || c == '?' || c == '\\' || (syntax == Syntax::Redis && c == '[')) {
            return true;
        }
    }
    return false;
}

} // namespace sluice::glob
