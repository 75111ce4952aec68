#include "listener.h"

#include <cerrno>
#include <cstring>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <unistd.h>

namespace sluice::serve {

Result<quint16> openListener(const QHostAddress &address, quint16 port, int *fd)
{
    int s = -1;
    auto fail = [&](const char *what) -> Result<quint16> {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        if (s >= 0) {
            ::close(s);
        }
        return Error::make(Error::Kind::Io, QStringLiteral("cannot listen on %1:%2: %3 (%4)")
                                                .arg(address.toString())
                                                .arg(port)
                                                .arg(why, QLatin1String(what)));
    };
    sockaddr_storage ss{};
    socklen_t len = 0;
    const bool v4 = address.protocol() == QAbstractSocket::IPv4Protocol;
    if (v4) {
        auto *sin = reinterpret_cast<sockaddr_in *>(&ss);
        sin->sin_family = AF_INET;
        sin->sin_port = htons(port);
        sin->sin_addr.s_addr = htonl(address.toIPv4Address());
        len = sizeof *sin;
    } else {
        // IPv6, or any address (both protocols: a dual-stack socket).
        auto *sin6 = reinterpret_cast<sockaddr_in6 *>(&ss);
        sin6->sin6_family = AF_INET6;
        sin6->sin6_port = htons(port);
        if (address.protocol() == QAbstractSocket::IPv6Protocol) {
            const Q_IPV6ADDR a = address.toIPv6Address();
            std::memcpy(&sin6->sin6_addr, a.c, 16);
        } else {
            sin6->sin6_addr = in6addr_any;
        }
        len = sizeof *sin6;
    }
    s = ::socket(v4 ? AF_INET : AF_INET6, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s < 0) {
        return fail("socket");
    }
    const int one = 1;
    const int zero = 0;
    ::setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (!v4 && address.protocol() != QAbstractSocket::IPv6Protocol) {
        ::setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof zero);
    }
    if (::bind(s, reinterpret_cast<sockaddr *>(&ss), len) != 0) {
        return fail("bind");
    }
    // Bursts of new connections (nginx opening its pool, a reconnect storm) wait in the
    // kernel's accept queue instead of being dropped.
    if (::listen(s, 1024) != 0) {
        return fail("listen");
    }
    if (::getsockname(s, reinterpret_cast<sockaddr *>(&ss), &len) != 0) {
        return fail("getsockname");
    }
    *fd = s;
    return v4 ? ntohs(reinterpret_cast<sockaddr_in *>(&ss)->sin_port)
              : ntohs(reinterpret_cast<sockaddr_in6 *>(&ss)->sin6_port);
}

int acceptConnection(int listenFd, sockaddr_storage *peer, int *exhausted)
{
    *exhausted = 0;
    for (;;) {
        socklen_t len = sizeof *peer;
        const int fd = ::accept4(listenFd, reinterpret_cast<sockaddr *>(peer), &len,
                                 SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd >= 0 || errno != EINTR) {
            if (fd < 0 &&
                (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)) {
                *exhausted = errno;
            }
            return fd;
        }
    }
}

void acceptWaiting(int listenFd, bool *wasExhausted, const std::function<void(int)> &exhausted,
                   const std::function<void()> &recovered,
                   const std::function<void(int, const sockaddr_storage &)> &take)
{
    for (int i = 0; i < 256; ++i) {
        sockaddr_storage ss{};
        int why = 0;
        const int fd = acceptConnection(listenFd, &ss, &why);
        if (fd < 0) {
            if (why != 0) {
                exhausted(why);
            }
            return;
        }
        if (*wasExhausted) {
            *wasExhausted = false;
            recovered();
        }
        const int one = 1;
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // small answers, at once
        take(fd, ss);
    }
}

void refuseAndClose(int fd, const QByteArray &bytes)
{
    if (!bytes.isEmpty()) {
        [[maybe_unused]] const ssize_t sent =
            ::send(fd, bytes.constData(), size_t(bytes.size()), MSG_NOSIGNAL);
    }
    char drop[4096];
    for (int i = 0; i < 16 && ::recv(fd, drop, sizeof drop, 0) > 0; ++i) {
    }
    ::shutdown(fd, SHUT_WR);
    ::close(fd);
}

std::string peerAddress(const sockaddr_storage &ss)
{
    if (ss.ss_family == AF_INET) {
        const auto *sin = reinterpret_cast<const sockaddr_in *>(&ss);
        return std::string(reinterpret_cast<const char *>(&sin->sin_addr), 4);
    }
    if (ss.ss_family == AF_INET6) {
        const auto *sin6 = reinterpret_cast<const sockaddr_in6 *>(&ss);
        const auto *a = reinterpret_cast<const char *>(&sin6->sin6_addr);
        return IN6_IS_ADDR_V4MAPPED(&sin6->sin6_addr) ? std::string(a + 12, 4) : std::string(a, 16);
    }
    return {};
}

} // namespace sluice::serve
