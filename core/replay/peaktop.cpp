// The highest-peak subjects of one rule in a fixed budget (peaktop.h).
#include "peaktop.h"

#include <algorithm>

namespace sluice::replay {

void PeakTop::keepWindow(Entry &e, quint32 count)
{
    if (count == 0) {
        return;
    }
    for (quint8 i = 0; i < e.kept; ++i) {
        if (e.windows[i].first == count) {
            ++e.windows[i].second;
            return;
        }
    }
    if (e.kept < windowsKept) {
        e.windows[e.kept++] = {count, 1};
        return;
    }
    auto smallest = std::min_element(e.windows.begin(), e.windows.end());
    if (count > smallest->first) {
        e.floor = std::max(e.floor, smallest->first);
        *smallest = {count, 1};
    } else {
        e.floor = std::max(e.floor, count);
    }
}

void PeakTop::add(quint32 sid, quint32 peak, quint32 count)
{
    if (m_budget == 0) {
        m_dropped = true;
        return;
    }
    if (auto it = m_slotOf.find(sid); it != m_slotOf.end()) {
        Entry &e = m_slots[it->second];
        if (peak > e.peak) {
            m_byPeak.erase({e.peak, sid});
            e.peak = peak;
            m_byPeak.insert({peak, sid});
        }
        keepWindow(e, count);
        return;
    }
    quint32 slot = 0;
    quint32 threshold = 0;
    if (m_slots.size() < m_budget) {
        slot = quint32(m_slots.size());
        m_slots.emplace_back();
    } else {
        const auto lowest = m_byPeak.begin();
        if (peak <= lowest->first) {
            m_dropped = true; // this subject's window is not kept
            return;
        }
        threshold = lowest->first;
        slot = m_slotOf.at(lowest->second);
        m_slotOf.erase(lowest->second);
        m_byPeak.erase(lowest);
        m_dropped = true;
    }
    Entry &e = m_slots[slot];
    e = Entry{};
    e.sid = sid;
    e.peak = peak;
    e.floor = threshold;
    keepWindow(e, count);
    m_slotOf.emplace(sid, slot);
    m_byPeak.insert({peak, sid});
}

std::vector<PeakTop::Entry> PeakTop::entries() const
{
    std::vector<Entry> out = m_slots;
    std::sort(out.begin(), out.end(), [](const Entry &a, const Entry &b) {
        return a.peak != b.peak ? a.peak > b.peak : a.sid < b.sid;
    });
    return out;
}

} // namespace sluice::replay
