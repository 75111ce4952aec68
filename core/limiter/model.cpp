#include "model.h"

#include "model_p.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

namespace sluice::model {

Outcome apply(const Policy &policy, State &state, qint64 cost, qint64 nowUs, qint64 minTtlMs)
{
    Outcome out;
    switch (policy.algorithm) {
    case Algorithm::FixedWindow:
        out = detail::fixedWindow(policy, state, cost, nowUs);
        break;
    case Algorithm::SlidingLog:
        out = detail::slidingLog(policy, state, cost, nowUs);
        break;
    case Algorithm::SlidingCounter:
        out = detail::slidingCounter(policy, state, cost, nowUs);
        break;
    case Algorithm::TokenBucket:
        out = detail::tokenBucket(policy, state, cost, nowUs);
        break;
    case Algorithm::LeakyBucket:
        out = detail::leakyBucket(policy, state, cost, nowUs);
        break;
    case Algorithm::Gcra:
        out = detail::gcra(policy, state, cost, nowUs);
        break;
    }
    if (out.wrote && !(out.keepsTtl && minTtlMs == 0)) {
        // TTL = reset_after_ms, at least 1 ms, raised to min_ttl_ms when given.
        out.ttlMs = std::max({out.decision.resetAfterMs, qint64(1), minTtlMs});
    }
    return out;
}

namespace {

constexpr double storedBound = 4611686018427387904.0; // 2^62: far beyond any accepted value

// Lua 5.1's luaO_str2d, which tonumber() and arithmetic on a string use in Redis: strtod, a
// hexadecimal retry, trailing blanks allowed; the C string ends at the first NUL.
std::optional<double> luaNumber(const QByteArray &text)
{
    const char *s = text.constData(); // NUL-terminated, like the Lua string's data
    char *end = nullptr;
    double v = std::strtod(s, &end);
    if (end == s) {
        return std::nullopt;
    }
    if (*end == 'x' || *end == 'X') {
        v = double(std::strtoul(s, &end, 16));
    }
    while (*end != '\0' && std::isspace(static_cast<unsigned char>(*end))) {
        ++end;
    }
    if (*end != '\0') {
        return std::nullopt;
    }
    return v;
}

std::optional<qint64> whole(double v)
{
    if (!(v > -storedBound && v < storedBound) || v != std::floor(v)) {
        return std::nullopt; // nan fails the first test
    }
    return qint64(v);
}

// Lua's string.match(raw, '^(%d+)%+(%d+)/(%d+)$'), each part through tonumber().
bool isDigits(const QByteArray &t)
{
    return !t.isEmpty() &&
           std::all_of(t.begin(), t.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
}

} // namespace

std::optional<qint64> storedNumber(const QByteArray &text)
{
    const std::optional<double> v = luaNumber(text);
    return v ? whole(*v) : std::nullopt;
}

State storedState(Algorithm algorithm, const QList<std::optional<QByteArray>> &values)
{
    const auto field = [&](qsizetype i) -> std::optional<QByteArray> {
        return i < values.size() ? values[i] : std::nullopt;
    };
    // A hash field: absent -> `missing`; present but not a whole number -> nullopt.
    const auto number = [&](qsizetype i, std::optional<qint64> missing) -> std::optional<qint64> {
        const std::optional<QByteArray> f = field(i);
        return f ? storedNumber(*f) : missing;
    };
    switch (algorithm) {
    case Algorithm::FixedWindow: {
        if (!field(0)) {
            return {};
        }
        const auto st = number(0, std::nullopt);
        const auto c = number(1, 0);
        if (st && c) {
            return FixedWindowState{*st, *c};
        }
        return {};
    }
    case Algorithm::SlidingCounter: {
        if (!field(0)) {
            return {};
        }
        const auto st = number(0, std::nullopt);
        const auto c = number(1, 0);
        const auto p = number(2, 0);
        if (st && c && p) {
            return SlidingCounterState{*st, *c, *p};
        }
        return {};
    }
    case Algorithm::TokenBucket:
    case Algorithm::LeakyBucket: {
        const auto l = number(0, std::nullopt);
        const auto t = number(1, std::nullopt);
        if (l && t) {
            return BucketState{*l, *t};
        }
        return {};
    }
    case Algorithm::Gcra: {
        std::optional<QByteArray> raw = field(0);
        if (!raw) {
            return {};
        }
        if (const qsizetype at = raw->indexOf('@'); at >= 0) {
            raw = raw->left(at); // "@<rule version>": the script splits it off first
        }
        if (const std::optional<double> v = luaNumber(*raw)) {
            if (const auto tat = whole(*v)) {
                return GcraState{*tat, 0, 1};
            }
            return {};
        }
        const qsizetype plus = raw->indexOf('+');
        const qsizetype slash = raw->indexOf('/', plus + 1);
        if (plus < 0 || slash < 0) {
            return {};
        }
        const QByteArray a = raw->left(plus);
        const QByteArray b = raw->mid(plus + 1, slash - plus - 1);
        const QByteArray d = raw->mid(slash + 1);
        if (!isDigits(a) || !isDigits(b) || !isDigits(d)) {
            return {};
        }
        const auto tat = storedNumber(a);
        const auto rem = storedNumber(b);
        const auto den = storedNumber(d);
        if (tat && rem && den) {
            return GcraState{*tat, *rem, *den};
        }
        return {};
    }
    case Algorithm::SlidingLog: {
        SlidingLogState log;
        for (const std::optional<QByteArray> &score : values) {
            if (!score) {
                continue;
            }
            const double v = std::strtod(score->constData(), nullptr);
            if (std::isnan(v) || v >= storedBound) {
                return {}; // the newest entry is far ahead: the script sees no log
            }
            // Far in the past (-inf included): out of every window, trimmed on admission.
            log.entries.push_back(v <= -storedBound ? qint64(-storedBound) : qint64(v));
        }
        return log;
    }
    }
    return {};
}

} // namespace sluice::model
