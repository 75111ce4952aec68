#pragma once

// What the scan of one server (keyscanner.cpp) and the scan of a cluster, shard by shard
// (clusterscan.cpp), share.

#include "keyscanner.h"

namespace sluice::keys::scanstep {

inline bool cancelled(const KeyScanner::Options &o)
{
    return o.cancel != nullptr && o.cancel->load(std::memory_order_relaxed);
}

} // namespace sluice::keys::scanstep
