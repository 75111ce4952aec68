#pragma once

#include "core/common/result.h"
#include "core/redis/connection.h"
#include "core/rules/rule.h"
#include "core/rules/rulestore.h"

#include <QByteArray>
#include <QList>

#include <optional>

namespace sluice::cli {

class Args;

// sluice-cli rules validate | export | push | pull | history | diff | rollback (FORMATS.md).
int rules(const QList<QByteArray> &argv);

// The rule set of `--rules FILE`, or of the RuleStore at `--url` with `--from-redis`. On
// failure prints what went wrong (every diagnostic of an invalid file) and returns the exit
// code to use (2 for an invalid file or usage, 1 for Redis failures) as the error.
struct LoadedRules
{
    RuleSet set;
    QString origin; // "rules.json" or "Redis at host:port (version 7)"
    // --from-redis read with Reading::SkipUnreadable: what the store holds but was not read
    // (RuleStore::Snapshot::skipped, and the stored overrides left out).
    QStringList skipped;
};
Result<LoadedRules>
loadRulesForCommand(const Args &args, const QString &command, int *exitCode,
                    rules::RuleStore::Reading reading = rules::RuleStore::Reading::Strict);

// The connection to --url for the rules commands (exit 2 without a usable --url, 1 when Redis
// cannot be reached; the code in *exitCode).
Result<Connection> connectFromArgs(const Args &args, const QString &command, int *exitCode);

// The rules of a rule file, or nullopt with every diagnostic and the failure printed
// ("sluice-cli <command>: FILE is not a valid rule file (N errors); nothing was done").
std::optional<RuleSet> loadFileReporting(const QString &command, const QString &path);

} // namespace sluice::cli
