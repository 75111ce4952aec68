#include "statsrecorder.h"

#include <QDateTime>

#include <algorithm>

namespace sluice::stats {

StatsRecorder::StatsRecorder()
    : StatsRecorder(Options{})
{}

StatsRecorder::StatsRecorder(Options options)
    : m_options(options)
{
    m_options.maxSeconds = std::max(1, m_options.maxSeconds);
    m_options.topCapacity = std::max(1, m_options.topCapacity);
}

qint64 StatsRecorder::currentSecond()
{
    return QDateTime::currentSecsSinceEpoch();
}

void StatsRecorder::record(const QString &ruleId, const QByteArray &subject, const Decision &d,
                           bool shadow)
{
    record(ruleId, subject, d.allowed, shadow, currentSecond(), 1);
}

void StatsRecorder::record(const QString &ruleId, const QByteArray &subject, const Decision &d,
                           bool shadow, qint64 unixSecond)
{
    record(ruleId, subject, d.allowed, shadow, unixSecond, 1);
}

void StatsRecorder::record(const QString &ruleId, const QByteArray &subject, bool allowed,
                           bool shadow, qint64 unixSecond, qint64 times)
{
    if (times <= 0) {
        return;
    }
    Counts add;
    if (allowed) {
        add.allowed = times;
    } else if (shadow) {
        add.shadowDenied = times;
    } else {
        add.denied = times;
    }
    const qint64 saidNo = allowed ? 0 : times;

    QMutexLocker lock(&m_mutex);
    m_totals += add;
    // The current second is nearly always the last one held: look there first.
    auto it = (!m_seconds.empty() && m_seconds.rbegin()->first == unixSecond)
                  ? std::prev(m_seconds.end())
                  : m_seconds.try_emplace(unixSecond).first;
    while (qsizetype(m_seconds.size()) > m_options.maxSeconds) {
        if (m_seconds.begin() == it) {
            // The new second is the oldest: it is what goes.
            m_dropped += 1;
            m_seconds.erase(it);
            return;
        }
        m_dropped += m_seconds.begin()->second.size();
        m_seconds.erase(m_seconds.begin());
    }
    Tally &t = it->second[ruleId];
    t.counts += add;
    if (subject.isEmpty()) {
        return;
    }
    auto s = t.subjects.find(subject);
    if (s != t.subjects.end()) {
        s->requests += times;
        s->denied += saidNo;
        return;
    }
    SubjectTally fresh{times, saidNo};
    if (t.subjects.size() >= m_options.topCapacity) {
        // Space-Saving: the least busy subject makes room; the newcomer inherits its count as
        // the error bound, so a heavy hitter arriving late still climbs to the top.
        auto least = t.subjects.begin();
        for (auto i = t.subjects.begin(); i != t.subjects.end(); ++i) {
            if (i->requests < least->requests) {
                least = i;
            }
        }
        fresh.requests += least->requests;
        t.subjects.erase(least);
    }
    t.subjects.insert(subject, fresh);
}

QList<SecondBucket> StatsRecorder::take()
{
    std::map<qint64, Second> seconds;
    {
        QMutexLocker lock(&m_mutex);
        seconds.swap(m_seconds);
    }
    QList<SecondBucket> out;
    for (const auto &[second, rules] : seconds) {
        for (auto r = rules.cbegin(); r != rules.cend(); ++r) {
            SecondBucket b;
            b.ruleId = r.key();
            b.second = second;
            b.counts = r->counts;
            b.top.reserve(r->subjects.size());
            for (auto s = r->subjects.cbegin(); s != r->subjects.cend(); ++s) {
                b.top.append(TopSubject{s.key(), s->requests, s->denied});
            }
            out.append(std::move(b));
        }
    }
    return out;
}

Counts StatsRecorder::pending(const QString &ruleId, qint64 unixSecond) const
{
    QMutexLocker lock(&m_mutex);
    const auto it = m_seconds.find(unixSecond);
    if (it == m_seconds.end()) {
        return {};
    }
    return it->second.value(ruleId).counts;
}

Counts StatsRecorder::totals() const
{
    QMutexLocker lock(&m_mutex);
    return m_totals;
}

qint64 StatsRecorder::dropped() const
{
    QMutexLocker lock(&m_mutex);
    return m_dropped;
}

} // namespace sluice::stats
