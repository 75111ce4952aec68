#pragma once

#include "limitedsubject.h"

#include "stats/stats.h"

#include <QList>
#include <QMetaType>
#include <QString>

namespace sluice::ui {

// One read of the Monitor worker, as a value (sent across threads in a signal). A failed read
// carries only `error` (and the session): the page keeps showing the last good data.
struct MonitorSnapshot
{
    quint64 session = 0;   // MonitorWorker::setEndpoint's generation: older ones are dropped
    qint64 nowSecond = 0;  // unix second of the read (the last second of every series)
    qint64 readAtMs = 0;   // local wall clock of the read, ms since the epoch
    int windowSeconds = 0; // length of every series
    QList<stats::RuleSeries> series; // one per rule of the set, in the set's order

    QString topRuleId; // the rule whose top subjects are in `top` (empty: none asked)
    QList<stats::TopSubject> top;

    bool limitedRead = false; // this read included a key scan (they run less often)
    QList<LimitedSubject> limited;
    qint64 keysScanned = 0;
    bool limitedCapped = false; // the scan stopped at the key cap; the list may be partial

    QString error; // non-empty: the read failed, in words

    bool ok() const { return error.isEmpty(); }
};

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::MonitorSnapshot)
