#pragma once

#include <QByteArray>
#include <QByteArrayView>
#include <QString>

#include <optional>
#include <string_view>

namespace sluice::net {

// IP addresses and networks, read one way for every reader of them (the overrides' "cidr", the
// replay's --trust-proxies and its X-Forwarded-For hops).

// `text` as an address: 4 bytes for a strict dotted quad (four decimal parts 0..255 without
// leading zeros: "010" is no octal guess, "1.2" no address), 16 for IPv6 text (inet_pton, no
// zone id); an IPv4-mapped IPv6 address stays 16 bytes. Returns the size, 0 if it is none.
int parseAddress(std::string_view text, unsigned char out[16]);

// Whether the first `prefix` bits of `a` and `network` are the same (both `size` bytes).
bool samePrefix(const unsigned char *a, const unsigned char *network, int prefix);

// An IP network: the address with its host bits cleared, in 4 (IPv4) or 16 bytes, and the
// prefix length.
struct Network
{
    QByteArray address;
    int prefix = 0;
    bool isV4() const { return address.size() == 4; }
    // Whether an address of `size` bytes (parseAddress) is in it.
    bool contains(const unsigned char *a, int size) const
    {
        return size == address.size() &&
               samePrefix(a, reinterpret_cast<const unsigned char *>(address.constData()), prefix);
    }
    friend bool operator==(const Network &, const Network &) = default;
};

// "address/prefix", strictly: nullopt with *error saying why (not an address, no or a prefix
// out of range, host bits set: the writer meant one of two things).
std::optional<Network> parseNetwork(const QString &text, QString *error);
// A subject as an address (4 or 16 bytes; an IPv4-mapped IPv6 address as its 4), or empty.
QByteArray addressBytes(QByteArrayView subject);
// `address` (addressBytes) with every bit past `prefix` cleared.
QByteArray masked(const QByteArray &address, int prefix);
// 4 or 16 bytes -> "10.0.0.0", "2001:db8::".
QString formatAddress(const QByteArray &address);

} // namespace sluice::net
