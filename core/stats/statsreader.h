#pragma once

#include "stats.h"

#include "core/common/result.h"
#include "core/redis/connection.h"

#include <QList>
#include <QStringList>

// Reading the statistics a StatsFlusher wrote (layout in stats.h). Each call is ONE pipelined
// round trip on the caller's connection, whatever the number of seconds and rules; call it from
// a worker thread (the connection blocks). Missing seconds read as zeros.
namespace sluice::stats {

// The seconds (nowSecond - seconds, nowSecond] of each rule, oldest first: firstSecond =
// nowSecond - seconds + 1. `seconds` in [1, maxSeriesSeconds] (15 minutes: 900), else an
// Invalid error. One HMGET per rule and second, pipelined.
Result<QList<RuleSeries>> readSeries(Connection &c, const QStringList &ruleIds, int seconds,
                                     qint64 nowSecond, const QByteArray &ns = defaultNamespace);

// The `n` busiest subjects of a rule over the same span, summed over its seconds (each second
// keeps its ~20 busiest), most requests first (ties by subject). One ZRANGE WITHSCORES and one
// HGETALL per second, pipelined.
Result<QList<TopSubject>> readTopSubjects(Connection &c, const QString &ruleId, int seconds,
                                          qint64 nowSecond, int n,
                                          const QByteArray &ns = defaultNamespace);

} // namespace sluice::stats
