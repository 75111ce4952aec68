#include "logreader.h"

#include <QFileInfo>

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace Qt::StringLiterals;

namespace sluice::replay {

namespace {
constexpr size_t blockBytes = 1 << 20;
constexpr size_t inBytes = 256 * 1024;
} // namespace

struct LogReader::Inflate
{
    z_stream z{};
    std::vector<unsigned char> in = std::vector<unsigned char>(inBytes);
    bool inputDone = false;
    bool ended = false; // the current member ended (Z_STREAM_END)
};

Result<std::unique_ptr<LogReader>> LogReader::open(const QString &path,
                                                   const std::atomic<bool> *cancel)
{
    std::unique_ptr<LogReader> r(new LogReader);
    r->m_path = path;
    r->m_cancel = cancel;
    const QByteArray native = QFile::encodeName(path);
    struct stat st
    {};
    if (::stat(native.constData(), &st) == 0 && S_ISSOCK(st.st_mode)) {
        return Error::make(Error::Kind::Invalid, u"%1 is a socket, not a log file"_s.arg(path));
    }
    // Non-blocking: opening a FIFO no writer has opened yet does not hang; reads wait in poll().
    r->m_fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (r->m_fd < 0) {
        return Error::make(
            Error::Kind::Io,
            u"cannot open %1: %2"_s.arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    }
    if (::fstat(r->m_fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        return Error::make(Error::Kind::Invalid, u"%1 is a directory, not a log file"_s.arg(path));
    }
    r->m_regular = S_ISREG(st.st_mode);
    r->m_size = r->m_regular ? qint64(st.st_size) : 0;
    r->m_buf.resize(blockBytes + maxLineBytes);
    // The magic bytes, read as the first bytes of the stream (a pipe cannot be read twice).
    unsigned char magic[2] = {0, 0};
    size_t got = 0;
    while (got < 2) {
        const ssize_t n = r->readSome(magic + got, 2 - got);
        if (n <= 0) {
            break;
        }
        got += size_t(n);
    }
    if (r->m_error) {
        return *r->m_error;
    }
    if (got == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        r->m_gz = true;
        r->m_z = std::make_unique<Inflate>();
        if (inflateInit2(&r->m_z->z, 15 + 32) != Z_OK) {
            return Error::make(Error::Kind::Internal, u"zlib: inflateInit2 failed"_s);
        }
        std::memcpy(r->m_z->in.data(), magic, 2);
        r->m_z->z.next_in = r->m_z->in.data();
        r->m_z->z.avail_in = 2;
    } else {
        std::memcpy(r->m_buf.data(), magic, got);
        r->m_end = got;
    }
    return r;
}

bool LogReader::cancelRequested()
{
    if (m_cancel != nullptr && m_cancel->load(std::memory_order_relaxed)) {
        m_cancelled = true;
    }
    return m_cancelled;
}

ssize_t LogReader::readSome(void *to, size_t n)
{
    if (m_regular) {
        // Up to the size the file had when opened: a log still written to ends there.
        n = size_t(std::min<qint64>(qint64(n), m_size - m_offset));
        if (n == 0) {
            struct stat st
            {};
            if (::fstat(m_fd, &st) == 0 && qint64(st.st_size) > m_size) {
                m_warning = u"%1 grew while it was read (%2 bytes when opened, %3 now): the "
                            "lines after byte %2 are not replayed"_s.arg(m_path)
                                .arg(m_size)
                                .arg(qint64(st.st_size));
            }
            return 0;
        }
    }
    for (;;) {
        if (cancelRequested()) {
            return -1;
        }
        if (!m_regular) {
            pollfd p{m_fd, POLLIN, 0};
            const int ready = ::poll(&p, 1, 50);
            if (ready == 0 || (ready < 0 && errno == EINTR)) {
                continue;
            }
        }
        const ssize_t k = ::read(m_fd, to, n);
        if (k > 0 || (k == 0 && !m_regular)) {
            m_offset += k;
            return k;
        }
        if (k == 0) {
            m_error = Error::make(Error::Kind::Io,
                                  u"%1 was truncated while it was read: it ends at byte %2 of the "
                                  "%3 it had when opened (after line %4); the lines before were "
                                  "replayed"_s.arg(m_path)
                                      .arg(m_offset)
                                      .arg(m_size)
                                      .arg(m_line));
            return -1;
        }
        if (errno != EINTR && errno != EAGAIN) {
            m_error = Error::make(Error::Kind::Io,
                                  u"%1: read failed at byte %2: %3"_s.arg(m_path).arg(m_offset).arg(
                                      QString::fromLocal8Bit(std::strerror(errno))));
            return -1;
        }
    }
}

LogReader::~LogReader()
{
    if (m_z) {
        inflateEnd(&m_z->z);
    }
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

bool LogReader::fill()
{
    if (m_pos > 0) {
        std::memmove(m_buf.data(), m_buf.data() + m_pos, m_end - m_pos);
        m_end -= m_pos;
        m_pos = 0;
    }
    char *out = m_buf.data() + m_end;
    const size_t room = m_buf.size() - m_end;
    if (!m_gz) {
        const ssize_t n = readSome(out, room);
        if (n <= 0) {
            return false;
        }
        m_end += size_t(n);
        return true;
    }
    Inflate &f = *m_z;
    f.z.next_out = reinterpret_cast<Bytef *>(out);
    f.z.avail_out = uInt(room);
    while (f.z.avail_out == uInt(room)) {
        if (f.z.avail_in == 0 && !f.inputDone) {
            const ssize_t n = readSome(f.in.data(), f.in.size());
            if (n < 0) {
                return false;
            }
            f.inputDone = n == 0;
            f.z.next_in = f.in.data();
            f.z.avail_in = uInt(n);
        }
        if (f.ended) {
            if (f.z.avail_in == 0 && f.inputDone) {
                return false; // the last member ended: the end of the file
            }
            if (f.z.avail_in == 0) {
                continue;
            }
            if (trailingGarbage()) {
                return false;
            }
            inflateReset(&f.z); // another gzip member follows
            f.ended = false;
        }
        if (f.z.avail_in == 0 && f.inputDone) {
            m_error = Error::make(
                Error::Kind::Invalid,
                u"%1: the gzip data is truncated at compressed byte %2 (after line %3): the "
                "lines before it were replayed"_s.arg(m_path)
                    .arg(m_offset)
                    .arg(m_line));
            return false;
        }
        const int rc = inflate(&f.z, Z_NO_FLUSH);
        if (rc == Z_STREAM_END) {
            f.ended = true;
        } else if (rc == Z_BUF_ERROR) {
            continue; // needs more input
        } else if (rc != Z_OK) {
            const qint64 at = m_offset - qint64(f.z.avail_in);
            m_error = Error::make(Error::Kind::Invalid,
                                  u"%1: the gzip data is damaged at compressed byte %2 (after "
                                  "line %3): %4; the lines before it were replayed"_s.arg(m_path)
                                      .arg(at)
                                      .arg(m_line)
                                      .arg(QString::fromLatin1(f.z.msg ? f.z.msg : "zlib error")));
            return false;
        }
    }
    m_end += room - f.z.avail_out;
    return true;
}

bool LogReader::trailingGarbage()
{
    Inflate &f = *m_z;
    if (f.z.avail_in < 2 && !f.inputDone) {
        // One byte left in the block: the next member's magic may straddle two reads.
        std::memmove(f.in.data(), f.z.next_in, f.z.avail_in);
        const ssize_t n = readSome(f.in.data() + f.z.avail_in, f.in.size() - f.z.avail_in);
        f.inputDone = n <= 0;
        f.z.next_in = f.in.data();
        f.z.avail_in += uInt(std::max<ssize_t>(0, n));
    }
    if (f.z.avail_in >= 2 && f.z.next_in[0] == 0x1f && f.z.next_in[1] == 0x8b) {
        return false;
    }
    if (!m_cancelled && !m_error) {
        m_warning = u"%1: trailing garbage after the last gzip member, at compressed byte %2, "
                    "ignored (after line %3)"_s.arg(m_path)
                        .arg(m_offset - qint64(f.z.avail_in))
                        .arg(m_line);
    }
    return true;
}

bool LogReader::next(std::string_view &line, bool &tooLong)
{
    for (;;) {
        if (m_pos < m_end) {
            char *begin = m_buf.data() + m_pos;
            const size_t avail = m_end - m_pos;
            char *nl = static_cast<char *>(std::memchr(begin, '\n', avail));
            if (nl != nullptr) {
                m_pos = size_t(nl - m_buf.data()) + 1;
                if (m_skipping) {
                    m_skipping = false;
                    continue;
                }
                size_t len = size_t(nl - begin);
                if (len > 0 && begin[len - 1] == '\r') {
                    --len;
                }
                tooLong = len > maxLineBytes;
                line = std::string_view(begin, tooLong ? 256 : len);
                ++m_line;
                return true;
            }
            if (m_skipping) {
                m_pos = m_end;
            } else if (avail >= maxLineBytes) {
                // A line longer than the bound: handed out cut, the rest skipped.
                line = std::string_view(begin, 256);
                m_pos = m_end;
                m_skipping = true;
                ++m_line;
                tooLong = true;
                return true;
            }
        }
        if (m_eof || m_error) {
            return false;
        }
        if (m_inputEnded || !fill()) {
            m_eof = true;
            if (m_error || m_cancelled) {
                return false; // the partial line before the damage is not handed out
            }
            if (m_pos < m_end && !m_skipping) {
                size_t len = m_end - m_pos;
                char *begin = m_buf.data() + m_pos;
                if (begin[len - 1] == '\r') {
                    --len;
                }
                line = std::string_view(begin, len);
                m_pos = m_end;
                ++m_line;
                tooLong = false;
                return true;
            }
            return false;
        }
    }
}

} // namespace sluice::replay

namespace sluice::replay {

std::vector<QByteArray> LogReader::peekLines(size_t n)
{
    std::vector<QByteArray> lines;
    size_t p = m_pos;
    for (;;) {
        lines.clear();
        p = m_pos;
        while (lines.size() < n && p < m_end) {
            const char *begin = m_buf.data() + p;
            const char *nl = static_cast<const char *>(std::memchr(begin, '\n', m_end - p));
            if (nl == nullptr) {
                break;
            }
            size_t len = size_t(nl - begin);
            if (len > 0 && begin[len - 1] == '\r') {
                --len;
            }
            if (len > 0) {
                lines.emplace_back(begin, qsizetype(std::min<size_t>(len, 256)));
            }
            p = size_t(nl - m_buf.data()) + 1;
        }
        if (lines.size() >= n || m_inputEnded || m_end == m_buf.size()) {
            break;
        }
        m_inputEnded = !fill();
    }
    if (m_inputEnded && lines.size() < n && p < m_end && !m_error && !m_cancelled) {
        lines.emplace_back(m_buf.data() + p, qsizetype(std::min<size_t>(m_end - p, 256)));
    }
    return lines;
}

} // namespace sluice::replay
