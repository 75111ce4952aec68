#pragma once

#include <QMetaType>
#include <QtGlobal>

namespace sluice {

// The six integers every script replies (ALGORITHMS.md "Common contract").
struct Decision
{
    bool allowed = false;
    qint64 limit = 0;
    qint64 remaining = 0;
    qint64 retryAfterMs = -1; // -1 when allowed, or when the request can never be admitted
    qint64 resetAfterMs = 0;
    qint64 delayMs = 0; // leaky bucket only: wait in the queue before release

    friend bool operator==(const Decision &, const Decision &) = default;
};

} // namespace sluice

Q_DECLARE_METATYPE(sluice::Decision)
