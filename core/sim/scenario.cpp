// Scenario files, JSON and YAML (FORMATS.md "Scenario file").
//
// The document is read by the rule codec (rules::parseEmbedding): the same syntax errors,
// repeated fields, YAML restrictions and positions as a rule file, and its "rules" array is
// built and validated by the rule codec itself. This file reads the scenario's own fields.
//
// Decisions (FORMATS.md leaves them open):
//  - Required: duration, traffic (at least one pattern), rules (at least one rule). Defaults:
//    name = the file's base name, seed 1, subjects 1, measure_window 1s, bin the smallest of
//    1ms, 10ms, ..., 1d giving at most 1,000 bins.
//  - "description" (optional): one line saying what the scenario shows (presets have one).
//  - Times may have decimals ("9.9s") as long as they are whole microseconds; offsets (at,
//    from, to) may be 0s, lengths (duration, bin, measure_window) may not; spread may be 0s.
//  - Each pattern takes only its own fields: constant and poisson rate [from to]; burst at
//    count [spread]; ramp from_rate to_rate [from to]; replay file [from to]; every pattern but
//    replay may pin its requests on one "subject". from defaults to 0s, to to the duration;
//    every request falls inside [0, duration).
//  - duration at most 30d, subjects 1 to 1,000,000, bin a whole number of milliseconds with at
//    most 1,000,000 bins, at most 50,000,000 requests in all (10^12 is refused up front).
//  - replay files are CSV (see loadTrace), resolved relative to the scenario file.
#include "scenario.h"

#include "core/common/bytes.h"
#include "core/rules/codec.h"
#include "core/rules/diagnostics.h"
#include "core/rules/jsonlocator.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonObject>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <climits>
#include <cmath>

using namespace Qt::StringLiterals;

namespace sluice::sim::scenario {

namespace {

constexpr qint64 maxDurationUs = 30 * duration::usPerDay;
const QString presetScheme = u"preset:"_s;
const QString presetDir = u":/scenarios"_s;

const QStringList topFields = {u"name"_s,     u"description"_s, u"duration"_s,
                               u"seed"_s,     u"bin"_s,         u"measure_window"_s,
                               u"subjects"_s, u"traffic"_s,     u"rules"_s};
const QStringList patternFields = {u"pattern"_s, u"rate"_s, u"at"_s,     u"count"_s,
                                   u"spread"_s,  u"from"_s, u"to"_s,     u"from_rate"_s,
                                   u"to_rate"_s, u"file"_s, u"subject"_s};

// The fields each pattern takes ("pattern" aside).
QStringList fieldsOf(TrafficPattern::Kind kind)
{
    using K = TrafficPattern::Kind;
    switch (kind) {
    case K::Constant:
    case K::Poisson:
        return {u"rate"_s, u"from"_s, u"to"_s, u"subject"_s};
    case K::Burst:
        return {u"at"_s, u"count"_s, u"spread"_s, u"subject"_s};
    case K::Ramp:
        return {u"from_rate"_s, u"to_rate"_s, u"from"_s, u"to"_s, u"subject"_s};
    case K::Replay:
        return {u"file"_s, u"from"_s, u"to"_s};
    }
    return {};
}

QStringList requiredOf(TrafficPattern::Kind kind)
{
    using K = TrafficPattern::Kind;
    switch (kind) {
    case K::Constant:
    case K::Poisson:
        return {u"rate"_s};
    case K::Burst:
        return {u"at"_s, u"count"_s};
    case K::Ramp:
        return {u"from_rate"_s, u"to_rate"_s};
    case K::Replay:
        return {u"file"_s};
    }
    return {};
}

// Paths as the rule codec writes them (a name that is not an identifier is quoted), so that
// the codec can place every error.
QString member(const QString &path, const QString &name)
{
    return rules::fieldpath::member(path, name);
}

QString element(const QString &path, qsizetype i)
{
    return rules::fieldpath::element(path, i);
}

using bytes::shortened;
using rules::diagnostic;
using rules::didYouMean;

// "9.9s", "250ms", "0s": microseconds, exactly; zero only when allowed.
Result<qint64> parseTime(const QString &text, bool allowZero)
{
    static const QRegularExpression re(u"^\\s*(\\d+)(?:\\.(\\d+))?\\s*(us|ms|s|m|h|d)\\s*$"_s);
    const auto m = re.match(text);
    if (!m.hasMatch()) {
        return Error::make(Error::Kind::Invalid,
                           u"'%1' is not a duration; expected a number and a unit (us, ms, s, m, "
                           "h, d), e.g. 30s, 9.9s, 250ms"_s.arg(shortened(text)));
    }
    const QString unit = m.captured(3);
    const qint64 unitUs = unit == u"us"_s   ? 1
                          : unit == u"ms"_s ? duration::usPerMs
                          : unit == u"s"_s  ? duration::usPerSecond
                          : unit == u"m"_s  ? duration::usPerMinute
                          : unit == u"h"_s  ? duration::usPerHour
                                            : duration::usPerDay;
    const QString whole = m.captured(1);
    const QString frac = m.captured(2);
    bool ok = whole.size() <= 15;
    const qint64 w = ok ? whole.toLongLong(&ok) : 0;
    if (!ok || frac.size() > 12 || w > duration::maxExact / unitUs) {
        return Error::make(Error::Kind::Invalid, u"duration '%1' is too long"_s.arg(text));
    }
    qint64 us = w * unitUs;
    if (!frac.isEmpty()) {
        qint64 scale = 1;
        for (qsizetype i = 0; i < frac.size(); ++i) {
            scale *= 10;
        }
        // frac / scale of a unit, in whole microseconds or refused.
        const long double exact = (long double)frac.toLongLong() * unitUs / scale;
        const qint64 rounded = qint64(std::llround(exact));
        if (std::fabs(exact - (long double)rounded) > 1e-6L) {
            return Error::make(Error::Kind::Invalid,
                               u"'%1' is not a whole number of microseconds"_s.arg(text));
        }
        us += rounded;
    }
    if (us == 0 && !allowZero) {
        return Error::make(Error::Kind::Invalid, u"duration '%1' must be positive"_s.arg(text));
    }
    return us;
}

class FieldReader
{
public:
    FieldReader(const QString &file, bool yaml)
        : m_file(file)
        , m_yaml(yaml)
    {}

    QList<Diagnostic> errors;
    QSet<QString> reported; // paths whose semantic errors would only repeat a type error
    qsizetype more = 0;     // errors past rules::maxErrors

    void read(const QJsonObject &root, Scenario &s, QList<QString> &replayFiles)
    {
        for (auto it = root.constBegin(); it != root.constEnd(); ++it) {
            if (!topFields.contains(it.key())) {
                error(it.key(), u"unknown field '%1'%2; a scenario has the fields %3"_s.arg(
                                    shortened(it.key()), didYouMean(it.key(), topFields),
                                    topFields.join(u", "_s)));
            }
        }
        if (auto v = string(root, u"name"_s, {}, u"a string, e.g. \"boundary burst\""_s)) {
            s.name = *v;
        }
        if (auto v = string(root, u"description"_s, {}, u"a string"_s)) {
            s.description = *v;
        }
        if (!root.contains(u"duration"_s)) {
            error(u"duration"_s, u"required field 'duration' is missing; expected a duration "
                                 "with a unit, e.g. 30s"_s);
        } else if (auto v = time(root, u"duration"_s, {}, false)) {
            s.durationUs = *v;
        }
        if (root.contains(u"seed"_s)) {
            if (auto v = integer(root, u"seed"_s, {}, u"an integer >= 0, e.g. 7"_s)) {
                if (*v < 0) {
                    error(u"seed"_s, u"expected an integer >= 0, got %1"_s.arg(*v));
                } else {
                    s.seed = quint64(*v);
                }
            }
        }
        if (root.contains(u"bin"_s)) {
            if (auto v = time(root, u"bin"_s, {}, false)) {
                s.binUs = *v;
            }
        }
        if (root.contains(u"measure_window"_s)) {
            if (auto v = time(root, u"measure_window"_s, {}, false)) {
                s.measureWindowUs = *v;
            }
        }
        if (root.contains(u"subjects"_s)) {
            if (auto v = integer(root, u"subjects"_s, {},
                                 u"a number of subjects from 1 to %1"_s.arg(maxSubjects))) {
                s.subjects = *v;
            }
        }
        if (!root.contains(u"traffic"_s)) {
            error(u"traffic"_s,
                  u"required field 'traffic' is missing; expected %1 of traffic "
                  "patterns (constant, burst, poisson, ramp, replay)"_s.arg(arrayWord()));
            return;
        }
        const QJsonValue traffic = root.value(u"traffic"_s);
        if (!traffic.isArray()) {
            error(u"traffic"_s,
                  u"expected %1 of traffic patterns, got %2"_s.arg(arrayWord(), describe(traffic)));
            return;
        }
        const QJsonArray patterns = traffic.toArray();
        if (patterns.size() > rules::maxListElements) {
            error(u"traffic"_s, u"%1 traffic patterns are more than the %2 a scenario may hold"_s
                                    .arg(patterns.size())
                                    .arg(rules::maxListElements));
            return;
        }
        for (qsizetype i = 0; i < patterns.size(); ++i) {
            const QString path = element(u"traffic"_s, i);
            const QJsonValue v = patterns.at(i);
            TrafficPattern p;
            if (!v.isObject()) {
                error(path, u"expected a traffic pattern (%1 with pattern, ...), got %2"_s.arg(
                                objectWord(), describe(v)));
                reported.insert(path);
            } else {
                readPattern(v.toObject(), path, p);
            }
            s.traffic.push_back(p);
            replayFiles.append(p.file);
        }
    }

private:
    void error(const QString &path, const QString &message)
    {
        reported.insert(path);
        if (errors.size() >= rules::maxErrors) {
            ++more; // counted only (bounded work)
            return;
        }
        errors.append(diagnostic(m_file, path, message));
    }

    QString objectWord() const { return rules::objectWord(m_yaml); }
    QString arrayWord() const { return rules::arrayWord(m_yaml); }
    QString describe(const QJsonValue &v) const { return rules::describeValue(v, m_yaml); }

    std::optional<QString> string(const QJsonObject &o, const QString &field, const QString &path,
                                  const QString &expected)
    {
        const auto it = o.constFind(field);
        if (it == o.constEnd()) {
            return std::nullopt;
        }
        if (!it->isString()) {
            error(member(path, field), u"expected %1, got %2"_s.arg(expected, describe(*it)));
            return std::nullopt;
        }
        return it->toString();
    }

    std::optional<qint64> integer(const QJsonObject &o, const QString &field, const QString &path,
                                  const QString &expected)
    {
        const QJsonValue v = o.value(field);
        if (v.isDouble()) {
            const double d = v.toDouble();
            if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) {
                return qint64(d);
            }
        }
        QString hint;
        if (v.isString()) {
            bool numeric = false;
            v.toString().trimmed().toLongLong(&numeric);
            if (numeric) {
                hint = u" (write %1 without quotes)"_s.arg(v.toString().trimmed());
            }
        }
        error(member(path, field), u"expected %1, got %2%3"_s.arg(expected, describe(v), hint));
        return std::nullopt;
    }

    std::optional<qint64> time(const QJsonObject &o, const QString &field, const QString &path,
                               bool allowZero)
    {
        const QString expected = allowZero ? u"a time with a unit, e.g. 0s, 9.9s, 250ms"_s
                                           : u"a duration with a unit, e.g. 30s, 100ms"_s;
        auto text = string(o, field, path, expected);
        if (!text) {
            return std::nullopt;
        }
        const Result<qint64> us = parseTime(*text, allowZero);
        if (!us) {
            error(member(path, field), us.error().message);
            return std::nullopt;
        }
        return *us;
    }

    std::optional<Rate> rate(const QJsonObject &o, const QString &field, const QString &path)
    {
        auto text = string(o, field, path, u"a rate N/<duration>, e.g. 20/s, 5/10s"_s);
        if (!text) {
            return std::nullopt;
        }
        const QString t = text->trimmed();
        if (t.startsWith(u'-') || t.startsWith(u"0/"_s) || t == u"0"_s) {
            error(member(path, field),
                  u"rate '%1' must be positive; expected N/<duration> with N >= 1, e.g. 20/s"_s.arg(
                      shortened(*text)));
            return std::nullopt;
        }
        const Result<Rate> r = duration::parseRate(*text);
        if (!r) {
            error(member(path, field), r.error().message);
            return std::nullopt;
        }
        return *r;
    }

    void readPattern(const QJsonObject &o, const QString &path, TrafficPattern &p)
    {
        const auto kindText =
            string(o, u"pattern"_s, path,
                   u"a pattern name: "_s + TrafficPattern::kindNames().join(u", "_s));
        std::optional<TrafficPattern::Kind> kind;
        if (!o.contains(u"pattern"_s)) {
            error(member(path, u"pattern"_s),
                  u"required field 'pattern' is missing; expected one of %1"_s.arg(
                      TrafficPattern::kindNames().join(u", "_s)));
        } else if (kindText) {
            kind = TrafficPattern::kindFromName(*kindText);
            if (!kind) {
                error(member(path, u"pattern"_s),
                      u"unknown pattern '%1'%2; expected one of %3"_s.arg(
                          shortened(*kindText), didYouMean(*kindText, TrafficPattern::kindNames()),
                          TrafficPattern::kindNames().join(u", "_s)));
            }
        }
        for (auto it = o.constBegin(); it != o.constEnd(); ++it) {
            const QString &key = it.key();
            if (key == u"pattern"_s) {
                continue;
            }
            if (!patternFields.contains(key)) {
                error(member(path, key), u"unknown field '%1'%2; a traffic pattern has the fields "
                                         "%3"_s.arg(shortened(key), didYouMean(key, patternFields),
                                                    patternFields.join(u", "_s)));
            } else if (kind && !fieldsOf(*kind).contains(key)) {
                error(member(path, key),
                      u"'%1' is not a field of a %2 pattern; %2 takes %3"_s.arg(
                          key, TrafficPattern::kindName(*kind), fieldsOf(*kind).join(u", "_s)));
            }
        }
        if (!kind) {
            reported.insert(path); // nothing more can be said about its fields
            return;
        }
        p.kind = *kind;
        for (const QString &f : requiredOf(*kind)) {
            if (!o.contains(f)) {
                error(member(path, f),
                      u"required field '%1' is missing; %2 takes %3"_s.arg(
                          f, TrafficPattern::kindName(*kind), fieldsOf(*kind).join(u", "_s)));
            }
        }
        const QStringList own = fieldsOf(*kind);
        const auto has = [&](const QString &f) { return own.contains(f) && o.contains(f); };
        // Each field the pattern takes and the object has, into its member when it reads.
        const auto read = [&](const QString &f, auto &into, auto value) {
            if (has(f)) {
                if (auto v = value(f)) {
                    into = *v;
                }
            }
        };
        const auto rateOf = [&](const QString &f) { return rate(o, f, path); };
        const auto timeOf = [&](const QString &f) { return time(o, f, path, true); };
        read(u"rate"_s, p.rate, rateOf);
        read(u"from_rate"_s, p.fromRate, rateOf);
        read(u"to_rate"_s, p.toRate, rateOf);
        read(u"at"_s, p.atUs, timeOf);
        read(u"count"_s, p.count, [&](const QString &f) {
            return integer(o, f, path, u"a positive integer, e.g. 100"_s);
        });
        read(u"spread"_s, p.spreadUs, timeOf);
        read(u"from"_s, p.fromUs, timeOf);
        read(u"to"_s, p.toUs, timeOf);
        if (has(u"subject"_s)) {
            if (auto v = string(o, u"subject"_s, path, u"a subject, e.g. 10.0.0.1"_s)) {
                p.subject = v->toUtf8();
                if (p.subject.isEmpty()) {
                    error(member(path, u"subject"_s), u"the subject is empty"_s);
                }
            }
        }
        if (has(u"file"_s)) {
            if (auto v = string(o, u"file"_s, path, u"the path of a CSV file"_s)) {
                p.file = *v;
                if (v->isEmpty()) {
                    error(member(path, u"file"_s), u"the file name is empty"_s);
                }
            }
        }
    }

    QString m_file;
    bool m_yaml;
};

// "traffic[2].rate" -> "traffic[2]" -> "traffic" -> "".
QString parentPath(const QString &path)
{
    return rules::fieldpath::parent(path);
}

// Semantic checks of a scenario's own fields; `skip` holds paths already reported (and their
// descendants). `ruleCount` < 0: the rules are not checked here.
void check(const Scenario &s, const QString &file, const QSet<QString> &skip,
           QList<Diagnostic> &out, qsizetype ruleCount)
{
    const auto add = [&](const QString &path, const QString &message) {
        for (QString p = path;; p = parentPath(p)) {
            if (skip.contains(p)) {
                return;
            }
            if (p.isEmpty()) {
                break;
            }
        }
        out.append(diagnostic(file, path, message));
    };
    const qint64 d = s.durationUs;
    const QString dText = duration::formatUs(d);
    if (d <= 0) {
        add(u"duration"_s, u"the duration must be positive, e.g. 30s"_s);
    } else if (d > maxDurationUs) {
        add(u"duration"_s,
            u"the duration %1 is longer than the 30d a simulation covers"_s.arg(dText));
    }
    if (s.subjects < 1 || s.subjects > maxSubjects) {
        add(u"subjects"_s, u"expected a number of subjects from 1 to %1, got %2"_s.arg(maxSubjects)
                               .arg(s.subjects));
    }
    if (s.measureWindowUs <= 0 || s.measureWindowUs > maxDurationUs) {
        add(u"measure_window"_s, u"the measure window must be positive and at most 30d"_s);
    }
    if (s.binUs != 0 && d > 0 && d <= maxDurationUs) {
        if (s.binUs % duration::usPerMs != 0) {
            add(u"bin"_s, u"the bin %1 is not a whole number of milliseconds (the time series "
                          "counts in t_ms)"_s.arg(duration::formatUs(s.binUs)));
        } else if (s.binUs > d) {
            add(u"bin"_s, u"the bin %1 is longer than the duration %2"_s.arg(
                              duration::formatUs(s.binUs), dText));
        } else if ((d + s.binUs - 1) / s.binUs > maxBins) {
            add(u"bin"_s, u"the bin %1 makes %2 bins over %3; at most %4 (use a longer bin)"_s
                              .arg(duration::formatUs(s.binUs))
                              .arg((d + s.binUs - 1) / s.binUs)
                              .arg(dText)
                              .arg(maxBins));
        }
    }
    if (s.traffic.empty() && !skip.contains(u"traffic"_s)) {
        add(u"traffic"_s, u"the scenario offers no traffic; add at least one pattern, e.g. "
                          "{\"pattern\": \"constant\", \"rate\": \"2/s\"}"_s);
    }
    double total = 0;
    for (size_t i = 0; i < s.traffic.size(); ++i) {
        const TrafficPattern &p = s.traffic[i];
        const QString path = element(u"traffic"_s, qsizetype(i));
        using K = TrafficPattern::Kind;
        const auto positiveRate = [&](const QString &field, const Rate &r) {
            if (r.count <= 0 || r.periodUs <= 0) {
                add(member(path, field), u"the rate must be positive, e.g. 20/s"_s);
                return false;
            }
            return true;
        };
        bool rates = true;
        if (p.kind == K::Constant || p.kind == K::Poisson) {
            rates = positiveRate(u"rate"_s, p.rate);
        } else if (p.kind == K::Ramp) {
            // Both checked (both reported), then combined: clang warns on a bitwise & of bools.
            const bool from = positiveRate(u"from_rate"_s, p.fromRate);
            const bool to = positiveRate(u"to_rate"_s, p.toRate);
            rates = from && to;
        }
        if (p.kind == K::Burst) {
            if (p.count <= 0) {
                add(member(path, u"count"_s),
                    u"expected a positive number of requests, got %1"_s.arg(p.count));
            } else if (p.count > maxOffered) {
                add(member(path, u"count"_s),
                    u"%1 requests is more than a simulation offers (at most %2)"_s.arg(p.count).arg(
                        maxOffered));
                rates = false;
            }
            if (d > 0 && p.atUs >= d) {
                add(member(path, u"at"_s), u"the burst at %1 is not inside the duration %2"_s.arg(
                                               duration::formatUs(p.atUs), dText));
            } else if (d > 0 && p.atUs + p.spreadUs > d) {
                add(member(path, u"spread"_s),
                    u"the burst spread over %1 from %2 ends after the duration %3"_s.arg(
                        duration::formatUs(p.spreadUs), duration::formatUs(p.atUs), dText));
            }
        } else if (d > 0) {
            const qint64 to = p.endUs(d);
            if (p.toUs && *p.toUs > d) {
                add(member(path, u"to"_s), u"'to' %1 is after the end of the scenario (%2)"_s.arg(
                                               duration::formatUs(*p.toUs), dText));
            } else if (p.fromUs >= to) {
                add(member(path, u"from"_s),
                    u"'from' %1 is not before 'to' %2"_s.arg(duration::formatUs(p.fromUs),
                                                             duration::formatUs(to)));
            }
        }
        if (rates && d > 0 && p.kind != K::Replay) {
            const double n = p.expectedCount(d);
            if (n > double(maxOffered)) {
                const QString field = p.kind == K::Burst  ? u"count"_s
                                      : p.kind == K::Ramp ? u"to_rate"_s
                                                          : u"rate"_s;
                add(member(path, field),
                    u"this pattern offers about %1 requests; a simulation offers at most %2 "
                    "(lower the rate or shorten the span)"_s.arg(n, 0, 'g', 3)
                        .arg(maxOffered));
            }
            total += n;
        } else if (p.kind == K::Replay) {
            total += p.expectedCount(d);
        }
    }
    if (total > double(maxOffered)) {
        add(u"traffic"_s, u"the patterns offer about %1 requests in all; a simulation offers at "
                          "most %2"_s.arg(total, 0, 'g', 3)
                              .arg(maxOffered));
    }
    if (ruleCount == 0) {
        add(u"rules"_s, u"the scenario has no rules; add at least one rule to simulate"_s);
    }
}

// The replay file, symlinks and .. resolved, lies in `folder` or below it.
bool underFolder(const QString &folder, const QString &path)
{
    const QString base = QDir(folder.isEmpty() ? u"."_s : folder).canonicalPath();
    const QString target = QFileInfo(path).canonicalFilePath();
    return !base.isEmpty() && !target.isEmpty() &&
           target.startsWith(base.endsWith(u'/') ? base : base + u'/');
}

QString expectedText(bool yaml)
{
    return yaml ? u"a scenario: duration, traffic: [...] and rules: [...]"_s
                : u"a scenario: {\"duration\": \"30s\", \"traffic\": [...], \"rules\": [...]}"_s;
}

Loaded parse(const QByteArray &bytes, const QString &file, bool yaml, const QString &baseDir)
{
    Loaded out;
    QList<QString> replayFiles;
    FieldReader reader(file, yaml);
    const rules::Loaded doc = rules::parseEmbedding(
        bytes, file, yaml, expectedText(yaml), [&](const QJsonObject &root, qsizetype &uncounted) {
            reader.read(root, out.scenario, replayFiles);
            // Replay files that are not there: said at the field, with its position.
            for (size_t i = 0; i < out.scenario.traffic.size(); ++i) {
                const TrafficPattern &p = out.scenario.traffic[i];
                if (p.kind != TrafficPattern::Kind::Replay || p.file.isEmpty()) {
                    continue;
                }
                const QString at = member(element(u"traffic"_s, qsizetype(i)), u"file"_s);
                const QString path = QDir(baseDir).filePath(p.file);
                const QFileInfo info(path);
                if (info.exists() && info.isFile() && !underFolder(baseDir, path)) {
                    reader.errors.append(diagnostic(
                        file, at,
                        u"the replay file '%1' is not inside the scenario's folder %2; replay "
                        "files must lie in it or below it"_s.arg(
                            p.file, QDir::toNativeSeparators(QDir(baseDir).absolutePath()))));
                    reader.reported.insert(at);
                } else if (!info.exists() || !info.isFile()) {
                    reader.errors.append(
                        diagnostic(file, member(element(u"traffic"_s, qsizetype(i)), u"file"_s),
                                   u"no replay file '%1'%2"_s.arg(
                                       p.file, baseDir.isEmpty() || QDir::isAbsolutePath(p.file)
                                                   ? QString()
                                                   : u" (read relative to %1)"_s.arg(baseDir))));
                    reader.reported.insert(member(element(u"traffic"_s, qsizetype(i)), u"file"_s));
                }
            }
            // A missing or malformed "rules" is the codec's to report.
            const QJsonValue rules = root.value(u"rules"_s);
            QList<Diagnostic> errors = reader.errors;
            check(out.scenario, file, reader.reported, errors,
                  rules.isArray() ? rules.toArray().size() : -1);
            uncounted += reader.more;
            return errors;
        });
    out.errors = doc.errors;
    out.scenario.rules = doc.set.rules;
    if (out.scenario.name.isEmpty()) {
        out.scenario.name = QFileInfo(file).completeBaseName();
    }
    if (out.scenario.binUs == 0 && out.scenario.durationUs > 0) {
        out.scenario.binUs = defaultBinUs(out.scenario.durationUs);
    }
    if (!out.errors.isEmpty()) {
        return out;
    }
    // The replay files, now that the rest is sound: their errors name the CSV file and line.
    for (size_t i = 0; i < out.scenario.traffic.size(); ++i) {
        TrafficPattern &p = out.scenario.traffic[i];
        if (p.kind != TrafficPattern::Kind::Replay) {
            continue;
        }
        const QString path = QDir(baseDir).filePath(p.file);
        TraceLoad t =
            loadTrace(path, p.file, member(element(u"traffic"_s, qsizetype(i)), u"file"_s));
        out.errors += t.errors;
        p.trace = std::make_shared<const Trace>(std::move(t.trace));
    }
    if (out.errors.isEmpty()) {
        // The cap, with the replay files counted.
        check(out.scenario, file, {}, out.errors, qsizetype(out.scenario.rules.size()));
    }
    return out;
}

} // namespace

qint64 defaultBinUs(qint64 durationUs)
{
    for (qint64 bin : {duration::usPerMs, 10 * duration::usPerMs, 100 * duration::usPerMs,
                       duration::usPerSecond, 10 * duration::usPerSecond, duration::usPerMinute,
                       10 * duration::usPerMinute, duration::usPerHour}) {
        if ((durationUs + bin - 1) / bin <= 1000) {
            return bin;
        }
    }
    return duration::usPerDay;
}

Loaded parseJson(const QByteArray &bytes, const QString &file, const QString &baseDir)
{
    return parse(bytes, file, false, baseDir);
}

Loaded parseYaml(const QByteArray &bytes, const QString &file, const QString &baseDir)
{
    return parse(bytes, file, true, baseDir);
}

Loaded loadFile(const QString &path)
{
    Loaded out;
    const QFileInfo info(path);
    const QString suffix = info.suffix().toLower();
    const bool json = suffix == u"json"_s;
    if (!json && suffix != u"yaml"_s && suffix != u"yml"_s) {
        out.errors.append(diagnostic(path, {},
                                     u"cannot tell the format from the name: scenario "
                                     "files end in .json, .yaml or .yml"_s));
        return out;
    }
    if (info.isDir()) {
        out.errors.append(diagnostic(path, {}, u"is a directory, not a scenario file"_s));
        return out;
    }
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        out.errors.append(diagnostic(path, {}, u"cannot open the file: "_s + f.errorString()));
        return out;
    }
    if (!f.isSequential() && f.size() > rules::maxFileBytes) {
        out.errors.append(diagnostic(path, {},
                                     u"the file is %1 MB; scenario files are limited "
                                     "to %2 MB"_s.arg(f.size() >> 20)
                                         .arg(rules::maxFileBytes >> 20)));
        return out;
    }
    const QByteArray bytes = f.read(rules::maxFileBytes + 1);
    if (bytes.size() > rules::maxFileBytes) {
        out.errors.append(diagnostic(
            path, {}, u"the file is larger than %1 MB"_s.arg(rules::maxFileBytes >> 20)));
        return out;
    }
    return parse(bytes, path, !json, info.absolutePath());
}

QStringList presetNames()
{
    QStringList names;
    const QStringList files = QDir(presetDir).entryList({u"*.json"_s}, QDir::Files, QDir::Name);
    for (const QString &f : files) {
        names.append(f.chopped(5));
    }
    return names;
}

Loaded preset(const QString &name)
{
    QFile f(presetDir + u'/' + name + u".json"_s);
    if (name.isEmpty() || name.contains(u'/') || !f.open(QIODevice::ReadOnly)) {
        Loaded out;
        out.errors.append(diagnostic(presetScheme + name, {},
                                     u"no preset named '%1'; the presets are %2"_s.arg(
                                         shortened(name), presetNames().join(u", "_s))));
        return out;
    }
    return parse(f.readAll(), presetScheme + name, false, presetDir);
}

Loaded load(const QString &spec)
{
    if (spec.startsWith(presetScheme)) {
        return preset(spec.mid(presetScheme.size()));
    }
    return loadFile(spec);
}

QList<Diagnostic> validate(const Scenario &s, const QString &file)
{
    QList<Diagnostic> out;
    check(s, file, {}, out, qsizetype(s.rules.size()));
    RuleSet set;
    set.rules = s.rules;
    out += rules::validate(set, file);
    return out;
}

Result<Traffic> generate(const Scenario &s)
{
    if (const QList<Diagnostic> bad = validate(s); !bad.isEmpty()) {
        return Error::make(Error::Kind::Invalid, bad.first().toString());
    }
    Traffic out;
    out.subjects = Subjects(s.subjects);
    const double expected = std::min(s.expectedOffered() * 1.01 + 64, double(maxOffered));
    out.arrivals.reserve(size_t(expected));
    for (size_t i = 0; i < s.traffic.size(); ++i) {
        // One stream per pattern: adding a pattern leaves the others' requests as they were.
        quint64 z = s.seed + 0x9E3779B97F4A7C15ull * (i + 1);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        Rng rng(z ^ (z >> 31));
        if (auto r = s.traffic[i].generate(s.durationUs, rng, out.subjects, out.arrivals); !r) {
            return r.error();
        }
    }
    std::stable_sort(out.arrivals.begin(), out.arrivals.end(),
                     [](const Arrival &a, const Arrival &b) { return a.tUs < b.tUs; });
    return out;
}

} // namespace sluice::sim::scenario

namespace sluice::sim {

double Scenario::expectedOffered() const
{
    double n = 0;
    for (const TrafficPattern &p : traffic) {
        n += p.expectedCount(durationUs);
    }
    return n;
}

} // namespace sluice::sim
