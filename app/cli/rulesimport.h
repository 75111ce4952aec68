#pragma once

namespace sluice::cli {

class Args;

// `sluice-cli rules import --format envoy-ratelimit FILE|DIR [--out F]`: envoy ratelimit's
// YAML into a Sluice rule file (core/rules/envoyformat.h): stdout, or F (.json, .yaml, .yml).
// What Sluice cannot express is named on stderr at its file:line:column (exit 0: the rest is
// imported); what envoy ratelimit itself refuses fails the import (exit 2).
int rulesImport(const Args &args);

} // namespace sluice::cli
