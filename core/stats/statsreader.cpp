#include "statsreader.h"

#include <QHash>

#include <algorithm>

namespace sluice::stats {

namespace {

Result<void> checkSpan(int seconds)
{
    if (seconds < 1 || seconds > maxSeriesSeconds) {
        return Error::make(Error::Kind::Invalid,
                           QStringLiteral("statistics span of %1 s: expected 1 to %2 seconds")
                               .arg(seconds)
                               .arg(maxSeriesSeconds));
    }
    return {};
}

// A RESP integer sent as a bulk string ("12"), or nil (0).
qint64 number(const Reply &r)
{
    if (r.type == Reply::Type::Integer) {
        return r.integer;
    }
    return r.isNil() ? 0 : r.str.toLongLong();
}

Error badReply(const QByteArray &key)
{
    return Error::make(Error::Kind::Protocol,
                       QStringLiteral("unexpected reply reading the statistics key %1")
                           .arg(QString::fromUtf8(key)));
}

} // namespace

Result<QList<RuleSeries>> readSeries(Connection &c, const QStringList &ruleIds, int seconds,
                                     qint64 nowSecond, const QByteArray &ns)
{
    if (auto ok = checkSpan(seconds); !ok) {
        return ok.error();
    }
    const qint64 first = nowSecond - seconds + 1;
    QList<QList<QByteArray>> commands;
    commands.reserve(ruleIds.size() * seconds);
    for (const QString &id : ruleIds) {
        for (qint64 s = first; s <= nowSecond; ++s) {
            commands.append({QByteArrayLiteral("HMGET"), countsKey(ns, id, s),
                             QByteArrayLiteral("a"), QByteArrayLiteral("d"),
                             QByteArrayLiteral("s")});
        }
    }
    QList<RuleSeries> out;
    if (commands.isEmpty()) {
        return out;
    }
    auto replies = c.pipeline(commands);
    if (!replies) {
        return replies.error();
    }
    qsizetype i = 0;
    for (const QString &id : ruleIds) {
        RuleSeries series{id, first, {}};
        series.seconds.reserve(seconds);
        for (qint64 s = first; s <= nowSecond; ++s, ++i) {
            const Result<Reply> &r = (*replies)[size_t(i)];
            if (!r) {
                return r.error();
            }
            if (!r->isArray() || r->elements.size() != 3) {
                return badReply(commands[i][1]);
            }
            series.seconds.append(
                Counts{number(r->elements[0]), number(r->elements[1]), number(r->elements[2])});
        }
        out.append(std::move(series));
    }
    return out;
}

Result<QList<TopSubject>> readTopSubjects(Connection &c, const QString &ruleId, int seconds,
                                          qint64 nowSecond, int n, const QByteArray &ns)
{
    if (auto ok = checkSpan(seconds); !ok) {
        return ok.error();
    }
    const qint64 first = nowSecond - seconds + 1;
    QList<QList<QByteArray>> commands;
    commands.reserve(2 * seconds);
    for (qint64 s = first; s <= nowSecond; ++s) {
        commands.append({QByteArrayLiteral("ZRANGE"), topKey(ns, ruleId, s), QByteArrayLiteral("0"),
                         QByteArrayLiteral("-1"), QByteArrayLiteral("WITHSCORES")});
        commands.append({QByteArrayLiteral("HGETALL"), topDeniedKey(ns, ruleId, s)});
    }
    auto replies = c.pipeline(commands);
    if (!replies) {
        return replies.error();
    }
    QHash<QByteArray, TopSubject> sum;
    for (qsizetype i = 0; i + 1 < commands.size(); i += 2) {
        const Result<Reply> &z = (*replies)[size_t(i)];
        const Result<Reply> &d = (*replies)[size_t(i + 1)];
        if (!z) {
            return z.error();
        }
        if (!d) {
            return d.error();
        }
        if (!z->isArray() || z->elements.size() % 2 != 0) {
            return badReply(commands[i][1]);
        }
        if (!d->isArray() || d->elements.size() % 2 != 0) {
            return badReply(commands[i + 1][1]);
        }
        QHash<QByteArray, qint64> denied;
        for (size_t j = 0; j + 1 < d->elements.size(); j += 2) {
            denied.insert(d->elements[j].str, number(d->elements[j + 1]));
        }
        for (size_t j = 0; j + 1 < z->elements.size(); j += 2) {
            const QByteArray &subject = z->elements[j].str;
            TopSubject &t = sum[subject];
            t.subject = subject;
            // Scores are integers written by ZINCRBY; Redis sends them as text ("12").
            t.requests += qint64(z->elements[j + 1].str.toDouble());
            t.denied += denied.value(subject);
        }
    }
    QList<TopSubject> out = sum.values();
    std::sort(out.begin(), out.end(), [](const TopSubject &x, const TopSubject &y) {
        return x.requests != y.requests ? x.requests > y.requests : x.subject < y.subject;
    });
    if (n >= 0 && out.size() > n) {
        out.resize(n);
    }
    return out;
}

} // namespace sluice::stats
