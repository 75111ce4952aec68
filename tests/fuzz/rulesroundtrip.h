#pragma once

// What the two rule-file targets check, once: any bytes give a Loaded, never a crash, with at
// most maxErrors (+1, the "and more" line) errors; what parses writes back with `write` and
// parses again to as many rules.

#include "core/rules/codec.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

namespace sluice::fuzz {

template <typename Parse, typename Write>
int rulesRoundTrip(const uint8_t *data, size_t size, Parse parse, Write write)
{
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const rules::Loaded l = parse(bytes, QStringLiteral("f"));
    if (l.errors.size() > rules::maxErrors + 1) {
        std::abort();
    }
    if (l.ok()) {
        const rules::Loaded again = parse(write(l.set), QStringLiteral("g"));
        if (!again.ok() || again.set.rules.size() != l.set.rules.size()) {
            std::abort();
        }
    }
    return 0;
}

} // namespace sluice::fuzz
