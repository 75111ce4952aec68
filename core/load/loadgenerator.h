#pragma once

#include "core/common/result.h"
#include "core/redis/endpoint.h"
#include "core/rules/rule.h"
#include "core/sim/trafficpattern.h"
#include "core/stats/stats.h"

#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace sluice::stats {
class StatsRecorder;
}

namespace sluice::load {

// What to run. The traffic is the simulation lab's: `patterns` (or, when that
// is empty, `pattern`) over [0, durationUs), drawn with `seed` over `subjects` generated
// subjects (10.0.0.1, ...) exactly as sluice-cli simulate would draw them, then played in real
// time: a request's time is a wall-clock deadline from the start of the run.
struct LoadOptions
{
    Endpoint endpoint;
    RuleSet rules;
    QStringList ruleIds; // empty: every enabled rule of `rules`
    sim::TrafficPattern pattern;
    std::vector<sim::TrafficPattern> patterns; // when not empty, used instead of `pattern`
    qint64 durationUs = 10 * 1'000'000;
    int threads = 4;       // 1..maxThreads, each with its own connection
    qint64 subjects = 100; // 1..sim::maxSubjects
    quint64 seed = 1;
    stats::StatsRecorder *recorder = nullptr; // not owned; flushing it is the caller's business
    int maxBatch = 256; // requests pipelined in one round trip per thread, at most
    // Not empty: every selected rule's key_prefix is replaced by it, so the run's decisions use
    // keys of their own (<override><rule id>:{<subject>}) and real subjects' quotas are
    // untouched; runScopedPrefix() makes one. Empty: the rules' own prefixes (the real keys).
    QByteArray keyPrefixOverride;
    // With an override: at the end of the run (finished, cancelled or failed), every key under it
    // is deleted (redis::deleteByPrefix); LoadProgress::keysRemoved / cleanupError say how it
    // went. Ignored without an override (the real keys are never deleted).
    bool removeOverrideKeys = true;
};

// A run-scoped key prefix, `sluice:load:<16 hex digits>:` (random), as the simulator's
// `sluice:sim:` run prefix.
QByteArray runScopedPrefix();

inline constexpr int maxThreads = 256;

// The staged change's candidates (set.staged) that a run decides beside its rules, as
// `serve --from-redis` decides them beside the rules it enforces: each candidate whose enforced
// rule is among `selectedIds`, and with `all` (no rule named) those that add a rule. Shadow on:
// they count what they would deny and never deny. start() adds them to the selected rules.
std::vector<Rule> stagedCandidates(const RuleSet &set, const QStringList &selectedIds, bool all);

// Per rule: every offered request is decided by every selected rule, each on its own (as in
// the simulation lab), so the counters count decisions.
struct RuleProgress
{
    QString ruleId;
    qint64 allowed = 0;
    qint64 denied = 0;       // enforced denials
    qint64 shadowDenied = 0; // a shadow rule said no (the request would have gone through)
    qint64 errors = 0;
    qint64 fallbacks = 0; // answered by on_redis_error (also counted in allowed / denied)
};

// A snapshot. Counters are decisions (requests x rules). `error` is set when the run failed as a
// whole (no connection at the start, bad traffic). While Redis is unavailable mid-run (the
// connection lost, a reconnect failing, or an error reply that another server or a moment later
// would not give: READONLY after a failover, MASTERDOWN, LOADING, BUSY; redis::isUnavailableReply)
// each decision is answered by its rule's on_redis_error as the HTTP service would (allow, deny,
// or `local`: the in-process twin), counted in allowed / denied / shadowDenied and in
// `fallbacks`, and the run goes on, reconnecting (a reconnect follows a failover). A decision
// that fails otherwise (a script error, WRONGTYPE) counts in `errors` and in `lastError`.
struct LoadProgress
{
    qint64 sent = 0, allowed = 0, denied = 0, errors = 0;
    double elapsedS = 0;
    double ratePerS = 0; // decisions per second since the start
    bool finished = false;
    bool cancelled = false;
    QString error;
    // Added beyond the contract:
    qint64 shadowDenied = 0;
    qint64 planned = 0;      // decisions the pattern asks for in all (0 until generated)
    double durationS = 0;    // the run's length
    double lagMs = 0;        // how late the last batch was sent after its first deadline
    bool running = false;    // started and not finished
    QString lastError;       // of the last failed decision
    qint64 fallbacks = 0;    // decisions answered by on_redis_error (in allowed / denied too)
    QString lastUnavailable; // why Redis was last found unavailable (the last fallback's cause)
    QList<RuleProgress> rules;
    QByteArray keyPrefix;   // LoadOptions::keyPrefixOverride (empty: the rules' own prefixes)
    qint64 keysRemoved = 0; // the run's keys deleted at the end (with an override)
    QString cleanupError;   // not empty: the run's keys could not all be removed, and why
};

// Drives real decisions against a real Redis: `threads` threads, each with its own RedisLimiter
// connection and a share of the subjects (subject i goes to thread i % threads, so one subject's
// requests keep their order), pipelining whatever is due (at most maxBatch per round trip).
// It stops by itself once the duration is over; cancel() stops it within a few milliseconds (a
// round trip in flight completes first). Every decision goes into `recorder` when one is given.
// start() returns at once (validation only): generating the traffic and connecting happen on the
// generator's own thread, so a GUI may call it. progress(), cancel() are thread-safe.
class LoadGenerator
{
public:
    explicit LoadGenerator(LoadOptions o);
    ~LoadGenerator(); // cancel() and wait()
    LoadGenerator(const LoadGenerator &) = delete;
    LoadGenerator &operator=(const LoadGenerator &) = delete;

    // Invalid options (no rule, an unknown rule id, threads, subjects, a pattern outside the
    // duration, ...) fail here with a message naming the option. Starting twice is an error.
    Result<void> start();
    void cancel();
    LoadProgress progress() const;
    // Blocks until the run is over (returns at once if it never started).
    void wait();

private:
    struct Shared;
    class Worker;
    LoadOptions m_options;
    std::shared_ptr<Shared> m_shared;
    std::thread m_runner;
};

} // namespace sluice::load

Q_DECLARE_METATYPE(sluice::load::LoadProgress)
