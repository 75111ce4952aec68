#pragma once

// What the replay keeps per (rule, subject): the twin's state, its expiry on the log's clock,
// and the figures of the report; per rule: its policy, route and the histogram of window counts.

#include "peaktop.h"
#include "replay.h"
#include "routes.h"

#include "core/limiter/model.h"

#include <memory>
#include <unordered_map>
#include <vector>

namespace sluice::replay {

constexpr int kSteps = 10;
constexpr quint64 digestSeed = 14695981039346656037ull;

// One step of a rule's digest of its decisions.
inline void mix(quint64 &h, qint64 v)
{
    h = (h ^ quint64(v)) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
}

// One (rule, subject), in two cache lines side by side: the twin's state as the fields of its
// stored layout (model.h), its expiry on the log's clock, and the subject's figures for the
// report. A sliding log's entries live apart (RuleRun::logs), the only state of variable size.
// bytesPerRuleSubject (replay.h) is its size.
struct alignas(64) Cell
{
    qint64 f0 = 0, f1 = 0, f2 = 0; // the state's fields, in the order of its model:: struct
    qint64 expiresAtUs = 0;
    qint64 head = 0; // the ring's current step
    qint64 fwIndex = 0;
    qint64 firstUs = 0; // first and last denial
    qint64 lastUs = 0;
    quint32 ring[kSteps] = {};
    quint32 matched = 0;
    quint32 denied = 0;
    quint32 sum = 0;
    quint32 peak = 0;
    quint32 fwCount = 0;
    bool live = false; // the key exists (fixed-size states)
};
static_assert(sizeof(Cell) == bytesPerRuleSubject);

// A cell's fields as the model's State, and back.
inline void loadState(Algorithm a, const Cell &c, model::State &s)
{
    switch (a) {
    case Algorithm::FixedWindow:
        s.emplace<model::FixedWindowState>(model::FixedWindowState{c.f0, c.f1});
        break;
    case Algorithm::SlidingCounter:
        s.emplace<model::SlidingCounterState>(model::SlidingCounterState{c.f0, c.f1, c.f2});
        break;
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket:
        s.emplace<model::BucketState>(model::BucketState{c.f0, c.f1});
        break;
    case Algorithm::Gcra:
        s.emplace<model::GcraState>(model::GcraState{c.f0, c.f1, c.f2});
        break;
    case Algorithm::SlidingLog:
        break;
    }
}

inline void storeState(const model::State &s, Cell &c)
{
    if (const auto *w = std::get_if<model::FixedWindowState>(&s)) {
        c.f0 = w->startUs;
        c.f1 = w->count;
    } else if (const auto *sc = std::get_if<model::SlidingCounterState>(&s)) {
        c.f0 = sc->startUs;
        c.f1 = sc->current;
        c.f2 = sc->previous;
    } else if (const auto *b = std::get_if<model::BucketState>(&s)) {
        c.f0 = b->level;
        c.f1 = b->lastUs;
    } else if (const auto *g = std::get_if<model::GcraState>(&s)) {
        c.f0 = g->tatUs;
        c.f1 = g->remainder;
        c.f2 = g->denominator;
    }
    c.live = s.index() != 0;
}

// A vector in pages of 1,024 that grows a page at a time: no doubling, no copy, so that its
// memory is its elements' (FORMATS.md "replay": bytes per rule and subject).
template <typename T> class Paged
{
public:
    static constexpr size_t shift = 10;
    static constexpr size_t page = size_t(1) << shift;
    size_t size() const { return m_pages.size() << shift; }
    void grow(size_t n)
    {
        while (size() < n) {
            m_pages.push_back(std::make_unique<T[]>(page));
        }
    }
    T &operator[](size_t i) { return m_pages[i >> shift][i & (page - 1)]; }
    const T &operator[](size_t i) const { return m_pages[i >> shift][i & (page - 1)]; }

private:
    std::vector<std::unique_ptr<T[]>> m_pages;
};

struct RuleRun
{
    RuleReport *rep = nullptr;
    Policy policy;
    int scope = 0;
    Route route;
    bool shadow = false;
    bool global = false;
    qint64 windowUs = 1;
    qint64 stepUs = 1;
    Algorithm algorithm = Algorithm::FixedWindow;
    Paged<Cell> cells;
    Paged<model::State> logs; // sliding log: per subject
    Paged<QByteArray> keys;   // Limiter backend: per subject, made on first use
    std::vector<quint64> smallCounts = std::vector<quint64>(1024);
    std::unordered_map<quint32, quint64> bigCounts;
    PeakTop heavy{heavyBudget}; // the highest peaks, for the subjects a limit would deny
    quint64 digest = digestSeed;
    // The step and window of the time being decided: divisions only when the time crosses one.
    qint64 stepStart = 0, stepEnd = 0, step = 0;
    qint64 windowStart = 0, windowEnd = 0, window = 0;

    void at(qint64 t)
    {
        if (t >= stepEnd || t < stepStart) {
            step = t / stepUs;
            stepStart = step * stepUs;
            stepEnd = stepStart + stepUs;
        }
        if (t >= windowEnd || t < windowStart) {
            window = t / windowUs;
            windowStart = window * windowUs;
            windowEnd = windowStart + windowUs;
        }
    }

    void ensure(quint32 sid, bool withSlots)
    {
        if (sid >= cells.size()) {
            const size_t n = size_t(sid) + 1;
            cells.grow(n);
            if (withSlots) {
                if (algorithm == Algorithm::SlidingLog) {
                    logs.grow(n);
                }
            } else {
                keys.grow(n);
            }
        }
    }
    // A subject's fixed window closed: the histogram of window counts, and the subject's
    // figures in the highest peaks.
    void closeWindow(quint32 sid, const Cell &c)
    {
        const quint32 count = c.fwCount;
        if (count == 0) {
            return;
        }
        heavy.add(sid, c.peak, count);
        if (count < smallCounts.size()) {
            ++smallCounts[count];
        } else {
            ++bigCounts[count];
        }
    }
};

// One decision waiting for the Limiter's batch.
struct Pending
{
    int rule = 0;
    quint32 sid = 0;
    qint64 t = 0;
    quint16 status = 0;
};

} // namespace sluice::replay
