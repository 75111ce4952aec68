#pragma once

#include "decision.h"
#include "policy.h"

#include "core/common/bytewriter.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QPair>

namespace sluice::headers {

using HeaderList = QList<QPair<QByteArray, QByteArray>>;

// HTTP rate-limit headers of one decision (draft-ietf-httpapi-ratelimit-headers-10, and the
// older RateLimit-Limit/Remaining/Reset that most clients still read; ALGORITHMS.md "HTTP
// mapping"). The one owner of that contract: the service answers with these, and the Rules
// page's preview shows these. Times become whole seconds here and only here, always rounded up
// (ANCHORS.md 5): a client that waits what it was told never comes back too early.

// ceil(ms / 1000) for ms > 0; 0 for 0 and below.
qint64 ceilSeconds(qint64 ms);

// The span the quota `q` of a policy refers to, in whole seconds (rounded up, at least 1):
// the window for window algorithms; for the buckets and GCRA the time the rate takes to refill
// the whole capacity (capacity x period / count).
qint64 policyWindowSeconds(const Policy &p);

// "<id>";q=<capacity>;w=<window s>  (RateLimit-Policy)
QByteArray policyHeaderValue(const Policy &p);
// "<id>";r=<remaining>;t=<reset s>  (RateLimit)
QByteArray stateHeaderValue(const Policy &p, const Decision &d);
// Retry-After of a denial: whole seconds, rounded up, at least 1; empty when the decision is
// an admission or the request can never be admitted (retryAfterMs < 0).
QByteArray retryAfterValue(const Decision &d);

// The headers of one decision: RateLimit-Policy and RateLimit always; Retry-After (whole
// seconds, rounded up, at least 1) when denied and a retry can succeed; RateLimit-Limit,
// -Remaining and -Reset too with `legacy`.
HeaderList rateLimitHeaders(const Policy &p, const QByteArray &policyValue, const Decision &d,
                            bool legacy);

// The same headers as HTTP lines ("Name: value\r\n"), written by `w`: what the service
// writes on every answer, without a list or a temporary per value. `id` is the rule's id in
// UTF-8 (the policy's, as rateLimitHeaders writes it); without `retryAfter` no Retry-After (a
// shadow rule lets the request through).
void writeHeaderLines(bytes::ByteWriter &w, QByteArrayView id, const QByteArray &policyValue,
                      const Decision &d, bool legacy, bool retryAfter = true);

} // namespace sluice::headers
