#pragma once

#include "keyinfo.h"
#include "statedecoder.h"

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/rules/keymap.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>

#include <deque>
#include <memory>
#include <optional>
#include <vector>

namespace sluice::keys {

// Reads of a key's value that prove its type, sent instead of TYPE (KeyReader::setTypedReads):
// for a key without a rule whose type can be told before it is read (its name, or keys of its
// shape read before), the reader sends PTTL and these reads; a reply of that type proves the
// type (a WRONGTYPE refuses any other), so the key costs the commands its value needs and no
// TYPE. When they prove nothing, the key comes back with an empty KeyInfo::type, for the
// caller to read with TYPE.
class TypedReads
{
public:
    virtual ~TypedReads() = default;
    // What to read of `key` for the type it likely has (0: nothing: TYPE as usual).
    virtual char guess(const QByteArray &key) = 0;
    // Appends the reads of a guess (nothing is sent).
    virtual void append(Connection &c, const QByteArray &key, char guess) = 0;
    // Reads their replies, in order: the type they proved, or empty. `nowUs`: the batch's TIME;
    // `exists`: its PTTL (read first) found it, so that it is delivered.
    virtual Result<QByteArray> collect(Connection &c, const QByteArray &key, char guess,
                                       qint64 nowUs, bool exists) = 0;
};

// Reads keys into KeyInfo values: TYPE, PTTL and the rule's state of every key of a batch in
// ONE pipelined round trip, then the rule (rules::KeyMap), the decoded state (statedecoder.h)
// and the verdict (keyhealth.h). KeyScanner uses it for each SCAN page; on its own it is the
// refresher of the Keys page's visible rows (read(), once a second).
//
// Two ways to read, the same results:
// - Script (the default when the server allows it): a small read-only script, EVALSHA'd for
//   `scriptBatch` keys at a time. Each key's TYPE, PTTL and state are one atomic snapshot,
//   and the size guards run in
//   Redis: a string is read with GETRANGE up to the cap (a 512 MB value costs nothing), a
//   hash field longer than the cap is never copied (HSTRLEN first), a sorted set is read as
//   counts and two scores, never whole.
// - Plain (the fallback when scripts are refused, e.g. an ACL user without @scripting): TYPE,
//   PTTL, the layout's reads and a closing PTTL as separate pipelined commands (the closing
//   PTTL tells a key that expired between TYPE and its reads from a malformed one). Strings
//   and sorted sets are guarded the same way; hash fields are read with HMGET, whole (a
//   limiter hash holds numbers; a huge field is reported, but it crossed the wire).
//   Measured on 1,000,000 keys: plain costs Redis ~40% less CPU per key (5.9 s against
//   9.5 s of Redis CPU for the million, tools/bench-keys.sh).
// Mode::Auto reads with the script when the server allows it, except in bulk (setBulk(): a
// KeyScanner's SCAN pages), where plain commands are the default: a scan of a million keys
// is then bounded by what Redis does per key, as the design's "TYPE + PTTL pipelined per
// page" (ANCHORS.md 5), and the small reads of visible rows keep the script's atomic
// snapshot and guards. Mode::Script forces the script for bulk reads too.
// Either way one TIME leads the batch: states are decoded at that instant, and sliding-log
// windows are counted from the server clock estimated before sending (off by a fraction of
// the round trip).
//
// Not thread-safe; one reader per thread (copies are cheap and share the rules).
class KeyReader
{
public:
    enum class Mode { Auto, Script, Plain };
    struct Options
    {
        Mode mode = Mode::Auto;
        qint64 valueCap = 256; // bytes of a string or hash field read at most (>= 64)
        // Script mode: keys per EVALSHA (the call's own cost is shared; Redis runs one call
        // for a few hundred us at most). 1 for Redis Cluster, where a call's keys must share
        // a slot.
        int scriptBatch = 100;
    };

    // `rules` nullopt: no rules were given: keys are judged by their TTL only (no_ttl or ok),
    // without rule, subject or decoded state. An empty set is a set: every key is an orphan.
    KeyReader(std::optional<RuleSet> rules, Options options);
    explicit KeyReader(std::optional<RuleSet> rules = std::nullopt);

    bool haveRules() const;
    const RuleSet &rules() const; // empty when there are none
    // The rule producing `key`, and its subject; nullptr when none (or no rules).
    const Rule *ruleFor(const QByteArray &key, QByteArray *subject = nullptr) const;

    // SCAN MATCH patterns covering every rule's keys: one "<key_prefix>*" per prefix that no
    // shorter prefix covers, glob characters escaped; "rate_limit:*" without rules.
    QList<QByteArray> defaultPatterns() const;

    // Resolves Mode::Auto on this connection: SCRIPT LOAD the read script, or fall back to
    // plain reads if the server refuses it; then reads the server clock. Again after a
    // reconnect. Returns the round trips it took (1 or 2).
    Result<int> prepare(Connection &c);
    Mode mode() const { return m_mode; }
    // Bulk reads (KeyScanner sets it): Mode::Auto then resolves to Plain at prepare().
    void setBulk(bool bulk) { m_bulk = bulk; }
    // Plain reads of keys without a rule (or adoption) prove their type by reading their value
    // where `typed` can guess it (TypedReads); nullptr: TYPE for every key. Not owned.
    void setTypedReads(TypedReads *typed) { m_typed = typed; }

    // Queues the reads of `keys` on `c` as one batch (nothing is sent: KeyScanner appends them
    // behind its SCAN, so that a page costs one round trip). Batches queue up: KeyScanner
    // appends a page's reads before the previous page's are collected, and collect() reads
    // the oldest. prepare() must have succeeded.
    void append(Connection &c, const QList<QByteArray> &keys);
    // Reads the replies of the oldest batch appended and not collected, in order, one KeyInfo
    // per key; gone keys come back with exists() == false. A transport error fails the batch
    // and forgets every batch (the connection is then broken, their replies lost with it); a
    // NOSCRIPT (the script cache was flushed) fails it with kind NoScript after all its
    // replies were read, so that the caller can prepare() again and retry.
    Result<QList<KeyInfo>> collect(Connection &c);
    // Reads the replies of the oldest batch and drops them: its keys are to be read again
    // (nothing of them is judged, and TypedReads keeps nothing). Fails only when the replies
    // could not be read (a transport error: every batch is then forgotten).
    Result<void> skip(Connection &c);
    // Forgets every batch not collected: the connection was lost with their replies.
    void dropPending() { m_batches.clear(); }

    // append() + collect() in one round trip, preparing first if needed and retrying once on
    // NOSCRIPT: the refresher.
    Result<QList<KeyInfo>> read(Connection &c, const QList<QByteArray> &keys);

    // A string where the rule keeps a hash or a sorted set is wrong_type, unless it is a plain
    // counter (an integer: the GET/INCR/EXPIRE limiter the rule replaced, still writing or
    // left behind). Such a counter without TTL, or with one longer than the rule can need, is
    // judged no_ttl / ttl_exceeds_rule instead, with the rule's TTL to repair it (once it
    // expires, the rule's script rebuilds its own state). Reads the strings of `keys` judged
    // wrong_type (one pipelined round trip, none when there is no such key) and updates them.
    // Returns the keys whose verdict changed: their index and their verdict before.
    Result<QList<std::pair<qsizetype, Health>>> reviewStringCounters(Connection &c,
                                                                     QList<KeyInfo> &keys) const;
    // (The same read decodes adopted keys, FORMATS.md "adopt": a counter's value against the
    // adopted limit, or wrong_type when the key does not hold the adopted layout's value.)
    static bool mayBeStringCounter(const KeyInfo &k)
    {
        return k.health == Health::WrongType && k.type == "string";
    }
    static bool needsValue(const KeyInfo &k) { return !k.adoptedAs.isEmpty() && k.exists(); }
    static bool needsReview(const KeyInfo &k) { return mayBeStringCounter(k) || needsValue(k); }
    // Allowance on an adopted window: the libraries EXPIRE in whole seconds.
    static constexpr qint64 adoptSlackMs = 1000;

    // The verdict for one key as read (public for tests and for the fixer's re-checks).
    KeyInfo judge(const QByteArray &key, const RawRead &raw) const;
    // After collect(): true once if a script chunk was refused with NOPERM (a key outside the
    // user's ACL, or a command it may not run) in Auto mode; the reader then reads with plain
    // commands, and the caller reads that batch again (its refused keys are then unreadable
    // one by one, the others read).
    bool takePermissionRefusal();
    // A key whose read failed with an error reply: pttlMs -3, state Unreadable with the reason,
    // Health::Unreadable (with a rule); `permission`: refused by the ACL, said as "unreadable
    // (permission)".
    KeyInfo unreadKey(const QByteArray &key, const QString &why, bool permission = false) const;

private:
    struct Index;
    struct Pending
    {
        QByteArray key;
        char layout = 0; // 0 (TYPE + PTTL only), 'h', 'z', 's'
        char typed = 0;  // a TypedReads guess: PTTL and its reads instead of TYPE + PTTL
        const Rule *rule = nullptr;
        QByteArray subject;
        const Policy *policy = nullptr; // an override limit's; nullptr: the rule's
        bool override = false;
    };
    // The rule of `key` and, for an override limit's key, that override's policy (nullptr when
    // the override has ended: the rule's then).
    const Rule *ruleFor(const QByteArray &key, QByteArray *subject, bool *override,
                        const Policy **policy) const;
    // The reads of one append(), in the mode they were sent in.
    struct Batch
    {
        std::vector<Pending> keys;
        std::vector<int> chunks; // script mode: keys per EVALSHA
        Mode mode = Mode::Plain;
    };
    KeyInfo judge(const Pending &p, const RawRead &raw) const;
    // collect(), script mode: the reply of the current EVALSHA and where in it the next key is.
    struct ChunkCursor
    {
        Connection::RawReply reply;
        size_t index = 0;                // of the next chunk
        size_t inChunk = 0;              // the next key's entry
        size_t size = 0;                 // keys of the current chunk
        std::optional<Error> firstError; // NOSCRIPT or no EVALSHA_RO: said once all is read
    };
    // One key's replies into `raw`. True: `raw` is to be judged; false: the key is done (an
    // unreadable key was added to `out`, or its chunk failed as a whole). `keep` false: the
    // batch is skipped (nothing is noted of it).
    Result<bool> collectScriptKey(Connection &c, const Batch &batch, const Pending &p,
                                  ChunkCursor &chunk, RawRead &raw, QList<KeyInfo> &out, bool keep);
    Result<bool> collectTypedKey(Connection &c, const Pending &p, RawRead &raw, QList<KeyInfo> &out,
                                 bool keep);
    Result<bool> collectPlainKey(Connection &c, const Pending &p, RawRead &raw,
                                 QList<KeyInfo> &out) const;
    Result<QList<KeyInfo>> collectBatch(Connection &c, bool keep);
    void appendReads(Connection &c, const Pending &p, const QList<QByteArray> &fields,
                     const QByteArray &lo, const QByteArray &capEnd);
    qint64 estimatedServerNowUs() const;

    std::shared_ptr<const Index> m_index;
    Options m_options;
    Mode m_mode = Mode::Auto; // resolved by prepare()
    bool m_prepared = false;
    bool m_bulk = false;
    TypedReads *m_typed = nullptr;
    std::deque<Batch> m_batches;        // appended, not collected: the oldest first
    Mode m_collectedMode = Mode::Plain; // of the last batch collected
    bool m_permissionRefused = false;   // collect(): a script chunk was refused with NOPERM
    // The server clock, estimated from the last TIME and a local steady clock.
    QElapsedTimer m_steady;
    qint64 m_serverMinusSteadyUs = 0;
};

} // namespace sluice::keys
