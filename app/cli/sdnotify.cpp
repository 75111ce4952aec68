#include "app/cli/sdnotify.h"

#include <QtGlobal>

#include <cstring>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

namespace sluice::cli {

bool sdNotify(const QByteArray &state)
{
    const QByteArray path = qgetenv("NOTIFY_SOCKET");
    sockaddr_un addr{};
    if (path.isEmpty() || size_t(path.size()) >= sizeof(addr.sun_path) ||
        (path[0] != '/' && path[0] != '@')) {
        return false;
    }
    addr.sun_family = AF_UNIX;
    std::memcpy(addr.sun_path, path.constData(), size_t(path.size()));
    if (addr.sun_path[0] == '@') {
        addr.sun_path[0] = '\0'; // abstract namespace
    }
    const int fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        return false;
    }
    const auto length = socklen_t(offsetof(sockaddr_un, sun_path) + size_t(path.size()));
    const ssize_t sent = ::sendto(fd, state.constData(), size_t(state.size()), MSG_NOSIGNAL,
                                  reinterpret_cast<const sockaddr *>(&addr), length);
    ::close(fd);
    return sent == state.size();
}

} // namespace sluice::cli
