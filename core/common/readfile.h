#pragma once

#include "result.h"

#include <QByteArray>
#include <QString>

namespace sluice::files {

// The bytes of a regular file, at most `maxBytes`: opened without blocking (O_NONBLOCK: a FIFO
// never waits for a writer), and anything but a regular file (a FIFO, a device such as
// /dev/zero, a directory, a socket; a symlink is followed and judged by what it points at)
// refused by name before a byte is read. The cap is checked while reading, not from the size
// stat() gave: a file that grows while it is read stops at maxBytes + 1 bytes. Errors (kind
// Invalid) say what the file is and what was expected, without the path (the caller names it).
Result<QByteArray> readRegular(const QString &path, qint64 maxBytes);

} // namespace sluice::files
