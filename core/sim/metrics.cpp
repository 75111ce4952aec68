#include "metrics.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>

namespace sluice::sim {

void WindowCounter::add(qint64 tUs)
{
    const size_t mask = m_ring.size() - 1;
    // Events at or before t - W are outside (t - W, t].
    while (m_size > 0 && m_ring[m_head] <= tUs - m_windowUs) {
        m_head = (m_head + 1) & mask;
        --m_size;
    }
    if (m_size == m_ring.size()) {
        std::vector<qint64> bigger(m_ring.size() * 2);
        for (size_t i = 0; i < m_size; ++i) {
            bigger[i] = m_ring[(m_head + i) & mask];
        }
        m_ring = std::move(bigger);
        m_head = 0;
    }
    m_ring[(m_head + m_size) & (m_ring.size() - 1)] = tUs;
    ++m_size;
    if (qint64(m_size) > m_max) {
        m_max = qint64(m_size);
        m_maxStartUs = m_ring[m_head];
    }
}

namespace report {

namespace {

QByteArray jsonString(const QString &s)
{
    // QJsonDocument escapes; keep what is between the brackets of ["..."].
    const QByteArray a = QJsonDocument(QJsonArray{s}).toJson(QJsonDocument::Compact);
    return a.mid(1, a.size() - 2);
}

QByteArray number(double v)
{
    // Milliseconds to the microsecond: at most 3 decimals, no exponent, no trailing zeros.
    QByteArray s = QByteArray::number(std::round(v * 1000) / 1000, 'f', 3);
    while (s.endsWith('0')) {
        s.chop(1);
    }
    if (s.endsWith('.')) {
        s.chop(1);
    }
    return s;
}

} // namespace

QByteArray json(const SimResult &r)
{
    QByteArray out = "{\"scenario\":" + jsonString(r.scenario) +
                     ",\"backend\":" + jsonString(r.backend) + ",\"results\":[";
    for (size_t i = 0; i < r.rules.size(); ++i) {
        const RuleResult &x = r.rules[i];
        if (i > 0) {
            out += ',';
        }
        out += "{\"rule\":" + jsonString(x.rule) +
               ",\"algorithm\":" + jsonString(algorithm::name(x.algorithm)) +
               ",\"offered\":" + QByteArray::number(x.offered) +
               ",\"admitted\":" + QByteArray::number(x.admitted) +
               ",\"rejected\":" + QByteArray::number(x.rejected) +
               ",\"max_admitted_in_window\":" + QByteArray::number(x.maxAdmittedInWindow) +
               ",\"max_released_in_window\":" + QByteArray::number(x.maxReleasedInWindow) +
               ",\"peak_admitted_per_bin\":" + QByteArray::number(x.peakAdmittedPerBin) +
               ",\"mean_delay_ms\":" + number(x.meanDelayMs) +
               ",\"max_delay_ms\":" + QByteArray::number(x.maxDelayMs);
        if (const auto &a = x.adopted) {
            out += ",\"adopted\":{\"rule\":" + jsonString(a->rule) +
                   ",\"layout\":" + jsonString(a->layout) + ",\"script\":" + jsonString(a->script) +
                   ",\"limit\":" + QByteArray::number(a->limit) +
                   ",\"window_ms\":" + QByteArray::number(a->windowUs / 1000) +
                   ",\"lost_ttl_at_ms\":" +
                   (a->lostTtlAtUs < 0 ? QByteArray("null")
                                       : QByteArray::number(a->lostTtlAtUs / 1000)) +
                   '}';
        }
        out += '}';
    }
    return out + "]}";
}

QByteArray csv(const SimResult &r)
{
    QByteArray out = "t_ms,rule,offered,admitted,rejected,released\n";
    const qint64 bins = r.bins();
    out.reserve(out.size() + bins * qint64(r.rules.size()) * 32);
    QList<QByteArray> ids;
    for (const RuleResult &x : r.rules) {
        ids.append(x.rule.toUtf8());
    }
    for (qint64 b = 0; b < bins; ++b) {
        const QByteArray t = QByteArray::number(b * r.binUs / 1000);
        for (size_t i = 0; i < r.rules.size(); ++i) {
            const SeriesBin &s = r.series[i][size_t(b)];
            out += t + ',' + ids[qsizetype(i)] + ',' + QByteArray::number(s.offered) + ',' +
                   QByteArray::number(s.admitted) + ',' + QByteArray::number(s.rejected) + ',' +
                   QByteArray::number(s.released) + '\n';
        }
    }
    return out;
}

} // namespace report
} // namespace sluice::sim
