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

// The part of an adopted key its glob's wildcards cover: "127.0.0.1-com.example.Hello" of
// "rate_limit:127.0.0.1-com.example.Hello-hello" for "rate_limit:*-hello" (the whole key when
// the glob has no literal ends to strip).
QByteArray adoptedSubjectOf(const QByteArray &key, const QByteArray &glob)
{
    static const QByteArray special("*?[\\");
    qsizetype head = 0;
    while (head < glob.size() && !special.contains(glob[head])) {
        ++head;
    }
    qsizetype tail = 0;
    while (tail < glob.size() - head && !special.contains(glob[glob.size() - 1 - tail]) &&
           glob[glob.size() - 1 - tail] != ']') {
        ++tail;
    }
    if (head + tail >= key.size() || !key.startsWith(glob.left(head)) ||
        !key.endsWith(glob.right(tail))) {
        return key;
    }
    return key.mid(head, key.size() - head - tail);
}

std::optional<LimitedSubject> adoptedSubject(const keys::KeyInfo &info, const Rule &rule,
                                             qint64 readAtMs)
{
    const keys::KeyState &s = info.state;
    if (s.kind != Kind::FixedWindow && s.kind != Kind::SlidingLog) {
        return std::nullopt; // not the adopted layout's value: the Keys page says wrong_type
    }
    LimitedSubject row;
    row.key = info.key;
    row.ruleId = info.ruleId;
    row.adoptedAs = info.adoptedAs;
    row.subject = rule.adopt ? adoptedSubjectOf(info.key, rule.adopt->match) : info.key;
    row.state = s.describe(false); // the Time left column says when
    row.pttlMs = info.pttlMs;
    row.readAtMs = readAtMs;
    row.limited = s.count >= s.limit;
    if (!row.limited && !row.neverExpires()) {
        return std::nullopt;
    }
    row.retryInMs = row.limited && info.pttlMs >= 0 ? info.pttlMs : -1;
    return row;
}

} // namespace

std::optional<LimitedSubject> limitedSubject(const keys::KeyInfo &info, const Rule &rule,
                                             qint64 readAtMs)
{
    const keys::KeyState &s = info.state;
    if (!info.exists() || !info.hasRule() || s.kind == Kind::None || s.kind == Kind::Unreadable) {
        return std::nullopt;
    }
    if (!info.adoptedAs.isEmpty()) {
        return adoptedSubject(info, rule, readAtMs);
    }
    if (s.remaining >= 1) {
        return std::nullopt;
    }
    LimitedSubject row;
    row.key = info.key;
    row.ruleId = info.ruleId;
    row.subject = info.subject;
    row.state = s.describe(false); // the Time left column says when
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
