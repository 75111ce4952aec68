#pragma once

#include <QString>

#include <cstdint>
#include <string_view>
#include <vector>

namespace sluice::serve {

// A RateLimitRequest's wire bytes screened before they are parsed: parsed whole, a message of
// tiny descriptors costs some 40 times its size (a 3.9 MB message of 560,000 descriptors is
// 167 MB of objects), so their count is read off the wire first (tags and lengths, nothing
// allocated). The request's descriptors (field 2) beyond `maxDescriptors`, or a descriptor's
// entries (its field 1) beyond `maxEntries`, make the refusal message; "" otherwise (bytes that
// are not that message are left to the parser to refuse).
QString screenRequest(std::string_view bytes, int maxDescriptors, int maxEntries);

// A RateLimitRequest of the usual shape read straight off the wire, as views of its bytes (no
// message objects): every descriptor only entries (no `limit`, no `hits_addend` of its own),
// each singular field once, every string valid UTF-8, no field the message does not have.
// read() is false for anything else (and for bytes that are not that message): such a request
// is parsed whole by protobuf instead, which also makes its refusals. Its accessors are named
// as the generated message's, so the service's steps take either. Reused from call to call
// (its lists keep their capacity). More than `maxDescriptors` descriptors or `maxEntries`
// entries in one: false (screenRequest() then says so), so what it keeps is bounded.
class WireRequest
{
public:
    struct Entry
    {
        std::string_view k, v;
        std::string_view key() const { return k; }
        std::string_view value() const { return v; }
    };
    struct Descriptor
    {
        const Entry *first = nullptr;
        int count = 0;
        int entries_size() const { return count; }
        const Entry &entries(int j) const { return first[j]; }
    };

    bool read(std::string_view bytes, int maxDescriptors, int maxEntries);
    std::string_view domain() const { return m_domain; }
    uint32_t hits_addend() const { return m_hitsAddend; }
    int descriptors_size() const { return int(m_descriptors.size()); }
    Descriptor descriptors(int i) const
    {
        const auto [begin, end] = m_descriptors[size_t(i)];
        return Descriptor{m_entries.data() + begin, int(end - begin)};
    }

private:
    bool readDescriptor(const char *p, const char *end);
    bool readEntry(const char *p, const char *end);
    std::string_view m_domain;
    uint32_t m_hitsAddend = 0;
    std::vector<Entry> m_entries;
    std::vector<std::pair<uint32_t, uint32_t>> m_descriptors; // [first, end) of m_entries
    int m_maxDescriptors = 0, m_maxEntries = 0;
};

// RFC 3629 UTF-8 (no overlong forms, no surrogates, nothing above U+10FFFF), as protobuf
// requires of a proto3 string.
bool isUtf8(std::string_view s);

} // namespace sluice::serve
