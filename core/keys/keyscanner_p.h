#pragma once

// What the scan of one server (keyscanner.cpp) and the scan of a cluster, shard by shard
// (keyscancluster.cpp), share.

#include "keyscanner.h"

namespace sluice::keys::scanstep {

inline bool cancelled(const KeyScanner::Options &o)
{
    return o.cancel != nullptr && o.cancel->load(std::memory_order_relaxed);
}

// A scan through a cluster client: every master (or the replicas the options ask for), each
// on a connection of its own, through KeyScanner::run.
ScanSummary scanCluster(const KeyReader &reader, Connection &c, const KeyScanner::Options &options,
                        const KeyScanner::PageCallback &onPage);

} // namespace sluice::keys::scanstep
