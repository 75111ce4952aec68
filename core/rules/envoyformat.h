#pragma once

#include "rule.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <string>
#include <string_view>
#include <vector>

namespace sluice::rules::envoy {

// envoyproxy/ratelimit's configuration (its YAML files, unchanged) read into Sluice rules
// (FORMATS.md "envoy ratelimit's configuration"):
//
//   domain: mongo_cps
//   descriptors:
//     - key: database
//       value: users
//       rate_limit: {unit: second, requests_per_unit: 500}
//       shadow_mode: true
//       descriptors: [...]
//
// Every rate_limit becomes one rule, named by its descriptor path as envoy ratelimit names its
// statistics: DOMAIN.KEY[_VALUE].KEY[_VALUE]... (characters a rule id cannot hold become '-').
// fixed_window with limit requests_per_unit and window one unit, unless the Sluice extension
// `algorithm:` (any of the six; `burst:` for the bucket algorithms and GCRA, by default
// requests_per_unit) says otherwise. shadow_mode is the rule's shadow; unlimited is a disabled
// rule (its requests are not limited). What Sluice cannot express is a note at its
// file:line:column, and the construct is left out: a wildcard value ("foo*"), the calendar units
// month and year, requests_per_unit 0, detailed_metric (Sluice never labels by value),
// replaces (Sluice's rules are independent). What envoy ratelimit itself refuses is an error:
// an unknown key, a missing domain, a domain twice, a descriptor without key, a descriptor
// twice at one level, an unknown unit, a unit with unlimited, an empty replaces name, a
// rate_limit replacing itself, and a cycle through replaces.

// One rate_limit of the configuration, as served.
struct Limit
{
    QString domain;
    QList<QPair<QString, QString>> path; // (key, value); value empty: any value
    QString name;                        // rate_limit.name
    QStringList replaces;
    bool unlimited = false;
    QString file;
    int line = 0, column = 0; // of its rate_limit
};

struct Config
{
    RuleSet set;               // one rule per limit; set.rules[i] is limits[i]
    std::vector<Limit> limits; // same order
    QStringList domains;       // in the order read
    QStringList files;         // the YAML files read
    QList<Diagnostic> errors;  // the configuration must not be used
    QList<Diagnostic> notes;   // what was left out (the rest is usable)
    bool ok() const { return errors.isEmpty() && moreErrors == 0; }

    // The reader's own: each rule id's index in set.rules (its duplicate check, linear), and
    // the errors and notes past rules::maxErrors, counted only (load() says how many).
    QHash<QString, size_t> ruleIndex;
    qsizetype moreErrors = 0, moreNotes = 0;
};

// Bounds on work: only regular files are read (a FIFO, a device, a directory is refused by
// name), at most maxFileBytes of each (counted while reading); at most maxDescriptors
// descriptors in all, nested at most maxDepth deep, read in time linear in them; at most
// rules::maxErrors errors and as many notes, each quoting at most 40 characters of a value.
inline constexpr qint64 maxFileBytes = qint64(64) << 20;
inline constexpr int maxDescriptors = 100'000;
inline constexpr int maxDepth = 32;

// One YAML document (`file` names it in diagnostics) into `config` (which may hold others: a
// domain read twice is an error there).
void parse(const QByteArray &yaml, const QString &file, Config &config);
// A file, or every *.yaml and *.yml file of a directory (sorted by name, as envoy ratelimit
// reads its runtime directory), into one configuration.
Config load(const QString &fileOrDirectory);

// envoy ratelimit increments a descriptor's counter for every request, denied ones too, unless
// its process runs with STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true (`stopIncrement`): every
// rule of `set` gets that deployment's count_rejected (true on the algorithms that can count
// denials, algorithm::countsRejected; false with `stopIncrement`). Returns how many rules
// cannot count them (of a bucket algorithm or GCRA, the extension) where envoy would.
qsizetype followEnvoyCounting(RuleSet &set, bool stopIncrement);

// The rule id of a descriptor path: DOMAIN.KEY[_VALUE]... with every character a rule id
// cannot hold as '-'.
QString ruleIdOf(const QString &domain, const QList<QPair<QString, QString>> &path);
// One part of a rule id after the domain's: the entry KEY_VALUE (or KEY for an empty value),
// as ruleIdOf() writes it; `domain` alone as ruleIdOf(domain, {}) with an empty key.
QString ruleIdPart(const QString &key, const QString &value = {});
// ruleIdPart(text) on UTF-8 bytes, appended to `out` (what the gRPC service walks requests
// with, nothing allocated per character): [A-Za-z0-9_-] kept, every other character '-', one
// per UTF-16 unit as ruleIdPart counts them (a character beyond the BMP is two). `text` is
// valid UTF-8 (the protobuf parser refuses a string that is not).
void appendIdPart(std::string &out, std::string_view text);

} // namespace sluice::rules::envoy
