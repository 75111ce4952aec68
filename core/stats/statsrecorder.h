#pragma once

#include "stats.h"

#include "core/limiter/decision.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMutex>
#include <QString>

#include <map>

namespace sluice::stats {

// Counts decisions per rule and second, in process. Thread-safe: any number of
// threads record into one recorder; a StatsFlusher take()s what accumulated once a second and
// writes it to Redis. record() does no I/O and no allocation on the common path (a hash lookup
// and a few additions under one mutex).
//
// How "every decision made through the engine" gets here: wrap the Limiter in a
// RecordingLimiter (recordinglimiter.h), or call record() where a decision is made (check,
// the load generator and the HTTP service do). A shadow rule's denial is counted as
// shadowDenied (the request was let through), never as denied.
//
// Bounded: at most Options::maxSeconds distinct seconds are held (a recorder nobody flushes
// drops its oldest seconds, counted in dropped()), and at most Options::topCapacity subjects
// per rule and second (Space-Saving: a new subject replaces the least busy one).
class StatsRecorder
{
public:
    struct Options
    {
        int maxSeconds = 15 * 60;
        int topCapacity = 100;
    };

    StatsRecorder();
    explicit StatsRecorder(Options options);

    // Counts one decision in the current wall-clock second (CLOCK_REALTIME, unix seconds).
    void record(const QString &ruleId, const QByteArray &subject, const Decision &d, bool shadow);
    // The same in a given unix second (tests, replays).
    void record(const QString &ruleId, const QByteArray &subject, const Decision &d, bool shadow,
                qint64 unixSecond);
    // The same for a count of identical outcomes: allowed / denied by the request's own verdict.
    void record(const QString &ruleId, const QByteArray &subject, bool allowed, bool shadow,
                qint64 unixSecond, qint64 times);

    // Everything recorded since the last take(), oldest second first; the recorder is then empty.
    QList<SecondBucket> take();
    // Not taken yet: the counts of one rule in one second (zeros if none).
    Counts pending(const QString &ruleId, qint64 unixSecond) const;
    // Every decision ever recorded, per kind (not reset by take()).
    Counts totals() const;
    // Buckets (rule x second) dropped because nobody took them in time.
    qint64 dropped() const;

    static qint64 currentSecond();

private:
    struct SubjectTally
    {
        qint64 requests = 0;
        qint64 denied = 0;
    };
    struct Tally
    {
        Counts counts;
        QHash<QByteArray, SubjectTally> subjects;
    };
    using Second = QHash<QString, Tally>;

    Options m_options;
    mutable QMutex m_mutex;
    std::map<qint64, Second> m_seconds; // unix second -> rule id -> tally
    Counts m_totals;
    qint64 m_dropped = 0;
};

} // namespace sluice::stats

namespace sluice {
using stats::StatsRecorder;
}
