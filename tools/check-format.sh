#!/usr/bin/env bash
# Fails when a C++ source differs from what the committed .clang-format makes of it
# (STYLE.md rule 8). Run by ctest as the "format" test; fix with:
#   clang-format -i $(git ls-files '*.cpp' '*.h')
set -euo pipefail
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null || { echo "clang-format is not installed" >&2; exit 1; }
mapfile -t files < <(find app core ui tests -name '*.cpp' -o -name '*.h' | sort)
clang-format --dry-run --Werror "${files[@]}"
echo "${#files[@]} files formatted as .clang-format says"
