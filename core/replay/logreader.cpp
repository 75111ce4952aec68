#include "logreader.h"

#include <QFileInfo>

#include <zlib.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
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

Result<std::unique_ptr<LogReader>> LogReader::open(const QString &path)
{
    std::unique_ptr<LogReader> r(new LogReader);
    r->m_path = path;
    const QByteArray native = QFile::encodeName(path);
    r->m_fd = ::open(native.constData(), O_RDONLY | O_CLOEXEC);
    if (r->m_fd < 0) {
        return Error::make(
            Error::Kind::Io,
            u"cannot open %1: %2"_s.arg(path, QString::fromLocal8Bit(std::strerror(errno))));
    }
    if (QFileInfo(path).isDir()) {
        return Error::make(Error::Kind::Invalid, u"%1 is a directory, not a log file"_s.arg(path));
    }
    r->m_size = QFileInfo(path).size();
    r->m_buf.resize(blockBytes + maxLineBytes);
    unsigned char magic[2] = {0, 0};
    const ssize_t n = ::pread(r->m_fd, magic, 2, 0);
    if (n == 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        r->m_gz = true;
        r->m_z = std::make_unique<Inflate>();
        if (inflateInit2(&r->m_z->z, 15 + 32) != Z_OK) {
            return Error::make(Error::Kind::Internal, u"zlib: inflateInit2 failed"_s);
        }
    }
    return r;
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
        ssize_t n = 0;
        do {
            n = ::read(m_fd, out, room);
        } while (n < 0 && errno == EINTR);
        if (n < 0) {
            m_error = Error::make(Error::Kind::Io,
                                  u"%1: read failed at byte %2: %3"_s.arg(m_path).arg(m_offset).arg(
                                      QString::fromLocal8Bit(std::strerror(errno))));
            return false;
        }
        m_offset += n;
        m_end += size_t(n);
        return n > 0;
    }
    Inflate &f = *m_z;
    f.z.next_out = reinterpret_cast<Bytef *>(out);
    f.z.avail_out = uInt(room);
    while (f.z.avail_out == uInt(room)) {
        if (f.z.avail_in == 0 && !f.inputDone) {
            ssize_t n = 0;
            do {
                n = ::read(m_fd, f.in.data(), f.in.size());
            } while (n < 0 && errno == EINTR);
            if (n < 0) {
                m_error =
                    Error::make(Error::Kind::Io,
                                u"%1: read failed at byte %2: %3"_s.arg(m_path).arg(m_offset).arg(
                                    QString::fromLocal8Bit(std::strerror(errno))));
                return false;
            }
            if (n == 0) {
                f.inputDone = true;
            }
            m_offset += n;
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
        if (!fill()) {
            m_eof = true;
            if (m_error) {
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
