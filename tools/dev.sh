#!/usr/bin/env bash
# Sluice's two commands (README "Quick start"), for a fresh Debian 12 machine, as root:
#
#   bash tools/dev.sh run     install what is missing, build, launch the console
#   bash tools/dev.sh test    install what is missing, build, run the whole test suite (ctest
#                             starts its own redis-server on a free loopback port and stops it)
#   bash tools/dev.sh bench   install, build, start a private redis-server, run sluice-cli bench
#   bash tools/dev.sh fuzz [SECONDS]
#                             build the libFuzzer targets (tests/fuzz/, clang) in build-fuzz/ and
#                             run each SECONDS (default 60) on its seed corpus; a crash, leak or
#                             undefined behaviour fails the command
#   bash tools/dev.sh package install, build in build-package/ and make the Debian package
#                             sluice-redis_<version>_amd64.deb there (cpack); tools/test-package.sh
#                             installs it into a brand-new Debian 12 and runs it
#   bash tools/dev.sh sanitize [ctest args]
#                             build everything with ASan + UBSan (gcc) in build-asan/ and run the
#                             whole test suite under it (halt on the first error)
#
# Packages are installed with apt-get only when missing. BUILD_DIR (default build/) and JOBS
# (default: number of cores) can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

packages=(
    build-essential cmake pkg-config ccache git clang-format clang
    qt6-base-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libgl-dev libqt6opengl6-dev libhiredis-dev libyaml-cpp-dev zlib1g-dev
    redis-server redis-tools nginx-light
    fonts-dejavu-core fonts-wqy-microhei
    qtkeychain-qt6-dev
    qt6-svg-dev qt6-translations-l10n wrk nghttp2-client
    libssh-dev openssh-server openssh-client libssl-dev openssl
    dpkg-dev file desktop-file-utils appstream systemd man-db
    libgrpc++-dev libprotobuf-dev libnghttp2-dev protobuf-compiler protobuf-compiler-grpc
    curl python3-h2 python3-grpcio nghttp2-client
    # Other limiters from Debian, run by tests/tst_debian_limiters.cpp: Rack::Attack, python
    # limits, Laravel, each with its Redis client.
    ruby-rack-attack ruby-rack ruby-redis python3-limits python3-redis
    php-cli php-laravel-framework php-redis
)
# node and npm run the real limiters from npm (tests/tst_real_limiters.cpp, tools/bench-peers.sh):
# Debian's only where the machine has none (a newer node in /usr/local is kept).
command -v node >/dev/null || packages+=(nodejs)
command -v npm >/dev/null || packages+=(npm)

install_missing() {
    local missing=()
    for p in "${packages[@]}"; do
        dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        echo "==> installing: ${missing[*]}"
        local sudo=""
        [ "$(id -u)" = 0 ] || sudo=sudo
        # Packages with a service (redis-server, nginx) must not start it: the tests start
        # private servers on free loopback ports. policy-rc.d says so to invoke-rc.d, for the
        # duration of this install only.
        local guard=""
        if [ ! -e /usr/sbin/policy-rc.d ]; then
            guard=/usr/sbin/policy-rc.d
            printf '#!/bin/sh\nexit 101\n' | $sudo tee "$guard" >/dev/null
            $sudo chmod +x "$guard"
        fi
        local rc=0
        { $sudo apt-get update -qq &&
            DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
                "${missing[@]}" >/dev/null; } || rc=$?
        [ -z "$guard" ] || $sudo rm -f "$guard"
        [ $rc = 0 ] || { echo "apt-get failed (exit $rc) installing: ${missing[*]}" >&2; exit $rc; }
    fi
}

configure_and_build() {
    echo "==> building in $build"
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build "$build" -j "$jobs"
}

cmd=${1:-}
case $cmd in
run)
    install_missing
    configure_and_build
    exec "$build/app/sluice-console" "${@:2}"
    ;;
test)
    install_missing
    configure_and_build
    echo "==> testing"
    cd "$build"
    exec ctest --output-on-failure -j "$jobs" "${@:2}"
    ;;
bench)
    install_missing
    configure_and_build
    dir=$(mktemp -d)
    trap 'bash "$root/tests/redis-fixture.sh" stop "$dir"; rm -rf "$dir"' EXIT
    bash "$root/tests/redis-fixture.sh" start "$dir"
    "$build/app/sluice-cli" bench --url "$(cat "$dir/url")" "${@:2}"
    ;;
fuzz)
    seconds=${2:-60}
    packages+=(libclang-rt-14-dev)
    install_missing
    build=${BUILD_DIR:-$root/build-fuzz}
    echo "==> building the fuzz targets with clang (libFuzzer + ASan + UBSan) in $build"
    CC=clang CXX=clang++ cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DSLUICE_FUZZ=ON -DBUILD_TESTING=OFF >/dev/null
    targets=(fuzz_rules_json fuzz_rules_yaml fuzz_scenario fuzz_duration fuzz_endpoint
        fuzz_keymap fuzz_statedecoder fuzz_http fuzz_reply fuzz_replay fuzz_glob fuzz_grpc)
    cmake --build "$build" -j "$jobs" --target "${targets[@]}"
    export ASAN_OPTIONS=halt_on_error=1:detect_leaks=1
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    failed=()
    for t in "${targets[@]}"; do
        # The committed seeds stay as they are: new inputs go to a scratch corpus.
        work=$build/corpus/$t
        mkdir -p "$work" "$build/findings"
        echo "==> $t for ${seconds}s"
        if ! "$build/tests/fuzz/$t" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
            -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$build/findings/$t-" \
            "$work" "$root/tests/fuzz/corpus/$t" 2>"$build/$t.log"; then
            failed+=("$t")
        fi
        # One summary line per target: executions, speed, coverage, corpus.
        grep -E '^#[0-9]+.*DONE|stat::number_of_executed_units|stat::average_exec_per_sec' \
            "$build/$t.log" | tr '\n' ' '
        echo
    done
    if [ ${#failed[@]} -gt 0 ]; then
        echo "fuzzing found something in: ${failed[*]} (see $build/<target>.log and $build/findings/)" >&2
        exit 1
    fi
    echo "==> no finding in ${#targets[@]} targets"
    ;;
package)
    install_missing
    build=${BUILD_DIR:-$root/build-package}
    echo "==> building the package in $build"
    # The same flags as the normal build (ccache hits); no tests; cpack strips the binaries.
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DBUILD_TESTING=OFF >/dev/null
    cmake --build "$build" -j "$jobs"
    (cd "$build" && cpack -G DEB >/dev/null) || { echo "cpack failed (see $build/_CPack_Packages)" >&2; exit 1; }
    deb=$(ls -t "$build"/sluice-redis_*_*.deb | head -n 1)
    dpkg-deb --info "$deb" | sed -n '/Package:/,$p'
    # Debian's own checks, where lintian is installed (apt-get install lintian).
    if command -v lintian >/dev/null; then
        echo "==> lintian"
        lintian --tag-display-limit 0 "$deb" 2>&1 | grep -v 'root privileges' || echo "lintian: no tags"
    fi
    echo "==> $deb"
    ;;
sanitize)
    install_missing
    build=${BUILD_DIR:-$root/build-asan}
    flags="-fsanitize=address,undefined -fno-omit-frame-pointer"
    echo "==> building with ASan + UBSan in $build"
    # GCC 12's -Wmaybe-uninitialized misfires under ASan's instrumentation (on std::variant
    # moves in Result<T>): off for this build only; the normal build keeps it.
    cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
        -DCMAKE_CXX_FLAGS="$flags -Wno-maybe-uninitialized" -DCMAKE_EXE_LINKER_FLAGS="$flags" \
        -DCMAKE_SHARED_LINKER_FLAGS="$flags" >/dev/null
    cmake --build "$build" -j "$jobs"
    echo "==> testing under ASan + UBSan"
    # halt_on_error: the first report fails the test. Leak suppressions (third-party only) are
    # commented in tools/lsan.supp. quarantine_size_mb=64 (256 by default): the memory bounds the
    # tests assert hold at test::memoryBoundFactor (tests/testkit.h) times, not past it.
    export ASAN_OPTIONS=halt_on_error=1:abort_on_error=0:detect_leaks=1:quarantine_size_mb=64:strict_string_checks=1:detect_stack_use_after_return=0
    export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
    export LSAN_OPTIONS=suppressions=$root/tools/lsan.supp:print_suppressions=0
    cd "$build"
    exec ctest --output-on-failure -j "$jobs" "${@:2}"
    ;;
*)
    echo "usage: bash tools/dev.sh run|test|bench|fuzz [SECONDS]|sanitize|package" >&2
    exit 2
    ;;
esac
