#pragma once

#include "rule.h"

#include <QByteArray>
#include <QHash>

#include <optional>

namespace sluice::rules {

// Keys <-> (rule, subject) (ARCHITECTURE.md "Keys": <key_prefix><rule id>:{<subject>}).
class KeyMap
{
public:
    explicit KeyMap(const RuleSet &set);

    struct Match
    {
        const Rule *rule = nullptr;
        QByteArray subject;
        // The key is the rule's under an override limit: <key_prefix><id>:override:{<subject>}.
        bool override = false;
    };
    // The rule whose prefix + id + ":{" starts the key and whose "}" ends it; the subject is
    // everything between (it may itself contain braces, colons, any bytes). nullopt: no rule.
    // Where prefixes overlap, the longest "<prefix><id>:{" wins.
    std::optional<Match> match(const QByteArray &key) const;

private:
    struct Head
    {
        QByteArray head; // "<prefix><id>:{" or "<prefix><id>:override:{"
        const Rule *rule = nullptr;
        bool override = false;
    };
    std::vector<Head> m_heads; // longest first
};

} // namespace sluice::rules
