// A foreign key's state in words (describeState): a counter against its limit, a clock-valued
// state (GCRA, buckets), a log's size and ends, Sluice's own hashes; with its TTL and what a lost
// TTL does. The value readers are layouts.cpp's (layouts_p.h).
#include "layouts.h"
#include "layouts_p.h"

#include "keyinfo.h"
#include "statedecoder.h"

#include "core/common/plural.h"

#include <QStringList>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

using namespace Qt::StringLiterals;

namespace sluice::keys {

using namespace layoutdetail;

namespace {

// A state's words are built by appending to one QString (a state a key, a million keys): these
// write what QString::number and formatDurationMs would, without a QString of their own.
void appendNumber(QString &text, qint64 n)
{
    char digits[24];
    const auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
    text += QLatin1StringView(digits, end - digits);
}

// ago(us): a duration since, in words.
void appendAgo(QString &text, qint64 us)
{
    char duration[32];
    const int n = formatDurationMs(std::max<qint64>(us, 0) / 1000, duration);
    text += QLatin1StringView(duration, n);
}

// A hash field as a whole number, as QString::toLongLong reads its Latin-1 text ("?" when it is
// missing: 0).
qint64 fieldInteger(const ForeignRead &r, const char *name)
{
    const auto v = r.field(name);
    if (v && !v->isEmpty() && v->size() <= 18 &&
        std::all_of(v->begin(), v->end(), [](char c) { return c >= '0' && c <= '9'; })) {
        return *wholeNumber(*v);
    }
    return QString::fromLatin1(v.value_or(QByteArray("?"))).toLongLong();
}

// Counter and Points: how many in this window, against the limit when it is known.
QString describeCount(const Layout &layout, const ForeignRead &r, qint64 limit)
{
    auto n = counterValue(layout, r);
    if (!n) {
        return {};
    }
    if (limit > 0) {
        QString text =
            QString::number(*n) + u" / "_s + QString::number(limit) + u" in this window"_s;
        if (*n >= limit) {
            text += u" (full: denied until it resets)";
        }
        return withTtl(std::move(text), r.pttlMs, layout.lostTtl);
    }
    QString text;
    text.reserve(80);
    appendNumber(text, *n);
    if (layout.decoder == Decoder::Points) {
        text += *n == 1 ? u" point consumed" : u" points consumed";
    } else {
        text += *n == 1 ? u" request" : u" requests";
    }
    text += u" in this window";
    return withTtl(std::move(text), r.pttlMs, layout.lostTtl);
}

// The clock-valued states: a block, a TAT, a time a limit frees up, a window's end.
QString describeClock(const Layout &layout, const ForeignRead &r,
                      const std::optional<QByteArray> &value)
{
    switch (layout.decoder) {
    case Decoder::Flag: {
        auto n = value ? wholeNumber(*value) : std::nullopt;
        if (!n) {
            return {};
        }
        if (r.pttlMs >= 0) {
            return u"blocked for %1 more"_s.arg(formatDurationMs(r.pttlMs));
        }
        if (r.pttlMs == -1 && layout.lostTtl == LostTtl::BlocksSubject) {
            return u"blocked for good (no TTL)"_s;
        }
        return withTtl(u"blocked"_s, r.pttlMs, layout.lostTtl);
    }
    case Decoder::RateTat: {
        auto n = value ? number(*value) : std::nullopt;
        if (!n) {
            return {};
        }
        const qint64 tatUs = qint64((*n + double(rateEpochS)) * 1e6);
        return tatUs > r.nowUs
                   ? u"TAT in %1"_s.arg(formatDurationMs((tatUs - r.nowUs + 999) / 1000))
                   : u"TAT passed: the bucket is full"_s;
    }
    case Decoder::Timer: {
        auto n = value ? wholeNumber(*value) : std::nullopt;
        if (!n) {
            return {};
        }
        const qint64 inUs = *n * 1'000'000 - r.nowUs;
        return inUs > 0 ? u"available again in %1"_s.arg(formatDurationMs(inUs / 1000))
                        : u"available again since %1"_s.arg(ago(-inUs));
    }
    case Decoder::Duration: {
        const auto end = wholeNumber(r.field("end").value_or(QByteArray()));
        const QString count = QString::fromLatin1(r.field("count").value_or(QByteArray("?")));
        if (!end) {
            return {};
        }
        const qint64 inUs = *end * 1'000'000 - r.nowUs;
        return inUs > 0
                   ? u"%1 in the window ending in %2"_s.arg(count, formatDurationMs(inUs / 1000))
                   : u"%1 in a window that ended %2 ago"_s.arg(count, ago(-inUs));
    }
    case Decoder::CellTat: {
        auto n = value ? wholeNumber(*value) : std::nullopt;
        if (!n) {
            return {};
        }
        const qint64 aheadUs = *n / 1000 - r.nowUs;
        return aheadUs > 0 ? u"TAT in %1"_s.arg(formatDurationMs((aheadUs + 999) / 1000))
                           : u"TAT passed: the bucket is full"_s;
    }
    default:
        return {};
    }
}

// The logs of timestamps (sorted sets): how many in the window, or the newest and oldest.
QString describeLog(const Layout &layout, const ForeignRead &r, qint64 limit, qint64 windowMs)
{
    const auto newest = endUs(r.newest, r.nowUs);
    const auto oldest = endUs(r.oldest, r.nowUs);
    const bool one = limit > 0 ? limit == 1 : r.zcard == 1;
    const QString noun = layout.decoder == Decoder::RedissonLog
                             ? (one ? u"permit taken"_s : u"permits taken"_s)
                             : (one ? u"timestamp"_s : u"timestamps"_s);
    if (windowMs > 0 && oldest) {
        const qint64 oldestAge = r.nowUs - *oldest;
        const QString counted =
            limit > 0 ? u"%1 / %2"_s.arg(r.zcard).arg(limit) : QString::number(r.zcard);
        if (oldestAge <= windowMs * 1000) {
            return u"%1 %2 in the last %3"_s.arg(counted, noun, formatDurationMs(windowMs));
        }
        return u"at most %1 %2 in the last %3 (the oldest is %4 old, not trimmed yet)"_s.arg(
            counted, noun, formatDurationMs(windowMs), ago(oldestAge));
    }
    QString text;
    text.reserve(64);
    appendNumber(text, r.zcard);
    text += u' ';
    text += noun;
    if (newest) {
        text += u", newest ";
        appendAgo(text, r.nowUs - *newest);
        text += u" ago";
    }
    if (oldest && r.zcard > 1) {
        text += u", oldest ";
        appendAgo(text, r.nowUs - *oldest);
        text += u" ago";
    }
    return text;
}

// Sluice's own keys without the rules: the fields in words (with them, KeyState::describe says
// more).
QString describeSluice(const Layout &layout, const ForeignRead &r,
                       const std::optional<QByteArray> &value)
{
    auto f = [&](const char *name) {
        const auto v = r.field(name);
        return v ? QString::fromLatin1(*v) : u"?"_s;
    };
    // "<words> <field> <words> <duration> ago", in one QString.
    auto since = [&](QStringView before, const char *field, QStringView middle, qint64 us) {
        QString text;
        text.reserve(64);
        text += before;
        const auto v = r.field(field);
        text += v ? QLatin1StringView(*v) : QLatin1StringView("?");
        text += middle;
        appendAgo(text, us);
        text += u" ago";
        return text;
    };
    switch (layout.value) {
    case ValueShape::SluiceFixed:
        return since(u"count ", "c", u" in the window that started ",
                     r.nowUs - fieldInteger(r, "s"));
    case ValueShape::SluiceCounter:
        return u"this window %1, previous %2"_s.arg(f("c"), f("p"));
    case ValueShape::SluiceBucket:
        return since(u"level ", "l", u" ticks, updated ", r.nowUs - fieldInteger(r, "t"));
    case ValueShape::SluiceLog: {
        QString text;
        appendNumber(text, r.zcard);
        text += r.zcard == 1 ? u" entry" : u" entries";
        return text;
    }
    case ValueShape::SluiceGcra: {
        // The TAT before any '@' and '+' ("<tat_us>+<rem>/<c>@...").
        QByteArrayView tatText = value ? QByteArrayView(*value) : QByteArrayView();
        for (const char end : {'@', '+'}) {
            const qsizetype at = tatText.indexOf(end);
            tatText = at >= 0 ? tatText.first(at) : tatText;
        }
        const qint64 tat = tatText.toLongLong();
        return tat > r.nowUs ? u"TAT in "_s + formatDurationMs((tat - r.nowUs + 999) / 1000)
                             : u"TAT passed: full"_s;
    }
    default:
        return {};
    }
}

} // namespace

QString describeState(const Layout &layout, const ForeignRead &r, qint64 limit, qint64 windowMs)
{
    const auto value = wholeString(r);
    switch (layout.decoder) {
    case Decoder::Counter:
    case Decoder::Points:
        return describeCount(layout, r, limit);
    case Decoder::Flag:
    case Decoder::RateTat:
    case Decoder::Timer:
    case Decoder::Duration:
    case Decoder::CellTat:
        return describeClock(layout, r, value);
    case Decoder::TimestampLog:
    case Decoder::RedissonLog:
        return describeLog(layout, r, limit, windowMs);
    case Decoder::GatewayTokens: {
        auto n = value ? number(*value) : std::nullopt;
        if (!n) {
            return {};
        }
        QString text = formatAmount(*n); // counted(): "1 token", "2.5 tokens"
        text += text == u"1"_s ? u" token" : u" tokens";
        text += u" left at the last request";
        return text;
    }
    case Decoder::GatewayStamp: {
        auto n = value ? number(*value) : std::nullopt;
        if (!n) {
            return {};
        }
        auto t = timestampUs(*n, r.nowUs);
        return t ? u"last refill %1 ago"_s.arg(ago(r.nowUs - *t))
                 : u"last refill at %1"_s.arg(QString::fromLatin1(*value));
    }
    case Decoder::RedissonConfig: {
        const auto rate = r.field("rate").value_or(QByteArray("?"));
        const auto interval = wholeNumber(r.field("interval").value_or(QByteArray()));
        const auto type = r.field("type").value_or(QByteArray());
        return u"%1 permits per %2 (%3)"_s.arg(QString::fromLatin1(rate),
                                               interval ? formatDurationMs(*interval) : u"?"_s,
                                               type == "1" ? u"per client"_s : u"overall"_s);
    }
    case Decoder::RedissonValue: {
        auto n = counterValue(layout, r);
        return n ? counted(*n, u"permit", u"permits") + u" available"_s : QString();
    }
    case Decoder::Bucket4j:
        return u"binary bucket state, "_s + formatBytes(r.strlen) +
               u" (Bucket4j's serialization; not decoded)"_s;
    case Decoder::Sluice:
        return describeSluice(layout, r, value);
    }
    return {};
}

} // namespace sluice::keys
