#pragma once

#include "result.h"

#include <QString>
#include <QtGlobal>

namespace sluice {

// Durations and rates as FORMATS.md writes them: "250ms", "5s", "1m", "1h", "1d";
// rates "N/s", "N/m", "N/h", "N/d" or "N/<duration>" ("5/10s"). Everything is integer
// microseconds: no floating point on the way in.
struct Rate
{
    qint64 count = 0;    // events ...
    qint64 periodUs = 0; // ... per this many microseconds
    friend bool operator==(const Rate &, const Rate &) = default;
};

namespace duration {

constexpr qint64 usPerMs = 1000;
constexpr qint64 usPerSecond = 1000 * usPerMs;
constexpr qint64 usPerMinute = 60 * usPerSecond;
constexpr qint64 usPerHour = 60 * usPerMinute;
constexpr qint64 usPerDay = 24 * usPerHour;
// The largest integer every double represents exactly: the Lua scripts' arithmetic ceiling.
constexpr qint64 maxExact = qint64(1) << 53;

// Parses a positive duration. A bare unit ("s") means 1 of it. Errors say what is expected.
Result<qint64> parseUs(const QString &text);
// Parses a rate; the count and the period must both be positive.
Result<Rate> parseRate(const QString &text);
// The shortest exact spelling: 5000000 -> "5s", 1500000 -> "1500ms", 1 -> "1us".
QString formatUs(qint64 us);
QString formatRate(const Rate &rate);

} // namespace duration
} // namespace sluice
