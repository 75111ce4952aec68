#pragma once

#include "core/common/result.h"

#include <QString>

#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace sluice::replay {

// One log file read line by line in big blocks, plain or gzip (detected by its magic bytes,
// inflated as a stream; concatenated members are read in turn). Memory is the block and one
// line at most: a line longer than maxLineBytes is handed out cut (tooLong) and the rest of it
// skipped. A damaged or truncated .gz ends the file with an error naming the file and the
// compressed offset; the lines before the damage have been handed out.
class LogReader
{
public:
    static constexpr size_t maxLineBytes = 64 * 1024;

    static Result<std::unique_ptr<LogReader>> open(const QString &path);
    ~LogReader();
    LogReader(const LogReader &) = delete;
    LogReader &operator=(const LogReader &) = delete;

    // The next line, without its newline (and without a final '\r'). False at the end of the
    // file, or on an error (error() then says what). The view is valid until the next call.
    bool next(std::string_view &line, bool &tooLong);
    qint64 lineNumber() const { return m_line; }
    const std::optional<Error> &error() const { return m_error; }
    const QString &path() const { return m_path; }
    bool compressed() const { return m_gz; }
    // Bytes of the file consumed so far, and its size (for progress).
    qint64 offset() const { return m_offset; }
    qint64 size() const { return m_size; }

private:
    LogReader() = default;
    bool fill(); // false at the end of the input or on an error

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
};

} // namespace sluice::replay
