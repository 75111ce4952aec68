#pragma once

#include "audit.h"
#include "keyscanner.h"

#include "core/redis/connection.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

#include <atomic>
#include <optional>

// `sluice-cli keys top` and the Monitor's "Other limiters": who another limiter holds back right
// now, read from its keys alone, read-only. Two samples of the keys of the layouts whose limit
// is known (layouts.h limitFrom: an adoption's limit, Spring Cloud Gateway's tokens left, a
// block key), each a `keys audit` pass over their globs (one SCAN walk, the globs matched on
// the keys it lists, one pipelined round trip of bounded reads per page, under CLIENT NO-TOUCH
// where the server has it), compared key by
// key: the level of each subject against its limit, and the requests its counter counted (and
// admitted, up to the limit) between the samples. Never writes to Redis; never KEYS, never a
// whole read of a large key (the audit's per-key bound). Keyspace notifications are not used
// (they need CONFIG SET): the resolution is the interval between the samples, and it is said.
namespace sluice::keys {

// One watched key as one sample read it.
struct WatchedKey
{
    QByteArray key;
    QLatin1String layout; // the layout's id (the table's static text: no copy per key)
    QString ruleId;       // the adopting rule (shared); empty when the key itself says the limit
    qint64 limit = 0;     // the adoption's limit; 0 when the key says (tokens, block keys)
    qint64 windowMs = -1;
    qint64 pttlMs = -2;
    qint64 readUs = 0;            // the server's TIME of the read
    std::optional<qint64> count;  // a counter's value, or a log's entries
    bool counter = false;         // `count` only grows within a window (INCR counters)
    bool orphanByName = false;    // the window is in the name: a new window is a new key
    std::optional<double> tokens; // Spring Cloud Gateway: tokens left at the last request
    bool blockKey = false;        // the key exists while its subject is blocked
};

struct WatchSample
{
    qint64 startUs = 0; // the server's TIME when the sample started
    qint64 endUs = 0;   // ... and when it ended
    QList<WatchedKey> keys;
    QList<QByteArray> patterns; // the globs matched (one SCAN walk for all of them)
    ScanSummary scan;
    qint64 roundTrips = 0;  // of the sample: the scan's and the value reads'
    bool truncated = false; // stopped at Options::maxKeys watched keys
    std::optional<Error> error;
};

// Where a subject stands against its limit now.
enum class WatchLevel {
    Under, // "under"
    Near,  // "near": at least Options::nearFraction of it
    At,    // "at": exactly at it (a counter), or no token left (Spring)
    Over,  // "over": above it (the counter counts the denied requests too), or blocked
};
QString watchLevelName(WatchLevel l);

// What happened to the key between the two samples.
enum class WatchChange {
    Steady,  // "steady": the same window in both
    New,     // "new": absent from the first sample; its count is everything since it appeared
    Reset,   // "reset": the window restarted (the count fell, or the TTL was set again);
             // the counts are a lower bound (what the old window got after the first sample
             // is not known)
    Expired, // "expired": gone in the second sample (expired or deleted); its last requests
             // are not known
};
QString watchChangeName(WatchChange c);

// Where a key stands and what its counter did between the two samples.
struct WatchFigures
{
    WatchLevel level = WatchLevel::Under;
    WatchChange change = WatchChange::Steady;
    // Requests the counter counted between the samples, and of them those admitted (the
    // counts up to the limit); -1: not known (no counter, no limit, expired).
    qint64 counted = -1;
    qint64 admitted = -1;
    double countedPerS = -1;
    double admittedPerS = -1;
    bool lowerBound = false; // Reset: at least these
};

struct WatchedSubject : WatchFigures
{
    WatchedKey now; // Expired: the first sample's read
};

struct WatchReport
{
    qint64 intervalMs = 0; // between the two samples' starts (server time)
    // Watched subjects, the most limited first (over, at, near, under), then by the requests
    // counted per second, then by count; expired keys last. At most compare()'s maxSubjects;
    // the figures below count them all.
    QList<WatchedSubject> subjects;
    qint64 watched = 0; // keys in the second sample
    qint64 expired = 0;
    bool truncated = false; // the second sample stopped at Options::maxKeys watched keys
    qint64 roundTrips = 0;  // of the second sample
    qint64 limitedCount = 0;
    qint64 nearCount = 0;
    // Sums over the subjects whose rate is known; -1 when none is.
    double admittedSum = -1;
    double countedSum = -1;
    qint64 limited() const { return limitedCount; } // over or at
    qint64 near() const { return nearCount; }
    double admittedPerS() const { return admittedSum; }
    double countedPerS() const { return countedSum; }
    // "sampled every 2 s": the interval in words.
    QString resolution() const;
};

class KeyWatcher
{
public:
    struct Options
    {
        QList<QByteArray> patterns; // empty: defaultPatterns(adoptions)
        QList<Adoption> adoptions;  // the limits of counters (a rule file's adopt blocks)
        KeyScanner::Options scan;   // its patterns and cancel are the watcher's
        const std::atomic<bool> *cancel = nullptr;
        qint64 maxKeys = 1'000'000; // watched keys kept per sample (memory: ~200 bytes each)
        double nearFraction = 0.8;
    };

    // The adoptions' globs, then those of the layouts whose key says the limit (Spring Cloud
    // Gateway's tokens, the block keys); a glob another one covers is dropped. One glob is the
    // MATCH of a SCAN walk; several are matched here, in one walk (MATCH *) of the keyspace.
    static QList<QByteArray> defaultPatterns(const QList<Adoption> &adoptions);

    // One pass over the patterns. Synchronous: run it in a worker. Only reads.
    static WatchSample sample(Connection &c, const Options &options);

    // The watched key of an audited one; nullopt when its limit is not known (or it is
    // Sluice's own: the Monitor's rules show those).
    static std::optional<WatchedKey> watchedOf(const AuditEntry &e);

    // Pure: where the key stands now.
    static WatchLevel levelOf(const WatchedKey &k, double nearFraction = 0.8);
    // Pure: the two samples compared key by key.
    // The subjects kept are the first `maxSubjects` (the figures count them all).
    static WatchReport compare(const WatchSample &before, const WatchSample &after,
                               double nearFraction = 0.8, qsizetype maxSubjects = 10'000);
};

} // namespace sluice::keys

Q_DECLARE_METATYPE(sluice::keys::WatchReport)
