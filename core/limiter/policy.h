#pragma once

#include "core/common/duration.h"
#include "core/common/result.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <optional>

namespace sluice {

enum class Algorithm {
    FixedWindow,
    SlidingLog,
    SlidingCounter,
    TokenBucket,
    LeakyBucket,
    Gcra,
};

namespace algorithm {
constexpr Algorithm all[] = {Algorithm::FixedWindow,    Algorithm::SlidingLog,
                             Algorithm::SlidingCounter, Algorithm::TokenBucket,
                             Algorithm::LeakyBucket,    Algorithm::Gcra};
// "fixed_window", ... : the names of FORMATS.md and of the files in lua/.
QString name(Algorithm a);
std::optional<Algorithm> fromName(const QString &name);
// Window algorithms take limit + window; the others rate + burst.
bool isWindow(Algorithm a);
// Whether a denied request can be counted as if admitted (count_rejected): the window
// algorithms; the buckets and GCRA refuse it (countRejectedRefusal() says why).
bool countsRejected(Algorithm a);
QString countRejectedRefusal(Algorithm a);
} // namespace algorithm

// What a stored state becomes when its rule's parameters change (ALGORITHMS.md "When a rule
// changes"). Applied by the scripts on the next touch of each key, from the rule version the
// state records.
enum class OnChange {
    KeepUsed,     // the consumption made under the old limit still counts (the default)
    Reset,        // a fresh state: as if the key were absent
    Proportional, // the same fraction of the capacity stays used
    Additive,     // a raise adds its difference to what is left; a cut caps what is left
};
namespace onchange {
constexpr OnChange all[] = {OnChange::KeepUsed, OnChange::Reset, OnChange::Proportional,
                            OnChange::Additive};
// "keep_used", "reset", "proportional", "additive": FORMATS.md and the scripts' ARGV.
QByteArray name(OnChange c);
std::optional<OnChange> fromName(const QString &name);
} // namespace onchange

// One limit, as a script runs it: the algorithm and its parameters in integers. A rule (with
// scope, route, flags) is built on top of this in core/rules.
struct Policy
{
    QString id = QStringLiteral("cli");
    QByteArray keyPrefix = "rate_limit:";
    Algorithm algorithm = Algorithm::FixedWindow;
    // Window algorithms.
    qint64 limit = 0;
    qint64 windowUs = 0;
    // Bucket algorithms and GCRA: rate = rate.count / rate.periodUs, capacity / burst.
    Rate rate;
    qint64 burst = 0;
    OnChange onChange = OnChange::KeepUsed;
    // A denied request's cost counted as if it were admitted (FORMATS.md count_rejected; envoy
    // ratelimit's default). Only the window algorithms run it (countsRejected()); the scripts
    // take it as ARGV[8] = '1'.
    bool countRejected = false;
    // Whether decisions stamp and read the rule version (version()); false runs the scripts
    // with their five (or six) ARGV of before, for callers that pass raw ARGV.
    bool versioned = true;

    static Policy window(Algorithm a, qint64 limit, qint64 windowUs, QString id = {});
    static Policy bucket(Algorithm a, Rate rate, qint64 burst, QString id = {});

    // Checks positivity and the 2^53 bounds of the exact arithmetic (ALGORITHMS.md). The
    // message names the parameter ("limit", "window", "rate", "burst") and what is expected.
    Result<void> validate() const;

    // The "limit" of a reply: N for windows, B for the buckets, burst + 1 for GCRA.
    qint64 capacity() const;

    // ARGV of the script before cost and now_us: {limit, window_us} or {count, period, burst}.
    QList<QByteArray> scriptArgs() const;

    // The rule version a state records: the algorithm and its parameters, "fw:100:60000000"
    // (windows: code, limit, window_us) or "tb:5:10000000:20" (code, count, period_us,
    // burst); codes fw sl sc tb lb gc. A script that finds another version migrates the state
    // per onChange before it decides.
    QByteArray version() const;
    // The ARGV after cost and now_us: {min_ttl_ms or '', version, on_change} when versioned,
    // else {} (min_ttl_ms alone is then appended by the caller when it has one); with
    // countRejected, '1' after them (version and on_change '' when not versioned).
    QList<QByteArray> versionArgs(qint64 minTtlMs = 0) const;

    // State key = <key_prefix><id>:{<subject>} (ARCHITECTURE.md "Keys"); binary-safe.
    QByteArray keyFor(const QByteArray &subject) const;

    // "3 per 5s", "100/s, burst 200": for messages and the console.
    QString describe() const;
};

} // namespace sluice
