#pragma once

#include "keyinfo.h"

#include "core/rules/rule.h"

#include <QString>

// The never-expires detector (ANCHORS.md section 4 item 2): which keys have a TTL problem, and
// the TTL each rule's state can need at most (FORMATS.md `keys`).
namespace sluice::keys {

// The longest a rule's state can mean anything, in us: the reset_after the script can answer
// at most, which is the TTL it sets (lua/README.md): W for fixed_window and sliding_log (the
// window, or the newest entry, ends within W), 2W for sliding_counter (the current count
// weighs until the end of the next window), B/r for token_bucket (empty to full) and
// leaky_bucket (full to empty), (burst + 1)/r for gcra (TAT - now <= DVT). Exact: the rate is
// reduced as the scripts reduce it.
qint64 maxStateUs(const Rule &rule);

// Allowance on top of ceil(maxStateUs / 1000) before a TTL counts as too long. The scripts
// set PEXPIRE ceil(reset_us / 1000) <= that ceiling, so PTTL never exceeds it; one ms covers
// Redis' own ms rounding of PEXPIRE against PTTL.
constexpr qint64 ttlSlackMs = 1;

// The TTL `keys fix` sets and the threshold of ttl_exceeds_rule: ceil(maxStateUs / 1000) ms.
// (The threshold adds ttlSlackMs.)
qint64 maxTtlMs(const Rule &rule);

// The verdict for one key. `rule` null: no rule produces the key; `haveRules` false: no rule
// set was given at all, so only the TTL can be judged (no orphans, no ttl_exceeds_rule).
// `stateReadable`: the value is the rule's state (type and contents).
Health classify(qint64 pttlMs, const Rule *rule, bool haveRules, bool stateReadable);

// Counts for the health banner and the CLI summary.
struct HealthSummary
{
    qint64 keys = 0;        // keys judged (gone keys are not counted)
    qint64 limiterKeys = 0; // keys a rule produces (without rules: every key judged)
    qint64 ok = 0;
    qint64 noTtl = 0;
    qint64 noTtlOwnClock = 0; // of those, keys whose state resets by its own clock
                              // (KeyInfo::resetsByOwnClock): they hold memory, they block nobody
    qint64 ttlExceedsRule = 0;
    qint64 orphans = 0;
    qint64 wrongType = 0;
    qint64 unreadable = 0; // Health::Unreadable: not judged (not a problem found, not ok)
    qint64 refused = 0;    // of those, refused by the user's ACL (NOPERM)
    QString grant;         // what to grant for them ("ACL SETUSER <user> %R~rate_limit:*"), the
                           // first refusal's (redis::grantOf)

    void add(const KeyInfo &info);
    void add(const HealthSummary &other);
    void remove(const KeyInfo &info); // undoes add(info): a verdict revised after the count
    qint64 fixable() const { return noTtl + ttlExceedsRule; }
    qint64 problems() const { return noTtl + ttlExceedsRule + orphans + wrongType; }
    // Keys without TTL that can block their subject until someone deletes them.
    qint64 noTtlBlocking() const { return noTtl - noTtlOwnClock; }
    // The banner: "37 limiter keys never expire: ..." first (the worst), then the other
    // problems, then the unreadable keys; "all 1,234 limiter keys are healthy" when there are none.
    // One line.
    QString headline() const;
};

} // namespace sluice::keys

Q_DECLARE_METATYPE(sluice::keys::HealthSummary)
