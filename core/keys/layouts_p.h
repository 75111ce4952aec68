#pragma once

// The value readers layouts.cpp matches value shapes with, shared with layoutwords.cpp (a
// state in words). Internal to core/keys.

#include "layouts.h"

#include <QByteArray>
#include <QString>

#include <optional>
#include <utility>

namespace sluice::keys::layoutdetail {

// redis_rate's epoch: 2017-01-01T00:00:00Z, in s since the Unix epoch.
inline constexpr qint64 rateEpochS = 1'483'228'800;

// A whole number of at most 20 characters (an optional leading '-'), else nullopt.
std::optional<qint64> wholeNumber(QByteArrayView text);
// A finite number of at most 40 characters, else nullopt.
std::optional<double> number(QByteArrayView text);
// The string value, whole (nullopt when it is longer than what was read).
std::optional<QByteArray> wholeString(const ForeignRead &r);
// A number read as a timestamp in s, ms, us or ns: us since the epoch, when it is within ten
// years before `nowUs` and a day after.
std::optional<qint64> timestampUs(double v, qint64 nowUs);
// The timestamp (us) of one end of a zset: its score, else its member.
std::optional<qint64> endUs(const std::optional<std::pair<QByteArray, QByteArray>> &end,
                            qint64 nowUs);
// A duration since, in words ("3s").
QString ago(qint64 us);
// The state's words with its TTL ("resets in 3s") or what its missing TTL does.
QString withTtl(QString text, qint64 pttlMs, LostTtl lost);

} // namespace sluice::keys::layoutdetail
