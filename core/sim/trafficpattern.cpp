// Traffic patterns: seeded, reproducible request times in integer microseconds.
//
// Decisions:
//  - Deterministic patterns (constant, burst, ramp) place request k where the cumulative count
//    reaches k, rounded down to the microsecond: constant at from + floor(k * P / c) (exact, in
//    128-bit integers), burst at at + floor(k * spread / count), ramp by solving the quadratic
//    cumulative count in doubles. The first request of each is at its start.
//  - Poisson: exponential gaps of mean P / c, accumulated in a double and floored; a request
//    lands on or after `from` + its first gap (the process has no request at its start).
//  - Each request draws its subject from the pattern's own stream, after its time (Poisson) or
//    alone (the others), so patterns never disturb each other's draws.
#include "trafficpattern.h"

#include "core/common/names.h"

#include <QFile>

#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::sim {

namespace {

__extension__ using Int128 = __int128; // exact k * P, with k and P both up to 2^53

constexpr qint64 maxTraceBytes = qint64(1) << 30;

Error tooMany()
{
    return Error::make(Error::Kind::Invalid,
                       u"the traffic offers more than %1 requests; a simulation offers at most "
                       "that many (shorten the duration or lower the rates)"_s.arg(maxOffered));
}

// Per microsecond.
double perUs(const Rate &r)
{
    return double(r.count) / double(r.periodUs);
}

struct Picker
{
    quint32 pinned = 0;
    bool isPinned = false;
    qint64 generated = 1;
    quint32 pick(Rng &rng) const
    {
        return isPinned ? pinned : quint32(rng.below(quint64(generated)));
    }
};

} // namespace

quint32 Subjects::intern(const QByteArray &name)
{
    // "10.a.b.c" of a generated subject is that subject.
    if (name.startsWith("10.")) {
        const QList<QByteArray> parts = name.split('.');
        if (parts.size() == 4) {
            qint64 n = 0;
            bool ok = true;
            for (qsizetype i = 1; i < 4 && ok; ++i) {
                bool partOk = false;
                const int v = parts[i].toInt(&partOk);
                ok = partOk && v >= 0 && v <= 255 && QByteArray::number(v) == parts[i];
                n = n * 256 + v;
            }
            if (ok && n >= 1 && n <= m_generated) {
                return quint32(n - 1);
            }
        }
    }
    const auto it = m_index.constFind(name);
    if (it != m_index.constEnd()) {
        return *it;
    }
    const quint32 index = quint32(m_generated + m_named.size());
    m_named.append(name);
    m_index.insert(name, index);
    return index;
}

QByteArray Subjects::name(quint32 index) const
{
    if (qint64(index) < m_generated) {
        return generatedName(index);
    }
    return m_named.value(qsizetype(index - m_generated));
}

QByteArray Subjects::generatedName(qint64 index)
{
    const qint64 n = index + 1;
    return "10." + QByteArray::number((n >> 16) & 255) + '.' + QByteArray::number((n >> 8) & 255) +
           '.' + QByteArray::number(n & 255);
}

Rng::Rng(quint64 seed)
    : m_engine(seed)
{}

quint64 Rng::below(quint64 n)
{
    // Rejection of the top partial range: unbiased.
    const quint64 limit =
        std::numeric_limits<quint64>::max() - std::numeric_limits<quint64>::max() % n;
    quint64 x = next();
    while (x >= limit) {
        x = next();
    }
    return x % n;
}

using Kind = TrafficPattern::Kind;
constexpr Named<Kind> kindNameRows[] = {{Kind::Constant, u"constant"},
                                        {Kind::Burst, u"burst"},
                                        {Kind::Poisson, u"poisson"},
                                        {Kind::Ramp, u"ramp"},
                                        {Kind::Replay, u"replay"}};

QString TrafficPattern::kindName(Kind kind)
{
    return nameIn(kindNameRows, kind);
}

std::optional<TrafficPattern::Kind> TrafficPattern::kindFromName(const QString &name)
{
    return valueNamed(kindNameRows, name);
}

QStringList TrafficPattern::kindNames()
{
    return {u"constant"_s, u"burst"_s, u"poisson"_s, u"ramp"_s, u"replay"_s};
}

double TrafficPattern::expectedCount(qint64 durationUs) const
{
    const double span = double(std::max<qint64>(0, endUs(durationUs) - fromUs));
    switch (kind) {
    case Kind::Constant:
        return std::ceil(span * perUs(rate));
    case Kind::Burst:
        return double(count);
    case Kind::Poisson:
        return span * perUs(rate);
    case Kind::Ramp:
        return std::ceil(span * (perUs(fromRate) + perUs(toRate)) / 2);
    case Kind::Replay:
        return trace ? double(trace->timesUs.size()) : 0;
    }
    return 0;
}

Result<void> TrafficPattern::generate(qint64 durationUs, Rng &rng, Subjects &subjects,
                                      std::vector<Arrival> &out) const
{
    Picker picker;
    picker.generated = std::max<qint64>(1, subjects.generated());
    if (!subject.isEmpty()) {
        picker.pinned = subjects.intern(subject);
        picker.isPinned = true;
    }
    const qint64 from = fromUs;
    const qint64 to = endUs(durationUs);
    const auto room = [&] { return qint64(out.size()) < maxOffered; };
    switch (kind) {
    case Kind::Constant: {
        for (qint64 k = 0;; ++k) {
            const qint64 t = from + qint64(Int128(k) * rate.periodUs / rate.count);
            if (t >= to) {
                break;
            }
            if (!room()) {
                return tooMany();
            }
            out.push_back({t, picker.pick(rng)});
        }
        return {};
    }
    case Kind::Burst: {
        if (qint64(out.size()) + count > maxOffered) {
            return tooMany();
        }
        for (qint64 k = 0; k < count; ++k) {
            out.push_back({atUs + qint64(Int128(k) * spreadUs / count), picker.pick(rng)});
        }
        return {};
    }
    case Kind::Poisson: {
        const double meanGapUs = double(rate.periodUs) / double(rate.count);
        double t = double(from);
        for (;;) {
            // 1 - u is in (0, 1]: the log is finite.
            t += -std::log(1.0 - rng.uniform()) * meanGapUs;
            if (t >= double(to)) {
                break;
            }
            if (!room()) {
                return tooMany();
            }
            const qint64 at = std::min(to - 1, qint64(t));
            out.push_back({at, picker.pick(rng)});
        }
        return {};
    }
    case Kind::Ramp: {
        // Cumulative count at x us after `from`: b x + a x^2, with b = r0 and a = (r1 - r0) / 2T.
        // Request k at the root of a x^2 + b x = k, written 2k / (b + sqrt(b^2 + 4ak)) (stable
        // for a of either sign and a = 0).
        const double span = double(to - from);
        const double b = perUs(fromRate);
        const double a = (perUs(toRate) - b) / (2 * span);
        for (qint64 k = 0;; ++k) {
            const double disc = b * b + 4 * a * double(k);
            if (disc < 0) {
                break; // a falling ramp never reaches k
            }
            const double denom = b + std::sqrt(disc);
            const double x = k == 0 ? 0 : 2 * double(k) / denom;
            if (!(x < span)) {
                break;
            }
            if (!room()) {
                return tooMany();
            }
            out.push_back({std::min(to - 1, from + qint64(x)), picker.pick(rng)});
        }
        return {};
    }
    case Kind::Replay: {
        if (!trace) {
            return Error::make(Error::Kind::Internal, u"replay pattern without its file"_s);
        }
        std::vector<quint32> mapped(size_t(trace->names.size()));
        for (qsizetype i = 0; i < trace->names.size(); ++i) {
            mapped[size_t(i)] = subjects.intern(trace->names[i]);
        }
        for (size_t i = 0; i < trace->timesUs.size(); ++i) {
            const qint64 t = trace->timesUs[i];
            if (t < from || t >= to) {
                continue;
            }
            if (!room()) {
                return tooMany();
            }
            const qint32 s = trace->subjects[i];
            out.push_back({t, s >= 0 ? mapped[size_t(s)] : picker.pick(rng)});
        }
        return {};
    }
    }
    return {};
}

// ---------------------------------------------------------------------------------------------
// Replay files

namespace {

// "9900", "9900.5", "0.001" milliseconds -> microseconds, exactly (at most 3 decimals).
std::optional<qint64> parseMs(const QByteArray &text)
{
    const qsizetype dot = text.indexOf('.');
    const QByteArray whole = dot < 0 ? text : text.left(dot);
    const QByteArray frac = dot < 0 ? QByteArray() : text.mid(dot + 1);
    if (whole.isEmpty() || whole.size() > 12 || frac.size() > 3 || (dot >= 0 && frac.isEmpty())) {
        return std::nullopt;
    }
    for (char c : whole + frac) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
    }
    qint64 us = whole.toLongLong() * 1000;
    if (!frac.isEmpty()) {
        us += QByteArray(frac).append(QByteArray(3 - frac.size(), '0')).toLongLong();
    }
    return us;
}

std::optional<qint64> parseUsText(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 15) {
        return std::nullopt;
    }
    for (char c : text) {
        if (c < '0' || c > '9') {
            return std::nullopt;
        }
    }
    return text.toLongLong();
}

} // namespace

TraceLoad loadTrace(const QString &path, const QString &shownAs, const QString &fieldPath,
                    int maxErrors)
{
    TraceLoad out;
    int errorCount = 0;
    const auto error = [&](int line, const QString &message) {
        if (++errorCount <= maxErrors) {
            Diagnostic d;
            d.file = shownAs;
            d.line = line;
            d.path = fieldPath;
            d.message = message;
            out.errors.append(d);
        }
    };
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        error(0, u"cannot open the replay file: %1"_s.arg(f.errorString()));
        return out;
    }
    if (!f.isSequential() && f.size() > maxTraceBytes) {
        error(0,
              u"the replay file is %1 MB; replay files are limited to %2 MB"_s.arg(f.size() >> 20)
                  .arg(maxTraceBytes >> 20));
        return out;
    }
    bool micro = false;
    QHash<QByteArray, qint32> names;
    qint64 bytes = 0;
    for (int lineNo = 1; !f.atEnd(); ++lineNo) {
        QByteArray line = f.readLine(1 << 16);
        bytes += line.size();
        if (bytes > maxTraceBytes) {
            error(lineNo, u"the replay file is larger than %1 MB"_s.arg(maxTraceBytes >> 20));
            break;
        }
        if (!line.endsWith('\n') && !f.atEnd()) {
            error(lineNo, u"the line is longer than 64 KB; expected <time>,<subject>"_s);
            break;
        }
        line = line.trimmed();
        if (lineNo == 1 && line.startsWith("\xEF\xBB\xBF")) {
            line = line.mid(3).trimmed();
        }
        if (line.isEmpty() || line.startsWith('#')) {
            continue;
        }
        if (out.trace.timesUs.empty() && errorCount == 0 &&
            (line == "t_ms,subject" || line == "t_ms" || line == "t_us,subject" ||
             line == "t_us")) {
            micro = line.startsWith("t_us");
            continue;
        }
        const qsizetype comma = line.indexOf(',');
        const QByteArray timeText = (comma < 0 ? line : line.left(comma)).trimmed();
        const QByteArray subject = comma < 0 ? QByteArray() : line.mid(comma + 1).trimmed();
        const std::optional<qint64> t = micro ? parseUsText(timeText) : parseMs(timeText);
        if (!t) {
            // Never quoted: a replay file may hold anything, and errors get shared.
            error(lineNo,
                  u"not a request line; expected <time>,<subject> with the time in %1 "
                  "since the start of the scenario (e.g. %2,10.0.0.1)"_s.arg(
                      micro ? u"integer microseconds"_s : u"milliseconds (up to 3 decimals)"_s,
                      micro ? u"9900500"_s : u"9900.5"_s));
            continue;
        }
        if (comma >= 0 && subject.isEmpty()) {
            error(lineNo, u"the subject after the comma is empty; write <time>,<subject> or "
                          "only <time>"_s);
            continue;
        }
        if (subject.contains(',')) {
            error(lineNo, u"more than two columns; expected <time>,<subject>"_s);
            continue;
        }
        if (qint64(out.trace.timesUs.size()) >= maxOffered) {
            error(lineNo, u"the replay file holds more than %1 requests, the most a simulation "
                          "offers"_s.arg(maxOffered));
            break;
        }
        qint32 s = -1;
        if (!subject.isEmpty()) {
            auto it = names.constFind(subject);
            if (it == names.constEnd()) {
                if (names.size() >= maxSubjects) {
                    error(lineNo, u"more than %1 different subjects"_s.arg(maxSubjects));
                    break;
                }
                it = names.insert(subject, qint32(out.trace.names.size()));
                out.trace.names.append(subject);
            }
            s = *it;
        }
        out.trace.timesUs.push_back(*t);
        out.trace.subjects.push_back(s);
    }
    if (f.error() != QFileDevice::NoError) {
        error(0, u"cannot read the replay file: %1"_s.arg(f.errorString()));
    }
    if (errorCount > maxErrors) {
        Diagnostic d;
        d.file = shownAs;
        d.path = fieldPath;
        d.message = u"%1 more error(s) not shown"_s.arg(errorCount - maxErrors);
        out.errors.append(d);
    }
    if (out.errors.isEmpty() && out.trace.timesUs.empty()) {
        error(0, u"the replay file holds no request; expected lines <time>,<subject>"_s);
    }
    return out;
}

} // namespace sluice::sim
