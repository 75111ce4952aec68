#include "ruletable.h"

#include "denycache.h"

#include "core/common/clock.h"
#include "core/limiter/headers.h"
#include "core/rules/rulestore.h"

#include <atomic>

namespace sluice::serve {

RuleTable::RuleTable(const RuleSet &set, qint64 version, QString origin,
                     const std::function<RuleCounters *(const QString &id)> &counters)
    : m_version(version)
    , m_origin(std::move(origin))
{
    static std::atomic<quint64> serials{0};
    m_serial = ++serials;
    m_rules.reserve(set.rules.size() + set.staged.size());
    std::vector<const Rule *> all;
    for (const Rule &r : set.rules) {
        all.push_back(&r);
    }
    for (const Rule &r : set.staged) {
        all.push_back(&r);
    }
    for (const Rule *rp : all) {
        const Rule &r = *rp;
        ServiceRule s;
        s.rule = r;
        s.policy = r.policy();
        s.capacity = s.policy.capacity();
        s.policyHeader = headers::policyHeaderValue(s.policy);
        s.idUtf8 = r.id.toUtf8();
        s.denyCache = DenyCache::eligible(r);
        s.counters = counters ? counters(r.id) : nullptr;
        if (!r.overrides.empty()) {
            // A ttl in the rules counts from this load.
            s.overrides = rules::OverrideMatcher(r.overrides, SystemClock().nowUs());
            s.overridePolicies.reserve(r.overrides.size());
            for (const Override &o : r.overrides) {
                s.overridePolicies.push_back(
                    o.action == Override::Action::Limit ? rules::overridePolicy(r, o) : s.policy);
                s.overridePolicyHeaders.push_back(
                    headers::policyHeaderValue(s.overridePolicies.back()));
            }
        }
        m_rules.push_back(std::move(s));
    }
    // After the vector is complete: its elements no longer move.
    QHash<QString, size_t> index;
    for (size_t i = 0; i < m_rules.size(); ++i) {
        const ServiceRule &s = m_rules[i];
        m_byId.insert(s.rule.id, &s);
        m_byUtf8Id.insert(s.idUtf8, &s);
        index.insert(s.rule.id, i);
    }
    for (ServiceRule &s : m_rules) {
        const QString of = rules::RuleStore::stagedOf(s.rule.id);
        if (of.isEmpty()) {
            continue;
        }
        if (auto base = index.constFind(of); base != index.constEnd()) {
            m_rules[base.value()].candidate = &s; // the enforced rule it would replace
        } else {
            m_byId.insert(of, &s);
            m_byUtf8Id.insert(of.toUtf8(), &s);
        }
    }
}

const ServiceRule *RuleTable::find(const QString &id) const
{
    return m_byId.value(id, nullptr);
}

const ServiceRule *RuleTable::findUtf8(const QByteArray &id) const
{
    return m_byUtf8Id.value(id, nullptr);
}

QStringList RuleTable::ids() const
{
    QStringList out;
    for (const ServiceRule &s : m_rules) {
        out << s.rule.id;
    }
    return out;
}

} // namespace sluice::serve
