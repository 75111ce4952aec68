#include "overridematcher.h"

#include "core/common/glob.h"

#include <algorithm>

namespace sluice::rules {

OverrideMatcher::OverrideMatcher(const std::vector<Override> &overrides, qint64 loadedAtUs)
{
    m_entries.reserve(overrides.size());
    for (size_t i = 0; i < overrides.size(); ++i) {
        const Override &o = overrides[i];
        Entry e{o,
                o.expiresUs != 0 ? o.expiresUs : (o.ttlUs != 0 ? loadedAtUs + o.ttlUs : 0),
                qsizetype(i),
                {}};
        const qsizetype at = qsizetype(m_entries.size());
        switch (o.kind) {
        case Override::Kind::Subject:
            if (o.pattern.isEmpty()) {
                continue;
            }
            m_exact[o.pattern.toUtf8()].append(at);
            break;
        case Override::Kind::Cidr: {
            QString ignored;
            const auto n = parseNetwork(o.pattern, &ignored);
            if (!n) {
                continue;
            }
            auto level = std::find_if(m_levels.begin(), m_levels.end(), [&](const Level &l) {
                return l.prefix == n->prefix && l.v4 == n->isV4();
            });
            if (level == m_levels.end()) {
                m_levels.push_back(Level{n->prefix, n->isV4(), {}});
                level = m_levels.end() - 1;
            }
            level->networks[n->address].append(at);
            break;
        }
        case Override::Kind::Glob:
            if (o.pattern.isEmpty()) {
                continue;
            }
            e.glob = o.pattern.toUtf8();
            m_globs.push_back(at);
            break;
        }
        m_entries.push_back(std::move(e));
    }
    std::stable_sort(m_levels.begin(), m_levels.end(),
                     [](const Level &a, const Level &b) { return a.prefix > b.prefix; });
}

OverrideMatcher::Hit OverrideMatcher::match(QByteArrayView subject, qint64 nowUs) const
{
    if (m_entries.empty()) {
        return {};
    }
    if (!m_exact.isEmpty()) {
        // fromRawData: the lookup allocates nothing.
        const auto it = m_exact.constFind(QByteArray::fromRawData(subject.data(), subject.size()));
        if (it != m_exact.constEnd()) {
            for (const qsizetype e : *it) {
                if (live(e, nowUs)) {
                    return hit(e);
                }
            }
        }
    }
    if (!m_levels.empty()) {
        const QByteArray address = addressBytes(subject);
        if (!address.isEmpty()) {
            for (const Level &l : m_levels) {
                if (l.v4 != (address.size() == 4)) {
                    continue;
                }
                const auto it = l.networks.constFind(masked(address, l.prefix));
                if (it == l.networks.constEnd()) {
                    continue;
                }
                for (const qsizetype e : *it) {
                    if (live(e, nowUs)) {
                        return hit(e);
                    }
                }
            }
        }
    }
    if (!m_globs.empty()) {
        for (const qsizetype e : m_globs) {
            const Entry &entry = m_entries[size_t(e)];
            if (live(e, nowUs) && glob::matches(entry.glob, subject, glob::Syntax::Subject)) {
                return hit(e);
            }
        }
    }
    return {};
}

qsizetype OverrideMatcher::indexOf(const Override *o) const
{
    for (const Entry &e : m_entries) {
        if (&e.override == o) {
            return e.index;
        }
    }
    return -1;
}

qint64 OverrideMatcher::endUs(const Override *o) const
{
    for (const Entry &e : m_entries) {
        if (&e.override == o) {
            return e.endUs;
        }
    }
    return 0;
}

} // namespace sluice::rules
