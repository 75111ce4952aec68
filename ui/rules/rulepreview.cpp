#include "rulepreview.h"

#include "core/limiter/headers.h"
#include "core/limiter/model.h"

namespace sluice::ui {

namespace {

// Any instant will do: the twins only compare times with each other.
constexpr qint64 nowUs = qint64(1'750'000'000) * 1'000'000;

QString text(const QByteArray &headerValue)
{
    return QString::fromLatin1(headerValue);
}

} // namespace

QByteArray sampleSubject(const Scope &scope)
{
    switch (scope.kind) {
    case Scope::Kind::Global:
        return QByteArrayLiteral("global"); // the simulator's subject of a global rule
    case Scope::Kind::Ip:
        return QByteArrayLiteral("203.0.113.7");
    case Scope::Kind::User:
        return QByteArrayLiteral("alice");
    case Scope::Kind::Header:
    case Scope::Kind::Param:
        break;
    }
    return QByteArrayLiteral("k-5f3a9c");
}

RulePreview previewRule(const Rule &rule, const QByteArray &subject)
{
    RulePreview out;
    const Policy p = rule.policy();
    out.key = p.keyFor(subject);

    // The strings a client reads are the service's (core/limiter/headers.h), not a copy.
    out.policyHeader = text(headers::policyHeaderValue(p));

    model::State state;
    const model::Outcome first = model::apply(p, state, 1, nowUs);
    out.firstHeader = text(headers::stateHeaderValue(p, first.decision));
    out.firstDelayMs = first.decision.delayMs;
    if (!first.decision.allowed) {
        out.denies = true;
        out.admittedAtOnce = 0;
    } else {
        // Spend what is left in one request, then ask once more at the same instant.
        qint64 admitted = 1;
        if (first.decision.remaining > 0) {
            const model::Outcome drain = model::apply(p, state, first.decision.remaining, nowUs);
            if (drain.decision.allowed) {
                admitted += first.decision.remaining;
            }
        }
        const model::Outcome next = model::apply(p, state, 1, nowUs);
        out.denies = !next.decision.allowed;
        out.admittedAtOnce = admitted;
        if (out.denies) {
            out.deniedHeader = text(headers::stateHeaderValue(p, next.decision));
            out.retryAfter = text(headers::retryAfterValue(next.decision));
        }
    }
    return out;
}

} // namespace sluice::ui
