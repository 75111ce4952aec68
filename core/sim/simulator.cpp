// The simulator: virtual time, any Limiter, metrics computed as the decisions come back.
//
// Decisions:
//  - A batch is a run of consecutive arrivals, decided by every rule, grouped by rule inside
//    the batch (RedisLimiter reuses one rule's script arguments across its run of requests).
//    Each key still sees its requests in time order, which is all a decision depends on.
//  - Metrics are streamed, never stored per request: admissions arrive in time order and feed
//    a WindowCounter; releases (admission + delay, leaky bucket) are not in order across
//    subjects, so they wait in a min-heap until no later admission can release before them
//    (every future release is >= the current admission time).
//  - The in-process run keeps each (rule, subject) state in a slot of its own and calls
//    model::apply, the twins' arithmetic, on it, exactly as LocalModel does (an expired state
//    is an empty one; a write sets the expiry). LocalModel finds a state by hashing its key
//    bytes and sweeps its whole table every 4096 calls: 9x slower on a million requests. A test
//    runs the presets through a LocalModel (run() with any Limiter) and finds the same results.
//  - The in-process run passes no min_ttl_ms: keys expire on the model's virtual clock. The
//    Redis run (redisrun.cpp) passes one (1 h by default) because Redis expires keys on the
//    wall clock; the local == Redis test proves that the floor changes no decision.
#include "simulator.h"

#include "foreigncounter.h"

#include "core/limiter/model.h"
#include "core/rules/adoption.h"
#include "core/rules/overridematcher.h"

#include <QElapsedTimer>

#include <algorithm>
#include <queue>

using namespace Qt::StringLiterals;

namespace sluice::sim {

namespace {

constexpr quint64 digestSeed = 14695981039346656037ull;

// A word at a time: cheap enough for every decision, and any changed reply changes the digest
// (but for a 2^-64 chance).
inline void mix(quint64 &h, qint64 v)
{
    h = (h ^ quint64(v)) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
}

constexpr size_t kPrefetchAhead = 8;

// The in-process state of one key (as LocalModel keeps it).
struct Slot
{
    model::State state;
    qint64 expiresAtUs = 0;
};

struct RuleRun
{
    Policy policy;
    std::vector<Slot> slots;      // in-process runs: per subject (one for a global rule)
    std::vector<QByteArray> keys; // per subject, made on first use
    WindowCounter admitted;
    WindowCounter released;
    std::priority_queue<qint64, std::vector<qint64>, std::greater<>> pending; // release times
    std::vector<SeriesBin> bins;
    RuleResult result;
    qint64 delaySumMs = 0;
    quint64 digest = digestSeed; // this rule's decisions, in arrival order
    bool global = false;         // one key for every subject: <prefix><id>:{global}
    // An adopted limiter's twin (foreigncounter.h), in process on every backend: its state
    // per subject. (The library's script takes Redis's own clock, which a run on virtual time
    // cannot set.)
    std::optional<ForeignCounter> foreign;
    std::vector<ForeignState> foreignStates;
    // The rule's per-subject overrides, as serve applies them: allow and deny answered here
    // (never the limiter), an override limit by its own policy under its own key / slot.
    const Rule *rule = nullptr;
    rules::OverrideMatcher overrides;
    std::vector<Policy> overridePolicies; // by index in rule->overrides
    std::vector<Slot> overrideSlots;      // in-process runs: per subject
    std::vector<QByteArray> overrideKeys; // per subject, made on first use

    rules::OverrideMatcher::Hit overrideFor(quint32 subject, const Subjects &subjects,
                                            qint64 nowUs) const
    {
        return overrides.isEmpty() ? rules::OverrideMatcher::Hit{}
                                   : overrides.match(subjects.name(subject), nowUs);
    }
    const QByteArray &overrideKey(quint32 subject, const Subjects &subjects)
    {
        QByteArray &k = overrideKeys[subject];
        if (k.isEmpty()) {
            Rule keyed = *rule;
            keyed.keyPrefix = policy.keyPrefix;
            k = rules::overrideKeyFor(keyed, subjects.name(subject));
        }
        return k;
    }

    const QByteArray &key(quint32 subject, const Subjects &subjects)
    {
        QByteArray &k = keys[global ? 0 : subject];
        if (k.isEmpty()) {
            k = policy.keyFor(global ? QByteArrayLiteral("global") : subjects.name(subject));
        }
        return k;
    }
    SeriesBin &bin(qint64 index)
    {
        if (index >= qint64(bins.size())) {
            bins.resize(size_t(index) + 1);
        }
        return bins[size_t(index)];
    }
    void flushReleases(qint64 upToUs)
    {
        while (!pending.empty() && pending.top() <= upToUs) {
            released.add(pending.top());
            pending.pop();
        }
    }

    // One decision of this rule; the rule's decisions come in arrival order.
    void account(qint64 tUs, qint64 binUs, const Decision &dec)
    {
        mix(digest, dec.allowed ? 1 : 0);
        mix(digest, dec.remaining);
        mix(digest, dec.retryAfterMs);
        mix(digest, dec.resetAfterMs);
        mix(digest, dec.delayMs);
        SeriesBin &b = bin(tUs / binUs); // (not used after a later bin() may have resized)
        ++b.offered;
        ++result.offered;
        if (!dec.allowed) {
            ++b.rejected;
            ++result.rejected;
            return;
        }
        ++b.admitted;
        ++result.admitted;
        admitted.add(tUs);
        const qint64 delayMs = std::max<qint64>(0, dec.delayMs);
        if (delayMs == 0) {
            flushReleases(tUs);
            released.add(tUs);
            ++b.released;
            return;
        }
        // Every later admission releases at or after tUs: what waits up to tUs is final.
        flushReleases(tUs);
        const qint64 releaseUs = tUs + delayMs * duration::usPerMs;
        ++bin(releaseUs / binUs).released;
        pending.push(releaseUs);
        delaySumMs += delayMs;
        result.maxDelayMs = std::max(result.maxDelayMs, delayMs);
    }
};

QString seconds(qint64 us)
{
    return QString::number(double(us) / 1e6, 'f', 3) + u" s"_s;
}

// One batch of arrivals, [done, done + m), as every rule sees it.
struct Batch
{
    const std::vector<Arrival> &arrivals;
    const Subjects &subjects;
    const RunOptions &options;
    qint64 binUs = 0;
    qint64 minTtlMs = 0;
    size_t done = 0;
    size_t m = 0;
};

// A run per rule (its policy, its slots or keys, its overrides), then one per adopted counter.
std::vector<RuleRun> makeRuns(const Scenario &s, const Subjects &subjects,
                              const RunOptions &options, bool withLimiter)
{
    std::vector<RuleRun> runs(s.rules.size());
    for (size_t r = 0; r < runs.size(); ++r) {
        RuleRun &run = runs[r];
        run.policy = s.rules[r].policy();
        run.policy.keyPrefix = options.keyPrefix;
        run.global = s.rules[r].scope.kind == Scope::Kind::Global;
        const size_t keyCount = run.global ? 1 : size_t(subjects.size());
        if (withLimiter) {
            run.keys.resize(keyCount);
        } else {
            run.slots.resize(keyCount);
        }
        run.admitted = WindowCounter(s.measureWindowUs);
        run.released = WindowCounter(s.measureWindowUs);
        run.bins.resize(size_t((s.durationUs + s.binUs - 1) / s.binUs));
        run.result.rule = s.rules[r].id;
        run.result.algorithm = s.rules[r].algorithm;
        const Rule &rule = s.rules[r];
        if (!rule.overrides.empty()) {
            run.rule = &rule;
            // A ttl counts from the run's start, in virtual time.
            run.overrides = rules::OverrideMatcher(rule.overrides, options.epochUs);
            for (const Override &o : rule.overrides) {
                Policy p = rules::overridePolicy(rule, o);
                p.keyPrefix = options.keyPrefix;
                run.overridePolicies.push_back(p);
            }
            if (withLimiter) {
                run.overrideKeys.resize(size_t(subjects.size()));
            } else {
                run.overrideSlots.resize(size_t(subjects.size()));
            }
        }
    }

    // Beside the rules, the twin of every adopted counter (FORMATS.md "simulate").
    for (const Rule &rule : s.rules) {
        const auto script = rule.adopt ? adoption::counterScriptOf(*rule.adopt) : std::nullopt;
        if (!script) {
            continue;
        }
        RuleRun &run = runs.emplace_back();
        run.foreign = ForeignCounter{*script, rule.adoptLimit(), rule.adoptWindowUs()};
        run.global = rule.scope.kind == Scope::Kind::Global;
        run.foreignStates.resize(run.global ? 1 : size_t(subjects.size()));
        run.admitted = WindowCounter(s.measureWindowUs);
        run.released = WindowCounter(s.measureWindowUs);
        run.bins.resize(size_t((s.durationUs + s.binUs - 1) / s.binUs));
        run.result.rule = rule.id + u'@' + rule.adopt->layout;
        run.result.algorithm = Algorithm::FixedWindow;
        run.result.adopted = AdoptedRun{rule.id, rule.adopt->layout, adoption::scriptName(*script),
                                        rule.adoptLimit(), rule.adoptWindowUs()};
    }
    return runs;
}

// In-process, rule by rule: each rule sees the batch's arrivals in order.
void decideLocal(std::vector<RuleRun> &runs, size_t ruleCount, const Batch &b)
{
    const std::vector<Arrival> &arrivals = b.arrivals;
    const Subjects &subjects = b.subjects;
    const RunOptions &options = b.options;
    const size_t done = b.done;
    const size_t m = b.m;
    const qint64 minTtlMs = b.minTtlMs;
    const qint64 binUs = b.binUs;
    for (size_t r = 0; r < ruleCount; ++r) {
        RuleRun &run = runs[r];
        for (size_t k = 0; k < m; ++k) {
            const Arrival &a = arrivals[done + k];
            // Subjects arrive in random order: fetch a later arrival's slot now, so its
            // cache miss overlaps this decision (the miss was 40% of the run).
            if (!run.global && k + kPrefetchAhead < m) {
                __builtin_prefetch(&run.slots[arrivals[done + k + kPrefetchAhead].subject]);
            }
            const qint64 now = options.epochUs + a.tUs;
            const auto hit = run.overrideFor(a.subject, subjects, now);
            if (hit && hit.override->action != Override::Action::Limit) {
                const Decision d =
                    rules::overrideDecision(run.policy, hit.override->action, now, hit.endUs);
                run.account(a.tUs, binUs, d);
                if (options.onDecision) {
                    options.onDecision(DecisionEvent{int(r), a.tUs, a.subject, d});
                }
                continue;
            }
            Slot &slot = hit ? run.overrideSlots[a.subject] : run.slots[run.global ? 0 : a.subject];
            const Policy &policy = hit ? run.overridePolicies[size_t(hit.index)] : run.policy;
            if (slot.expiresAtUs <= now && slot.state.index() != 0) {
                slot.state = std::monostate{}; // the key expired
            }
            const model::Outcome o = model::apply(policy, slot.state, 1, now, minTtlMs);
            if (o.wrote && o.ttlMs > 0) { // 0: the write kept the key's TTL
                slot.expiresAtUs = now + o.ttlMs * duration::usPerMs;
            }
            run.account(a.tUs, binUs, o.decision);
            if (options.onDecision) {
                options.onDecision(DecisionEvent{int(r), a.tUs, a.subject, o.decision});
            }
        }
    }
}

// Through a Limiter: the batch's requests, rule by rule (requests[r * m + k]), in one call.
Result<void> decideThrough(Limiter &limiter, std::vector<RuleRun> &runs, size_t ruleCount,
                           const Batch &b, std::vector<Request> &requests,
                           std::vector<std::optional<Decision>> &local)
{
    const std::vector<Arrival> &arrivals = b.arrivals;
    const Subjects &subjects = b.subjects;
    const RunOptions &options = b.options;
    const size_t done = b.done;
    const size_t m = b.m;
    const qint64 minTtlMs = b.minTtlMs;
    const qint64 binUs = b.binUs;
    // Answered by an allow / deny override: never sent (local[i]); the others are
    // packed in order.
    local.assign(m * ruleCount, std::nullopt);
    size_t sent = 0;
    for (size_t r = 0; r < ruleCount; ++r) {
        RuleRun &run = runs[r];
        for (size_t k = 0; k < m; ++k) {
            const Arrival &a = arrivals[done + k];
            const qint64 now = options.epochUs + a.tUs;
            const auto hit = run.overrideFor(a.subject, subjects, now);
            if (hit && hit.override->action != Override::Action::Limit) {
                local[r * m + k] =
                    rules::overrideDecision(run.policy, hit.override->action, now, hit.endUs);
                continue;
            }
            Request &q = requests[sent++];
            q.policy = hit ? &run.overridePolicies[size_t(hit.index)] : &run.policy;
            q.key = hit ? run.overrideKey(a.subject, subjects) : run.key(a.subject, subjects);
            q.cost = 1;
            q.nowUs = now;
            q.minTtlMs = minTtlMs;
        }
    }
    auto decided = limiter.decideBatch(std::span<const Request>(requests.data(), sent));
    if (!decided) {
        return Error::make(decided.error().kind,
                           u"at %1 of virtual time: %2"_s.arg(seconds(arrivals[done].tUs),
                                                              decided.error().message));
    }
    size_t next = 0;
    for (size_t i = 0; i < m * ruleCount; ++i) {
        const Result<Decision> &d = local[i] ? Result<Decision>(*local[i]) : (*decided)[next++];
        if (!d) {
            return Error::make(d.error().kind,
                               u"rule %1 at %2 of virtual time: %3"_s.arg(
                                   runs[i / m].result.rule, seconds(arrivals[done + i % m].tUs),
                                   d.error().message));
        }
        const Arrival &a = arrivals[done + i % m];
        runs[i / m].account(a.tUs, binUs, *d);
        if (options.onDecision) {
            options.onDecision(DecisionEvent{int(i / m), a.tUs, a.subject, *d});
        }
    }
    return {};
}

// The adopted counters' twins, after the rules.
void decideForeign(std::vector<RuleRun> &runs, size_t ruleCount, const Batch &b)
{
    const std::vector<Arrival> &arrivals = b.arrivals;
    const RunOptions &options = b.options;
    const size_t done = b.done;
    const size_t m = b.m;
    const qint64 binUs = b.binUs;
    for (size_t r = ruleCount; r < runs.size(); ++r) {
        RuleRun &run = runs[r];
        for (size_t k = 0; k < m; ++k) {
            const Arrival &a = arrivals[done + k];
            const ForeignOutcome o =
                decide(*run.foreign, run.foreignStates[run.global ? 0 : a.subject],
                       options.epochUs + a.tUs);
            if (o.lostTtl && run.result.adopted->lostTtlAtUs < 0) {
                run.result.adopted->lostTtlAtUs = a.tUs;
            }
            run.account(a.tUs, binUs, o.decision);
            if (options.onDecision) {
                options.onDecision(DecisionEvent{int(r), a.tUs, a.subject, o.decision});
            }
        }
    }
}

// Each run's figures into the result, the series evened out, the digest of them all.
void finishRuns(std::vector<RuleRun> &runs, SimResult &out)
{
    size_t binCount = 0;
    for (RuleRun &run : runs) {
        run.flushReleases(std::numeric_limits<qint64>::max());
        binCount = std::max(binCount, run.bins.size());
    }
    for (RuleRun &run : runs) {
        run.bins.resize(binCount);
        RuleResult &x = run.result;
        x.maxAdmittedInWindow = run.admitted.max();
        x.maxAdmittedWindowStartUs = run.admitted.maxStartUs();
        x.maxReleasedInWindow = run.released.max();
        x.maxReleasedWindowStartUs = run.released.maxStartUs();
        for (const SeriesBin &b : run.bins) {
            x.peakAdmittedPerBin = std::max(x.peakAdmittedPerBin, b.admitted);
        }
        x.meanDelayMs = x.admitted > 0 ? double(run.delaySumMs) / double(x.admitted) : 0;
        out.rules.push_back(x);
        out.series.push_back(std::move(run.bins));
    }
    out.digest = digestSeed;
    for (const RuleRun &run : runs) {
        mix(out.digest, qint64(run.digest));
    }
}

} // namespace

Result<Simulator> Simulator::create(Scenario scenario)
{
    auto traffic = scenario::generate(scenario);
    if (!traffic) {
        return traffic.error();
    }
    return Simulator(std::move(scenario), std::move(*traffic));
}

Result<SimResult> Simulator::run(Limiter &limiter, const RunOptions &options,
                                 const QString &backend) const
{
    return runWith(&limiter, options, backend);
}

Result<SimResult> Simulator::runWith(Limiter *limiter, const RunOptions &options,
                                     const QString &backend) const
{
    const qint64 wallLimitMs = options.wallLimitMs;
    const Scenario &s = m_scenario;
    const std::vector<Arrival> &arrivals = m_traffic.arrivals;
    const Subjects &subjects = m_traffic.subjects;
    const qint64 minTtlMs = options.minTtlMs.value_or(0);
    QElapsedTimer wall;
    wall.start();

    std::vector<RuleRun> runs = makeRuns(s, subjects, options, limiter != nullptr);

    SimResult out;
    out.scenario = s.name;
    out.backend = backend;
    out.binUs = s.binUs;
    out.measureWindowUs = s.measureWindowUs;
    out.total = qint64(arrivals.size());
    out.keyPrefix = options.keyPrefix;

    const size_t ruleCount = s.rules.size(); // the adopted twins come after them in `runs`
    // In-process, a batch only spaces the checks for cancel and the progress calls.
    const int batch = std::max(1, options.batch);
    const size_t perBatch = std::max<size_t>(1, size_t(batch) / ruleCount);
    std::vector<Request> requests(limiter != nullptr ? perBatch * ruleCount : 0);
    std::vector<std::optional<Decision>> local;
    size_t done = 0;
    while (done < arrivals.size()) {
        if (options.cancel != nullptr && options.cancel->load(std::memory_order_relaxed)) {
            out.cancelled = true;
            break;
        }
        if (wallLimitMs > 0 && wall.elapsed() >= wallLimitMs) {
            return Error::make(
                Error::Kind::Timeout,
                u"the run has taken %1 of wall-clock time, close to the TTL floor of its keys "
                "(min_ttl_ms %2): state written early could expire before the run ends; rerun "
                "with a higher min_ttl_ms, or fewer requests"_s
                    .arg(seconds(wall.nsecsElapsed() / 1000))
                    .arg(minTtlMs));
        }
        const size_t m = std::min(perBatch, arrivals.size() - done);
        // Rule by rule: each rule sees the batch's arrivals in order (requests[r * m + k]).
        const Batch b{arrivals, subjects, options, s.binUs, minTtlMs, done, m};
        if (limiter == nullptr) {
            decideLocal(runs, ruleCount, b);
        } else if (auto ok = decideThrough(*limiter, runs, ruleCount, b, requests, local); !ok) {
            return ok.error();
        }
        decideForeign(runs, ruleCount, b);
        done += m;
        if (options.progress) {
            options.progress(Progress{qint64(done), out.total, arrivals[done - 1].tUs});
        }
    }

    finishRuns(runs, out);
    out.processed = qint64(done);
    out.wallSeconds = double(wall.nsecsElapsed()) / 1e9;
    return out;
}

Result<SimResult> Simulator::runLocal(const RunOptions &options) const
{
    return runWith(nullptr, options, u"local"_s);
}

} // namespace sluice::sim
