#pragma once

#include "logformat.h"

#include "core/limiter/limiter.h"
#include "core/redis/endpoint.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <atomic>
#include <functional>
#include <optional>
#include <string_view>
#include <vector>

// Replay: real access logs through candidate rules on their time line (FORMATS.md "replay").
// The log is streamed (memory grows with the subjects, not the lines), each line parsed from
// its bytes, its subjects hashed once per scope, the requests put back in time order within a
// bounded window and decided by every rule whose route they match: by the twins' arithmetic
// (model::apply on a state per rule and subject, as the simulator's in-process run), or by
// any Limiter (the scripts in Redis: runOnRedis).
namespace sluice::replay {

inline constexpr int maxTopSubjects = 20;
// The subjects with the highest peaks each rule keeps (RuleReport::heavy), whatever the log.
inline constexpr size_t heavyBudget = 1024;

struct Progress
{
    qint64 lines = 0;      // lines read, every file
    qint64 bytes = 0;      // bytes of the files consumed (compressed bytes for a .gz)
    qint64 totalBytes = 0; // the files' sizes
    int file = 0;          // index of the file being read
};

struct Options
{
    QStringList files;
    Format format = Format::Auto;
    QString logFormat;                     // nginx log_format (format NginxCustom)
    QList<QPair<QString, QString>> fields; // json: role -> key
    int trustProxies = 0;                  // X-Forwarded-For hops to skip from the right
    QStringList trustedCidrs;              // or: skip the hops inside these networks
    qint64 reorderWindowUs = 5'000'000;    // lines out of order by at most this are reordered
    RuleSet rules;
    std::optional<RuleSet> against; // a second set, side by side
    QList<qint64> candidates;       // extra candidate limits for the suggestion
    // Backend: nullptr = the twins in process; else the decisions go through this Limiter
    // (batched), on keys <keyPrefix><rule id>:{<subject>}.
    Limiter *limiter = nullptr;
    QByteArray keyPrefix = "replay:";
    qint64 minTtlMs = 0;    // passed with every decision (Redis: the keys outlive the run)
    qint64 wallLimitMs = 0; // a run taking longer stops with a timeout (0: none)
    int batch = 512;        // decisions per Limiter::decideBatch
    // Distinct subjects per scope before the run stops (Report::error, the report covering
    // the lines before); 0: half the memory there is over the bytes a subject takes.
    qint64 maxSubjects = 0;
    // 0: read and decide on two threads when the machine has two cores, the twins decide and
    // no onDecision is given; 1: everything on the run's thread (the same report either way).
    int threads = 0;
    std::function<void(const Progress &)> progress; // every 65,536 lines, on the run's thread
    const std::atomic<bool> *cancel = nullptr;      // checked with the progress
    // Every decision in order (tests): the rule's index in Report::rules then ::against.
    std::function<void(int rule, qint64 tUs, std::string_view subject, const Decision &)>
        onDecision;
};

struct LineNote
{
    QString file;
    qint64 line = 0;
    QString reason;
    QString sample; // the start of the line, printable
};

struct DeniedSubject
{
    QByteArray subject;
    qint64 requests = 0;
    qint64 denied = 0; // shadow denials included for a shadow rule
    qint64 firstUs = 0;
    qint64 lastUs = 0;
};

struct Candidate
{
    qint64 limit = 0;
    QString source;          // "rule", "p90", "p99", "p99.9", "given"
    qint64 subjects = 0;     // subjects whose peak is above the limit
    double subjectShare = 0; // of the subjects seen
    qint64 requests = 0;     // requests a fixed window of the rule's window would deny
    double requestShare = 0; // of the requests matched
};

// A subject among a rule's highest peaks: its peak, requests and its largest fixed-window
// counts (at most PeakTop::windowsKept distinct ones), which give the requests any limit would deny
// it.
struct HeavySubject
{
    QByteArray subject;
    qint64 peak = 0;
    qint64 requests = 0;
    // (window count, windows with it): the largest distinct counts, largest first.
    std::vector<std::pair<quint32, quint32>> windows;
    qint64 floor = 0; // every other window count is at most this
};

// The subjects a candidate limit would deny (RuleReport::wouldDeny).
struct WouldDeny
{
    struct Subject
    {
        QByteArray subject;
        qint64 peak = 0;
        qint64 requests = 0;
        qint64 denied = 0; // requests a fixed window of the limit denies it
    };
    std::vector<Subject> subjects; // most denied first
    qint64 above = 0;              // subjects whose peak is above the limit, all of them
    // The names or counts are estimates: more subjects are above the limit than the report
    // kept, or a kept subject has more windows above it than were kept.
    bool approximate = false;
};

struct RuleReport
{
    QString id;
    QString set;         // "rules" or "against"
    QString stagedOf;    // a staged change's candidate of this rule (shadow, its id <id>@staged)
    QString description; // Rule::describe()
    QString route;
    QString scope;
    bool shadow = false;
    bool skipped = false;
    QString skipReason; // why the log cannot give what the rule needs
    qint64 matched = 0;
    qint64 decided = 0;
    qint64 admitted = 0;
    qint64 denied = 0;
    qint64 shadowDenied = 0;
    qint64 noSubject = 0;           // matched, but the line has no subject for the scope ("-")
    qint64 subjectTooLong = 0;      // a subject longer than maxSubjectBytes: not decided
    qint64 overrides = 0;           // the rule's overrides, which the replay does not apply
    bool disabled = false;          // "enabled": false (skipped)
    qint64 subjects = 0;            // subjects seen
    qint64 subjectsDenied = 0;      // subjects denied at least once
    std::vector<DeniedSubject> top; // at most 20, most denied first
    // Denials (shadow ones included) per bin, from Report::firstUs; the bin is Report::binUs.
    std::vector<qint64> deniedPerBin;
    // The log's own status codes, where it has them.
    bool hasStatus = false;
    qint64 log429 = 0;       // matched requests the log shows as 429
    qint64 log429Denied = 0; // ... which the rule denies too
    qint64 deniedNot429 = 0; // denied by the rule, not 429 in the log
    // The suggestion: each subject's peak (the most requests in any window of windowUs
    // starting on a multiple of windowUs / 10), its distribution and candidate limits.
    qint64 windowUs = 0;
    qint64 limit = 0; // the rule's limit, or its burst capacity for a bucket rule
    qint64 p50 = 0, p90 = 0, p99 = 0, p999 = 0, max = 0;
    std::vector<Candidate> candidates;
    std::vector<quint32> peaks;                            // sorted ascending
    std::vector<std::pair<quint32, quint64>> windowCounts; // (count, windows) ascending
    quint64 digest = 0;                                    // every decision of the rule, in order
    // The subjects with the highest peaks (at most heavyBudget), highest first; whether
    // others were let go on the way (their names and counts then partly estimated).
    std::vector<HeavySubject> heavy;
    bool heavyDropped = false;

    // The shares a limit would deny (what the console's draggable line shows).
    Candidate shares(qint64 candidateLimit) const;
    // The subjects that limit would deny, at most `count`, from `heavy`.
    WouldDeny wouldDeny(qint64 candidateLimit, int count = maxTopSubjects) const;
};

struct Comparison
{
    QString rule;
    bool comparable = true;
    QString why;          // when not: what differs
    qint64 onlyRules = 0; // subjects denied under --rules and not under --against
    qint64 onlyAgainst = 0;
    qint64 both = 0;
    QList<QByteArray> onlyRulesExamples; // at most 10, most denied first
    QList<QByteArray> onlyAgainstExamples;
};

struct Report
{
    QStringList files;
    QStringList formats; // per file
    QString backend = QStringLiteral("local");
    QByteArray keyPrefix;
    qint64 lines = 0; // lines read (empty ones included)
    qint64 parsed = 0;
    qint64 unparsed = 0; // lines that do not parse (too long ones included)
    qint64 tooLong = 0;
    qint64 unmatched = 0; // parsed lines no rule's route takes
    qint64 late = 0;      // out of order by more than the reorder window: not replayed
    qint64 reorderWindowUs = 0;
    // More than maxPendingRequests waited: requests decided before the reorder window passed
    // them, and seconds with whole-second times decided at their start instead of spread.
    qint64 decidedEarly = 0;
    qint64 maxSubjects = 0; // the cap the run had (--max-subjects)
    qint64 secondsNotSpread = 0;
    bool spread = false;            // some times had whole seconds: spread evenly over their second
    std::vector<LineNote> badLines; // the first 10
    std::vector<LineNote> lateLines; // the first 10
    // Lines far ahead of the lines before and after them (a clock jump the log does not
    // follow): not replayed, and never a reason to call the lines after them late.
    qint64 outliers = 0;
    std::vector<LineNote> outlierLines; // the first 10
    qint64 firstUs = 0;
    qint64 lastUs = 0;
    qint64 binUs = 60'000'000;
    std::vector<RuleReport> rules;
    std::vector<RuleReport> against;
    std::vector<Comparison> comparisons;
    bool cancelled = false;
    QString error;   // a file that ended early (a damaged .gz): the report covers the rest
    QString warning; // e.g. the Redis keys could not be removed
    double wallSeconds = 0;
};

inline constexpr int maxBadLinesShown = 10;
inline constexpr size_t maxSubjectBytes = 4096;
inline constexpr int maxRules = 64; // --rules and --against together
inline constexpr size_t maxBins = 10'000;
// Requests waiting to be put in time order (the reorder window, a second with whole-second
// times): past it the oldest are decided early (Report::decidedEarly).
// The state of one (rule, subject) with the twins, and what a subject takes besides (its
// entry in its scope's table, an id, its bytes on average): FORMATS.md "replay", measured by
// tools/bench-replay.sh.
inline constexpr size_t bytesPerRuleSubject = 128;
inline constexpr size_t bytesPerSubject = 112;
// A sliding-log rule keeps each subject's entries besides (model::SlidingLogState, a deque: its
// map and a first 512-byte block even for a single entry).
inline constexpr size_t bytesPerSlidingLogSubject = 1'200;
inline constexpr size_t maxPendingRequests = 262'144;

// Errors: Invalid for what the user gave (no file, a format that does not fit, more than half
// of the first 1,000 lines unparseable, bad flags, rules the log cannot serve at all); Io for
// an unreadable file; the Limiter's own errors. A damaged .gz is not an error of the run: the
// lines before the damage are replayed and Report::error says where it stopped.
Result<Report> run(const Options &options);

// The real scripts in Redis on the log's time line: a connection of its own, a fresh run
// prefix sluice:replay:<16 hex digits>:, min_ttl_ms 1 h, the keys deleted afterwards (after an
// error or a cancel too).
Result<Report> runOnRedis(Options options, const Endpoint &endpoint);

// The report as one JSON document (FORMATS.md "replay --json").
QByteArray toJson(const Report &report);
// The denials per bin as CSV: t_ms,set,rule,denied.
QByteArray deniedCsv(const Report &report);

} // namespace sluice::replay

Q_DECLARE_METATYPE(sluice::replay::Report)
