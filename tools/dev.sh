#!/usr/bin/env bash
# Sluice's two commands (README "Quick start"), for a fresh Debian 12 machine, as root:
#
#   bash tools/dev.sh run     install what is missing, build, launch the console
#   bash tools/dev.sh test    install what is missing, build, run the whole test suite (ctest
#                             starts its own redis-server on a free loopback port and stops it)
#   bash tools/dev.sh bench   install, build, start a private redis-server, run sluice-cli bench
#
# Packages are installed with apt-get only when missing. BUILD_DIR (default build/) and JOBS
# (default: number of cores) can be set in the environment.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${BUILD_DIR:-$root/build}
jobs=${JOBS:-$(nproc)}

packages=(
    build-essential cmake pkg-config ccache git clang-format
    qt6-base-dev qt6-charts-dev qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools
    libgl-dev libqt6opengl6-dev libhiredis-dev libyaml-cpp-dev
    redis-server redis-tools nginx-light
    fonts-dejavu-core fonts-wqy-microhei
    qtkeychain-qt6-dev
    qt6-httpserver-dev qt6-websockets-dev qt6-svg-dev qt6-translations-l10n wrk
    libssh-dev openssh-server openssh-client libssl-dev openssl
)

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
    exec "$build/app/sluice" "${@:2}"
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
*)
    echo "usage: bash tools/dev.sh run|test|bench" >&2
    exit 2
    ;;
esac
