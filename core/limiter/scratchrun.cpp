#include "scratchrun.h"

#include "core/redis/keyspace.h"
#include "core/redis/lazyconnection.h"

#include <QRandomGenerator>

using namespace Qt::StringLiterals;

namespace sluice {

QByteArray scratchPrefix(QByteArrayView kind)
{
    return "sluice:" + kind.toByteArray() + ':' +
           QByteArray::number(QRandomGenerator::system()->generate64(), 16)
               .rightJustified(16, '0') +
           ':';
}

QString removeScratch(Connection &connection, const QByteArray &prefix, qint64 ttlMs)
{
    Result<qint64> deleted = Error::make(Error::Kind::Io, u"the connection is lost"_s);
    if (reconnectIfBroken(connection)) {
        deleted = redis::deleteByPrefix(connection, prefix);
    }
    if (deleted) {
        return {};
    }
    return u"could not remove the run's keys %1* (%2); they expire within %3 s"_s
        .arg(QString::fromUtf8(prefix), deleted.error().message)
        .arg(ttlMs / 1000);
}

} // namespace sluice
