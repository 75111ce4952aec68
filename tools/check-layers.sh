#!/usr/bin/env bash
# The dependency rules of docs/ARCHITECTURE.md "Layers and targets", checked on the includes of
# every tracked C++ file. Run by ctest as the "layers" test; prints each broken rule with the
# lines that break it, and the count ("0 broken layer rules").
set -uo pipefail
cd "$(dirname "$0")/.."
broken=0
# rule NAME FILES-GLOB... -- PATTERN: NAME is broken when a file under the globs has an
# #include matching the extended regex PATTERN.
rule() {
    local name=$1
    shift
    local globs=()
    while [[ $1 != -- ]]; do
        globs+=("$1")
        shift
    done
    local pattern=$2
    local hits
    hits=$(git ls-files -co --exclude-standard -- "${globs[@]}" |
        xargs -r grep -nE "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($pattern)" 2>/dev/null)
    if [[ -n $hits ]]; then
        echo "broken: $name"
        sed 's/^/    /' <<<"$hits"
        broken=$((broken + 1))
    fi
}
rule "core includes no widgets, charts or ui/" 'core/*.cpp' 'core/*.h' -- \
    'ui/|QtWidgets|QtCharts|QWidget|QChart|QApplication>'
rule "hiredis only in core/redis" 'core/*.cpp' 'core/*.h' 'ui/*.cpp' 'ui/*.h' 'app/*.cpp' \
    'app/*.h' ':!core/redis/*' -- 'hiredis/'
rule "the simulator knows no Redis (sim/redisrun is its Redis backend)" \
    'core/sim/simulator.cpp' 'core/sim/simulator.h' -- 'core/redis/|core/limiter/redislimiter'
rule "core/redis depends on nothing above it (no folder cycle)" 'core/redis/*' -- \
    'core/(limiter|rules|keys|sim|stats|load|replay)/'
rule "core/rules sits below core/keys and core/sim (adoption.h holds what the validator needs)" \
    'core/rules/*' 'core/limiter/*' 'core/common/*' -- 'core/(keys|sim|stats|load|replay)/'
rule "the replay's log formats and reader know no Redis and no rules (the engine drives them)" \
    'core/replay/logformat.*' 'core/replay/logreader.*' -- \
    'core/redis/|core/limiter/|core/rules/|core/sim/'
rule "the replay's engine knows no Redis: only its Redis backend (replay/redisrun.cpp) does" \
    'core/replay/*' ':!core/replay/redisrun.cpp' -- \
    'core/redis/(connection|cluster|keyspace|lazyconnection)|core/limiter/(redislimiter|scratchrun)'
rule "the replay's tables (interner, routes, handoff) know no rules, limiter or model" \
    'core/replay/interner.h' 'core/replay/routes.*' 'core/replay/handoff.h' -- \
    'core/(redis|limiter|rules|sim)/|replay\.h|engine\.h|state\.h'
rule "core knows nothing of app/: every rule format (envoyformat, export_*) is core's" \
    'core/*' -- 'app/'
rule "the rule formats read and write rule sets only: no Redis, no store, no service" \
    'core/rules/envoyformat.*' 'core/rules/export*' -- \
    'core/redis/|core/limiter/redis|rulestore|overridestore|rulewatcher|app/'
rule "each export target stands alone: its shared steps are exportsteps.h" \
    'core/rules/export_*.cpp' -- 'export_|envoyformat|codecinternal'
rule "core/common (bytes, network, ...) depends on nothing above it" 'core/common/*' -- \
    'core/(redis|limiter|rules|keys|sim|stats|load|replay)/'
rule "the replay and the simulator stand side by side: neither includes the other" \
    'core/replay/*' -- 'core/sim/'
rule "the simulator, statistics, load and keys know nothing of the replay" \
    'core/sim/*' 'core/stats/*' 'core/load/*' 'core/keys/*' -- 'core/replay/'
rule "the key watcher only reads: no fixer, no change preview, no rule store" \
    'core/keys/keywatcher.*' -- 'core/keys/keyfixer|keyfixer|changepreview|core/rules/rulestore'
rule "the service layer knows no ui/" 'app/serve/*' -- 'ui/|QtWidgets|QWidget'
rule "the console (ui/) knows no app/" 'ui/*' -- 'app/'
rule "gRPC and protobuf only in the gRPC service, its test and its load client" 'core/*' 'ui/*' \
    'app/*' ':!app/serve/grpcservice.*' ':!app/serve/grpcalloc.*' ':!app/serve/grpcsession.*' \
    ':!app/serve/grpcwire.cpp' ':!app/serve/grpcanswer.*' \
    -- 'grpc|google/protobuf|envoy/'
echo "$broken broken layer rules"
exit $((broken > 0))
