#pragma once

// The subjects of one rule with the highest peaks, in a fixed budget whatever the number of
// subjects (a log of ten million distinct addresses keeps `budget` of them): each with its
// peak and the histogram of its largest fixed-window counts, so that any candidate limit names the
// subjects it would deny and how many requests (RuleReport::wouldDeny). A heavy-hitters summary on
// the peak in the manner of space-saving: a subject not kept comes in when its peak passes the
// lowest kept one, which leaves. The table knows no rules, limiter or model.

#include <QtGlobal>

#include <array>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

namespace sluice::replay {

class PeakTop
{
public:
    static constexpr size_t windowsKept = 16;

    struct Entry
    {
        quint32 sid = 0;
        quint32 peak = 0;
        // Every window count not kept is at most this: the largest one let go, and for a
        // subject that came in once the table was full, the lowest kept peak then (its
        // windows before were at most that: the lowest peak only grows).
        quint32 floor = 0;
        quint8 kept = 0;
        // (count, windows with that count): the largest distinct counts, unordered.
        std::array<std::pair<quint32, quint32>, windowsKept> windows = {};
    };

    explicit PeakTop(size_t budget = 1024)
        : m_budget(budget)
    {}

    // A fixed window of `sid` closed with `count` requests; its peak so far is `peak`.
    void add(quint32 sid, quint32 peak, quint32 count);

    // The entries, highest peak first (ties: lower sid first).
    std::vector<Entry> entries() const;
    // Whether a subject was ever let go (the kept ones are then the top by peak, the others'
    // figures lost).
    bool dropped() const { return m_dropped; }
    size_t size() const { return m_slots.size(); }
    size_t budget() const { return m_budget; }

private:
    static void keepWindow(Entry &e, quint32 count);

    size_t m_budget;
    bool m_dropped = false;
    std::vector<Entry> m_slots;
    std::unordered_map<quint32, quint32> m_slotOf;  // sid -> index in m_slots
    std::set<std::pair<quint32, quint32>> m_byPeak; // (peak, sid), lowest first
};

} // namespace sluice::replay
