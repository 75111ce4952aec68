#include "denycache.h"

#include <algorithm>

namespace sluice::serve {

bool DenyCache::eligible(const Rule &rule)
{
    // A rule that counts its denials (count_rejected) writes on every one: each must reach
    // Redis, or a client retrying while limited would be counted only at the retry time.
    return rule.enabled && !rule.shadow && !rule.adopt.has_value() &&
           !(rule.countRejected && algorithm::countsRejected(rule.algorithm));
}

void DenyCache::renew(Generation generation)
{
    if (!(generation == m_generation)) {
        m_entries.clear();
        m_generation = generation;
    }
}

qsizetype DenyCache::size() const
{
    std::lock_guard l(m_mutex);
    return m_entries.size();
}

std::optional<Decision> DenyCache::lookup(const QByteArray &key, qint64 nowMs,
                                          Generation generation)
{
    std::lock_guard l(m_mutex);
    renew(generation);
    const auto it = m_entries.find(key);
    if (it == m_entries.end()) {
        return std::nullopt;
    }
    if (nowMs >= it->expiresMs) {
        m_entries.erase(it);
        return std::nullopt;
    }
    Decision d = it->decision;
    const qint64 elapsed = std::max<qint64>(0, nowMs - it->receivedMs);
    // Until the entry expires the retry is at least 1 ms (sent + retry > now).
    d.retryAfterMs = std::max<qint64>(1, d.retryAfterMs - elapsed);
    d.resetAfterMs = std::max<qint64>(0, d.resetAfterMs - elapsed);
    return d;
}

void DenyCache::offer(const QByteArray &key, const Decision &d, qint64 sentMs, qint64 receivedMs,
                      Generation generation)
{
    if (d.allowed || d.remaining != 0 || d.retryAfterMs <= 0) {
        return;
    }
    std::lock_guard l(m_mutex);
    renew(generation);
    if (m_entries.size() >= m_max) {
        prune(receivedMs);
        if (m_entries.size() >= m_max) {
            return; // full of live denials: this one is decided by Redis, as before
        }
    }
    m_entries.insert(key, Entry{d, receivedMs, sentMs + d.retryAfterMs});
}

void DenyCache::prune(qint64 nowMs)
{
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        it = nowMs >= it->expiresMs ? m_entries.erase(it) : std::next(it);
    }
}

} // namespace sluice::serve
