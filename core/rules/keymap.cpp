#include "keymap.h"

#include <algorithm>

namespace sluice::rules {

KeyMap::KeyMap(const RuleSet &set)
{
    m_heads.reserve((set.rules.size() + set.staged.size()) * 2);
    std::vector<const Rule *> all;
    for (const Rule &r : set.rules) {
        all.push_back(&r);
    }
    for (const Rule &r : set.staged) {
        all.push_back(&r); // a staged candidate's keys are its own (RuleStore::stagedId)
    }
    for (const Rule *rule : all) {
        const Rule &r = *rule;
        // Built as Policy::keyFor builds keys, minus the subject and the closing brace; and as
        // overrideKeyFor builds an override limit's (every rule: a key may outlive its
        // override, and is still that rule's).
        m_heads.push_back(Head{r.keyPrefix + r.id.toUtf8() + ":{", &r, false});
        m_heads.push_back(
            Head{r.keyPrefix + r.id.toUtf8() + overrideKeyMarker.toByteArray() + ":{", &r, true});
    }
    // Longest head first, so that where one head is a prefix of another the longer one wins;
    // stable, so that equal heads (duplicate ids: an invalid set) resolve to the first rule.
    std::stable_sort(m_heads.begin(), m_heads.end(),
                     [](const Head &a, const Head &b) { return a.head.size() > b.head.size(); });
}

std::optional<KeyMap::Match> KeyMap::match(const QByteArray &key) const
{
    // Every key of every rule ends with the closing brace of its hash tag; the subject is
    // everything between the head and that last byte, braces and all.
    if (!key.endsWith('}')) {
        return std::nullopt;
    }
    for (const Head &h : m_heads) {
        if (key.size() > h.head.size() && key.startsWith(h.head)) {
            return Match{h.rule, key.mid(h.head.size(), key.size() - h.head.size() - 1),
                         h.override};
        }
    }
    return std::nullopt;
}

} // namespace sluice::rules
