#include "keyinfo.h"

#include "layouts.h"

#include "core/common/plural.h"

#include <charconv>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::keys {

QString healthName(Health h)
{
    switch (h) {
    case Health::Ok:
        return u"ok"_s;
    case Health::NoTtl:
        return u"never_expires"_s;
    case Health::TtlExceedsRule:
        return u"ttl_too_long"_s;
    case Health::Orphan:
        return u"no_rule"_s;
    case Health::WrongType:
        return u"wrong_type"_s;
    case Health::Unreadable:
        return u"unreadable"_s;
    }
    return u"ok"_s;
}

const QList<Health> &allHealths()
{
    static const QList<Health> all = {Health::Ok,     Health::NoTtl,     Health::TtlExceedsRule,
                                      Health::Orphan, Health::WrongType, Health::Unreadable};
    return all;
}

std::optional<Health> healthFromName(const QString &name, bool *deprecated)
{
    if (deprecated != nullptr) {
        *deprecated = false;
    }
    for (Health h : allHealths()) {
        if (healthName(h) == name) {
            return h;
        }
    }
    // The ids of the release before, which scripts may still filter on.
    static const QList<std::pair<QString, Health>> old = {
        {u"no_ttl"_s, Health::NoTtl},
        {u"ttl_exceeds_rule"_s, Health::TtlExceedsRule},
        {u"ttl_exceeds_window"_s, Health::TtlExceedsRule},
        {u"orphan"_s, Health::Orphan},
        {u"unknown"_s, Health::WrongType},
    };
    for (const auto &[id, h] : old) {
        if (id == name) {
            if (deprecated != nullptr) {
                *deprecated = true;
            }
            return h;
        }
    }
    return std::nullopt;
}

QStringList healthNames()
{
    QStringList out;
    for (Health h : allHealths()) {
        out << healthName(h);
    }
    return out;
}

QString kindName(KeyState::Kind kind)
{
    switch (kind) {
    case KeyState::Kind::None:
        return u"none"_s;
    case KeyState::Kind::FixedWindow:
        return algorithm::name(Algorithm::FixedWindow);
    case KeyState::Kind::SlidingLog:
        return algorithm::name(Algorithm::SlidingLog);
    case KeyState::Kind::SlidingCounter:
        return algorithm::name(Algorithm::SlidingCounter);
    case KeyState::Kind::TokenBucket:
        return algorithm::name(Algorithm::TokenBucket);
    case KeyState::Kind::LeakyBucket:
        return algorithm::name(Algorithm::LeakyBucket);
    case KeyState::Kind::Gcra:
        return algorithm::name(Algorithm::Gcra);
    case KeyState::Kind::Unreadable:
        return u"unreadable"_s;
    }
    return u"none"_s;
}

KeyState::Kind kindOf(Algorithm a)
{
    switch (a) {
    case Algorithm::FixedWindow:
        return KeyState::Kind::FixedWindow;
    case Algorithm::SlidingLog:
        return KeyState::Kind::SlidingLog;
    case Algorithm::SlidingCounter:
        return KeyState::Kind::SlidingCounter;
    case Algorithm::TokenBucket:
        return KeyState::Kind::TokenBucket;
    case Algorithm::LeakyBucket:
        return KeyState::Kind::LeakyBucket;
    case Algorithm::Gcra:
        return KeyState::Kind::Gcra;
    }
    return KeyState::Kind::None;
}

int formatDurationMs(qint64 ms, char *out)
{
    int n = 0;
    auto put = [&](const char *text) {
        while (*text != 0) {
            out[n++] = *text++;
        }
    };
    auto number = [&](qint64 v) { n = int(std::to_chars(out + n, out + 32, v).ptr - out); };
    if (ms < 0) {
        put("never");
        return n;
    }
    if (ms < 1000) {
        number(ms);
        put(" ms");
        return n;
    }
    if (ms < 10'000) {
        // One decimal, rounded up: after "resets in 1.2 s" the reset has happened.
        const qint64 tenths = (ms + 99) / 100;
        number(tenths / 10);
        if (tenths % 10 != 0) {
            out[n++] = '.';
            number(tenths % 10);
        }
        put(" s");
        return n;
    }
    const qint64 s = (ms + 999) / 1000;
    if (s < 60) {
        number(s);
        put(" s");
        return n;
    }
    auto two = [&](qint64 big, const char *bigUnit, qint64 small, const char *smallUnit) {
        number(big);
        out[n++] = ' ';
        put(bigUnit);
        if (small != 0) {
            out[n++] = ' ';
            number(small);
            out[n++] = ' ';
            put(smallUnit);
        }
        return n;
    };
    if (s < 3600) {
        return two(s / 60, "min", s % 60, "s");
    }
    if (s < 86400) {
        return two(s / 3600, "h", s / 60 % 60, "min");
    }
    return two(s / 86400, "d", s / 3600 % 24, "h");
}

QString formatDurationMs(qint64 ms)
{
    char text[32];
    return QString::fromLatin1(text, formatDurationMs(ms, text));
}

QString formatAmount(double v)
{
    // Rounded down to a tenth: "14.2 tokens" never promises a token that is not there yet.
    const double tenths = std::floor(v * 10.0 + 1e-9);
    if (tenths >= 0 && tenths < 1e14) {
        // What QString::number writes below, from the whole number of tenths (exact there): a
        // state a key, a million keys.
        const qint64 k = qint64(tenths);
        QString text = QString::number(k / 10);
        if (k % 10 != 0) {
            text += u'.';
            text += QChar(char16_t(u'0' + k % 10));
        }
        return text;
    }
    if (std::fmod(tenths, 10.0) == 0.0) {
        return QString::number(tenths / 10.0, 'f', 0);
    }
    return QString::number(tenths / 10.0, 'f', 1);
}

QString KeyState::describe(bool withReset) const
{
    switch (kind) {
    case Kind::None:
        return {};
    case Kind::Unreadable:
        return problem;
    case Kind::FixedWindow:
        if (!withReset && (neverResets || resetMs > 0)) {
            return u"%1 / %2 in this window%3"_s.arg(count).arg(limit).arg(
                count >= limit ? u" (full)"_s : QString());
        }
        if (ttlComesBack) {
            return u"%1 / %2 in this window, no TTL (the next request sets one)"_s.arg(count).arg(
                limit);
        }
        if (neverResets) {
            return u"%1 / %2 in this window%3, never resets (no TTL)"_s.arg(count).arg(limit).arg(
                count >= limit ? u" (full: denied until it is fixed)"_s : QString());
        }
        if (resetMs <= 0) {
            return u"0 / %1: the window is over"_s.arg(limit);
        }
        return u"%1 / %2 in this window%3, resets in %4"_s.arg(count)
            .arg(limit)
            .arg(count >= limit ? u" (full)"_s : QString())
            .arg(formatDurationMs(resetMs));
    case Kind::SlidingLog: {
        QString text = count == 0 ? u"0 / %1 in the window"_s.arg(limit)
                                  : u"%1 / %2 in the window%3, next frees in %4"_s.arg(count)
                                        .arg(limit)
                                        .arg(count >= limit ? u" (full)"_s : QString())
                                        .arg(formatDurationMs(nextFreeMs));
        if (entries > count) {
            text += u", "_s + counted(entries - count, u"old entry", u"old entries") +
                    u" not trimmed yet"_s;
        }
        return text;
    }
    case Kind::SlidingCounter:
        if (count == 0 && previous == 0) {
            return u"0 / %1: both windows are over"_s.arg(limit);
        }
        return u"~%1 / %2 (this window %3, previous %4), resets in %5"_s.arg(formatAmount(level))
            .arg(limit)
            .arg(count)
            .arg(previous)
            .arg(formatDurationMs(resetMs));
    case Kind::TokenBucket:
        if (resetMs <= 0) {
            return u"full: "_s + counted(limit, u"token", u"tokens");
        }
        return u"%1 of %2, full in %3"_s
            .arg(counted(formatAmount(level) == u"1"_s ? 1 : 2, u"token", u"tokens",
                         formatAmount(level)))
            .arg(limit)
            .arg(formatDurationMs(resetMs));
    case Kind::LeakyBucket:
        if (resetMs <= 0) {
            return u"queue empty (room for %1)"_s.arg(limit);
        }
        return u"queue %1 of %2, wait %3"_s.arg(formatAmount(level))
            .arg(limit)
            .arg(formatDurationMs(delayMs));
    case Kind::Gcra:
        if (resetMs <= 0) {
            return u"GCRA: all %1 available"_s.arg(limit);
        }
        return u"GCRA: %1 of %2 available, full in %3"_s.arg(remaining).arg(limit).arg(
            formatDurationMs(resetMs));
    }
    return {};
}

bool KeyInfo::resetsByOwnClock() const
{
    if (health != Health::NoTtl || !hasRule() || state.kind == KeyState::Kind::None ||
        state.kind == KeyState::Kind::Unreadable) {
        return false;
    }
    if (adoptedAs.isEmpty()) {
        return true;
    }
    const Layout *l = findLayout(adoptedAs);
    return l != nullptr && l->lostTtl != LostTtl::BlocksSubject;
}

QString KeyInfo::explanation() const
{
    switch (health) {
    case Health::Ok:
        return {};
    case Health::NoTtl: {
        if (resetsByOwnClock() && !adoptedAs.isEmpty()) {
            const Layout *l = findLayout(adoptedAs);
            return u"no TTL: %1 (%2) sets \"%3\"; without it %4. Fix: set the TTL from rule "
                   "'%5' (%6)"_s.arg(QString::fromLatin1(l->library), lostTtlName(l->lostTtl),
                                     QString::fromLatin1(l->ttlSet), lostTtlWords(*l), ruleId,
                                     formatDurationMs(maxTtlMs));
        }
        if (resetsByOwnClock()) {
            QString text =
                u"no TTL: nothing will ever delete this key. Its state records its own time (the "
                "window's start, the bucket's last update), so its limit still resets when that "
                "time comes and its subject is not blocked, and the subject's next admitted "
                "request sets a TTL again; until then an idle subject's key stays in Redis. "
                "Sluice's scripts set the TTL in the same step as every write, so something else "
                "took it away (a PERSIST, a restore, a copy)"_s;
            if (hasRule()) {
                text += u". Fix: set the TTL from rule '%1' (%2)"_s.arg(ruleId,
                                                                        formatDurationMs(maxTtlMs));
            }
            return text;
        }
        QString text =
            u"no TTL: nothing will ever delete this key. Sluice's scripts set the TTL in the "
            "same step as every write, so something else wrote it: an INCR after the key "
            "expired, or an EXPIRE sent in a separate round trip that never arrived (a crash, a "
            "reconnect), leaves a counter without TTL that, once it reaches the limit, blocks its "
            "subject until someone deletes it"_s;
        if (hasRule()) {
            text +=
                u". Fix: set the TTL from rule '%1' (%2)"_s.arg(ruleId, formatDurationMs(maxTtlMs));
        }
        return text;
    }
    case Health::TtlExceedsRule: {
        QString cause = u"a TTL given in seconds where milliseconds were meant, or a rule whose "
                        "window or rate was shortened since"_s;
        if (maxTtlMs > 0 && pttlMs > 500 * maxTtlMs) {
            cause =
                u"about %1x too long: a TTL given in seconds where milliseconds were meant"_s.arg(
                    pttlMs / maxTtlMs);
        }
        return u"TTL %1 is longer than rule '%2' can ever need (%3): %4. The key outlives its "
               "meaning and holds memory. Fix: lower the TTL to %3"_s.arg(
                   formatDurationMs(pttlMs), ruleId, formatDurationMs(maxTtlMs), cause);
    }
    case Health::Orphan:
        return u"no rule produces this key: the state of a deleted or renamed rule, or of "
               "another application. Left as it is; delete it if it is debris"_s;
    case Health::WrongType:
        return u"not the state of rule '%1' (%2): %3. The rule's script cannot use it: a "
               "request of this subject fails (WRONGTYPE, and the rule's on_redis_error decides) "
               "or overwrites it. Delete it if it is debris"_s.arg(
                   ruleId, algorithm::name(algorithm), state.problem);
    case Health::Unreadable:
        return u"the key of rule '%1' could not be read, so its state and TTL are unknown: "
               "%2"_s.arg(ruleId, state.problem);
    }
    return {};
}

} // namespace sluice::keys
