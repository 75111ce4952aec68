#pragma once

#include "core/common/result.h"

#include <QByteArray>

namespace sluice {

class Connection;

namespace redis {

// `text` with the glob characters of SCAN MATCH (* ? [ ] \) escaped: matched literally.
QByteArray globEscaped(const QByteArray &text);

// Deletes every key that starts with `prefix` (taken literally): SCAN MATCH <escaped prefix>*,
// UNLINK each page. Returns how many keys were deleted; the first failed command ends it.
// Refuses an empty prefix (that would be the whole database).
Result<qint64> deleteByPrefix(Connection &connection, const QByteArray &prefix);

} // namespace redis
} // namespace sluice
