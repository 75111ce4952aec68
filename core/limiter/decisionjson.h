#pragma once

#include "decision.h"

#include <QByteArray>
#include <QJsonObject>

namespace sluice {

// A decision as JSON, the one form `sluice-cli check --json` prints and the check service's
// body starts from (FORMATS.md): {"allowed", "limit", "remaining", "retry_after_ms",
// "reset_after_ms", "delay_ms", "key"}, the key printed by bytes::printable.
QJsonObject decisionJson(const Decision &d, const QByteArray &key);

} // namespace sluice
