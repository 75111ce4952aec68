#pragma once

// The rule diff lives in core (the command line's `rules diff` and `rules history` use it
// too); the page's code names it in its own namespace.
#include "core/rules/rulediff.h"

namespace sluice::ui {
using rules::diffRules;
using rules::RuleDiff;
using rules::ruleFields;
} // namespace sluice::ui
