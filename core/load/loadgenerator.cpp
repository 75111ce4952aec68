#include "loadgenerator.h"

#include "core/common/clock.h"
#include "core/limiter/localmodel.h"
#include "core/limiter/redislimiter.h"
#include "core/limiter/scratchrun.h"
#include "core/redis/connection.h"
#include "core/redis/errors.h"
#include "core/redis/keyspace.h"
#include "core/redis/lazyconnection.h"
#include "core/rules/overridematcher.h"
#include "core/rules/rulestore.h"
#include "core/sim/scenario.h"
#include "core/stats/statsrecorder.h"

#include <QDateTime>
#include <QRandomGenerator>

#include <algorithm>
#include <chrono>

namespace sluice::load {

namespace {

using SteadyClock = std::chrono::steady_clock;

qint64 steadyUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(
               SteadyClock::now().time_since_epoch())
        .count();
}

Error invalid(const QString &message)
{
    return Error::make(Error::Kind::Invalid, message);
}

// After a failed reconnect, a worker waits this long before trying again (the requests due in
// between count as errors): a dead Redis is not hammered with connects.
constexpr qint64 reconnectGapUs = 200'000;

// A `deny` rule's answer while Redis is unavailable: come back after this long (as serve says).
constexpr qint64 denyRetryMs = 1000;

// Redis cannot decide now, but a reconnect (maybe to a new master) or a moment will fix it.
bool isUnavailable(const Error &e)
{
    return e.isConnectionLoss() || redis::isUnavailableReply(e);
}

// The rules a run drives: those named, else every enabled one; under the run's key prefix
// when it has one of its own.
Result<std::vector<Rule>> selectRules(const LoadOptions &o)
{
    std::vector<Rule> selected;
    if (o.ruleIds.isEmpty()) {
        for (const Rule &r : o.rules.rules) {
            if (r.enabled) {
                selected.push_back(r);
            }
        }
        if (selected.empty()) {
            return invalid(o.rules.rules.empty()
                               ? QStringLiteral("rules: there are no rules to drive")
                               : QStringLiteral("rules: every rule is disabled; name the rules "
                                                "to drive"));
        }
    } else {
        for (const QString &id : o.ruleIds) {
            const Rule *r = o.rules.find(id);
            if (r == nullptr) {
                QStringList ids;
                for (const Rule &x : o.rules.rules) {
                    ids << x.id;
                }
                return invalid(QStringLiteral("rule '%1' is not in the rules (they are: %2)")
                                   .arg(id, ids.isEmpty() ? QStringLiteral("none")
                                                          : ids.join(QStringLiteral(", "))));
            }
            if (std::none_of(selected.begin(), selected.end(),
                             [&](const Rule &s) { return s.id == id; })) {
                selected.push_back(*r);
            }
        }
    }
    if (!o.keyPrefixOverride.isEmpty()) {
        for (Rule &r : selected) {
            r.keyPrefix = o.keyPrefixOverride;
        }
    }
    return selected;
}

} // namespace

std::vector<Rule> stagedCandidates(const RuleSet &set, const QStringList &selectedIds, bool all)
{
    std::vector<Rule> out;
    for (const Rule &c : set.staged) {
        const QString of = rules::RuleStore::stagedOf(c.id);
        const bool replaces = std::any_of(set.rules.begin(), set.rules.end(),
                                          [&](const Rule &r) { return r.id == of; });
        if (of.isEmpty() || (replaces ? !selectedIds.contains(of) : !all) ||
            selectedIds.contains(c.id)) {
            continue;
        }
        Rule shadow = c;
        shadow.shadow = true;
        out.push_back(std::move(shadow));
    }
    return out;
}

QByteArray runScopedPrefix()
{
    return scratchPrefix("load");
}

struct LoadGenerator::Shared
{
    std::atomic<bool> cancel{false};
    std::atomic<bool> launched{false}; // start() succeeded
    std::atomic<bool> started{false};  // the clock runs
    std::atomic<bool> finished{false};
    std::atomic<qint64> startUs{0}; // steady clock
    std::atomic<qint64> endUs{0};
    std::atomic<qint64> planned{0};
    std::atomic<qint64> lagUs{0};
    std::atomic<qint64> sent{0}, allowed{0}, denied{0}, shadowDenied{0}, errors{0};
    std::atomic<qint64> fallbacks{0};
    struct PerRule
    {
        std::atomic<qint64> allowed{0}, denied{0}, shadowDenied{0}, errors{0}, fallbacks{0};
    };
    std::unique_ptr<PerRule[]> perRule;

    std::vector<Rule> rules; // the selected rules
    std::vector<Policy> policies;
    // Each rule's per-subject overrides, as serve applies them (allow / deny never reach Redis;
    // an override limit decides by its policy under its own key).
    std::vector<rules::OverrideMatcher> overrides;
    std::vector<std::vector<Policy>> overridePolicies;

    mutable std::mutex mutex; // error, lastError, lastUnavailable; the cv for sleeping workers
    std::condition_variable wake;
    QString error;
    QString lastError;
    QString lastUnavailable;
    qint64 keysRemoved = 0;
    QString cleanupError;

    void fail(const QString &message)
    {
        std::lock_guard lock(mutex);
        error = message;
    }
    void failedDecisions(qint64 n, const QString &message, const std::vector<int> &ruleOf)
    {
        errors += n;
        for (int r : ruleOf) {
            perRule[size_t(r)].errors += 1;
        }
        std::lock_guard lock(mutex);
        lastError = message;
    }
    void unavailable(const QString &why)
    {
        std::lock_guard lock(mutex);
        lastUnavailable = why;
    }
    // Sleeps until the steady-clock deadline or cancel(). False if cancelled.
    bool sleepUntil(qint64 deadlineUs)
    {
        std::unique_lock lock(mutex);
        const auto deadline = SteadyClock::time_point(std::chrono::microseconds(deadlineUs));
        return !wake.wait_until(lock, deadline, [this] { return cancel.load(); });
    }
};

LoadGenerator::LoadGenerator(LoadOptions o)
    : m_options(std::move(o))
    , m_shared(std::make_shared<Shared>())
{}

LoadGenerator::~LoadGenerator()
{
    cancel();
    wait();
}

// One worker thread of a run: its share of the arrivals, in batches through its own connection
// to Redis, each request answered by its rule's on_redis_error while Redis is unavailable.
class LoadGenerator::Worker
{
public:
    Worker(Shared &sh, const std::vector<sim::Arrival> &mine, LazyConnection redis,
           const sim::Subjects &subjects, stats::StatsRecorder *recorder, size_t nRules,
           int maxBatch)
        : m_sh(sh)
        , m_mine(mine)
        , m_redis(std::move(redis))
        , m_limiter(m_redis.current())
        , m_subjects(subjects)
        , m_recorder(recorder)
        , m_nRules(nRules)
        , m_maxBatch(maxBatch)
        , m_local(m_clock)
    {}

    void run()
    {
        const qint64 t0 = m_sh.startUs;
        size_t next = 0;
        while (next < m_mine.size() && !m_sh.cancel) {
            const qint64 now = steadyUs() - t0;
            if (m_mine[next].tUs > now) {
                if (!m_sh.sleepUntil(t0 + m_mine[next].tUs)) {
                    break;
                }
                continue;
            }
            m_sh.lagUs = now - m_mine[next].tUs;
            next = fillBatch(next, now);
            if (m_batch.empty()) {
                continue; // every request answered by an override
            }
            m_sh.sent += qint64(m_batch.size());
            if (connected()) {
                decideBatch();
            }
        }
    }

private:
    // The arrivals due at `now` from `next` on, as requests of every rule (those an allow or
    // deny override answers are tallied here); returns the next arrival.
    size_t fillBatch(size_t next, qint64 now)
    {
        m_batch.clear();
        m_ruleOf.clear();
        m_subjectOf.clear();
        for (; next < m_mine.size() && m_mine[next].tUs <= now &&
               m_batch.size() + m_nRules <= size_t(m_maxBatch);
             ++next) {
            const QByteArray name = m_subjects.name(m_mine[next].subject);
            for (size_t r = 0; r < m_nRules; ++r) {
                const Policy &p = m_sh.policies[r];
                rules::OverrideMatcher::Hit hit;
                if (!m_sh.overrides[r].isEmpty()) {
                    const qint64 nowUs = SystemClock().nowUs();
                    hit = m_sh.overrides[r].match(name, nowUs);
                    if (hit && hit.override->action != Override::Action::Limit) {
                        ++m_sh.sent; // offered, answered here
                        tally(r, rules::overrideDecision(p, hit.override->action, nowUs, hit.endUs),
                              name, QDateTime::currentSecsSinceEpoch());
                        continue;
                    }
                }
                if (hit) {
                    m_batch.push_back(Request{&m_sh.overridePolicies[r][size_t(hit.index)],
                                              rules::overrideKeyFor(m_sh.rules[r], name), 1,
                                              std::nullopt, 0});
                } else {
                    m_batch.push_back(Request{&p, p.keyFor(name), 1, std::nullopt, 0});
                }
                m_ruleOf.push_back(int(r));
                m_subjectOf.push_back(name);
            }
        }
        return next;
    }

    // Reconnected by LazyConnection's rule if need be (at most once per reconnectGapUs);
    // false when the batch was answered by the rules' on_redis_error instead.
    bool connected()
    {
        if (!m_redis.needsConnect()) {
            return true;
        }
        const qint64 at = steadyUs();
        if (at - m_lastReconnectUs < reconnectGapUs) {
            fallBackAll({}); // the reason stays that of the last failure
            return false;
        }
        m_lastReconnectUs = at;
        if (auto r = m_redis.get(); !r) {
            fallBackAll(r.error().message);
            return false;
        }
        return true;
    }

    void decideBatch()
    {
        auto results = m_limiter.decideBatch(m_batch);
        if (!results) {
            if (isUnavailable(results.error())) {
                m_redis.suspect();
                fallBackAll(results.error().message);
            } else {
                m_sh.failedDecisions(qint64(m_batch.size()), results.error().message, m_ruleOf);
            }
            return;
        }
        const qint64 second = QDateTime::currentSecsSinceEpoch();
        for (size_t i = 0; i < results->size(); ++i) {
            const Result<Decision> &d = (*results)[i];
            const size_t r = size_t(m_ruleOf[i]);
            if (!d) {
                if (isUnavailable(d.error())) {
                    m_redis.suspect();
                    m_sh.unavailable(d.error().message);
                    fallBack(i, second);
                } else if (redis::isWriteRefusedReply(d.error())) {
                    // OOM, MISCONF: Redis answers but refuses this admission's write; the
                    // rule's on_redis_error answers, as serve does.
                    m_sh.unavailable(d.error().message);
                    fallBack(i, second);
                } else {
                    m_sh.failedDecisions(1, d.error().message, {int(r)});
                }
                continue;
            }
            tally(r, *d, m_subjectOf[i], second);
        }
    }

    void tally(size_t r, const Decision &d, const QByteArray &subject, qint64 second)
    {
        const bool shadow = m_sh.rules[r].shadow;
        if (d.allowed) {
            ++m_sh.allowed;
            ++m_sh.perRule[r].allowed;
        } else if (shadow) {
            ++m_sh.shadowDenied;
            ++m_sh.perRule[r].shadowDenied;
        } else {
            ++m_sh.denied;
            ++m_sh.perRule[r].denied;
        }
        if (m_recorder != nullptr) {
            m_recorder->record(m_sh.rules[r].id, subject, d, shadow, second);
        }
    }

    // Decision i of the batch by its rule's on_redis_error.
    void fallBack(size_t i, qint64 second)
    {
        const size_t r = size_t(m_ruleOf[i]);
        const qint64 capacity = m_batch[i].policy->capacity(); // an override's own
        Decision d;
        switch (m_sh.rules[r].onRedisError) {
        case OnRedisError::Allow:
            d = Decision{true, capacity, capacity, -1, 0, 0};
            break;
        case OnRedisError::Deny:
            d = Decision{false, capacity, 0, denyRetryMs, denyRetryMs, 0};
            break;
        case OnRedisError::Local: {
            auto l = m_local.decide(m_batch[i]);
            if (!l) {
                m_sh.failedDecisions(1, l.error().message, {int(r)});
                return;
            }
            d = *l;
            break;
        }
        }
        ++m_sh.fallbacks;
        ++m_sh.perRule[r].fallbacks;
        tally(r, d, m_subjectOf[i], second);
    }

    void fallBackAll(const QString &why)
    {
        if (!why.isEmpty()) {
            m_sh.unavailable(why);
        }
        const qint64 second = QDateTime::currentSecsSinceEpoch();
        for (size_t i = 0; i < m_batch.size(); ++i) {
            fallBack(i, second);
        }
    }

    Shared &m_sh;
    const std::vector<sim::Arrival> &m_mine;
    LazyConnection m_redis; // an unavailable error reply (READONLY, ...) makes it suspect()
    RedisLimiter m_limiter; // over m_redis's connection
    const sim::Subjects &m_subjects;
    stats::StatsRecorder *m_recorder;
    const size_t m_nRules;
    const int m_maxBatch;
    std::vector<Request> m_batch;
    std::vector<int> m_ruleOf;
    std::vector<QByteArray> m_subjectOf;
    qint64 m_lastReconnectUs = 0;
    // The `local` fallback: this thread's subjects are decided by this thread only, so a twin
    // per thread is the same as one shared twin.
    SystemClock m_clock;
    LocalModel m_local;
};

Result<void> LoadGenerator::start()
{
    if (m_runner.joinable() || m_shared->finished) {
        return Error::make(Error::Kind::Internal,
                           QStringLiteral("this load generator was started already"));
    }
    const LoadOptions &o = m_options;
    if (o.threads < 1 || o.threads > maxThreads) {
        return invalid(
            QStringLiteral("threads: expected 1 to %1, got %2").arg(maxThreads).arg(o.threads));
    }
    if (o.subjects < 1 || o.subjects > sim::maxSubjects) {
        return invalid(QStringLiteral("subjects: expected 1 to %1, got %2")
                           .arg(sim::maxSubjects)
                           .arg(o.subjects));
    }
    if (o.maxBatch < 1) {
        return invalid(QStringLiteral("maxBatch: expected at least 1, got %1").arg(o.maxBatch));
    }
    auto chosen = selectRules(o);
    if (!chosen) {
        return chosen.error();
    }
    std::vector<Rule> selected = std::move(*chosen);
    sim::Scenario s;
    s.name = QStringLiteral("load");
    s.durationUs = o.durationUs;
    s.seed = o.seed;
    s.subjects = o.subjects;
    s.traffic = o.patterns.empty() ? std::vector<sim::TrafficPattern>{o.pattern} : o.patterns;
    s.rules = selected;
    if (const QList<Diagnostic> bad = sim::scenario::validate(s); !bad.isEmpty()) {
        return invalid(bad.first().toString());
    }
    // Validated when staged; their ids ("<id>@staged") are not a file's.
    QStringList selectedIds;
    for (const Rule &r : selected) {
        selectedIds << r.id;
    }
    for (Rule &c : stagedCandidates(o.rules, selectedIds, o.ruleIds.isEmpty())) {
        if (!o.keyPrefixOverride.isEmpty()) {
            c.keyPrefix = o.keyPrefixOverride;
        }
        selected.push_back(std::move(c));
    }

    Shared &sh = *m_shared;
    sh.rules = selected;
    for (const Rule &r : selected) {
        sh.policies.push_back(r.policy());
        sh.overrides.emplace_back(r.overrides, SystemClock().nowUs());
        std::vector<Policy> ps;
        for (const Override &o : r.overrides) {
            ps.push_back(rules::overridePolicy(r, o));
        }
        sh.overridePolicies.push_back(std::move(ps));
    }
    sh.perRule = std::make_unique<Shared::PerRule[]>(selected.size());

    sh.launched = true;
    std::shared_ptr<Shared> shared = m_shared;
    const LoadOptions options = m_options;
    m_runner = std::thread([shared, options, s] {
        Shared &sh = *shared;
        // The run's own keys go, whatever happened (a connection of its own: the workers' may
        // be broken). Before `finished`, so a caller that saw it finished sees the keys gone.
        auto removeRunKeys = [&] {
            if (options.keyPrefixOverride.isEmpty() || !options.removeOverrideKeys) {
                return;
            }
            LazyConnection cleanup(options.endpoint);
            auto c = cleanup.get();
            Result<qint64> n = c ? redis::deleteByPrefix(**c, options.keyPrefixOverride)
                                 : Result<qint64>(c.error());
            std::lock_guard lock(sh.mutex);
            if (n) {
                sh.keysRemoved = *n;
            } else {
                sh.cleanupError =
                    QStringLiteral("could not remove the run's keys %1* (%2)")
                        .arg(QString::fromUtf8(options.keyPrefixOverride), n.error().message);
            }
        };
        auto finish = [&] {
            if (sh.endUs == 0) {
                sh.endUs = sh.started ? steadyUs() : 0;
            }
            if (sh.started) {
                removeRunKeys();
            }
            sh.finished = true;
        };
        auto traffic = sim::scenario::generate(s);
        if (!traffic) {
            sh.fail(traffic.error().message);
            finish();
            return;
        }
        const int nThreads = options.threads;
        const size_t nRules = sh.policies.size();
        sh.planned = qint64(traffic->arrivals.size() * nRules);
        std::vector<std::vector<sim::Arrival>> shares{size_t(nThreads)};
        for (const sim::Arrival &a : traffic->arrivals) {
            shares[a.subject % quint32(nThreads)].push_back(a);
        }
        traffic->arrivals = {};
        // Connected before the run starts: Redis unreachable at the start fails the run.
        std::vector<LazyConnection> connections;
        connections.reserve(size_t(nThreads));
        for (int i = 0; i < nThreads && !sh.cancel; ++i) {
            LazyConnection &c = connections.emplace_back(options.endpoint);
            if (auto opened = c.get(); !opened) {
                sh.fail(opened.error().message);
                finish();
                return;
            }
        }
        if (sh.cancel) {
            finish();
            return;
        }
        const sim::Subjects subjects = traffic->subjects;
        stats::StatsRecorder *recorder = options.recorder;
        const int maxBatch = std::max<int>(options.maxBatch, int(nRules));

        sh.startUs = steadyUs();
        sh.started = true;
        std::vector<std::thread> workers;
        for (int t = 0; t < nThreads; ++t) {
            workers.emplace_back([&, t] {
                Worker(sh, shares[size_t(t)], std::move(connections[size_t(t)]), subjects, recorder,
                       nRules, maxBatch)
                    .run();
            });
        }
        for (std::thread &w : workers) {
            w.join();
        }
        // The run lasts the whole duration, even if the pattern's last request came earlier.
        if (!sh.cancel) {
            sh.sleepUntil(sh.startUs + s.durationUs);
        }
        sh.endUs = steadyUs();
        finish();
    });
    return {};
}

void LoadGenerator::cancel()
{
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->cancel = true;
    }
    m_shared->wake.notify_all();
}

void LoadGenerator::wait()
{
    if (m_runner.joinable()) {
        m_runner.join();
    }
}

LoadProgress LoadGenerator::progress() const
{
    const Shared &sh = *m_shared;
    LoadProgress p;
    p.finished = sh.finished;
    p.sent = sh.sent;
    p.allowed = sh.allowed;
    p.denied = sh.denied;
    p.shadowDenied = sh.shadowDenied;
    p.errors = sh.errors;
    p.fallbacks = sh.fallbacks;
    p.planned = sh.planned;
    p.durationS = double(m_options.durationUs) / 1e6;
    p.cancelled = sh.cancel && p.finished;
    p.running = sh.launched && !p.finished;
    p.lagMs = double(sh.lagUs) / 1e3;
    if (sh.started) {
        const qint64 end = sh.endUs != 0 ? qint64(sh.endUs) : steadyUs();
        p.elapsedS = double(end - sh.startUs) / 1e6;
        p.ratePerS = p.elapsedS > 0 ? double(p.sent) / p.elapsedS : 0;
    }
    for (size_t i = 0; i < sh.rules.size() && sh.perRule; ++i) {
        const Shared::PerRule &r = sh.perRule[i];
        p.rules.append(RuleProgress{sh.rules[i].id, r.allowed, r.denied, r.shadowDenied, r.errors,
                                    r.fallbacks});
    }
    std::lock_guard lock(sh.mutex);
    p.error = sh.error;
    p.lastError = sh.lastError;
    p.lastUnavailable = sh.lastUnavailable;
    p.keyPrefix = m_options.keyPrefixOverride;
    p.keysRemoved = sh.keysRemoved;
    p.cleanupError = sh.cleanupError;
    return p;
}

} // namespace sluice::load
