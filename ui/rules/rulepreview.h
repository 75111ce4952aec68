#pragma once

#include "core/rules/rule.h"

#include <QByteArray>
#include <QString>

namespace sluice::ui {

// What a client of a rule would meet, computed in process by the scripts' twins
// (core/limiter/model.h) on a fresh subject: no Redis involved, so the editor can show it as
// the user types. Only for rules that passed validation.
struct RulePreview
{
    QByteArray key;            // <key_prefix><id>:{<subject>}
    QString policyHeader;      // RateLimit-Policy: "<id>";q=N;w=W (draft-10, ALGORITHMS.md)
    QString firstHeader;       // RateLimit: "<id>";r=R;t=T after the first request
    qint64 firstDelayMs = 0;   // leaky bucket: how long the first request waits in the queue
    bool denies = false;       // whether a burst of requests at one instant is ever refused
    QString retryAfter;        // Retry-After of the first refused request, seconds ("" if never)
    QString deniedHeader;      // RateLimit: "<id>";r=0;t=T on that refusal
    qint64 admittedAtOnce = 0; // how many requests of one instant pass before the first 429
};

// The subject a preview uses when the user typed none: one a scope would plausibly give.
QByteArray sampleSubject(const Scope &scope);

RulePreview previewRule(const Rule &rule, const QByteArray &subject);

} // namespace sluice::ui
