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

namespace {

// The RateLimit header's t: seconds until the quota is whole again when allowed; when denied,
// at least the wait before a retry can pass (draft-10: Retry-After must not point earlier
// than t).
qint64 stateSeconds(const Decision &d)
{
    qint64 t = ceilSeconds(d.resetAfterMs);
    if (!d.allowed && d.retryAfterMs > 0) {
        t = std::max(t, ceilSeconds(d.retryAfterMs));
    }
    return t;
}

// Retry-After in whole seconds (rounded up, at least 1), or -1 when there is none: an
// admission, or a request that can never be admitted (retryAfterMs < 0).
qint64 retryAfterSeconds(const Decision &d)
{
    if (d.allowed || d.retryAfterMs < 0) {
        return -1;
    }
    return std::max<qint64>(1, ceilSeconds(d.retryAfterMs));
}

void writeState(bytes::ByteWriter &w, QByteArrayView id, const Decision &d)
{
    w.put('"').put(id).put("\";r=").number(std::max<qint64>(0, d.remaining));
    w.put(";t=").number(stateSeconds(d));
}

} // namespace

QByteArray stateHeaderValue(const Policy &p, const Decision &d)
{
    QByteArray out;
    bytes::ByteWriter w(out, 48);
    writeState(w, p.id.toUtf8(), d);
    w.finish();
    return out;
}

QByteArray retryAfterValue(const Decision &d)
{
    const qint64 s = retryAfterSeconds(d);
    return s < 0 ? QByteArray() : QByteArray::number(s);
}

void writeHeaderLines(bytes::ByteWriter &w, QByteArrayView id, const QByteArray &policyValue,
                      const Decision &d, bool legacy, bool retryAfter)
{
    w.put("RateLimit-Policy: ").put(policyValue).put("\r\nRateLimit: ");
    writeState(w, id, d);
    w.put("\r\n");
    if (const qint64 s = retryAfter ? retryAfterSeconds(d) : -1; s >= 0) {
        w.put("Retry-After: ").number(s).put("\r\n");
    }
    if (legacy) {
        w.put("RateLimit-Limit: ").number(d.limit).put("\r\n");
        w.put("RateLimit-Remaining: ").number(std::max<qint64>(0, d.remaining)).put("\r\n");
        w.put("RateLimit-Reset: ").number(ceilSeconds(d.resetAfterMs)).put("\r\n");
    }
}

HeaderList rateLimitHeaders(const Policy &p, const QByteArray &policyValue, const Decision &d,
                            bool legacy)
{
    // The lines the service writes, split: one definition of the headers for both.
    QByteArray lines;
    {
        bytes::ByteWriter w(lines, 160);
        writeHeaderLines(w, p.id.toUtf8(), policyValue, d, legacy);
    }
    HeaderList h;
    h.reserve(legacy ? 6 : 3);
    for (qsizetype from = 0; from < lines.size();) {
        const qsizetype end = lines.indexOf("\r\n", from);
        const qsizetype colon = lines.indexOf(": ", from);
        h.append({lines.mid(from, colon - from), lines.mid(colon + 2, end - colon - 2)});
        from = end + 2;
    }
    return h;
}

} // namespace sluice::headers
