#include "headers.h"

#include <algorithm>

namespace sluice::headers {

qint64 ceilSeconds(qint64 ms)
{
    return ms <= 0 ? 0 : (ms + 999) / 1000;
}

qint64 policyWindowSeconds(const Policy &p)
{
    constexpr qint64 usPerS = 1'000'000;
    qint64 us = 0;
    if (algorithm::isWindow(p.algorithm)) {
        us = p.windowUs;
    } else if (p.rate.count > 0) {
        // capacity x period / count, rounded up; in long double: capacity x period can pass
        // 2^63 for extreme (valid) rules, and the header needs whole seconds only.
        const long double refill =
            (long double)p.capacity() * (long double)p.rate.periodUs / (long double)p.rate.count;
        const long double s = refill / usPerS;
        if (s >= 9.0e15L) {
            return qint64(9'000'000'000'000'000);
        }
        qint64 whole = qint64(s);
        if ((long double)whole < s) {
            ++whole;
        }
        return std::max<qint64>(1, whole);
    }
    return std::max<qint64>(1, (us + usPerS - 1) / usPerS);
}

QByteArray policyHeaderValue(const Policy &p)
{
    // Rule ids are [A-Za-z0-9._-]: a structured-field string needs no escaping.
    return '"' + p.id.toLatin1() + "\";q=" + QByteArray::number(p.capacity()) +
           ";w=" + QByteArray::number(policyWindowSeconds(p));
}

QByteArray stateHeaderValue(const Policy &p, const Decision &d)
{
    // t: seconds until the quota is whole again when allowed; when denied, at least the wait
    // before a retry can pass (draft-10: Retry-After must not point earlier than t).
    qint64 t = ceilSeconds(d.resetAfterMs);
    if (!d.allowed && d.retryAfterMs > 0) {
        t = std::max(t, ceilSeconds(d.retryAfterMs));
    }
    QByteArray out;
    out.reserve(p.id.size() + 48);
    out.append('"').append(p.id.toLatin1()).append("\";r=");
    out.append(QByteArray::number(std::max<qint64>(0, d.remaining))).append(";t=");
    return out.append(QByteArray::number(t));
}

QByteArray retryAfterValue(const Decision &d)
{
    if (d.allowed || d.retryAfterMs < 0) {
        return {};
    }
    return QByteArray::number(std::max<qint64>(1, ceilSeconds(d.retryAfterMs)));
}

HeaderList rateLimitHeaders(const Policy &p, const QByteArray &policyValue, const Decision &d,
                            bool legacy)
{
    HeaderList h;
    h.reserve(legacy ? 6 : 3);
    h.append({QByteArrayLiteral("RateLimit-Policy"), policyValue});
    h.append({QByteArrayLiteral("RateLimit"), stateHeaderValue(p, d)});
    if (QByteArray retry = retryAfterValue(d); !retry.isEmpty()) {
        h.append({QByteArrayLiteral("Retry-After"), std::move(retry)});
    }
    if (legacy) {
        h.append({QByteArrayLiteral("RateLimit-Limit"), QByteArray::number(d.limit)});
        h.append({QByteArrayLiteral("RateLimit-Remaining"),
                  QByteArray::number(std::max<qint64>(0, d.remaining))});
        h.append({QByteArrayLiteral("RateLimit-Reset"),
                  QByteArray::number(ceilSeconds(d.resetAfterMs))});
    }
    return h;
}

} // namespace sluice::headers
