#!/usr/bin/env bash
# The console's responsiveness during a replay (PERFORMANCE.md "Replay"): Simulation > Replay
# a log… replays the log of tools/bench-replay.sh (made there; LINES lines) through the same six
# rules, offscreen, while a 10 ms timer on the GUI thread records the longest gap between its
# ticks. The bar: no gap over 50 ms.
#
#   tools/bench-replay-gui.sh [BUILD_DIR]      env: LINES (default 10000000), LOG
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
tool=$build/tests/replay_gui_gap
lines=${LINES:-10000000}
log=${LOG:-${TMPDIR:-/tmp}/sluice-bench-replay-$lines.log}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

[ -x "$tool" ] || { echo "no $tool: build the replay_gui_gap target first" >&2; exit 2; }
[ -s "$log" ] || { echo "no $log: run LINES=$lines tools/bench-replay.sh first (it makes the log)" >&2; exit 2; }
sed -n "/^cat > \"\$work\/rules.json\" <<'RULES'$/,/^RULES$/p" tools/bench-replay.sh | sed '1d;$d' > "$work/rules.json"
cat "$log" > /dev/null
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} "$tool" "$log" "$work/rules.json"
