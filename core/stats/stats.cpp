#include "stats.h"

namespace sluice::stats {

QByteArray countsKey(const QByteArray &ns, const QString &ruleId, qint64 second)
{
    return ns + "stats:" + ruleId.toUtf8() + ':' + QByteArray::number(second);
}

QByteArray topKey(const QByteArray &ns, const QString &ruleId, qint64 second)
{
    return countsKey(ns, ruleId, second) + ":top";
}

QByteArray topDeniedKey(const QByteArray &ns, const QString &ruleId, qint64 second)
{
    return countsKey(ns, ruleId, second) + ":topd";
}

} // namespace sluice::stats
