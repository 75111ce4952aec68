#include "grpcwire.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <cstddef>
#include <type_traits>

namespace sluice::serve {

namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// The fields of a length-delimited message numbered `field` in the stream (up to its current
// limit); -1 for bytes that are not a message.
// `inner` reads each such field's message (its stream limited to it); none: skipped.
template <typename Inner = std::nullptr_t>
int countField(CodedInputStream &in, int field, int stopAbove, const Inner &inner = nullptr)
{
    int count = 0;
    while (const uint32_t tag = in.ReadTag()) {
        const int number = int(WireFormatLite::GetTagFieldNumber(tag));
        if (number == field &&
            WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED) {
            if (++count > stopAbove) {
                return count;
            }
            uint32_t length = 0;
            if (!in.ReadVarint32(&length)) {
                return -1;
            }
            const auto limit = in.PushLimit(int(length));
            bool ok = false;
            if constexpr (std::is_same_v<Inner, std::nullptr_t>) {
                ok = in.Skip(int(length));
            } else {
                ok = inner(in);
            }
            in.PopLimit(limit);
            if (!ok) {
                return -1;
            }
        } else if (!WireFormatLite::SkipField(&in, tag)) {
            return -1;
        }
    }
    return count;
}

} // namespace

QString screenRequest(std::string_view bytes, int maxDescriptors, int maxEntries)
{
    CodedInputStream in(reinterpret_cast<const uint8_t *>(bytes.data()), int(bytes.size()));
    int descriptor = -1;
    int entries = 0;
    const int descriptors = countField(in, 2, maxDescriptors, [&](CodedInputStream &d) {
        ++descriptor;
        entries = countField(d, 1, maxEntries);
        // Past the bound: stop (and say so below); otherwise on to the descriptor's end.
        return entries >= 0 && entries <= maxEntries && d.ConsumedEntireMessage();
    });
    if (entries > maxEntries) {
        return QStringLiteral("descriptors[%1] has more than %2 entries")
            .arg(descriptor)
            .arg(maxEntries);
    }
    if (descriptors > maxDescriptors) {
        return QStringLiteral("more than %1 descriptors in one request; at most %1 are decided "
                              "per request")
            .arg(maxDescriptors);
    }
    return {};
}

namespace {

// A varint at `p` (at most 10 bytes, before `end`) into `v`: past it, or null.
const char *readVarint(const char *p, const char *end, uint64_t *v)
{
    uint64_t out = 0;
    for (int shift = 0; p < end && shift < 64; shift += 7) {
        const auto b = static_cast<unsigned char>(*p++);
        out |= uint64_t(b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
            *v = out;
            return p;
        }
    }
    return nullptr;
}

// A length-delimited field's bytes after its tag: [*from, *to), or false.
bool readBytes(const char *&p, const char *end, const char **from, const char **to)
{
    uint64_t n = 0;
    p = readVarint(p, end, &n);
    if (p == nullptr || n > uint64_t(end - p)) {
        return false;
    }
    *from = p;
    *to = p + n;
    p = *to;
    return true;
}

} // namespace

bool isUtf8(std::string_view s)
{
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const auto *end = p + s.size();
    while (p < end) {
        const unsigned char c = *p;
        if (c < 0x80) {
            ++p;
            continue;
        }
        int n = 0;
        uint32_t cp = 0;
        uint32_t min = 0;
        if ((c & 0xe0) == 0xc0) {
            n = 1, cp = c & 0x1f, min = 0x80;
        } else if ((c & 0xf0) == 0xe0) {
            n = 2, cp = c & 0x0f, min = 0x800;
        } else if ((c & 0xf8) == 0xf0) {
            n = 3, cp = c & 0x07, min = 0x10000;
        } else {
            return false;
        }
        if (end - p <= n) {
            return false;
        }
        for (int i = 1; i <= n; ++i) {
            if ((p[i] & 0xc0) != 0x80) {
                return false;
            }
            cp = cp << 6 | (p[i] & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            return false;
        }
        p += n + 1;
    }
    return true;
}

bool WireRequest::read(std::string_view bytes, int maxDescriptors, int maxEntries)
{
    m_maxDescriptors = maxDescriptors;
    m_maxEntries = maxEntries;
    m_domain = {};
    m_hitsAddend = 0;
    m_entries.clear();
    m_descriptors.clear();
    bool domain = false, hits = false;
    const char *p = bytes.data();
    const char *end = p + bytes.size();
    while (p < end) {
        uint64_t tag = 0;
        if ((p = readVarint(p, end, &tag)) == nullptr) {
            return false;
        }
        const char *from = nullptr, *to = nullptr;
        if (tag == (1 << 3 | 2) && !domain) { // domain
            if (!readBytes(p, end, &from, &to)) {
                return false;
            }
            m_domain = std::string_view(from, size_t(to - from));
            domain = true;
        } else if (tag == (2 << 3 | 2)) { // descriptors
            if (int(m_descriptors.size()) >= m_maxDescriptors || !readBytes(p, end, &from, &to) ||
                !readDescriptor(from, to)) {
                return false;
            }
        } else if (tag == (3 << 3) && !hits) { // hits_addend
            uint64_t v = 0;
            if ((p = readVarint(p, end, &v)) == nullptr || v > UINT32_MAX) {
                return false;
            }
            m_hitsAddend = uint32_t(v);
            hits = true;
        } else {
            return false; // another field, or one twice: protobuf's parser decides
        }
    }
    return isUtf8(m_domain);
}

bool WireRequest::readDescriptor(const char *p, const char *end)
{
    const auto first = uint32_t(m_entries.size());
    while (p < end) {
        uint64_t tag = 0;
        const char *from = nullptr, *to = nullptr;
        if ((p = readVarint(p, end, &tag)) == nullptr || tag != (1 << 3 | 2) ||
            int(m_entries.size() - first) >= m_maxEntries || !readBytes(p, end, &from, &to) ||
            !readEntry(from, to)) {
            return false; // a `limit`, a `hits_addend` or another field: not this shape
        }
    }
    m_descriptors.emplace_back(first, uint32_t(m_entries.size()));
    return true;
}

bool WireRequest::readEntry(const char *p, const char *end)
{
    Entry e;
    bool key = false, value = false;
    while (p < end) {
        uint64_t tag = 0;
        const char *from = nullptr, *to = nullptr;
        if ((p = readVarint(p, end, &tag)) == nullptr) {
            return false;
        }
        if (tag == (1 << 3 | 2) && !key && readBytes(p, end, &from, &to)) {
            e.k = std::string_view(from, size_t(to - from));
            key = true;
        } else if (tag == (2 << 3 | 2) && !value && readBytes(p, end, &from, &to)) {
            e.v = std::string_view(from, size_t(to - from));
            value = true;
        } else {
            return false;
        }
    }
    if (!isUtf8(e.k) || !isUtf8(e.v)) {
        return false;
    }
    m_entries.push_back(e);
    return true;
}

} // namespace sluice::serve
