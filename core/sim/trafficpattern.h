#pragma once

#include "core/common/duration.h"
#include "core/rules/rule.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QtGlobal>

#include <memory>
#include <optional>
#include <random>
#include <vector>

namespace sluice::sim {

// A simulation offers at most this many requests: 10^12 is refused up front, with the field
// that asks for it, instead of exhausting memory (16 bytes per request, ~800 MB at the cap).
inline constexpr qint64 maxOffered = 50'000'000;
// Generated subjects: 10.0.0.1, 10.0.0.2, ... (see Subjects).
inline constexpr qint64 maxSubjects = 1'000'000;

// One request offered to every rule of a scenario: when (virtual microseconds since the start
// of the scenario) and by whom (an index into Subjects).
struct Arrival
{
    qint64 tUs = 0;
    quint32 subject = 0;
    friend bool operator==(const Arrival &, const Arrival &) = default;
};

// The subjects of a run: the first `generated` are the scenario's "subjects" (named like client
// addresses, 10.0.0.1 upwards, so that per-IP rules read naturally), then any named by a pattern
// or a replay file. A name that spells a generated subject is that subject.
class Subjects
{
public:
    explicit Subjects(qint64 generated = 1)
        : m_generated(generated)
    {}
    qint64 generated() const { return m_generated; }
    qint64 size() const { return m_generated + m_named.size(); }
    quint32 intern(const QByteArray &name);
    QByteArray name(quint32 index) const;
    // "10.a.b.c" for generated subject i (i + 1 = a * 65536 + b * 256 + c).
    static QByteArray generatedName(qint64 index);

private:
    qint64 m_generated;
    QList<QByteArray> m_named;
    QHash<QByteArray, quint32> m_index;
};

// A replay file, read: times (microseconds since the start of the scenario) and subjects
// (indices into `names`, or -1 where the line gives none).
struct Trace
{
    std::vector<qint64> timesUs;
    std::vector<qint32> subjects;
    QList<QByteArray> names;
};

// Reads a replay CSV: one request per line, "<time>,<subject>" or "<time>". The time is in
// milliseconds (decimals down to the microsecond: 9900.5) unless the first line is the header
// "t_us,subject" (or "t_us"), which makes it integer microseconds; a header "t_ms,subject" (or
// "t_ms") may name the default. Empty lines and lines starting with '#' are skipped. Anything
// else is an error naming file:line (at most `maxErrors`, then a count of the rest). `shownAs`
// is the file name diagnostics print. At most maxOffered requests and 1 GB.
struct TraceLoad
{
    Trace trace;
    QList<Diagnostic> errors;
};
TraceLoad loadTrace(const QString &path, const QString &shownAs, const QString &fieldPath,
                    int maxErrors = 20);

// The random source of a pattern: std::mt19937_64 (its sequence is fixed by the standard) with
// our own uniform and exponential draws (the std:: distributions differ between libraries), so
// a seed gives the same requests everywhere.
class Rng
{
public:
    explicit Rng(quint64 seed);
    quint64 next() { return m_engine(); }
    // Uniform in [0, 1), 53 random bits.
    double uniform() { return double(next() >> 11) * 0x1.0p-53; }
    // Uniform in [0, n), unbiased; n >= 1.
    quint64 below(quint64 n);

private:
    std::mt19937_64 m_engine;
};

// One entry of a scenario's "traffic" (FORMATS.md "Scenario file"). Times are microseconds
// since the start of the scenario; every request falls in [0, duration).
struct TrafficPattern
{
    enum class Kind {
        Constant, // `rate`, evenly spaced, in [from, to)
        Burst,    // `count` requests evenly spread over [at, at + spread) (spread 0: all at `at`)
        Poisson,  // `rate` on average, exponential gaps, in [from, to)
        Ramp,     // the rate goes linearly from `from_rate` to `to_rate` over [from, to)
        Replay,   // the requests of a CSV file (see loadTrace)
    };
    Kind kind = Kind::Constant;
    Rate rate;     // constant, poisson
    Rate fromRate; // ramp
    Rate toRate;   // ramp
    qint64 atUs = 0;
    qint64 count = 0;
    qint64 spreadUs = 0;
    qint64 fromUs = 0;
    std::optional<qint64> toUs; // unset: the scenario's duration
    // Every request of the pattern on this subject; empty: each request draws one of the
    // scenario's generated subjects uniformly (replay: the file's subject, else a draw).
    QByteArray subject;
    QString file;                       // replay: as written in the scenario
    std::shared_ptr<const Trace> trace; // replay: the file, read when the scenario is loaded

    static QString kindName(Kind kind);
    static std::optional<Kind> kindFromName(const QString &name);
    static QStringList kindNames();

    qint64 endUs(qint64 durationUs) const { return toUs.value_or(durationUs); }
    // How many requests the pattern offers: exact, except Poisson (its mean). A double, so that
    // absurd parameters (10^12 requests) compare with maxOffered without overflowing.
    double expectedCount(qint64 durationUs) const;
    // Appends the pattern's requests (in time order) to `out`. Fails only past maxOffered in
    // all (`out` included), which expectedCount() checks up front for all but Poisson.
    Result<void> generate(qint64 durationUs, Rng &rng, Subjects &subjects,
                          std::vector<Arrival> &out) const;
};

} // namespace sluice::sim
