#pragma once

#include "keyscanner.h"

// KeyScanner::run on a Redis Cluster connection: every shard in turn, each on a connection of
// its own (to its master, or to a replica with Options::replicas), their progress merged into
// one (ScanProgress::nodes). Internal to core/keys: callers use KeyScanner::run.
namespace sluice::keys {

ScanSummary scanCluster(const KeyReader &reader, Connection &c, const KeyScanner::Options &options,
                        const KeyScanner::PageCallback &onPage);

} // namespace sluice::keys
