#pragma once

#include "keyinfo.h"

#include "core/rules/rule.h"

#include <QByteArray>
#include <QList>

#include <optional>

// From what Redis returned for one key to a KeyState, per the state layouts of lua/README.md.
// Pure functions: no I/O, so every layout and every malformed value is tested without Redis.
namespace sluice::keys {

// One key as read (KeyReader fills it from the read script or from plain commands). Values
// are capped: a string or a hash field longer than the cap is never transferred, only its
// length.
struct RawRead
{
    QByteArray type;    // TYPE: "hash", "zset", "string", ...; "none" when gone
    qint64 pttlMs = -2; // PTTL
    qint64 nowUs = 0;   // server TIME of the read, us
    // True when the reads of the rule's layout ran on a value of the expected type.
    bool stateRead = false;

    // string (gcra): STRLEN, and at most `cap` bytes from the start.
    qint64 strlen = 0;
    QByteArray head;
    // hash: how many of the layout's fields are present, and one slot per field of
    // hashFields(): the value (nullopt: absent), or, when the value is longer than the cap,
    // only its length in fieldLength.
    qint64 hlen = 0;
    QList<std::optional<QByteArray>> fields;
    QList<qint64> fieldLength; // 0, or the length of a field that was too long to read
    // zset (sliding_log): ZCARD, ZCOUNT (now-W +inf, the oldest score in the window, the newest.
    qint64 zcard = 0;
    qint64 zInWindow = 0;
    std::optional<QByteArray> oldestScore;
    std::optional<QByteArray> newestScore;
};

// The Redis type each algorithm keeps its state in: "hash", "zset" or "string".
QByteArray expectedType(Algorithm a);
// The hash fields of a hash layout (fixed_window: s c; sliding_counter: s c p; buckets: l t);
// empty for the others.
const QList<QByteArray> &hashFields(Algorithm a);

// Decodes `raw` as `rule`'s state at raw.nowUs. Kind Unreadable (with a problem in words)
// when the type is not the rule's, a field is missing, malformed or out of range, or the rule
// itself is invalid; kind None when the key is gone.
KeyState decode(const Rule &rule, const RawRead &raw);
// The same with rule.policy() already built and validated (KeyReader does it once per rule).
KeyState decode(const Rule &rule, const Policy &validPolicy, const RawRead &raw);

// "512 B", "20 MB" (powers of 1024, one decimal under 10).
QString formatBytes(qint64 bytes);

} // namespace sluice::keys
