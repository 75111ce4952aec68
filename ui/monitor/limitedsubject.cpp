#include "limitedsubject.h"

#include "core/limiter/model.h"

#include <cmath>

namespace sluice::ui {

namespace {

using Kind = keys::KeyState::Kind;

// The model state the decoded numbers stand for at s.atUs (close enough for a wait in ms: a
// bucket level is rounded to a tick, a GCRA TAT to a microsecond).
std::optional<model::State> modelState(const keys::KeyState &s, const Rule &rule)
{
    switch (s.kind) {
    case Kind::FixedWindow:
        return model::State{model::FixedWindowState{s.startUs, s.count}};
    case Kind::SlidingCounter:
        return model::State{model::SlidingCounterState{s.startUs, s.count, s.previous}};
    case Kind::TokenBucket:
    case Kind::LeakyBucket: {
        const model::ReducedRate r = model::reduce(rule.rate);
        return model::State{
            model::BucketState{qint64(std::llround(s.level * double(r.p))), s.atUs}};
    }
    case Kind::Gcra:
        return model::State{model::GcraState{s.startUs, 0, 1}};
    default:
        return std::nullopt;
    }
}

} // namespace

std::optional<LimitedSubject> limitedSubject(const keys::KeyInfo &info, const Rule &rule,
                                             qint64 readAtMs)
{
    const keys::KeyState &s = info.state;
    if (!info.exists() || !info.hasRule() || s.kind == Kind::None || s.kind == Kind::Unreadable) {
        return std::nullopt;
    }
    if (s.remaining >= 1) {
        return std::nullopt;
    }
    LimitedSubject row;
    row.key = info.key;
    row.ruleId = info.ruleId;
    row.subject = info.subject;
    row.state = s.describe();
    row.pttlMs = info.pttlMs;
    row.readAtMs = readAtMs;
    if (s.kind == Kind::SlidingLog) {
        row.retryInMs = s.nextFreeMs;
    } else if (auto st = modelState(s, rule)) {
        const Policy policy = rule.policy();
        if (!policy.validate().ok()) {
            return std::nullopt;
        }
        const Decision d = model::apply(policy, *st, 1, s.atUs).decision;
        if (d.allowed) {
            return std::nullopt; // rounding put it just past the edge: admits now
        }
        row.retryInMs = d.retryAfterMs;
    }
    return row;
}

} // namespace sluice::ui
