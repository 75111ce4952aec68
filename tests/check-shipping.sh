#!/usr/bin/env bash
# ctest shipping_files: the desktop entry, the AppStream metainfo (as the build configured it),
# the systemd unit and the generated completion are valid for the tools that read them.
#   bash tests/check-shipping.sh SOURCE_DIR BINARY_DIR
set -u
src=$1 bin=$2
fail=0
need() { command -v "$1" >/dev/null || { echo "missing $1 (bash tools/dev.sh test installs $2)"; fail=1; }; }
need desktop-file-validate desktop-file-utils
need appstreamcli appstream
need systemd-analyze systemd
[ $fail = 0 ] || exit 1

desktop=$src/resources/desktop/org.sluice.Sluice.desktop
out=$(desktop-file-validate "$desktop" 2>&1) || fail=1
[ -z "$out" ] || { echo "desktop-file-validate $desktop:"; echo "$out"; fail=1; }
grep -q '^Name\[zh_CN\]=' "$desktop" || { echo "$desktop: no Chinese name"; fail=1; }

meta=$bin/share/org.sluice.Sluice.metainfo.xml
appstreamcli validate --no-net "$meta" || { echo "appstreamcli validate --no-net $meta failed"; fail=1; }
grep -q '<summary xml:lang="zh_CN">' "$meta" || { echo "$meta: no Chinese summary"; fail=1; }
for shot in $(grep -o 'screenshots/[a-zA-Z0-9_-]*\.png' "$meta"); do
    [ -f "$src/docs/$shot" ] || { echo "$meta names $shot, which docs/ lacks"; fail=1; }
done

# systemd-analyze verify wants an instance and looks for the binary it runs.
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cp "$src/resources/systemd/sluice-serve@.service" "$dir/"
out=$(systemd-analyze verify --man=no "$dir/sluice-serve@demo.service" 2>&1) || fail=1
[ -z "$out" ] || { echo "systemd-analyze verify sluice-serve@demo.service:"; echo "$out"; fail=1; }
unit=$dir/sluice-serve@.service
for key in DynamicUser=yes ProtectSystem=strict NoNewPrivileges=yes Type=notify \
    'LoadCredential=password:' 'ExecReload=/bin/kill -HUP'; do
    grep -q "^$key" "$unit" || { echo "the unit lacks $key"; fail=1; }
done
grep -qi 'password' <(grep -E '^(Environment|ExecStart)=' "$unit" | grep -v CREDENTIALS_DIRECTORY) &&
    { echo "the unit names a password outside the credential"; fail=1; }
score=$(systemd-analyze security --offline=yes "$dir/sluice-serve@demo.service" 2>/dev/null |
    sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
echo "systemd-analyze security: exposure $score"
awk -v s="$score" 'BEGIN { exit !(s != "" && s + 0 <= 2.0) }' || { echo "exposure $score is above 2.0"; fail=1; }

bash -n "$bin/share/completion/sluice-cli" || fail=1
[ $fail = 0 ] && echo "shipping files: valid"
exit $fail
