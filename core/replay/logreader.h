#pragma once

#include "core/common/result.h"

#include <QByteArray>
#include <QString>

#include <atomic>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace sluice::replay {

// One log file read line by line in big blocks, plain or gzip (detected by its magic bytes,
// inflated as a stream; concatenated members are read in turn). Memory is the block and one
// line at most: a line longer than maxLineBytes is handed out cut (tooLong) and the rest of it
// skipped. A damaged or truncated .gz ends the file with an error naming the file and the
// compressed offset; the lines before the damage have been handed out. Bytes after the last
// gzip member that start no other member are ignored with a warning, as gzip does.
//
// A regular file is read up to the size it had when opened (a file that grows meanwhile: a
// warning; one truncated meanwhile: an error naming the byte). A pipe, a FIFO or a device is
// read until its end, waiting in poll() for at most 50 ms at a time; the cancel flag is checked
// between waits and between blocks, so that a cancel stops the reader within that time
// wherever it is (in the middle of an over-long line, in /dev/zero, in a FIFO no writer has
// opened yet). A directory or a socket is refused when opened.
class LogReader
{
public:
    static constexpr size_t maxLineBytes = 64 * 1024;

    static Result<std::unique_ptr<LogReader>> open(const QString &path,
                                                   const std::atomic<bool> *cancel = nullptr);
    ~LogReader();
    LogReader(const LogReader &) = delete;
    LogReader &operator=(const LogReader &) = delete;

    // The next line, without its newline (and without a final '\r'). False at the end of the
    // file, or on an error (error() then says what). The view is valid until the next call.
    bool next(std::string_view &line, bool &tooLong);
    // The first n non-empty lines (cut to 256 bytes), without consuming them: format detection
    // on the reader itself, so that a pipe is read once.
    std::vector<QByteArray> peekLines(size_t n);
    qint64 lineNumber() const { return m_line; }
    const std::optional<Error> &error() const { return m_error; }
    const QString &warning() const { return m_warning; }
    bool cancelled() const { return m_cancelled; }
    const QString &path() const { return m_path; }
    bool compressed() const { return m_gz; }
    // Bytes of the file consumed so far, and its size (for progress).
    qint64 offset() const { return m_offset; }
    qint64 size() const { return m_size; }

private:
    LogReader() = default;
    bool fill(); // false at the end of the input or on an error
    // read(2) of at most n bytes: waits (cancellably) on a pipe; -1 after an error or a cancel.
    ssize_t readSome(void *to, size_t n);
    bool cancelRequested();
    bool trailingGarbage(); // gzip: what follows a member starts no other member

    QString m_path;
    int m_fd = -1;
    bool m_gz = false;
    struct Inflate;
    std::unique_ptr<Inflate> m_z;
    std::vector<char> m_buf;
    size_t m_pos = 0;
    size_t m_end = 0;
    bool m_eof = false;
    bool m_skipping = false; // in the rest of a line that was too long
    qint64 m_line = 0;
    qint64 m_offset = 0;
    qint64 m_size = 0;
    std::optional<Error> m_error;
    QString m_warning;
    const std::atomic<bool> *m_cancel = nullptr;
    bool m_cancelled = false;
    bool m_inputEnded = false; // fill() found the end while peeking
    bool m_regular = true;     // a regular file: read up to m_size
};

} // namespace sluice::replay
