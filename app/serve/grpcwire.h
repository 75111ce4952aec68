#pragma once

#include <QString>

#include <string_view>

namespace sluice::serve {

// A RateLimitRequest's wire bytes screened before they are parsed: parsed whole, a message of
// tiny descriptors costs some 40 times its size (a 3.9 MB message of 560,000 descriptors is
// 167 MB of objects), so their count is read off the wire first (tags and lengths, nothing
// allocated). The request's descriptors (field 2) beyond `maxDescriptors`, or a descriptor's
// entries (its field 1) beyond `maxEntries`, make the refusal message; "" otherwise (bytes that
// are not that message are left to the parser to refuse).
QString screenRequest(std::string_view bytes, int maxDescriptors, int maxEntries);

} // namespace sluice::serve
