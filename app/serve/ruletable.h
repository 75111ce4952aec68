#pragma once

#include "core/limiter/policy.h"
#include "core/rules/overridematcher.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QHash>
#include <QString>

#include <functional>
#include <memory>
#include <vector>

namespace sluice::serve {

struct RuleCounters; // metrics.h

// One rule as the service serves it: the rule, the engine's policy, and what every answer
// about it repeats (computed once per rule set, not per request).
struct ServiceRule
{
    Rule rule;
    Policy policy;
    qint64 capacity = 0;     // the most one request may cost (policy.capacity())
    QByteArray policyHeader; // RateLimit-Policy value
    QByteArray idUtf8;       // rule.id, as the answers' JSON writes it
    bool denyCache = false;  // its denials may be answered from the deny cache (denycache.h)
    RuleCounters *counters = nullptr; // its metrics (metrics.h), when the service keeps them
    // Its per-subject overrides, compiled (empty: none, the request path skips them); for an
    // override limit, by its index in rule.overrides: the policy and its RateLimit-Policy.
    rules::OverrideMatcher overrides;
    std::vector<Policy> overridePolicies;
    std::vector<QByteArray> overridePolicyHeaders;
    // The staged candidate of this rule (RuleStore staging), decided in shadow beside every
    // decision of this rule, on keys and statistics of its own; nullptr: nothing staged.
    const ServiceRule *candidate = nullptr;
};

// An immutable rule set with an index by id. A staged change's candidates (RuleSet::staged)
// are served too: by their own id (`<id>@staged`), as the `candidate` of the rule they change,
// and, for a rule only the candidate has, by the rule's id (a shadow rule until promoted). The
// service swaps whole tables (a reload never shows half a set); requests in flight keep the table
// they started with alive through a shared_ptr, so a ServiceRule pointer stays valid until their
// answer is written.
class RuleTable
{
public:
    // `counters` (optional) gives each rule its metrics by id.
    RuleTable(const RuleSet &set, qint64 version, QString origin,
              const std::function<RuleCounters *(const QString &id)> &counters = {});

    const ServiceRule *find(const QString &id) const;
    const ServiceRule *findUtf8(const QByteArray &id) const; // as a request names it
    qint64 version() const { return m_version; }
    quint64 serial() const { return m_serial; } // unique to this table in the process
    const QString &origin() const { return m_origin; }
    qsizetype size() const { return qsizetype(m_rules.size()); }
    QStringList ids() const;

private:
    std::vector<ServiceRule> m_rules;
    QHash<QString, const ServiceRule *> m_byId;
    QHash<QByteArray, const ServiceRule *> m_byUtf8Id;
    qint64 m_version = 0;
    quint64 m_serial = 0;
    QString m_origin;
};

using RuleTablePtr = std::shared_ptr<const RuleTable>;

} // namespace sluice::serve
