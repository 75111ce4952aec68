#pragma once

#include "core/rules/rulestore.h"

namespace sluice::cli {

class Args;

// sluice-cli rules history | diff | rollback (FORMATS.md): the rule store's versions, a
// rule-by-rule, field-by-field diff of two rule sets (files, the stored rules or a stored
// version), and a rollback that stores an earlier version as a new one.
int rulesHistory(const Args &args);
int rulesDiff(const Args &args);
int rulesRollback(const Args &args);

// rules push FILE --preview: what the push would do to the subjects limited now; writes
// nothing.
int rulesPushPreview(const Args &args, Connection &c, const RuleSet &candidate);

// rules push FILE --stage, rules promote | discard, rules staged (FORMATS.md "Staged
// rollout"): a candidate in shadow beside the enforced rules, and the two side by side.
int rulesStagePush(const Args &args, Connection &c, const RuleSet &candidate);
int rulesPromote(const Args &args, bool promote); // false: discard
int rulesStaged(const Args &args);

// push's --force, --author and --message.
rules::RuleStore::PushOptions pushOptionsFromArgs(const Args &args);

} // namespace sluice::cli
