#!/usr/bin/env bash
# clang's warnings on the sources GCC builds: every translation unit of the folders named
# (default core app) compiled with clang++ -fsyntax-only and the build's own flags (-Werror
# included), from BUILD/compile_commands.json. CI builds with GCC only, and clang warns where
# GCC does not (-Wunused-lambda-capture, -Wunused-private-field, ...), which breaks the clang
# builds (tools/dev.sh fuzz). Run by ctest as the "clang_warnings" test after the build; exits
# 77 (skipped) when clang++ is not installed. JOBS compilers at once (default 2).
#   bash tools/check-clang.sh [BUILD] [FOLDER...]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
shift || true
folders=("$@")
[[ ${#folders[@]} -gt 0 ]] || folders=(core app)
if ! command -v clang++ >/dev/null; then
    echo "clang++ is not installed: skipped (tools/dev.sh installs it)"
    exit 77
fi
if [[ ! -f $build/compile_commands.json ]]; then
    echo "no $build/compile_commands.json: configure the build first" >&2
    exit 1
fi
exec python3 - "$build/compile_commands.json" "$root" "${JOBS:-2}" "${folders[@]}" <<'PY'
import concurrent.futures, json, os, shlex, subprocess, sys, time

commands, root, jobs, folders = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
wanted = tuple(os.path.join(root, f) + os.sep for f in folders)
units = []
for entry in json.load(open(commands)):
    path = os.path.normpath(os.path.join(entry["directory"], entry["file"]))
    if not path.startswith(wanted) or not path.endswith(".cpp"):
        continue  # generated files (moc, protobuf) live in the build tree
    argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    out, skip = ["clang++"], False
    for a in argv[1:]:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a in ("-c", "-MD", "-MMD") or a == entry["file"] or a.startswith("-O") or a == "-g":
            pass
        else:
            out.append(a)
    out += ["-fsyntax-only", "-Wno-unknown-warning-option", path]
    units.append((path, entry["directory"], out))
if not units:
    print("no translation unit of " + " ".join(folders) + " in " + commands, file=sys.stderr)
    sys.exit(1)

def check(unit):
    path, cwd, argv = unit
    p = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, errors="replace")
    return path, p.returncode, p.stderr

start, failed = time.monotonic(), []
with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
    for path, rc, err in pool.map(check, units):
        if rc != 0:
            failed.append(path)
            sys.stdout.write(err[:20000])
print("%d of %d translation units (%s) fail under clang++ -Werror, in %.0f s"
      % (len(failed), len(units), " ".join(folders), time.monotonic() - start))
for f in failed:
    print("    " + os.path.relpath(f, root))
sys.exit(1 if failed else 0)
PY
