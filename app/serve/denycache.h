#pragma once

#include "core/limiter/decision.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QHash>

#include <chrono>
#include <mutex>
#include <optional>

namespace sluice::serve {

// The steady clock in ms: the deny cache's time.
inline qint64 steadyMs()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// The service's local deny cache (docs/ARCHITECTURE.md "The deny cache"): a
// subject Redis denied, with nothing left (remaining 0), for a request of cost 1, is denied by
// every request of cost 1 until the retry time Redis gave, T. Why that is exact: denials write
// nothing (ALGORITHMS.md), and with remaining 0 no request of cost >= 1 can be admitted by
// anyone (this service, another instance, another client of the scripts) before T, so the
// state in Redis stays as it was and every answer until T is the same function of time: the
// same limit and remaining, retry_after_ms and reset_after_ms counting down. The entry
// expires at the time its batch was sent + the retry (never later than Redis would admit), and
// its times count down from the time the answer arrived (never telling a client to come back
// earlier than Redis would): the two differ by the decision's round trip.
//
// Off (eligible() false, kept as ServiceRule::denyCache) for shadow rules (they go to Redis as
// before), for rules that adopt another library's keys (another writer, with other rules, under
// the prefix) and for rules with count_rejected (their denials write). The service asks it only
// while Redis is up (else on_redis_error answers, as before) and for cost 1. Entries are per rule
// table: a new table (reload, push) starts an empty cache. A mutex guards it: with --http-threads N
// the HTTP threads share one cache.
class DenyCache
{
public:
    explicit DenyCache(qsizetype maxEntries = 100000)
        : m_max(maxEntries)
    {}

    // Whether answers of `rule` may be cached (shadow, adopt: no).
    static bool eligible(const Rule &rule);

    // The answer for `key` at `nowMs` (steady clock, ms), if a denial holds it; an entry that
    // has expired is removed (the request goes to Redis).
    // `generation` differing from the entries' empties the cache first.
    struct Generation
    {
        quint64 table = 0; // RuleTable::serial()
        quint64 epoch = 0;
        friend bool operator==(const Generation &, const Generation &) = default;
    };
    std::optional<Decision> lookup(const QByteArray &key, qint64 nowMs, Generation generation);
    // A decision Redis made for `key` (cost 1), sent at `sentMs`, answered at `receivedMs`:
    // kept if it is a denial with remaining 0 and a retry.
    void offer(const QByteArray &key, const Decision &d, qint64 sentMs, qint64 receivedMs,
               Generation generation);
    qsizetype size() const;

private:
    struct Entry
    {
        Decision decision; // as Redis answered it
        qint64 receivedMs = 0;
        qint64 expiresMs = 0; // sent + retry_after_ms: from then on, Redis decides
    };
    void prune(qint64 nowMs);
    void renew(Generation generation); // under m_mutex

    mutable std::mutex m_mutex;
    QHash<QByteArray, Entry> m_entries;
    Generation m_generation;
    qsizetype m_max;
};

} // namespace sluice::serve
