#include "policy.h"

#include "model.h"

#include "core/common/names.h"

#include <numeric>

using namespace Qt::StringLiterals;

namespace sluice {

namespace algorithm {

constexpr Named<Algorithm> names[] = {
    {Algorithm::FixedWindow, u"fixed_window"},       {Algorithm::SlidingLog, u"sliding_log"},
    {Algorithm::SlidingCounter, u"sliding_counter"}, {Algorithm::TokenBucket, u"token_bucket"},
    {Algorithm::LeakyBucket, u"leaky_bucket"},       {Algorithm::Gcra, u"gcra"}};
static_assert(std::size(names) == std::size(all), "a name for every algorithm");

QString name(Algorithm a)
{
    return nameIn(names, a, u"gcra");
}

std::optional<Algorithm> fromName(const QString &n)
{
    return valueNamed(names, n);
}

bool isWindow(Algorithm a)
{
    return a == Algorithm::FixedWindow || a == Algorithm::SlidingLog ||
           a == Algorithm::SlidingCounter;
}

bool countsRejected(Algorithm a)
{
    return isWindow(a);
}

QString countRejectedRefusal(Algorithm a)
{
    switch (a) {
    case Algorithm::TokenBucket:
        return QStringLiteral(
            "token_bucket cannot count a denied request: it was denied because the bucket holds "
            "fewer tokens than its cost, and taking them anyway would leave the bucket in a debt "
            "it has no state for; to punish retries use sliding_log or sliding_counter");
    case Algorithm::LeakyBucket:
        return QStringLiteral(
            "leaky_bucket cannot count a denied request: it was denied because the queue has no "
            "room for it, and counting it would queue a request that is never released; to "
            "punish retries use sliding_log or sliding_counter");
    case Algorithm::Gcra:
        return QStringLiteral(
            "gcra cannot count a denied request: moving the theoretical arrival time for a "
            "denial pushes every later admission back by one emission interval per retry, "
            "without bound, so a client retrying faster than the rate would never be admitted "
            "again; to punish retries use sliding_log or sliding_counter");
    case Algorithm::FixedWindow:
    case Algorithm::SlidingLog:
    case Algorithm::SlidingCounter:
        break;
    }
    return {};
}

} // namespace algorithm

namespace onchange {

constexpr Named<OnChange, QLatin1StringView> names[] = {{OnChange::KeepUsed, "keep_used"_L1},
                                                        {OnChange::Reset, "reset"_L1},
                                                        {OnChange::Proportional, "proportional"_L1},
                                                        {OnChange::Additive, "additive"_L1}};
static_assert(std::size(names) == std::size(all), "a name for every way");

QByteArray name(OnChange c)
{
    return nameIn(names, c, "additive"_L1);
}

std::optional<OnChange> fromName(const QString &n)
{
    return valueNamed(names, n);
}

} // namespace onchange

Policy Policy::window(Algorithm a, qint64 limit, qint64 windowUs, QString id)
{
    Policy p;
    p.algorithm = a;
    p.limit = limit;
    p.windowUs = windowUs;
    if (!id.isEmpty()) {
        p.id = std::move(id);
    }
    return p;
}

Policy Policy::bucket(Algorithm a, Rate rate, qint64 burst, QString id)
{
    Policy p;
    p.algorithm = a;
    p.rate = rate;
    p.burst = burst;
    if (!id.isEmpty()) {
        p.id = std::move(id);
    }
    return p;
}

namespace {

// Ten years: far beyond any useful window, and small enough that now_us + window stays exact.
constexpr qint64 maxPeriodUs = 3650 * duration::usPerDay;

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

} // namespace

Result<void> Policy::validate() const
{
    using duration::maxExact;
    if (algorithm::isWindow(algorithm)) {
        if (limit <= 0 || limit >= maxExact) {
            return invalid(
                QStringLiteral("limit must be a positive integer below 2^53, got %1").arg(limit));
        }
        if (windowUs <= 0 || windowUs > maxPeriodUs) {
            return invalid(QStringLiteral("window must be positive and at most 3650d, got %1 us")
                               .arg(windowUs));
        }
        // The sliding counter compares prev * (W - elapsed) + (cur + cost) * W with N * W, in
        // integers: 2 * N * W must stay exact in a Lua double.
        if (algorithm == Algorithm::SlidingCounter && limit > maxExact / 2 / windowUs) {
            return invalid(QStringLiteral("limit %1 x window %2 is too large for exact "
                                          "arithmetic (2 x limit x window_us must stay below "
                                          "2^53); use a shorter window or a smaller limit")
                               .arg(limit)
                               .arg(duration::formatUs(windowUs)));
        }
        return {};
    }
    if (countRejected) {
        return invalid(
            QStringLiteral("count_rejected: %1").arg(algorithm::countRejectedRefusal(algorithm)));
    }
    if (rate.count <= 0 || rate.count >= maxExact) {
        return invalid(
            QStringLiteral("rate count must be a positive integer, got %1").arg(rate.count));
    }
    if (rate.periodUs <= 0 || rate.periodUs > maxPeriodUs) {
        return invalid(QStringLiteral("rate period must be positive and at most 3650d, got %1 us")
                           .arg(rate.periodUs));
    }
    if (burst <= 0 || burst >= maxExact) {
        return invalid(
            QStringLiteral("burst must be a positive integer below 2^53, got %1").arg(burst));
    }
    // Levels are kept in ticks (P per token) and compared with up to twice the capacity.
    const model::ReducedRate r = model::reduce(rate);
    const qint64 units = algorithm == Algorithm::Gcra ? burst + 1 : burst;
    if (units > maxExact / 2 / r.p) {
        return invalid(QStringLiteral("rate %1 with burst %2 is too large for exact arithmetic "
                                      "(2 x burst x period / gcd(count, period) must stay "
                                      "below 2^53); use a shorter period or a smaller burst")
                           .arg(duration::formatRate(rate))
                           .arg(burst));
    }
    return {};
}

qint64 Policy::capacity() const
{
    if (algorithm::isWindow(algorithm)) {
        return limit;
    }
    return algorithm == Algorithm::Gcra ? burst + 1 : burst;
}

QList<QByteArray> Policy::scriptArgs() const
{
    if (algorithm::isWindow(algorithm)) {
        return {QByteArray::number(limit), QByteArray::number(windowUs)};
    }
    return {QByteArray::number(rate.count), QByteArray::number(rate.periodUs),
            QByteArray::number(burst)};
}

QByteArray Policy::version() const
{
    static constexpr const char *codes[] = {"fw", "sl", "sc", "tb", "lb", "gc"};
    QByteArray v = codes[size_t(algorithm)];
    v.reserve(48);
    if (algorithm::isWindow(algorithm)) {
        v.append(':').append(QByteArray::number(limit));
        v.append(':').append(QByteArray::number(windowUs));
    } else {
        v.append(':').append(QByteArray::number(rate.count));
        v.append(':').append(QByteArray::number(rate.periodUs));
        v.append(':').append(QByteArray::number(burst));
    }
    return v;
}

QList<QByteArray> Policy::versionArgs(qint64 minTtlMs) const
{
    const QByteArray minTtl = minTtlMs > 0 ? QByteArray::number(minTtlMs) : QByteArray();
    // Only the window scripts have the slot (validate() refuses it on the others).
    const bool counts = countRejected && algorithm::countsRejected(algorithm);
    QList<QByteArray> args;
    if (versioned) {
        args = {minTtl, version(), onchange::name(onChange)};
    } else if (counts) {
        args = {minTtl, QByteArray(), QByteArray()};
    }
    if (counts) {
        args.append(QByteArrayLiteral("1"));
    }
    return args;
}

QByteArray Policy::keyFor(const QByteArray &subject) const
{
    QByteArray key;
    const QByteArray idBytes = id.toUtf8();
    key.reserve(keyPrefix.size() + idBytes.size() + subject.size() + 3);
    key.append(keyPrefix).append(idBytes).append(":{").append(subject).append('}');
    return key;
}

QString Policy::describe() const
{
    if (algorithm::isWindow(algorithm)) {
        return QStringLiteral("%1 per %2").arg(limit).arg(duration::formatUs(windowUs));
    }
    return QStringLiteral("%1, burst %2").arg(duration::formatRate(rate)).arg(burst);
}

namespace model {

ReducedRate reduce(const Rate &rate)
{
    // Every decision of a bucket or GCRA twin reduces its rate again, and a thread sees few
    // rates: the last four it reduced are kept (a gcd and two 64-bit divisions otherwise).
    struct Memo
    {
        qint64 count = 0;
        qint64 periodUs = 0;
        ReducedRate reduced;
    };
    thread_local Memo memo[4];
    thread_local unsigned next = 0;
    for (const Memo &m : memo) {
        if (m.count == rate.count && m.periodUs == rate.periodUs && m.count != 0) {
            return m.reduced;
        }
    }
    const qint64 g = std::gcd(rate.count, rate.periodUs);
    if (g <= 0) {
        return {};
    }
    const ReducedRate r{rate.count / g, rate.periodUs / g};
    memo[next++ % 4] = Memo{rate.count, rate.periodUs, r};
    return r;
}

} // namespace model

} // namespace sluice
