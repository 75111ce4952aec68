#pragma once

#include "rule.h"

#include "core/redis/connection.h"

#include <QByteArray>
#include <QString>

namespace sluice::rules {

// Rules kept in Redis, versioned (FORMATS.md `rules push/pull`):
//   <ns>rules          hash: rule id -> the rule as compact JSON (codec ruleToJson)
//   <ns>rules:version  integer, incremented by every change
//   <ns>rules:history  list of the last 100 changes (JSON: version, time, added, changed,
//                      removed), newest first, for conflict messages
//   <ns>rules:changed  pub/sub channel: the new version is published after every change
// The default namespace <ns> is "{sluice}:": a Cluster hash tag, so the three keys share one
// slot and the atomic scripts that touch them all work on Redis Cluster. A push is one atomic step:
// the store is never seen half-updated, and an invalid set is never written.
class RuleStore
{
public:
    explicit RuleStore(QByteArray ns = "{sluice}:");

    struct Snapshot
    {
        qint64 version = 0; // 0: nothing was ever pushed
        RuleSet set;        // set.basedOn = version
    };
    Result<Snapshot> pull(Connection &c) const;

    struct PushResult
    {
        qint64 version = 0; // the version now stored
        QStringList added, changed, removed;
        bool unchanged() const { return added.isEmpty() && changed.isEmpty() && removed.isEmpty(); }
    };
    // Replaces the stored rules with `set`. Unless `force`, fails with a conflict error when the
    // store's version is newer than set.basedOn (a set without basedOn conflicts with any
    // non-empty store); the error (kind Conflict) says which versions changed what since then.
    Result<PushResult> push(Connection &c, const RuleSet &set, bool force) const;

    QByteArray hashKey() const { return m_ns + "rules"; }
    QByteArray versionKey() const { return m_ns + "rules:version"; }
    QByteArray historyKey() const { return m_ns + "rules:history"; }
    QByteArray channel() const { return m_ns + "rules:changed"; }

private:
    QByteArray m_ns;
};

} // namespace sluice::rules
