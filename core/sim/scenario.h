#pragma once

#include "trafficpattern.h"

#include "core/rules/rule.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <vector>

namespace sluice::sim {

// A simulation (FORMATS.md "Scenario file"): traffic offered over a duration, the same to every
// rule, each rule deciding on its own as if it were alone, and how to measure the outcome.
struct Scenario
{
    QString name;
    QString description;
    qint64 durationUs = 0;
    quint64 seed = 1;
    qint64 binUs = 0;                               // time-series bin, a whole number of ms
    qint64 measureWindowUs = duration::usPerSecond; // the span of max_*_in_window
    qint64 subjects = 1;                            // generated subjects 10.0.0.1, ...
    std::vector<TrafficPattern> traffic;
    // Every rule is simulated, whatever its shadow and enabled flags: the question is what each
    // would do with this traffic.
    std::vector<Rule> rules;

    // The sum of the patterns' expectedCount().
    double expectedOffered() const;
};

// The requests of a scenario, generated: sorted by time (ties keep the pattern order, then the
// order in which each pattern made them), and the subjects they name.
struct Traffic
{
    std::vector<Arrival> arrivals;
    Subjects subjects;
};

namespace scenario {

// The default bin when a scenario has none: the smallest of 1ms, 10ms, 100ms, 1s, 10s, 1m, 10m,
// 1h that gives at most 1,000 bins.
qint64 defaultBinUs(qint64 durationUs);
inline constexpr qint64 maxBins = 1'000'000;

// Reading a scenario: every error (file:line:column, field path, what is expected), as the rule
// codec reports them; its rules are read by the rule codec itself. Replay files are read
// relative to `baseDir` (their errors name the replay file and line).
struct Loaded
{
    Scenario scenario;
    QList<Diagnostic> errors;
    bool ok() const { return errors.isEmpty(); }
};
Loaded parseJson(const QByteArray &bytes, const QString &file, const QString &baseDir = {});
Loaded parseYaml(const QByteArray &bytes, const QString &file, const QString &baseDir = {});
// By extension (.json, .yaml, .yml); at most 64 MB.
Loaded loadFile(const QString &path);
// "preset:<name>" or a file path.
Loaded load(const QString &spec);

// The presets shipped in resources/scenarios (embedded as :/scenarios/<name>.json).
QStringList presetNames();
Loaded preset(const QString &name);

// Checks the whole of a scenario built in code (the parsers do it as they read): durations,
// spans inside the duration, rates, subjects, the request cap, bins, rules.
QList<Diagnostic> validate(const Scenario &s, const QString &file = {});

// Generates the requests. Fails past maxOffered (10^12 requests are refused before any is made).
Result<Traffic> generate(const Scenario &s);

} // namespace scenario
} // namespace sluice::sim
