#pragma once

#include "limiter.h"
#include "model.h"

#include "core/common/clock.h"

#include <QHash>

namespace sluice {

// The in-process twin of the scripts: the same decisions, computed by model::apply() on state
// kept in memory, on the time of an injectable Clock (or the request's now_us). Keys expire
// like Redis keys, on the model's own time line. Not thread-safe: one per thread.
class LocalModel final : public Limiter
{
public:
    explicit LocalModel(const Clock &clock);

    Result<Decision> decide(const Request &request) override;

    // PTTL of a key at `nowUs`, as Redis would answer: -2 absent, else milliseconds left.
    qint64 pttlMs(const QByteArray &key, qint64 nowUs) const;
    const model::State *state(const QByteArray &key, qint64 nowUs) const;
    // The rule version the key's state was last written under (Policy::version()), empty
    // when none: the scripts' hash field v, GCRA's "@<version>", the log's "v:" member.
    QByteArray version(const QByteArray &key) const;
    qsizetype keyCount() const { return m_keys.size(); }
    void clear() { m_keys.clear(); }

private:
    struct Entry
    {
        model::State state;
        qint64 expiresAtUs = 0;
        QByteArray version;
    };
    void sweep(qint64 nowUs);

    const Clock &m_clock;
    QHash<QByteArray, Entry> m_keys;
    qint64 m_callsSinceSweep = 0;
};

} // namespace sluice
