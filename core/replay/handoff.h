#pragma once

// The requests in decision order, handed from the reading thread to the deciding one.

#include <QtGlobal>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <vector>

namespace sluice::replay {

// One request line, once parsed: its time, the rules whose route takes it, its status, and
// where its subject ids (one per scope) are.
struct Event
{
    qint64 t = 0;
    quint64 seq = 0;
    quint64 mask = 0;
    quint32 subjOff = 0;
    quint16 status = 0;
    bool coarse = false;
};
// Requests in decision order, from the reading thread to the deciding one: the events and
// their subject ids (Event::subjOff indexes `subj`).
struct Batch
{
    std::vector<Event> events;
    std::vector<quint32> subj;
};

// A bounded queue of batches (the reader waits while the decider is `depth` batches behind, so
// memory stays bounded) that hands the emptied batches back for reuse: no allocation per batch
// once the first few have grown.
class Handoff
{
public:
    static constexpr size_t depth = 4;

    Batch spare()
    {
        std::lock_guard lock(m_mutex);
        if (m_pool.empty()) {
            return {};
        }
        Batch b = std::move(m_pool.back());
        m_pool.pop_back();
        return b;
    }
    void push(Batch &&b)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return m_queue.size() < depth; });
        m_queue.push_back(std::move(b));
        m_changed.notify_all();
    }
    // False once closed and drained.
    bool pop(Batch &b)
    {
        std::unique_lock lock(m_mutex);
        m_changed.wait(lock, [&] { return !m_queue.empty() || m_closed; });
        if (m_queue.empty()) {
            return false;
        }
        b = std::move(m_queue.front());
        m_queue.pop_front();
        m_changed.notify_all();
        return true;
    }
    void recycle(Batch &&b)
    {
        b.events.clear();
        b.subj.clear();
        std::lock_guard lock(m_mutex);
        m_pool.push_back(std::move(b));
    }
    void close()
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_changed.notify_all();
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_changed;
    std::deque<Batch> m_queue;
    std::vector<Batch> m_pool;
    bool m_closed = false;
};

} // namespace sluice::replay
