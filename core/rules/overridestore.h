#pragma once

#include "rule.h"

#include "core/redis/connection.h"

#include <QByteArray>
#include <QList>
#include <QString>

namespace sluice::rules {

// Overrides kept in Redis beside a RuleStore's rules, changed without a new rule version
// (FORMATS.md "Stored overrides"): one string key per override,
//   <ns>rules:override:<rule id>:<subject|cidr|match>:<pattern>
// (listed through the index <ns>rules:overrides, a sorted set of those keys by end, whose TTL
// is the latest end: no keyspace scan) holding {"rule", "override" (the file's form, codec
// overrideToJson), "author", "added"}, with its end as the key's PEXPIREAT, so Redis removes it
// when it ends; an override with no end is the one key without a TTL, and only when asked for
// (`permanent`). Every change is published on the store's channel (<ns>rules:changed), so a
// RuleWatcher that follows overrides (serve) reloads them within a round trip. The keys share the
// rules' hash tag ({sluice}), one slot.
//
// Two writers: each override is its own key, so adding or removing different overrides at once
// loses nothing; adding one whose key exists is refused (with what is stored) unless `replace`.
class OverrideStore
{
public:
    explicit OverrideStore(QByteArray ns = "{sluice}:");

    struct Stored
    {
        QString ruleId;
        Override override; // expiresUs set from the key's end when it has one
        QString author;
        QString added; // ISO 8601 UTC, the server's clock
        QByteArray key;
        qint64 pttlMs = -1; // -1: no TTL (a permanent override)
    };

    struct AddOptions
    {
        bool replace = false;   // overwrite an override with the same rule and match
        bool permanent = false; // allow an override without an end (no TTL on its key)
        QString author;         // empty: the OS user
    };
    // Stores `o` for `rule` (validated against it: the caller pulled the rule from the store).
    // A ttl becomes an end counted from the server's clock. Without an end and without
    // `permanent`, refused (Invalid). Returns what was stored.
    Result<Stored> add(Connection &c, const Rule &rule, Override o,
                       const AddOptions &options) const;
    // Removes the override of `ruleId` matching `kind` + `pattern`; false when there was none.
    Result<bool> remove(Connection &c, const QString &ruleId, Override::Kind kind,
                        const QString &pattern) const;
    // Every stored override (of `ruleId` only, when given), sorted by rule, then as the matcher
    // ranks them. What is stored but not returned (overrides of rules that `rules` does not
    // hold, values that do not read as overrides of them, an index of the wrong type or past
    // maxStored) is said in *stale (at most 20 lines and a count), naming the key and the repair;
    // only a failed connection or command is an error.
    Result<QList<Stored>> list(Connection &c, const RuleSet &rules, const QString &ruleId = {},
                               QStringList *stale = nullptr) const;

    // The stored overrides put into `set`: each rule's stored ones before its own (a live
    // change wins over the file's override of the same subject).
    static void merge(RuleSet &set, const QList<Stored> &stored);

    QByteArray keyFor(const QString &ruleId, Override::Kind kind, const QString &pattern) const;
    // The index: a sorted set of the override keys by end (see overridestore.cpp).
    QByteArray indexKey() const { return m_ns + "rules:overrides"; }
    QByteArray channel() const { return m_ns + "rules:changed"; }

    // The cap: add() refuses one more (with the count); list() reads this many and says how
    // many it skipped past it.
    static constexpr qsizetype maxStored = 100'000;
    // The latest end of a stored override, from now, whether given as a ttl or a time: 100
    // years (36500d). An override that should never end is --permanent.
    static constexpr qint64 maxAheadUs = qint64(36'500) * 24 * 3600 * 1'000'000;

private:
    // The index's members (at most maxStored), in pages; an index of the wrong type or past
    // the cap is said in *said.
    Result<QList<QByteArray>> readIndex(Connection &c, QStringList *said) const;

    QByteArray m_ns;
};

} // namespace sluice::rules
