#pragma once

#include "rule.h"

#include <QString>

#include <optional>
#include <vector>

// What a rule file's `adopt` block may name (FORMATS.md "adopt"): the layout ids and which of
// them can be adopted, and the counter scripts the simulator can replay for an adopted counter.
// Here, under core/rules, because the validator needs them and core/rules sits below core/keys
// (ARCHITECTURE.md "Layers and targets"); core/keys/layouts.cpp recognises the layouts, and
// tst_layouts holds its table to this list, id for id.
namespace sluice::adoption {

// The scripts an adopted fixed-window counter may be written by (adopt.script), each with an
// in-process twin (core/sim/foreigncounter.h):
enum class CounterScript {
    // The Spring @RateLimiter aspect's Lua (GET; above the limit: deny, no write; else INCR, and
    // EXPIRE <window s> when the INCR made the key): allowed while the INCR answers <= limit.
    GetIncrExpire,
    // INCR every hit, PEXPIRE <window> when it answers 1 (@fastify/rate-limit,
    // RedisTemplate.increment + expire in one Lua or MULTI): allowed while <= limit. A key that
    // lost its TTL keeps counting.
    IncrExpire,
    // INCR every hit, PEXPIRE <window> when PTTL then is below 0 (rate-limit-redis 3.0 on,
    // rate-limiter-flexible): the same decisions, but a key that lost its TTL gets it back
    // on the next hit.
    IncrRepairTtl,
    // One counter per calendar window (the key names the window's start: Kong, Envoy).
    Calendar,
    // The classic bug: GET, then SET 1 PX <window> when absent or INCR one round trip later
    // when present. An INCR that lands just after the key expired creates it again without
    // TTL: the counter never resets and, once at the limit, denies forever.
    GetThenIncr,
};
// "get_incr_expire", "incr_expire", "incr_repair_ttl", "calendar", "get_then_incr"
QString scriptName(CounterScript s);
std::optional<CounterScript> scriptFromName(const QString &name);
QString scriptNames(); // "get_incr_expire, incr_expire, incr_repair_ttl, calendar, ..."

struct LayoutId
{
    const char *id;
    bool adoptable; // its state is a count in a window
    // The script its keys are written by, for the simulator: nullopt when it is not a counter
    // (sorted_set_log, and every layout that cannot be adopted).
    std::optional<CounterScript> script;
};
// Every layout id of core/keys/layouts.cpp, in its order.
const std::vector<LayoutId> &layoutIds();
const LayoutId *findLayoutId(const QString &id);
// "kong_counter, rlflx, ...": the adoptable ids, for messages.
QString adoptableIds();

// The counter script an adoption's keys are written by: adopt.script, else its layout's;
// nullopt when the adopted layout is not a counter (nothing to simulate).
std::optional<CounterScript> counterScriptOf(const Adopt &adopt);

} // namespace sluice::adoption
