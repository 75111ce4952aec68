// The glob matcher (core/common/glob.h) against a reference that tries every way a '*' can
// split the string (memoised over pattern and string positions): the same answer in both
// syntaxes, whatever the pattern; and never the exponential time of a naive recursion.
// Input: a syntax byte, then the pattern up to the first NUL, then the string.
#include "core/common/glob.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace {

using sluice::glob::Syntax;

struct Reference
{
    QByteArrayView p;
    QByteArrayView s;
    Syntax syntax;
    std::vector<signed char> memo; // -1 unknown, else the answer for (pi, si)

    // One pattern element at pi (not '*') against byte c: its length, and whether it takes c.
    std::pair<qsizetype, bool> element(qsizetype pi, char c) const
    {
        if (p[pi] == '?') {
            return {1, true};
        }
        if (p[pi] == '\\' && pi + 1 < p.size()) {
            return {2, p[pi + 1] == c};
        }
        if (p[pi] == '[' && syntax == Syntax::Redis) {
            qsizetype q = pi + 1;
            bool negate = false;
            if (q < p.size() && p[q] == '^') {
                negate = true;
                ++q;
            }
            bool in = false;
            for (; q < p.size() && p[q] != ']'; ++q) {
                if (p[q] == '\\' && q + 1 < p.size()) {
                    ++q;
                    in = in || p[q] == c;
                } else if (q + 2 < p.size() && p[q + 1] == '-' && p[q + 2] != ']') {
                    const char a = std::min(p[q], p[q + 2]);
                    const char b = std::max(p[q], p[q + 2]);
                    in = in || (c >= a && c <= b);
                    q += 2;
                } else {
                    in = in || p[q] == c;
                }
            }
            return {(q < p.size() ? q + 1 : p.size()) - pi, in != negate};
        }
        return {1, p[pi] == c};
    }

    bool match(qsizetype pi, qsizetype si)
    {
        signed char &m = memo[size_t(pi * (s.size() + 1) + si)];
        if (m >= 0) {
            return m != 0;
        }
        bool r = false;
        if (pi == p.size()) {
            r = si == s.size();
        } else if (p[pi] == '*') {
            r = match(pi + 1, si) || (si < s.size() && match(pi, si + 1));
        } else if (si < s.size()) {
            const auto [length, takes] = element(pi, s[si]);
            r = takes && match(pi + length, si + 1);
        }
        m = r ? 1 : 0;
        return r;
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 4096) {
        return 0;
    }
    const Syntax syntax = (data[0] & 1) ? Syntax::Redis : Syntax::Subject;
    const QByteArrayView rest(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    const qsizetype nul = rest.indexOf('\0');
    const QByteArrayView pattern = nul < 0 ? rest : rest.first(nul);
    const QByteArrayView s = nul < 0 ? QByteArrayView() : rest.sliced(nul + 1);
    Reference ref{pattern, s, syntax,
                  std::vector<signed char>(size_t((pattern.size() + 1) * (s.size() + 1)), -1)};
    if (sluice::glob::matches(pattern, s, syntax) != ref.match(0, 0)) {
        std::abort();
    }
    return 0;
}
