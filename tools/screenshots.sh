#!/bin/sh
# Regenerates docs/screenshots/: every page of the console at 1100x700, 1280x800 and 1920x1080,
# in English and Chinese, light and dark (docs/screenshots/all/<page>-<lang>-<theme>-<size>.png),
# and the guide's pictures (docs/screenshots/<page>-<lang>.png: light, 1280x800), from the
# console test against the fixture's Redis, with real rules, keys, a simulation and traffic.
# Usage: tools/screenshots.sh [BUILD_DIR]   (default: build; the tests must be built)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
out=$root/docs/screenshots/all
rm -rf "$out"
mkdir -p "$out"
cmake --build "$build" -j2 --target tst_console >/dev/null
(cd "$build" && SLUICE_SHOTS_DIR=$out ctest -R '^console$' --output-on-failure)
for lang in en zh_CN; do
    for page in rules keys simulation monitor load; do
        cp "$out/$page-$lang-light-1280x800.png" "$root/docs/screenshots/$page-$lang.png"
    done
done
du -sh "$root/docs/screenshots"
