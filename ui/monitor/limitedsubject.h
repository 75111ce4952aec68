#pragma once

#include "core/keys/keyinfo.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <optional>

namespace sluice::ui {

// One row of the Monitor page's "Limited right now": a subject whose limiter state, decoded
// from its key, admits nothing now (a request of cost 1 would be denied), and for how long.
struct LimitedSubject
{
    QByteArray key; // the state key, raw bytes (what Unblock deletes)
    QString ruleId;
    QByteArray subject;
    QString state;         // KeyState::describe(false): "3 / 3 in this window (full)"
    qint64 retryInMs = -1; // until a request of cost 1 is admitted again; -1: never (cost >
                           // capacity) or unknown
    qint64 pttlMs = -1;    // the key's TTL when read
    qint64 readAtMs = 0;   // local wall clock (ms since the epoch) of the read
    // Another limiter's key that rule `ruleId` adopts (FORMATS.md "adopt"): its layout id,
    // and whether it is at its limit now (an adopted key that never expires is listed even
    // below it: once full, it denies forever).
    QString adoptedAs;
    bool limited = true;
    bool neverExpires() const { return !adoptedAs.isEmpty() && pttlMs == -1; }

    // A per-subject override of the rule that decides for this subject now (FORMATS.md
    // "overrides"), from the rule file or stored in Redis (OverrideStore): an allow admits the
    // next request whatever the key holds (`limited` false), a deny refuses it until the
    // override ends (`limited` true, even with no key), a limit of its own decides on another
    // key (`limited` false for the rule's key). Set by the Monitor worker.
    std::optional<Override::Action> overrideAction;
    qint64 overrideEndMs = 0; // when it ends, ms since the epoch; 0: never
    bool overrideStored = false;
    QString overrideMatch; // "subject 10.1.2.3", "cidr 10.0.0.0/8"
    QString overrideLimit; // Action::Limit: "100 per 1m"
    QString overrideNote;
};

// The row for `info` if its decoded state denies a cost-1 request at the instant it was read
// (KeyState::atUs), with the wait computed by the script's own arithmetic (core/limiter/model.h)
// from the decoded state; nullopt for keys that admit, are unreadable, gone or without rule.
// `rule` is info.ruleId's rule.
// An adopted key (info.adoptedAs) is decoded against the adoption's limit: it is listed when
// its count is at that limit (the wait: its TTL) or when it never expires.
std::optional<LimitedSubject> limitedSubject(const keys::KeyInfo &info, const Rule &rule,
                                             qint64 readAtMs);

} // namespace sluice::ui

Q_DECLARE_METATYPE(sluice::ui::LimitedSubject)
