#include "layouts.h"

#include "keyinfo.h"
#include "statedecoder.h"

#include "core/common/plural.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>
#include <vector>

using namespace Qt::StringLiterals;

namespace sluice::keys {

namespace {

// clang-format off
// The table. Sources: each library's code or documentation (FORMATS.md "keys audit" cites
// them); a row's test plants keys as the library writes them (tests/tst_layouts.cpp).
const QList<Layout> table = {
    {"sluice_fixed_window", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     ValueShape::SluiceFixed, "hash s (window start, us), c (count)", WindowFrom::SluiceRule,
     Decoder::Sluice, false, true, false,
     "Sluice's fixed window: one count per window; the script sets the TTL in the same step"},
    {"sluice_sliding_counter", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     ValueShape::SluiceCounter, "hash s, c, p (this and the previous window's counts)",
     WindowFrom::SluiceRule, Decoder::Sluice, false, true, false,
     "Sluice's sliding counter: two windows' counts, weighted"},
    {"sluice_token_bucket", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     ValueShape::SluiceBucket, "hash l (tokens, ticks), t (last refill, us)",
     WindowFrom::SluiceRule, Decoder::Sluice, false, true, false,
     "Sluice's token bucket (a leaky bucket has the same fields: give the rules to tell them "
     "apart)"},
    {"sluice_leaky_bucket", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "hash",
     ValueShape::SluiceBucket, "hash l (queue, ticks), t (last update, us)",
     WindowFrom::SluiceRule, Decoder::Sluice, false, true, false,
     "Sluice's leaky bucket: a queue that drains at the rate"},
    {"sluice_sliding_log", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "zset",
     ValueShape::SluiceLog, "sorted set: one member per request, scored by its time (us)",
     WindowFrom::SluiceRule, Decoder::Sluice, false, true, false,
     "Sluice's sliding log: the requests of the last window"},
    {"sluice_gcra", "Sluice", "<prefix><rule>:{<subject>}", R"(.+:\{.*\})", "string",
     ValueShape::SluiceGcra, "string <tat_us> or <tat_us>+<rem>/<c>", WindowFrom::SluiceRule,
     Decoder::Sluice, false, true, false, "Sluice's GCRA: the theoretical arrival time"},
    {"kong_counter", "Kong rate-limiting (redis policy)",
     "ratelimit:<route>:<service>:<identifier>:<period start>:<period>",
     R"(ratelimit:[^:]*:[^:]*:.*:[0-9]+:(second|minute|hour|day|month|year))", "string",
     ValueShape::Integer, "integer: requests in the period", WindowFrom::KongPeriod,
     Decoder::Counter, true, true, true,
     "Kong's rate-limiting plugin: one INCRBY counter per period, EXPIREd by the same pipeline"},
    {"spring_gateway_tokens", "Spring Cloud Gateway RedisRateLimiter",
     "request_rate_limiter.{<id>}.tokens", R"(request_rate_limiter\.\{.*\}\.tokens)", "string",
     ValueShape::Number, "number: tokens left", WindowFrom::Unknown, Decoder::GatewayTokens,
     false, true, true,
     "Spring Cloud Gateway's token bucket: tokens left, SETEX'd with twice the fill time"},
    {"spring_gateway_timestamp", "Spring Cloud Gateway RedisRateLimiter",
     "request_rate_limiter.{<id>}.timestamp", R"(request_rate_limiter\.\{.*\}\.timestamp)",
     "string", ValueShape::Number, "number: the last refill (s since the epoch)",
     WindowFrom::Unknown, Decoder::GatewayStamp, false, true, true,
     "Spring Cloud Gateway's token bucket: the time of its last refill"},
    {"redisson_value", "Redisson RRateLimiter", "{<name>}:value[:<client>]",
     R"(.*\{.*\}.*:value(:[^:]*)?)", "string", ValueShape::Integer,
     "integer: permits available", WindowFrom::Unknown, Decoder::RedissonValue, false, false,
     false,
     "Redisson's RRateLimiter: the permits left in the interval (no TTL unless keepAliveTime "
     "is set: its script refills it, so none is not a blocking bug)"},
    {"redisson_permits", "Redisson RRateLimiter", "{<name>}:permits[:<client>]",
     R"(.*\{.*\}.*:permits(:[^:]*)?)", "zset", ValueShape::TimestampZset,
     "sorted set: one packed member per acquisition, scored by its time (ms)",
     WindowFrom::Unknown, Decoder::RedissonLog, false, false, false,
     "Redisson's RRateLimiter: the permits taken in the interval, with their times (no TTL "
     "unless keepAliveTime is set; each call trims it)"},
    {"redis_cell", "redis-cell (CL.THROTTLE)", "<key>", "", "string", ValueShape::CellTat,
     "integer: the theoretical arrival time, ns since the epoch", WindowFrom::Unknown,
     Decoder::CellTat, false, true, false,
     "redis-cell's GCRA: the theoretical arrival time; the module sets the TTL itself"},
    {"rlflx", "rate-limiter-flexible (RateLimiterRedis)", "rlflx:<key>", R"(rlflx:.+)",
     "string", ValueShape::Integer,
     "integer: points consumed (above the limit while blocked)", WindowFrom::Unknown,
     Decoder::Points, true, true, true,
     "rate-limiter-flexible: points consumed in the duration (SET NX EX, INCRBY); a block "
     "rewrites it with the block's duration, and block(key, 0) blocks forever"},
    {"rlflx_block", "rate-limiter-flexible (ExpressBruteFlexible)", "[<prefix>]block:<key>",
     R"([^:]*block:.+)", "string", ValueShape::Integer, "integer: 1 while blocked",
     WindowFrom::Unknown, Decoder::Points, false, true, false,
     "rate-limiter-flexible's brute-force protection: the block key of a subject"},
    {"rate_limit_redis", "express-rate-limit with rate-limit-redis", "rl:<key>", R"(rl:.+)",
     "string", ValueShape::Integer, "integer: hits in the window", WindowFrom::Unknown,
     Decoder::Counter, true, true, true,
     "express-rate-limit's Redis store: INCR and PEXPIRE windowMs in one script"},
    {"envoy_counter", "Envoy ratelimit service", "<domain>_<key>_<value>..._<window start>",
     R"([^:\s]+_.+_[0-9]{10})", "string", ValueShape::Integer,
     "integer: hits in the window", WindowFrom::EnvoyUnit, Decoder::Counter, true, true,
     false, "Envoy's ratelimit service: INCRBY + EXPIRE per window, pipelined"},
    {"string_counter", "GET/INCR/EXPIRE counters (Spring, RedisTemplate, OpenResty, ...)",
     "rate_limit: | count_rate_limit: | limit: | ratelimit: | throttle: <key>",
     R"((rate_limit|count_rate_limit|limit|ratelimit|throttle):.+)", "string",
     ValueShape::Integer, "integer: requests in the window", WindowFrom::Unknown,
     Decoder::Counter, true, true, true,
     "a plain counter: INCR, then EXPIRE on the first request. An INCR after the key expired, "
     "or an EXPIRE lost after its INCR, leaves it without TTL: its subject stays blocked "
     "forever once it reaches the limit"},
    {"bucket4j", "Bucket4j (Lettuce/Jedis/Redisson proxy managers)", "<key>", "", "string",
     ValueShape::Binary, "binary: the serialized bucket configuration and state",
     WindowFrom::Unknown, Decoder::Bucket4j, false, true, false,
     "Bucket4j's bucket state; written without an ExpirationAfterWriteStrategy it never "
     "expires"},
    {"redisson_config", "Redisson RRateLimiter", "<name>", "", "hash",
     ValueShape::RedissonConfig, "hash rate, interval (ms), type (0 overall, 1 per client)",
     WindowFrom::RedissonField, Decoder::RedissonConfig, false, false, false,
     "Redisson's RRateLimiter configuration (trySetRate): meant to last, no TTL needed"},
    {"sorted_set_log", "sliding-window logs (ZADD now, ZREMRANGEBYSCORE, ZCARD)", "<key>", "",
     "zset", ValueShape::TimestampZset, "sorted set: members or scores are timestamps",
     WindowFrom::Unknown, Decoder::TimestampLog, true, true, false,
     "a sliding-window log: one entry per request, trimmed to the window by each request; "
     "without TTL an idle subject's log stays forever"},
};
// clang-format on

struct Compiled
{
    std::vector<QRegularExpression> regex;
    Compiled()
    {
        for (const Layout &l : table) {
            regex.emplace_back(QRegularExpression::anchoredPattern(QString::fromLatin1(l.keyRegex)),
                               QRegularExpression::DotMatchesEverythingOption);
        }
    }
};

const Compiled &compiled()
{
    static const Compiled c;
    return c;
}

qsizetype indexOf(const Layout &layout)
{
    return &layout - table.constData();
}

} // namespace

namespace {

std::optional<qint64> wholeNumber(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 20) {
        return std::nullopt;
    }
    for (qsizetype i = 0; i < text.size(); ++i) {
        const char ch = text[i];
        if (!(ch >= '0' && ch <= '9') && !(i == 0 && ch == '-' && text.size() > 1)) {
            return std::nullopt;
        }
    }
    bool ok = false;
    const qint64 v = text.toLongLong(&ok);
    return ok ? std::optional<qint64>(v) : std::nullopt;
}

std::optional<double> number(const QByteArray &text)
{
    if (text.isEmpty() || text.size() > 40) {
        return std::nullopt;
    }
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && std::isfinite(v) ? std::optional<double>(v) : std::nullopt;
}

// The string value, whole (nullopt when it is longer than what was read).
std::optional<QByteArray> wholeString(const ForeignRead &r)
{
    if (r.type != "string" || r.strlen != r.head.size()) {
        return std::nullopt;
    }
    return r.head;
}

// A number read as a timestamp in s, ms, us or ns: us since the epoch, when it is within ten
// years before `nowUs` and a day after.
std::optional<qint64> timestampUs(double v, qint64 nowUs)
{
    constexpr double tenYearsUs = 10.0 * 365 * 86400 * 1e6;
    constexpr double dayUs = 86400 * 1e6;
    for (double scale : {1e6, 1e3, 1.0, 1e-3}) {
        const double us = v * scale;
        if (us >= double(nowUs) - tenYearsUs && us <= double(nowUs) + dayUs) {
            return qint64(us);
        }
    }
    return std::nullopt;
}

// The leading number of a zset member ("1700000000123", "1700000000123-7f3a").
std::optional<double> leadingNumber(const QByteArray &member)
{
    qsizetype n = 0;
    while (n < member.size() && n < 20 &&
           ((member[n] >= '0' && member[n] <= '9') || member[n] == '.')) {
        ++n;
    }
    return n == 0 ? std::nullopt : number(member.left(n));
}

// The timestamp (us) of one end of a zset: its score, else its member.
std::optional<qint64> endUs(const std::optional<std::pair<QByteArray, QByteArray>> &end,
                            qint64 nowUs)
{
    if (!end) {
        return std::nullopt;
    }
    if (auto s = number(end->second)) {
        if (auto t = timestampUs(*s, nowUs)) {
            return t;
        }
    }
    if (auto m = leadingNumber(end->first)) {
        return timestampUs(*m, nowUs);
    }
    return std::nullopt;
}

bool hasFields(const ForeignRead &r, std::initializer_list<const char *> names, qint64 exact)
{
    // Sluice's own hashes may carry one more field, v: the rule version (lua/README.md).
    const bool versioned = r.hlen == exact + 1 && r.field(QByteArrayLiteral("v"));
    if (r.type != "hash" || (exact > 0 && r.hlen != exact && !versioned)) {
        return false;
    }
    for (const char *n : names) {
        if (!r.field(QByteArray(n))) {
            return false;
        }
    }
    return true;
}

QString ago(qint64 us)
{
    return formatDurationMs(std::max<qint64>(us, 0) / 1000);
}

QString withTtl(const QString &text, qint64 pttlMs)
{
    if (pttlMs == -1) {
        return text + u", never resets (no TTL)"_s;
    }
    if (pttlMs >= 0) {
        return text + u", resets in %1"_s.arg(formatDurationMs(pttlMs));
    }
    return text;
}

} // namespace

std::optional<QByteArray> ForeignRead::field(const QByteArray &name) const
{
    for (const auto &f : fields) {
        if (f.first == name) {
            return f.second;
        }
    }
    return std::nullopt;
}

const QList<Layout> &layouts()
{
    return table;
}

const Layout *findLayout(const QString &id)
{
    for (const Layout &l : table) {
        if (id == QLatin1String(l.id)) {
            return &l;
        }
    }
    return nullptr;
}

QString layoutIds(bool adoptableOnly)
{
    QStringList ids;
    for (const Layout &l : table) {
        if (!adoptableOnly || l.adoptable) {
            ids << QString::fromLatin1(l.id);
        }
    }
    return ids.join(u", "_s);
}

bool keyFits(const Layout &layout, const QByteArray &key)
{
    if (layout.keyRegex[0] == '\0') {
        return true;
    }
    return compiled().regex[size_t(indexOf(layout))].match(QString::fromLatin1(key)).hasMatch();
}

bool shapeFits(const Layout &layout, const ForeignRead &r)
{
    if (r.type != layout.type) {
        return false;
    }
    switch (layout.value) {
    case ValueShape::Integer: {
        auto v = wholeString(r);
        return v && wholeNumber(*v).has_value();
    }
    case ValueShape::Number: {
        auto v = wholeString(r);
        return v && number(*v).has_value();
    }
    case ValueShape::CellTat: {
        auto v = wholeString(r);
        auto n = v ? wholeNumber(*v) : std::nullopt;
        // redis-cell always sets a TTL; its TAT is near now, at most a (long) burst ahead.
        constexpr qint64 hourNs = qint64(3600) * 1'000'000'000;
        const qint64 nowNs = r.nowUs * 1000;
        return n && r.pttlMs >= 0 && *n > nowNs - hourNs && *n < nowNs + 24 * 30 * hourNs;
    }
    case ValueShape::Binary:
        return r.strlen >= 16 && r.head.size() >= 3 && r.head[0] == '\0' && r.head[1] == '\0' &&
               r.head[2] == '\0';
    case ValueShape::TimestampZset:
        return r.zcard > 0 && endUs(r.newest, r.nowUs).has_value();
    case ValueShape::RedissonConfig:
        return hasFields(r, {"rate", "interval", "type"}, 0);
    case ValueShape::SluiceFixed:
        return hasFields(r, {"s", "c"}, 2);
    case ValueShape::SluiceCounter:
        return hasFields(r, {"s", "c", "p"}, 3);
    case ValueShape::SluiceBucket:
        return hasFields(r, {"l", "t"}, 2);
    case ValueShape::SluiceLog:
        return true;
    case ValueShape::SluiceGcra: {
        static const QRegularExpression gcra(
            u"^[0-9]{1,19}(\\+[0-9]{1,19}/[0-9]{1,19})?(@[a-z]{2}(:[0-9]{1,19}){2,3})?$"_s);
        auto v = wholeString(r);
        return v && gcra.match(QString::fromLatin1(*v)).hasMatch();
    }
    }
    return false;
}

const Layout *matchLayout(const ForeignRead &read, const QString &sluiceAlgorithm)
{
    for (const Layout &l : table) {
        const QLatin1String id(l.id);
        if (id.startsWith("sluice_"_L1)) {
            // With a rule, only its algorithm's row; without, a leaky bucket cannot be told
            // from a token bucket (same fields): the token bucket's row says so.
            const QString algorithm = sluiceAlgorithm.isEmpty() && id != "sluice_leaky_bucket"_L1
                                          ? QString(id.sliced(7))
                                          : sluiceAlgorithm;
            if (id.sliced(7) != algorithm) {
                continue;
            }
        }
        if (l.type == read.type && keyFits(l, read.key) && shapeFits(l, read)) {
            return &l;
        }
    }
    return nullptr;
}

const Layout *matchByName(const QByteArray &key)
{
    for (const Layout &l : table) {
        if (l.byName && keyFits(l, key)) {
            return &l;
        }
    }
    return nullptr;
}

qint64 knownWindowMs(const Layout &layout, const ForeignRead &read)
{
    switch (layout.window) {
    case WindowFrom::Unknown:
    case WindowFrom::SluiceRule:
        return -1;
    case WindowFrom::KongPeriod: {
        // Kong's EXPIRATION table (policies/init.lua): the TTL each period's counter gets.
        static const QList<std::pair<QByteArray, qint64>> periods = {
            {"second", 1},  {"minute", 60},     {"hour", 3600},
            {"day", 86400}, {"month", 2592000}, {"year", 31536000}};
        for (const auto &[name, s] : periods) {
            if (read.key.endsWith(':' + name)) {
                return s * 1000;
            }
        }
        return -1;
    }
    case WindowFrom::EnvoyUnit: {
        // The window start is now / unit * unit: a multiple of the unit, so the largest unit
        // it is a multiple of bounds the window from above (never a false flag).
        const qsizetype at = read.key.lastIndexOf('_');
        bool ok = false;
        const qint64 start = read.key.mid(at + 1).toLongLong(&ok);
        if (!ok) {
            return -1;
        }
        for (qint64 unit : {86400, 3600, 60}) {
            if (start % unit == 0) {
                return unit * 1000;
            }
        }
        return 1000;
    }
    case WindowFrom::RedissonField: {
        auto v = read.field("interval");
        auto n = v ? wholeNumber(*v) : std::nullopt;
        return n && *n > 0 ? *n : -1;
    }
    }
    return -1;
}

std::optional<qint64> counterValue(const Layout &layout, const ForeignRead &read)
{
    if (layout.decoder != Decoder::Counter && layout.decoder != Decoder::Points &&
        layout.decoder != Decoder::RedissonValue) {
        return std::nullopt;
    }
    auto v = wholeString(read);
    return v ? wholeNumber(*v) : std::nullopt;
}

QString describeState(const Layout &layout, const ForeignRead &r, qint64 limit, qint64 windowMs)
{
    const auto value = wholeString(r);
    switch (layout.decoder) {
    case Decoder::Counter:
    case Decoder::Points: {
        auto n = counterValue(layout, r);
        if (!n) {
            return {};
        }
        const QString what = layout.decoder == Decoder::Points
                                 ? counted(*n, u"point consumed", u"points consumed")
                                 : counted(*n, u"request", u"requests");
        if (limit > 0) {
            return withTtl(u"%1 / %2 in this window%3"_s.arg(*n).arg(limit).arg(
                               *n >= limit ? u" (full: denied until it resets)"_s : QString()),
                           r.pttlMs);
        }
        return withTtl(u"%1 in this window"_s.arg(what), r.pttlMs);
    }
    case Decoder::TimestampLog:
    case Decoder::RedissonLog: {
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
        QString text = r.zcard == 1 ? u"1 "_s + noun : u"%1 %2"_s.arg(r.zcard).arg(noun);
        if (newest) {
            text += u", newest %1 ago"_s.arg(ago(r.nowUs - *newest));
        }
        if (oldest && r.zcard > 1) {
            text += u", oldest %1 ago"_s.arg(ago(r.nowUs - *oldest));
        }
        return text;
    }
    case Decoder::GatewayTokens: {
        auto n = value ? number(*value) : std::nullopt;
        return n ? counted(formatAmount(*n) == u"1"_s ? 1 : 2, u"token", u"tokens",
                           formatAmount(*n)) +
                       u" left at the last request"_s
                 : QString();
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
        return u"binary bucket state, %1 (Bucket4j's serialization; not decoded)"_s.arg(
            formatBytes(r.strlen));
    case Decoder::CellTat: {
        auto n = value ? wholeNumber(*value) : std::nullopt;
        if (!n) {
            return {};
        }
        const qint64 aheadUs = *n / 1000 - r.nowUs;
        return aheadUs > 0 ? u"TAT in %1"_s.arg(formatDurationMs((aheadUs + 999) / 1000))
                           : u"TAT passed: the bucket is full"_s;
    }
    case Decoder::Sluice: {
        // Without the rules: the fields in words (with them, KeyState::describe says more).
        auto f = [&](const char *name) {
            return QString::fromLatin1(r.field(name).value_or(QByteArray("?")));
        };
        switch (layout.value) {
        case ValueShape::SluiceFixed:
            return u"count %1 in the window that started %2 ago"_s.arg(
                f("c"), ago(r.nowUs - f("s").toLongLong()));
        case ValueShape::SluiceCounter:
            return u"this window %1, previous %2"_s.arg(f("c"), f("p"));
        case ValueShape::SluiceBucket:
            return u"level %1 ticks, updated %2 ago"_s.arg(f("l"),
                                                           ago(r.nowUs - f("t").toLongLong()));
        case ValueShape::SluiceLog:
            return counted(r.zcard, u"entry", u"entries");
        case ValueShape::SluiceGcra: {
            const qint64 tat =
                value ? value->split('@').first().split('+').first().toLongLong() : 0;
            return tat > r.nowUs
                       ? u"TAT in %1"_s.arg(formatDurationMs((tat - r.nowUs + 999) / 1000))
                       : u"TAT passed: full"_s;
        }
        default:
            return {};
        }
    }
    }
    return {};
}

} // namespace sluice::keys
