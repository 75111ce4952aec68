#include "slot.h"

#include <array>

namespace sluice::redis {

namespace {

constexpr std::array<std::uint16_t, 256> crcTable = [] {
    std::array<std::uint16_t, 256> t{};
    for (unsigned i = 0; i < 256; ++i) {
        std::uint16_t c = std::uint16_t(i << 8);
        for (int b = 0; b < 8; ++b) {
            c = (c & 0x8000) ? std::uint16_t((c << 1) ^ 0x1021) : std::uint16_t(c << 1);
        }
        t[i] = c;
    }
    return t;
}();

} // namespace

std::uint16_t crc16(const char *data, std::size_t size)
{
    std::uint16_t crc = 0;
    for (std::size_t i = 0; i < size; ++i) {
        crc = std::uint16_t((crc << 8) ^ crcTable[((crc >> 8) ^ std::uint8_t(data[i])) & 0xff]);
    }
    return crc;
}

int keySlot(const char *key, std::size_t size)
{
    std::size_t open = 0;
    while (open < size && key[open] != '{') {
        ++open;
    }
    if (open < size) {
        std::size_t close = open + 1;
        while (close < size && key[close] != '}') {
            ++close;
        }
        if (close < size && close != open + 1) {
            return crc16(key + open + 1, close - open - 1) & (clusterSlots - 1);
        }
    }
    return crc16(key, size) & (clusterSlots - 1);
}

} // namespace sluice::redis
