// Durations and rates: parse, and what parses formats back to the same value.
#include "core/common/duration.h"

#include <cstddef>
#include <cstdint>
#include <cstdlib>

using namespace sluice;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    if (const Result<qint64> us = duration::parseUs(text)) {
        const Result<qint64> again = duration::parseUs(duration::formatUs(*us));
        if (!again || *again != *us) {
            std::abort();
        }
    }
    if (const Result<Rate> r = duration::parseRate(text)) {
        const Result<Rate> again = duration::parseRate(duration::formatRate(*r));
        if (!again || duration::formatRate(*again) != duration::formatRate(*r)) {
            std::abort();
        }
    }
    return 0;
}
