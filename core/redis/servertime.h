#pragma once

#include "connection.h"

#include "core/common/result.h"

namespace sluice::redis {

// The server's clock, TIME in unix microseconds: one round trip on `c`, its reply bounded to
// two integers. A reply of another shape is a Protocol error naming the server.
Result<qint64> serverTimeUs(Connection &c);

} // namespace sluice::redis
