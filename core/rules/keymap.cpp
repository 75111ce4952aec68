#include "keymap.h"

#include <algorithm>

namespace sluice::rules {

KeyMap::KeyMap(const RuleSet &set)
{
    m_heads.reserve(set.rules.size());
    for (const Rule &r : set.rules) {
        // Built as Policy::keyFor builds keys, minus the subject and the closing brace.
        m_heads.emplace_back(r.keyPrefix + r.id.toUtf8() + ":{", &r);
    }
    // Longest head first, so that where one head is a prefix of another the longer one wins;
    // stable, so that equal heads (duplicate ids: an invalid set) resolve to the first rule.
    std::stable_sort(m_heads.begin(), m_heads.end(),
                     [](const auto &a, const auto &b) { return a.first.size() > b.first.size(); });
}

std::optional<KeyMap::Match> KeyMap::match(const QByteArray &key) const
{
    // Every key of every rule ends with the closing brace of its hash tag; the subject is
    // everything between the head and that last byte, braces and all.
    if (!key.endsWith('}')) {
        return std::nullopt;
    }
    for (const auto &[head, rule] : m_heads) {
        if (key.size() > head.size() && key.startsWith(head)) {
            return Match{rule, key.mid(head.size(), key.size() - head.size() - 1)};
        }
    }
    return std::nullopt;
}

} // namespace sluice::rules
