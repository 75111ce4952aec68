#pragma once

#include <QByteArray>
#include <QList>
#include <QString>
#include <QtGlobal>

// Per-rule statistics: what the engine decided, per rule and per second.
//
// Redis layout (namespace <ns>, default "{sluice}:", the RuleStore's; the hash tag puts every
// stats key in the RuleStore's slot, so a flush may be one MULTI/EXEC on Redis Cluster too):
//   <ns>stats:<rule_id>:<unix_second>        hash: a = allowed, d = denied, s = shadow-denied
//                                             (a shadow rule said no; the request went through)
//   <ns>stats:<rule_id>:<unix_second>:top    zset: subject -> requests (the busiest ~20 only)
//   <ns>stats:<rule_id>:<unix_second>:topd   hash: subject -> decisions that said no (shadow
//                                             or not), for subjects written to :top
// Every key has a TTL of ttlSeconds (16 minutes): the console shows the last 15 minutes.
// Counters are HINCRBY/ZINCRBY: any number of processes add into the same seconds.

namespace sluice::stats {

inline constexpr int ttlSeconds = 16 * 60;
inline constexpr int topKept = 20;            // subjects kept per rule and second in Redis
inline constexpr int maxSeriesSeconds = 3600; // the most one readSeries() asks for
inline const QByteArray defaultNamespace = QByteArrayLiteral("{sluice}:");

struct Counts
{
    qint64 allowed = 0;
    qint64 denied = 0;
    qint64 shadowDenied = 0;

    qint64 total() const { return allowed + denied + shadowDenied; }
    Counts &operator+=(const Counts &o)
    {
        allowed += o.allowed;
        denied += o.denied;
        shadowDenied += o.shadowDenied;
        return *this;
    }
    friend bool operator==(const Counts &, const Counts &) = default;
};

// One rule's last N seconds, oldest first, one entry per second, zeros where nothing was
// recorded.
struct RuleSeries
{
    QString ruleId;
    qint64 firstSecond = 0; // unix seconds of seconds[0]
    QList<Counts> seconds;
};

// One subject's traffic on one rule over some seconds. `denied` counts the decisions that said
// no, shadow or not.
struct TopSubject
{
    QByteArray subject;
    qint64 requests = 0;
    qint64 denied = 0;
    friend bool operator==(const TopSubject &, const TopSubject &) = default;
};

// What a StatsRecorder aggregated for one rule in one second (the unit a flush writes).
// `top` is the recorder's bounded tally (Space-Saving: counts of subjects that entered after
// the tally was full may be over-estimated by the count of the subject they replaced).
struct SecondBucket
{
    QString ruleId;
    qint64 second = 0; // unix seconds
    Counts counts;
    QList<TopSubject> top; // unordered
};

// Key names (binary: rule ids are [A-Za-z0-9._-], but a namespace is bytes).
QByteArray countsKey(const QByteArray &ns, const QString &ruleId, qint64 second);
QByteArray topKey(const QByteArray &ns, const QString &ruleId, qint64 second);
QByteArray topDeniedKey(const QByteArray &ns, const QString &ruleId, qint64 second);

} // namespace sluice::stats
