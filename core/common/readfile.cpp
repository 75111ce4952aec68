#include "readfile.h"

#include <QFile>

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sluice::files {

namespace {

QString kindOf(mode_t mode)
{
    if (S_ISDIR(mode)) {
        return QStringLiteral("a directory");
    }
    if (S_ISFIFO(mode)) {
        return QStringLiteral("a FIFO (named pipe)");
    }
    if (S_ISCHR(mode)) {
        return QStringLiteral("a character device");
    }
    if (S_ISBLK(mode)) {
        return QStringLiteral("a block device");
    }
    if (S_ISSOCK(mode)) {
        return QStringLiteral("a socket");
    }
    return QStringLiteral("not a regular file");
}

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

// Closes the descriptor on every path out.
struct Fd
{
    int fd;
    ~Fd()
    {
        if (fd >= 0) {
            ::close(fd);
        }
    }
};

} // namespace

Result<QByteArray> readRegular(const QString &path, qint64 maxBytes)
{
    const QByteArray name = QFile::encodeName(path);
    const Fd f{::open(name.constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (f.fd < 0) {
        return invalid(QStringLiteral("cannot be opened: %1")
                           .arg(QString::fromLocal8Bit(std::strerror(errno))));
    }
    struct stat st
    {};
    if (::fstat(f.fd, &st) != 0) {
        return invalid(
            QStringLiteral("cannot be read: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
    }
    if (!S_ISREG(st.st_mode)) {
        return invalid(
            QStringLiteral("is %1, not a regular file; refused unread").arg(kindOf(st.st_mode)));
    }
    QByteArray bytes;
    char buffer[1 << 16];
    while (bytes.size() <= maxBytes) {
        const ssize_t n = ::read(f.fd, buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return invalid(QStringLiteral("cannot be read: %1")
                               .arg(QString::fromLocal8Bit(std::strerror(errno))));
        }
        if (n == 0) {
            return bytes;
        }
        bytes.append(buffer, qsizetype(n));
    }
    return invalid(QStringLiteral("is larger than %1 MB; refused").arg(maxBytes >> 20));
}

} // namespace sluice::files
