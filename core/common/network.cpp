#include "network.h"

#include "bytes.h"

#include <cstring>

#include <arpa/inet.h>

using namespace Qt::StringLiterals;

namespace sluice::net {

namespace {

// Dotted quad, strictly: four decimal parts 0..255 without leading zeros (QHostAddress reads
// "010" as octal and "1.2" as an address, neither of which a client IP ever is).
bool parseV4(std::string_view s, unsigned char out[4])
{
    int part = 0;
    int value = 0;
    int digits = 0;
    for (size_t i = 0; i <= s.size(); ++i) {
        if (i == s.size() || s[i] == '.') {
            if (digits == 0 || part > 3) {
                return false;
            }
            out[part++] = static_cast<unsigned char>(value);
            value = 0;
            digits = 0;
            continue;
        }
        const char c = s[i];
        if (c < '0' || c > '9' || (digits == 1 && value == 0)) {
            return false;
        }
        value = value * 10 + (c - '0');
        if (++digits > 3 || value > 255) {
            return false;
        }
    }
    return part == 4;
}

} // namespace

int parseAddress(std::string_view text, unsigned char out[16])
{
    if (text.size() <= 15 && parseV4(text, out)) {
        return 4;
    }
    if (text.find(':') == std::string_view::npos || text.size() > 45) {
        return 0;
    }
    // inet_pton: the POSIX reader of IPv6 text (no zone ids, which a client address has not).
    char buf[46];
    std::memcpy(buf, text.data(), text.size());
    buf[text.size()] = 0;
    return inet_pton(AF_INET6, buf, out) == 1 ? 16 : 0;
}

bool samePrefix(const unsigned char *a, const unsigned char *network, int prefix)
{
    const int whole = prefix / 8;
    if (std::memcmp(network, a, size_t(whole)) != 0) {
        return false;
    }
    const int rest = prefix % 8;
    if (rest == 0) {
        return true;
    }
    const auto mask = static_cast<unsigned char>(0xFF << (8 - rest));
    return (network[whole] & mask) == (a[whole] & mask);
}

QByteArray masked(const QByteArray &address, int prefix)
{
    QByteArray out = address;
    for (qsizetype i = 0; i < out.size(); ++i) {
        const int bits = prefix - int(i) * 8;
        if (bits >= 8) {
            continue;
        }
        out[i] = bits <= 0 ? char(0) : char(uchar(out[i]) & uchar(0xFF << (8 - bits)));
    }
    return out;
}

QByteArray addressBytes(QByteArrayView subject)
{
    unsigned char a[16];
    const int size = parseAddress(std::string_view(subject.data(), size_t(subject.size())), a);
    static const unsigned char mappedHead[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
    if (size == 16 && std::memcmp(a, mappedHead, 12) == 0) {
        return QByteArray(reinterpret_cast<const char *>(a + 12), 4);
    }
    return QByteArray(reinterpret_cast<const char *>(a), size);
}

QString formatAddress(const QByteArray &address)
{
    char text[INET6_ADDRSTRLEN];
    if (address.size() != 4 && address.size() != 16) {
        return {};
    }
    if (inet_ntop(address.size() == 4 ? AF_INET : AF_INET6, address.constData(), text,
                  sizeof text) == nullptr) {
        return {};
    }
    return QString::fromLatin1(text);
}

std::optional<Network> parseNetwork(const QString &text, QString *error)
{
    const qsizetype slash = text.indexOf(u'/');
    const QString example = u"e.g. 10.0.0.0/8 or 2001:db8::/32"_s;
    if (slash < 0) {
        *error = u"'%1' has no prefix length; expected a network address/prefix, %2 (an exact "
                 "address is a subject)"_s.arg(bytes::shortened(text), example);
        return std::nullopt;
    }
    const QByteArray address = addressBytes(text.left(slash).toLatin1());
    if (address.isEmpty() || text.left(slash).toLatin1() != text.left(slash).toUtf8()) {
        *error = u"'%1' is not an IP address; expected a network address/prefix, %2"_s.arg(
            bytes::shortened(text.left(slash)), example);
        return std::nullopt;
    }
    bool ok = false;
    const QString lengthText = text.mid(slash + 1);
    const int prefix = lengthText.toInt(&ok);
    const int maxPrefix = int(address.size()) * 8;
    if (!ok || prefix < 0 || prefix > maxPrefix || lengthText.startsWith(u'+') ||
        lengthText.startsWith(u'-')) {
        *error = u"the prefix length '%1' is not a number from 0 to %2 (IPv%3)"_s.arg(
            bytes::shortened(lengthText), QString::number(maxPrefix),
            address.size() == 4 ? u"4"_s : u"6"_s);
        return std::nullopt;
    }
    Network n{masked(address, prefix), prefix};
    if (n.address != address) {
        *error = u"'%1' has host bits set past the /%2 prefix; write the network, %3/%2 (or the "
                 "address alone as a subject)"_s.arg(
                     bytes::shortened(text), QString::number(prefix), formatAddress(n.address));
        return std::nullopt;
    }
    return n;
}

} // namespace sluice::net
