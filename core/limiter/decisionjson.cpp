#include "decisionjson.h"

#include "core/common/bytes.h"

namespace sluice {

QJsonObject decisionJson(const Decision &d, const QByteArray &key)
{
    return QJsonObject{{QStringLiteral("allowed"), d.allowed},
                       {QStringLiteral("limit"), d.limit},
                       {QStringLiteral("remaining"), d.remaining},
                       {QStringLiteral("retry_after_ms"), d.retryAfterMs},
                       {QStringLiteral("reset_after_ms"), d.resetAfterMs},
                       {QStringLiteral("delay_ms"), d.delayMs},
                       {QStringLiteral("key"), bytes::printable(key)}};
}

} // namespace sluice
