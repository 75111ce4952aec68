#pragma once

#include "override.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>

#include <vector>

namespace sluice::rules {

// The overrides of one rule, compiled for the decision path: a hash of the exact subjects, a
// hash per CIDR prefix length (longest first, so the first hit is the longest prefix), and the
// globs in order, last. A subject costs one hash lookup when the rule has exact overrides only;
// an address is parsed only when the rule has CIDRs, and globs are tried only after both missed.
//
// Precedence (override.h specificity): exact subject, longest prefix, glob; between equals, the
// first in the list. An override past its end (expires, or ttl counted from `loadedAtUs`) is
// skipped as if absent, so the next one in that order applies.
//
// Threading: immutable after construction; find() may be called from any number of threads.
class OverrideMatcher
{
public:
    OverrideMatcher() = default;
    // Overrides that cannot match (an invalid network: refused by validation) are left out.
    OverrideMatcher(const std::vector<Override> &overrides, qint64 loadedAtUs);

    bool isEmpty() const { return m_entries.empty(); }
    qsizetype size() const { return qsizetype(m_entries.size()); }

    struct Hit
    {
        const Override *override = nullptr; // nullptr: none, the rule's own limit
        qsizetype index = -1;               // its position in the constructor's list
        qint64 endUs = 0;                   // when it ends (unix µs, 0: never)
        explicit operator bool() const { return override != nullptr; }
    };
    // The override for `subject` at `nowUs` (unix µs).
    Hit match(QByteArrayView subject, qint64 nowUs) const;
    // match(...).override.
    const Override *find(QByteArrayView subject, qint64 nowUs) const
    {
        return match(subject, nowUs).override;
    }
    // Its position in the list given to the constructor, or -1.
    qsizetype indexOf(const Override *o) const;
    // When the override ends (unix µs, 0: never).
    qint64 endUs(const Override *o) const;

private:
    struct Entry
    {
        Override override;
        qint64 endUs = 0; // 0: never
        qsizetype index = 0;
        QByteArray glob; // Kind::Glob: the pattern in UTF-8, as subjects come
    };
    struct Level
    {
        int prefix = 0;
        bool v4 = true;
        QHash<QByteArray, QList<qsizetype>> networks; // masked address -> entries, first first
    };
    Hit hit(qsizetype entry) const
    {
        const Entry &e = m_entries[size_t(entry)];
        return Hit{&e.override, e.index, e.endUs};
    }
    bool live(qsizetype entry, qint64 nowUs) const
    {
        const qint64 end = m_entries[size_t(entry)].endUs;
        return end == 0 || nowUs < end;
    }

    std::vector<Entry> m_entries;
    QHash<QByteArray, QList<qsizetype>> m_exact; // subject -> entries, first first
    std::vector<Level> m_levels;                 // longest prefix first
    std::vector<qsizetype> m_globs;              // in order
};

} // namespace sluice::rules
