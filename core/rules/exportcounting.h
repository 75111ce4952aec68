#pragma once

// What the export targets do with denied requests, beside each rule's count_rejected
// (FORMATS.md): envoy ratelimit decides it once for its whole process, Kong's rate-limiting
// plugin never counts them. Used by exporter.cpp.

#include "exporter.h"
#include "rule.h"

#include <vector>

namespace sluice::rules {

// envoy ratelimit counts denied requests unless its process runs with
// STOP_CACHE_KEY_INCREMENT_WHEN_OVERLIMIT=true. Returns the header lines that say how to set
// it for the exported rules (as most of them ask; a tie counts, envoy's default), and lists
// each rule that asks the other way under "<rule> count_rejected" in `skipped`.
QStringList envoyCountingNotes(const std::vector<const Rule *> &exported,
                               QList<Export::Skipped> &skipped);

// Kong's rate-limiting plugin increments its counters only for the requests it lets through:
// a rule with count_rejected is listed under "<rule> count_rejected" in `skipped`.
void kongCountingNote(const Rule &r, QList<Export::Skipped> &skipped);

} // namespace sluice::rules
