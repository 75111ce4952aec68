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

} // namespace sluice::serve
