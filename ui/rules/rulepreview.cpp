#include "rulepreview.h"

#include "limiter/model.h"

namespace sluice::ui {

namespace {

// Any instant will do: the twins only compare times with each other.
constexpr qint64 nowUs = qint64(1'750'000'000) * 1'000'000;

qint64 secondsUp(qint64 ms)
{
    return ms <= 0 ? 0 : (ms + 999) / 1000;
}

QString item(const QString &id, const QString &params)
{
    return QStringLiteral("\"%1\";%2").arg(id, params);
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

    // q: the quota; w: the seconds in which it is granted (the window, or the time a bucket
    // takes to fill from empty: q tokens at c/P per microsecond), at least 1.
    const qint64 q = p.capacity();
    qint64 wUs = p.windowUs;
    if (!algorithm::isWindow(p.algorithm)) {
        const model::ReducedRate r = model::reduce(p.rate);
        wUs = model::ceilDiv(q * r.p, r.c); // q * P < 2^52 (Policy::validate)
    }
    const qint64 w = std::max<qint64>(1, model::ceilDiv(wUs, 1'000'000));
    out.policyHeader = item(rule.id, QStringLiteral("q=%1;w=%2").arg(q).arg(w));

    model::State state;
    const model::Outcome first = model::apply(p, state, 1, nowUs);
    out.firstHeader = item(rule.id, QStringLiteral("r=%1;t=%2")
                                        .arg(first.decision.remaining)
                                        .arg(secondsUp(first.decision.resetAfterMs)));
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
            out.deniedHeader = item(rule.id, QStringLiteral("r=%1;t=%2")
                                                 .arg(next.decision.remaining)
                                                 .arg(secondsUp(next.decision.resetAfterMs)));
            if (next.decision.retryAfterMs >= 0) {
                out.retryAfter = QString::number(secondsUp(next.decision.retryAfterMs));
            }
        }
    }
    return out;
}

} // namespace sluice::ui
