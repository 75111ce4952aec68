#pragma once

// The replay's subjects: their bytes hashed once and interned, dense ids from then on.

#include "logformat.h"

#include <algorithm>
#include <cstring>
#include <vector>

namespace sluice::replay {

inline quint64 hashBytes(const char *p, size_t n)
{
    quint64 h = 0x9E3779B97F4A7C15ull ^ (n * 0xff51afd7ed558ccdull);
    while (n >= 8) {
        quint64 v;
        std::memcpy(&v, p, 8);
        h = (h ^ v) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    quint64 v = 0;
    std::memcpy(&v, p, n);
    h = (h ^ v) * 0x94d049bb133111ebull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h | 1; // 0 marks an empty slot
}

// Subject bytes -> dense ids; the bytes are kept once, in an arena.
class Interner
{
public:
    Interner() { m_table.resize(1024); }
    // Inlined: its one caller runs it for every subject of every line.
    [[gnu::always_inline]] quint32 intern(View s)
    {
        const quint64 h = hashBytes(s.data(), s.size());
        size_t mask = m_table.size() - 1;
        size_t i = size_t(h) & mask;
        for (;;) {
            Entry &e = m_table[i];
            if (e.hash == 0) {
                break;
            }
            if (e.hash == h && e.len == s.size() &&
                (s.size() <= sizeof e.head ? sameBytes(e.head, s.data(), s.size())
                                           : name(e.id) == s)) {
                return e.id;
            }
            i = (i + 1) & mask;
        }
        const quint32 id = quint32(m_offsets.size() - 1);
        m_arena.insert(m_arena.end(), s.begin(), s.end());
        m_offsets.push_back(m_arena.size());
        Entry &e = m_table[i];
        e.hash = h;
        e.id = id;
        e.len = quint32(std::min<size_t>(s.size(), 0xFFFFFFFFu));
        std::memcpy(e.head, s.data(), std::min(s.size(), sizeof e.head));
        if (++m_count * 2 > m_table.size()) {
            grow();
        }
        return id;
    }
    View name(quint32 id) const
    {
        const size_t b = m_offsets[id];
        return View(m_arena.data() + b, m_offsets[id + 1] - b);
    }
    size_t size() const { return m_count; }

private:
    struct Entry // 32 bytes; a short subject (an IPv4 address) is compared here, not in the arena
    {
        quint64 hash = 0;
        quint32 id = 0;
        quint32 len = 0;
        char head[16] = {};
    };
    void grow()
    {
        std::vector<Entry> t(m_table.size() * 2);
        const size_t mask = t.size() - 1;
        for (const Entry &e : m_table) {
            if (e.hash == 0) {
                continue;
            }
            size_t i = size_t(e.hash) & mask;
            while (t[i].hash != 0) {
                i = (i + 1) & mask;
            }
            t[i] = e;
        }
        m_table.swap(t);
    }
    std::vector<Entry> m_table;
    std::vector<char> m_arena;
    std::vector<size_t> m_offsets{0};
    size_t m_count = 0;
};

} // namespace sluice::replay
