#pragma once

#include "limitedsubject.h"

#include "core/stats/stats.h"

#include <QHash>
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

    // The rule asked for top subjects: a rule id, or busiestRule for the rule with the most
    // requests in the window (the one that has traffic to show).
    static inline const QString busiestRule = QStringLiteral("*");
    QString topRuleId; // the rule whose top subjects are in `top` (empty: none asked, no traffic)
    bool topBusiest = false; // topRuleId was picked as the busiest rule
    QList<stats::TopSubject> top;

    // The rule of `series` with the most requests (allowed, denied, shadow-denied) in the
    // window; empty when none has any.
    static QString busiestOf(const QList<stats::RuleSeries> &series)
    {
        QString best;
        qint64 most = 0;
        for (const stats::RuleSeries &r : series) {
            qint64 n = 0;
            for (const stats::Counts &c : r.seconds) {
                n += c.allowed + c.denied + c.shadowDenied;
            }
            if (n > most) {
                most = n;
                best = r.ruleId;
            }
        }
        return best;
    }

    bool limitedRead = false; // this read included a key scan (they run less often)
    QList<LimitedSubject> limited;
    qint64 keysScanned = 0;
    bool limitedCapped = false; // the scan stopped at the key cap; the list may be partial
    // Keys of other limiters that the rules adopt (FORMATS.md "adopt"), read by the scan, and
    // how many of them never expire (those are in `limited` too).
    qint64 adoptedKeys = 0;
    qint64 adoptedNeverExpire = 0;
    // Keys the scan found per rule id (existing ones): a rule that decided in the last seconds
    // but has none decided on keys of another prefix (the Load page's own, by default).
    QHash<QString, qint64> keysPerRule;
    // The stored overrides could not be read with the keys (an ACL without GET on them, an
    // older server): the rows carry the rule file's overrides only. Empty: read.
    QString overridesError;

    QString error; // non-empty: the read failed, in words
    // Redis answered this read (a series, the top subjects or a key scan came back): news of
    // the connection. A read with nothing to ask (no rules, no scan due) is not.
    bool reachedRedis = false;

    bool ok() const { return error.isEmpty(); }
};

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::MonitorSnapshot)
