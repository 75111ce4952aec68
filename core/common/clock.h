#pragma once

#include <QtGlobal>

#include <atomic>

namespace sluice {

// Time source of the in-process models and the simulator (STYLE.md 5). Microseconds since the
// Unix epoch, as Redis TIME gives them, so a model and a script fed the same now_us agree.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowUs() const = 0;
};

// Wall clock (CLOCK_REALTIME), the same epoch as Redis TIME.
class SystemClock final : public Clock
{
public:
    qint64 nowUs() const override;
};

// A clock that moves only when told to. Thread-safe: tests may advance it from one thread
// while a model reads it from another.
class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startUs = 0)
        : m_now(startUs)
    {}
    qint64 nowUs() const override { return m_now.load(std::memory_order_relaxed); }
    void setUs(qint64 us) { m_now.store(us, std::memory_order_relaxed); }
    void advanceUs(qint64 us) { m_now.fetch_add(us, std::memory_order_relaxed); }

private:
    std::atomic<qint64> m_now;
};

} // namespace sluice
