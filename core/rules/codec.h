#pragma once

#include "rule.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>

namespace sluice::rules {

// The result of reading a rule document: the rules that were valid enough to build, and every
// error found (all of them, not only the first). A document with errors must not be used.
// set.rules[i] is built from the document's rules[i] (fields in error keep their defaults), so
// an error's path indexes set.rules; errors are sorted by line and column.
struct Loaded
{
    RuleSet set;
    QList<Diagnostic> errors;
    bool ok() const { return errors.isEmpty(); }
};

// Parsers. `file` is only used in diagnostics. Every error carries the field path and, where
// the format gives one, the line and column of the offending value.
Loaded parseJson(const QByteArray &bytes, const QString &file);
Loaded parseYaml(const QByteArray &bytes, const QString &file);
// By extension: .json, .yaml, .yml (anything else is an error). Size-guarded (at most 64 MB).
Loaded loadFile(const QString &path);
// The size guard of loadFile: larger files are refused before they are read.
inline constexpr qint64 maxFileBytes = qint64(64) << 20;
// Bounds on work: at most maxErrors errors are collected (the rest are only counted,
// and one last error says "... and N more errors"); a list (rules, or any YAML list) of more
// than maxListElements elements is refused before its elements are read.
inline constexpr qsizetype maxErrors = 100;
inline constexpr qsizetype maxListElements = 100'000;
// The overrides one rule of a file may hold (more belong in the store: OverrideStore).
inline constexpr qsizetype maxOverrides = 10'000;
// Keeps the first maxErrors of `errors` and appends "... and N more errors" for the rest plus
// `uncounted` (errors that were counted but never built).
void capErrors(QList<Diagnostic> &errors, qsizetype uncounted = 0, const QString &file = {});

// Documents that embed a "rules" array of rule objects beside fields of their own (simulation
// scenarios, FORMATS.md), read with the same readers as a rule file (syntax, repeated fields,
// the YAML restrictions). "rules" (required, may be empty) is built and validated as in a rule
// file: set.rules[i] is rules[i], paths "rules[i].field". `fields` reads every other member of
// the root object and returns its errors, with paths and no positions; every error then gets
// its line and column from its path. `expected` says what the document should be ("a
// scenario: ..."), for an empty file or a root that is not an object. Errors the reader only
// counted (past maxErrors) are added to `uncounted`; the whole list is then capped.
using FieldReader = std::function<QList<Diagnostic>(const QJsonObject &root, qsizetype &uncounted)>;
Loaded parseEmbedding(const QByteArray &bytes, const QString &file, bool yaml,
                      const QString &expected, const FieldReader &fields);

// Normalized writers: stable field order, defaults written out, durations and rates in their
// shortest exact spelling. JSON -> YAML -> JSON is lossless.
QByteArray toJson(const RuleSet &set);
QByteArray toYaml(const RuleSet &set);

// One rule as a compact JSON object (the RuleStore keeps one per hash field) and back.
QByteArray ruleToJson(const Rule &rule);
Loaded ruleFromJson(const QByteArray &bytes, const QString &where);

// One override of `rule` as a compact JSON object (the file's form, as in the rule's
// "overrides"; OverrideStore keeps one per key) and back, read and validated against `rule`
// (its algorithm gives the limit's shape, its scope whether a CIDR can match). Paths of the
// errors are the override's fields ("cidr", "limit.rate").
QByteArray overrideToJson(const Rule &rule, const Override &o);
Result<Override> overrideFromJson(const Rule &rule, const QByteArray &bytes, const QString &where,
                                  QList<Diagnostic> *errors = nullptr);

// Validation of an already-built set (ids unique and well-formed, parameters of the algorithm,
// positivity and exactness bounds of Policy::validate, key prefix, scope names). Paths are
// "rules[i].field". Parsers call it; the editor calls it as the user types.
QList<Diagnostic> validate(const RuleSet &set, const QString &file = {});
// One rule, its paths under `path` ("rules[2]" -> "rules[2].limit"; "" -> "limit"). Everything
// validate() checks except uniqueness of ids.
QList<Diagnostic> validateRule(const Rule &rule, const QString &path, const QString &file = {});

} // namespace sluice::rules
