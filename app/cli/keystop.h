#pragma once

#include "args.h"

// `sluice-cli keys top`: who another limiter holds back right now, from its keys alone
// (core/keys/keywatcher.h), read-only: two samples (or one every interval with --watch).
namespace sluice::cli {

int keysTop(const Args &args);

} // namespace sluice::cli
