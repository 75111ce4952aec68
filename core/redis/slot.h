#pragma once

#include <QByteArray>

#include <cstddef>
#include <cstdint>

namespace sluice::redis {

// Redis Cluster's key hashing (the cluster specification, "Key distribution model").
constexpr int clusterSlots = 16384;

// CRC16-CCITT (XModem: polynomial 0x1021, initial value 0, no reflection), as Redis computes
// it: crc16("123456789") == 0x31C3.
std::uint16_t crc16(const char *data, std::size_t size);

// The hash slot of a key: CRC16 of its hash tag modulo 16384. The tag is what lies between the
// first '{' and the first '}' after it, when that is not empty; otherwise the whole key.
int keySlot(const char *key, std::size_t size);
inline int keySlot(const QByteArray &key)
{
    return keySlot(key.constData(), std::size_t(key.size()));
}

} // namespace sluice::redis
