#include "localmodel.h"

#include <algorithm>

namespace sluice {

LocalModel::LocalModel(const Clock &clock)
    : m_clock(clock)
{}

Result<Decision> LocalModel::decide(const Request &request)
{
    if (request.policy == nullptr) {
        return Error::make(Error::Kind::Internal, QStringLiteral("request without a policy"));
    }
    if (request.cost < 0 || request.cost >= duration::maxExact) {
        return Error::make(
            Error::Kind::Invalid,
            QStringLiteral("cost must be an integer >= 0, got %1").arg(request.cost));
    }
    if (auto v = request.policy->validate(); !v) {
        return v.error();
    }
    const qint64 now = request.nowUs ? *request.nowUs : m_clock.nowUs();
    if (++m_callsSinceSweep >= 4096 && m_keys.size() > 4096) {
        sweep(now);
    }
    auto it = m_keys.find(request.key);
    if (it != m_keys.end() && it->expiresAtUs <= now) {
        it->state = std::monostate{};
        it->version.clear();
    }
    const Policy &policy = *request.policy;
    model::State scratch;
    model::State *state = it != m_keys.end() ? &it->state : &scratch;
    // Written under another rule version: the script migrates a copy, decides on it, and
    // keeps it only with an admission (a denial writes nothing).
    std::optional<model::State> migrated;
    // A write that stamps another version rewrites the state whole, and so sets the TTL
    // even where the script's increment would have kept it.
    const bool restamp = policy.versioned && it != m_keys.end() && it->version != policy.version();
    if (restamp) {
        migrated = model::migrate(policy, it->version, it->state, now);
        if (migrated) {
            state = &*migrated;
        }
    }
    const model::Outcome out = model::apply(policy, *state, request.cost, now, request.minTtlMs);
    if (out.wrote) {
        if (it == m_keys.end()) {
            it = m_keys.insert(request.key, Entry{std::move(scratch), 0, {}});
        } else if (migrated) {
            it->state = std::move(*migrated);
        }
        if (policy.versioned) {
            it->version = policy.version();
        }
        qint64 ttlMs = out.ttlMs;
        if (ttlMs == 0 && restamp) {
            ttlMs = std::max({out.decision.resetAfterMs, qint64(1), request.minTtlMs});
        }
        if (ttlMs > 0) { // 0: the write kept the key's TTL
            it->expiresAtUs = now + ttlMs * 1000;
        }
    } else if (it != m_keys.end() && std::holds_alternative<std::monostate>(it->state)) {
        m_keys.erase(it);
    }
    return out.decision;
}

qint64 LocalModel::pttlMs(const QByteArray &key, qint64 nowUs) const
{
    auto it = m_keys.constFind(key);
    if (it == m_keys.constEnd() || it->expiresAtUs <= nowUs ||
        std::holds_alternative<std::monostate>(it->state)) {
        return -2;
    }
    return model::usToMsCeil(it->expiresAtUs - nowUs);
}

const model::State *LocalModel::state(const QByteArray &key, qint64 nowUs) const
{
    auto it = m_keys.constFind(key);
    if (it == m_keys.constEnd() || it->expiresAtUs <= nowUs) {
        return nullptr;
    }
    return &it->state;
}

QByteArray LocalModel::version(const QByteArray &key) const
{
    auto it = m_keys.constFind(key);
    return it == m_keys.constEnd() ? QByteArray() : it->version;
}

void LocalModel::sweep(qint64 nowUs)
{
    m_callsSinceSweep = 0;
    m_keys.removeIf([nowUs](const auto &kv) { return kv.value().expiresAtUs <= nowUs; });
}

} // namespace sluice
