#include "statedecoder.h"

#include "core/common/duration.h"
#include "core/limiter/model.h"

#include <algorithm>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

constexpr qint64 maxExact = duration::maxExact;

// A whole number 0 <= v < 2^53 written in plain digits, as the scripts write every number.
std::optional<qint64> wholeNumber(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 16) {
        return std::nullopt;
    }
    qint64 v = 0;
    for (char ch : text) {
        if (ch < '0' || ch > '9') {
            return std::nullopt;
        }
        v = v * 10 + (ch - '0');
    }
    if (v >= maxExact) {
        return std::nullopt;
    }
    return v;
}

// A sorted-set score as Redis prints it (%.17g): whole, 0 <= v < 2^53.
std::optional<qint64> wholeScore(const QByteArray &text)
{
    if (auto v = wholeNumber(text)) {
        return v;
    }
    bool ok = false;
    const double d = text.toDouble(&ok);
    if (!ok || !std::isfinite(d) || d < 0 || d >= double(maxExact) || d != std::floor(d)) {
        return std::nullopt;
    }
    return qint64(d);
}

QString shown(const QByteArray &text)
{
    // Only for messages: printable ASCII as is, the rest as '?', at most 24 characters.
    QString out;
    for (qsizetype i = 0; i < std::min<qsizetype>(text.size(), 24); ++i) {
        const char ch = text[i];
        out += (ch >= 0x20 && ch < 0x7f) ? QChar::fromLatin1(ch) : u'?';
    }
    if (text.size() > 24) {
        out += u"..."_s;
    }
    return out;
}

KeyState unreadable(const RawRead &raw, QString problem, qint64 valueBytes = 0)
{
    KeyState s;
    s.kind = KeyState::Kind::Unreadable;
    s.atUs = raw.nowUs;
    s.problem = std::move(problem);
    s.valueBytes = valueBytes;
    return s;
}

// Reads field i of a hash layout: a whole number, or the reason it is not one.
struct Field
{
    std::optional<qint64> value; // nullopt with an empty error: absent
    QString error;
};

Field hashField(const RawRead &raw, qsizetype i, const QList<QByteArray> &names)
{
    Field f;
    if (i < raw.fieldLength.size() && raw.fieldLength[i] > 0) {
        f.error = u"field %1 holds %2, not a number"_s.arg(QString::fromLatin1(names[i]),
                                                           formatBytes(raw.fieldLength[i]));
        return f;
    }
    if (i >= raw.fields.size() || !raw.fields[i]) {
        return f;
    }
    f.value = wholeNumber(*raw.fields[i]);
    if (!f.value) {
        f.error = u"field %1 is '%2', not a whole number below 2^53"_s.arg(
            QString::fromLatin1(names[i]), shown(*raw.fields[i]));
    }
    return f;
}

KeyState fromDecision(const RawRead &raw, KeyState::Kind kind, const Decision &d)
{
    KeyState s;
    s.kind = kind;
    s.atUs = raw.nowUs;
    s.limit = d.limit;
    s.remaining = d.remaining;
    s.resetMs = d.resetAfterMs;
    s.delayMs = d.delayMs;
    return s;
}

KeyState decodeHash(const Rule &rule, const Policy &policy, const RawRead &raw)
{
    const QList<QByteArray> &names = hashFields(rule.algorithm);
    QList<Field> f;
    for (qsizetype i = 0; i < names.size(); ++i) {
        f << hashField(raw, i, names);
        if (!f.last().error.isEmpty()) {
            return unreadable(raw, f.last().error, raw.hlen);
        }
    }
    const qint64 now = raw.nowUs;
    const qint64 w = rule.windowUs;
    switch (rule.algorithm) {
    case Algorithm::FixedWindow: {
        if (!f[0].value) {
            return unreadable(raw, u"a hash without field s (the window start)"_s, raw.hlen);
        }
        const qint64 start = *f[0].value;
        const qint64 c = f[1].value.value_or(0); // the script reads a missing c as 0
        model::State st = model::FixedWindowState{start, c};
        KeyState s = fromDecision(raw, KeyState::Kind::FixedWindow,
                                  model::apply(policy, st, 0, now).decision);
        s.count = now - start < w ? c : 0;
        s.startUs = start;
        return s;
    }
    case Algorithm::SlidingCounter: {
        if (!f[0].value) {
            return unreadable(raw, u"a hash without field s (the window start)"_s, raw.hlen);
        }
        qint64 start = *f[0].value;
        qint64 c = f[1].value.value_or(0);
        qint64 p = f[2].value.value_or(0);
        // The model multiplies counts by W: keep the products below 2^63.
        if (c > maxExact / w || p > maxExact / w) {
            return unreadable(
                raw,
                u"counts c=%1 p=%2 are too large for a window of %3"_s.arg(c).arg(p).arg(
                    duration::formatUs(w)),
                raw.hlen);
        }
        model::State st = model::SlidingCounterState{start, c, p};
        KeyState s = fromDecision(raw, KeyState::Kind::SlidingCounter,
                                  model::apply(policy, st, 0, now).decision);
        // The same roll as the script, for the two counts shown.
        const qint64 d = now - start;
        if (d >= w) {
            if (d < 2 * w) {
                p = c;
                c = 0;
                start += w;
            } else {
                c = 0;
                p = 0;
            }
        }
        const qint64 e = (c == 0 && p == 0) ? 0 : std::max(now - start, qint64(0));
        s.count = c;
        s.previous = p;
        s.startUs = start;
        s.level = double(p) * double(std::max(w - e, qint64(0))) / double(w) + double(c);
        return s;
    }
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket: {
        if (!f[0].value || !f[1].value) {
            return unreadable(raw, u"a hash without fields l and t (level and last update)"_s,
                              raw.hlen);
        }
        const qint64 l = *f[0].value;
        const qint64 t = *f[1].value;
        model::State st = model::BucketState{l, t};
        const bool token = rule.algorithm == Algorithm::TokenBucket;
        KeyState s =
            fromDecision(raw, token ? KeyState::Kind::TokenBucket : KeyState::Kind::LeakyBucket,
                         model::apply(policy, st, 0, now).decision);
        // The level now, as the script refills or drains it (lua/README.md).
        const model::ReducedRate r = model::reduce(rule.rate);
        const qint64 cap = rule.burst * r.p;
        const qint64 dt = std::max(now, t) - t;
        qint64 level = l;
        if (token) {
            level = dt >= model::ceilDiv(cap - l, r.c) ? cap : l + dt * r.c;
        } else {
            level = dt >= model::ceilDiv(l, r.c) ? 0 : l - dt * r.c;
        }
        s.level = double(level) / double(r.p);
        s.startUs = t;
        return s;
    }
    default:
        return unreadable(raw, u"no hash layout for %1"_s.arg(algorithm::name(rule.algorithm)));
    }
}

KeyState decodeLog(const Rule &rule, const RawRead &raw)
{
    const qint64 now = raw.nowUs;
    const qint64 w = rule.windowUs;
    // Counts a server could not send (found by fuzz_statedecoder: limit - count overflowed).
    if (raw.zcard < 0 || raw.zInWindow < 0 || raw.zInWindow > raw.zcard) {
        return unreadable(
            raw, u"sorted-set counts %1 in window of %2 are not possible"_s.arg(raw.zInWindow)
                     .arg(raw.zcard));
    }
    KeyState s;
    s.kind = KeyState::Kind::SlidingLog;
    s.atUs = now;
    s.limit = rule.limit;
    s.entries = raw.zcard;
    s.count = raw.zInWindow;
    s.remaining = std::max(rule.limit - s.count, qint64(0));
    s.resetMs = 0;
    if (s.count > 0) {
        const qint64 oldest = raw.oldestScore ? wholeScore(*raw.oldestScore).value_or(-1) : -1;
        const qint64 newest = raw.newestScore ? wholeScore(*raw.newestScore).value_or(-1) : -1;
        if (oldest < 0 || newest < 0) {
            return unreadable(raw, u"scores are not whole microseconds below 2^53"_s, raw.zcard);
        }
        s.resetMs = model::usToMsCeil(w - (now - newest));
        s.nextFreeMs = model::usToMsCeil(w - (now - oldest));
        s.startUs = oldest;
    }
    return s;
}

KeyState decodeGcra(const Policy &policy, const RawRead &raw)
{
    const QString layout = u"a GCRA state is \"<tat_us>\" or \"<tat_us>+<rem>/<c>\""_s;
    if (raw.strlen > raw.head.size()) {
        return unreadable(raw,
                          u"a string of %1, too long to be a GCRA state (%2)"_s.arg(
                              formatBytes(raw.strlen), layout),
                          raw.strlen);
    }
    // "@<rule version>" (lua/gcra.lua): the rule it was written under, not part of the TAT.
    const qsizetype at = raw.head.indexOf('@');
    const QByteArray text = at >= 0 ? raw.head.left(at) : raw.head;
    model::GcraState g;
    const qsizetype plus = text.indexOf('+');
    const qsizetype slash = text.indexOf('/');
    std::optional<qint64> tat, rem, den;
    if (plus < 0 && slash < 0) {
        tat = wholeNumber(text);
        rem = 0;
        den = 1;
    } else if (plus > 0 && slash > plus) {
        tat = wholeNumber(text.left(plus));
        rem = wholeNumber(text.mid(plus + 1, slash - plus - 1));
        den = wholeNumber(text.mid(slash + 1));
    }
    if (!tat || !rem || !den || *den < 1 || *rem >= *den) {
        return unreadable(raw, u"'%1' is not a GCRA state (%2)"_s.arg(shown(text), layout),
                          raw.strlen);
    }
    g.tatUs = *tat;
    g.remainder = *rem;
    g.denominator = *den;
    model::State st = g;
    KeyState s =
        fromDecision(raw, KeyState::Kind::Gcra, model::apply(policy, st, 0, raw.nowUs).decision);
    s.startUs = *tat;
    return s;
}

} // namespace

QByteArray expectedType(Algorithm a)
{
    switch (a) {
    case Algorithm::SlidingLog:
        return QByteArrayLiteral("zset");
    case Algorithm::Gcra:
        return QByteArrayLiteral("string");
    default:
        return QByteArrayLiteral("hash");
    }
}

const QList<QByteArray> &hashFields(Algorithm a)
{
    static const QList<QByteArray> window{QByteArrayLiteral("s"), QByteArrayLiteral("c")};
    static const QList<QByteArray> counter{QByteArrayLiteral("s"), QByteArrayLiteral("c"),
                                           QByteArrayLiteral("p")};
    static const QList<QByteArray> bucket{QByteArrayLiteral("l"), QByteArrayLiteral("t")};
    static const QList<QByteArray> none;
    switch (a) {
    case Algorithm::FixedWindow:
        return window;
    case Algorithm::SlidingCounter:
        return counter;
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket:
        return bucket;
    default:
        return none;
    }
}

QString formatBytes(qint64 bytes)
{
    if (bytes < 1024) {
        return QString::number(bytes) + u" B"_s;
    }
    const char *units[] = {"KB", "MB", "GB", "TB"};
    double v = double(bytes);
    int u = -1;
    while (v >= 1024.0 && u < 3) {
        v /= 1024.0;
        ++u;
    }
    return u"%1 %2"_s.arg(v < 10 ? QString::number(v, 'f', 1) : QString::number(qint64(v)),
                          QLatin1String(units[u]));
}

KeyState decode(const Rule &rule, const RawRead &raw)
{
    if (raw.type == "none" || raw.pttlMs == -2) {
        KeyState s;
        s.atUs = raw.nowUs;
        return s;
    }
    const Policy policy = rule.policy();
    if (auto valid = policy.validate(); !valid) {
        return unreadable(raw, u"rule '%1' is invalid: %2"_s.arg(rule.id, valid.error().message));
    }
    return decode(rule, policy, raw);
}

KeyState decode(const Rule &rule, const Policy &policy, const RawRead &raw)
{
    if (raw.type == "none" || raw.pttlMs == -2) {
        KeyState s;
        s.atUs = raw.nowUs;
        return s;
    }
    const QByteArray want = expectedType(rule.algorithm);
    if (raw.type == want && !raw.stateRead) {
        return unreadable(raw,
                          u"the state could not be read (the key changed while it was read)"_s);
    }
    if (raw.type != want) {
        const qint64 size = raw.type == "string" ? raw.strlen
                            : raw.type == "hash" ? raw.hlen
                            : raw.type == "zset" ? raw.zcard
                                                 : 0;
        return unreadable(raw,
                          u"a %1 where %2 keeps a %3"_s.arg(QString::fromLatin1(raw.type),
                                                            algorithm::name(rule.algorithm),
                                                            QString::fromLatin1(want)),
                          size);
    }
    switch (rule.algorithm) {
    case Algorithm::SlidingLog:
        return decodeLog(rule, raw);
    case Algorithm::Gcra:
        return decodeGcra(policy, raw);
    default:
        return decodeHash(rule, policy, raw);
    }
}

} // namespace sluice::keys
