#!/usr/bin/env bash
# test-package: the proof of the Debian package. Installs the .deb with apt-get into a
# brand-new Debian 12 (debootstrap minbase, nothing else installed), then, inside it:
#   beside Debian's own package named sluice (a pipe tool, 0.02.15-1): both installed, both
#   run, and `apt-get -s upgrade` leaves ours alone; our former package (sluice 0.1.0, made
#   here with dpkg-deb from the files it had) is taken over by sluice-redis;
#   sluice-cli --version, --help and a man page; sluice-cli without Qt Gui/Widgets (ldd) and its
#   chart renderer sluice-render (simulate --png); sluice-cli check against a Redis; the scripts
#   in /usr/share/sluice/lua are the ones sluice-cli loads (SCRIPT EXISTS of their SHA1);
#   sluice-console without a display (a message, exit 1); sluice-console offscreen with its sandbox (a
#   redis-server child that answers PING, the Chinese translation read from
#   /usr/share/sluice/translations, no keyring: a clear message, no crash), stopped by SIGTERM
#   with the sandbox gone; the systemd unit's ExecStart run as systemd would, with a password
#   credential, answering /healthz; and a SIGHUP reload through it. Then, where systemd-nspawn
#   is installed (apt-get install systemd-container; TEST_PACKAGE_SYSTEMD=0 skips it), the same
#   system booted with systemd: sluice-serve@demo under its real unit (dynamic user, hardening,
#   Type=notify, the password as a credential from /etc/sluice/demo.password), decisions through
#   Redis, `systemctl reload`, `systemd-analyze security`.
#
#   bash tools/test-package.sh [DEB]        as root; DEB defaults to the newest build-package/*.deb
#
# Not part of ctest (it needs root, debootstrap and a few minutes): run it after
# `bash tools/dev.sh package`. The base system is cached in ${PACKAGE_TEST_CACHE:-/var/tmp/
# sluice-package-test}/base (SLUICE_DEBIAN_BASE=DIR uses another pristine one, e.g. the cache of
# ../shared/tools/fresh-debian); every run works on a fresh copy, removed afterwards.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
deb=${1:-$(ls -t "$root"/build-package/sluice-redis_*_amd64.deb 2>/dev/null | head -n 1)}
[ -n "$deb" ] && [ -f "$deb" ] || { echo "test-package: no .deb (bash tools/dev.sh package makes one)" >&2; exit 2; }
[ "$(id -u)" = 0 ] || { echo "test-package: run as root (chroot, mount)" >&2; exit 2; }
cache=${PACKAGE_TEST_CACHE:-/var/tmp/sluice-package-test}
src=/etc/apt/sources.list.d/debian.sources
base=${SLUICE_DEBIAN_BASE:-$cache/base}
mkdir -p "$cache"
if [ ! -f "$base/.ok" ]; then
    command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null || exit 2
    mirror=$(awk '/^URIs:/{print $2; exit}' $src)
    rm -rf "$base"
    echo "test-package: building a Debian 12 base system (once)..."
    debootstrap --variant=minbase bookworm "$base" "$mirror" >"$cache/debootstrap.log" 2>&1 ||
        { echo "test-package: debootstrap failed, see $cache/debootstrap.log" >&2; exit 1; }
    touch "$base/.ok"
fi
r=$(mktemp -d "$cache/run-XXXX")
cp -a "$base/." "$r/"
rm -f "$r/etc/apt/sources.list"; cp $src "$r/etc/apt/sources.list.d/"; cp /etc/resolv.conf "$r/etc/" 2>/dev/null
cp "$deb" "$r/root/"
mount -t proc proc "$r/proc"; mount --bind /dev "$r/dev"; mount --bind /dev/pts "$r/dev/pts"; mount -t sysfs sys "$r/sys"
umnt() { for m in sys dev/pts dev proc; do umount "$r/$m" 2>/dev/null || umount -l "$r/$m" 2>/dev/null; done; }
trap umnt EXIT

cat >"$r/root/inside.sh" <<'INSIDE'
set -u
pass=0 failed=0
ok() { echo "PASS  $*"; pass=$((pass+1)); }
bad() { echo "FAIL  $*"; failed=$((failed+1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
t0=$(date +%s)
# Services must not start in the chroot (no init); the console starts its own redis-server.
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d
apt-get update -qq >/dev/null
deb=$(ls /root/sluice-redis_*.deb)
ours=$(dpkg-deb -f "$deb" Package)
# Our former package: named sluice, version 0.1.0, with the files that collide with ours.
mkdir -p /root/old/DEBIAN /root/old/usr/bin /root/old/usr/share/man/man1
printf '#!/bin/sh\necho old\n' >/root/old/usr/bin/sluice-cli; chmod 755 /root/old/usr/bin/sluice-cli
printf 'Package: sluice\nVersion: 0.1.0\nArchitecture: amd64\nMaintainer: x <x@example.org>\nDescription: our package as it was named up to 0.1.0\n' >/root/old/DEBIAN/control
dpkg-deb -b /root/old /root/sluice_0.1.0_amd64.deb >/dev/null
dpkg -i /root/sluice_0.1.0_amd64.deb >/dev/null
if DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$deb" >/root/install.log 2>&1; then
    ok "apt-get install ./$(basename "$deb") ($(grep -c '^Setting up' /root/install.log) packages set up, $(( $(date +%s) - t0 )) s)"
else
    bad "apt-get install"; tail -20 /root/install.log; exit 1
fi
grep '^sluice-redis: ' /root/install.log | sed 's/^/      postinst: /'
check "our former package sluice 0.1.0 no longer installed (Replaces, Breaks)" \
    bash -c '! dpkg-query -W -f="\${Version}" sluice 2>/dev/null | grep -qx 0.1.0'
check "its /usr/bin/sluice-cli taken over by $ours" test "$(dpkg -S /usr/bin/sluice-cli | cut -d: -f1)" = "$ours"
# Debian's own sluice beside ours: installed, both run, no file shared, upgrade leaves ours.
if DEBIAN_FRONTEND=noninteractive apt-get install -y -q sluice >>/root/install.log 2>&1; then
    ok "Debian's sluice $(dpkg-query -W -f='${Version}' sluice) installed beside $ours $(dpkg-query -W -f='${Version}' "$ours")"
else
    bad "apt-get install sluice (Debian's)"; tail -5 /root/install.log
fi
check "Debian's sluice runs (/usr/bin/sluice pipes its input)" test "$(echo hello | sluice -r 1000 -i 1)" = hello
check "$ours is still installed beside it" bash -c "dpkg-query -W -f='\${Status}' $ours | grep -q 'install ok installed'"
apt-get -s upgrade >/root/upgrade.txt 2>&1
echo "      apt-get -s upgrade: $(grep -c '^Inst ' /root/upgrade.txt) upgrades planned, of them for sluice*: $(grep -Ec '^(Inst|Remv) sluice' /root/upgrade.txt)"
check "apt-get -s upgrade neither replaces nor removes $ours" bash -c "! grep -Eq '^(Inst|Remv|Conf) ($ours|sluice) ' /root/upgrade.txt"
check "apt-get -s dist-upgrade neither" bash -c "apt-get -s dist-upgrade 2>&1 | grep -Eq '^(Inst|Remv) ($ours|sluice) ' && exit 1 || exit 0"

grep -q 'no system keyring is installed' /root/install.log && ok "postinst: says there is no keyring" || bad "postinst keyring message"
echo "      Depends: $(dpkg-query -W -f='${Depends}' "$ours" | cut -c1-150)..."
echo "      Recommends: $(dpkg-query -W -f='${Recommends}' "$ours")"
dpkg-query -W -f='${Status}' redis-server | grep -q "install ok installed" && ok "Recommends: redis-server installed with it" || bad "redis-server not installed"

v=$(sluice-cli --version); echo "      $v"
check "sluice-cli --version" grep -Eq '^sluice-cli [0-9]+\.[0-9]+\.[0-9]+ \(git [0-9a-f]{7,}' <<<"$v"
sluice-cli check --help >/tmp/help.txt 2>&1; check "sluice-cli check --help" grep -q -- '--subject S' /tmp/help.txt
# The server binary loads no desktop stack; the charts are drawn by sluice-render beside it.
check "sluice-cli links no Qt Gui, Widgets, Charts, OpenGL or DBus (ldd)" \
    bash -c '! ldd /usr/bin/sluice-cli | grep -Eq "libQt6(Gui|Widgets|Charts|OpenGL|DBus|Svg)"'
check "sluice-render installed beside sluice-cli" test -x /usr/bin/sluice-render
sluice-cli simulate preset:boundary-burst --png /tmp/burst.png >/dev/null 2>/tmp/render.txt
check "sluice-cli simulate --png (through sluice-render, no display)" \
    bash -c 'head -c 8 /tmp/burst.png | od -An -c | grep -q "P   N   G"'
check "man pages, completion, desktop entry, metainfo, icons, unit installed" test -f /usr/share/man/man1/sluice-cli.1.gz -a -f /usr/share/man/man1/sluice-console.1.gz \
    -a -f /usr/share/bash-completion/completions/sluice-cli -a -f /usr/share/applications/org.sluice.Sluice.desktop \
    -a -f /usr/share/metainfo/org.sluice.Sluice.metainfo.xml -a -f /usr/share/icons/hicolor/scalable/apps/org.sluice.Sluice.svg \
    -a -f /usr/share/icons/hicolor/48x48/apps/org.sluice.Sluice.png -a -f /usr/lib/systemd/system/sluice-serve@.service
check "/etc/sluice exists" test -d /etc/sluice

# A Redis, and real decisions through the scripts.
redis-server --port 6390 --bind 127.0.0.1 --save '' --appendonly no --daemonize yes --requirepass pkgtest-secret >/dev/null
for i in $(seq 50); do redis-cli -p 6390 -a pkgtest-secret --no-auth-warning ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
printf 'pkgtest-secret\n' >/root/pw; chmod 600 /root/pw
out=$(sluice-cli check --url redis://127.0.0.1:6390 --password-file /root/pw --algorithm fixed_window --limit 2 --window 10s --id pkg --subject 1.2.3.4 --count 3 2>&1)
echo "$out" | sed 's/^/      /'
check "sluice-cli check: allowed, allowed, denied" test "$(echo "$out" | awk '{print $1}' | tr '\n' ' ')" = "allowed allowed denied "
check "/usr/share/sluice/grafana/sluice-serve.json is the dashboard of serve's metrics" \
    grep -q 'sluice_decisions_total' /usr/share/sluice/grafana/sluice-serve.json
sha=$(sha1sum /usr/share/sluice/lua/fixed_window.lua | cut -d' ' -f1)
check "/usr/share/sluice/lua/fixed_window.lua is the script sluice-cli loaded ($sha)" \
    test "$(redis-cli -p 6390 -a pkgtest-secret --no-auth-warning script exists "$sha")" = 1

check "the user guide in /usr/share/doc/$ours" test -f /usr/share/doc/$ours/USER-GUIDE.md
# The console without a display: a message and exit 1.
env -u DISPLAY -u WAYLAND_DISPLAY sluice-console >/tmp/nodisplay.txt 2>&1; rc=$?
sed 's/^/      /' /tmp/nodisplay.txt | head -2
check "sluice-console without a display: exit 1 with a message" test $rc = 1 -a -n "$(grep 'no graphical display' /tmp/nodisplay.txt)"

# The console offscreen, first start: the sandbox (a redis-server child), in Chinese, without
# a keyring (no D-Bus session at all).
export HOME=/root/home; mkdir -p $HOME
QT_QPA_PLATFORM=offscreen QT_LOGGING_RULES='sluice.language.info=true' sluice-console --lang zh_CN >/tmp/console.log 2>&1 & cpid=$!
child=""
for i in $(seq 100); do
    for s in /proc/[0-9]*/stat; do
        p=${s#/proc/}; p=${p%/stat}
        [ "$(awk '{print $4}' "$s" 2>/dev/null)" = "$cpid" ] && tr '\0' ' ' <"/proc/$p/cmdline" 2>/dev/null | grep -q redis-server && child=$p
    done
    [ -n "$child" ] && break
    sleep 0.1
done
port=$(tr '\0' ' ' <"/proc/$child/cmdline" 2>/dev/null | sed -n -e 's/.*--port \([0-9]*\).*/\1/p' -e 's/.*127\.0\.0\.1:\([0-9]*\).*/\1/p' | head -n 1)
echo "      sandbox: $(tr '\0' ' ' <"/proc/$child/cmdline" 2>/dev/null | cut -c1-90)"
for i in $(seq 50); do redis-cli -p "$port" ping 2>/dev/null | grep -q PONG && break; sleep 0.1; done
check "sluice-console offscreen started its sandbox redis-server (port $port answers PING)" test "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG
sleep 3
check "the console is still running" kill -0 $cpid
check "the translation came from /usr/share/sluice/translations" grep -q 'translation .*/usr/share/sluice/translations/sluice_zh_CN.qm' /tmp/console.log
kill -TERM $cpid; wait $cpid; rc=$?
check "SIGTERM: the console exits 0" test $rc = 0
sleep 0.5
check "the sandbox redis-server is gone" test ! -e "/proc/$child/cmdline"
if grep -qiE 'segmentation|abort|core dumped|fatal' /tmp/console.log; then bad "console log has a crash"; sed 's/^/      /' /tmp/console.log; else ok "the console's log has no crash"; fi
echo "      console log: $(grep -v '^$' /tmp/console.log | head -3 | tr '\n' '|' | cut -c1-220)"

# The systemd unit's ExecStart, run as systemd would run it (no systemd in a chroot): the
# config as the environment, the password as a credential file, $$ as $.
mkdir -p /run/credentials/sluice-serve@demo.service
cp /root/pw /run/credentials/sluice-serve@demo.service/password
cp /usr/share/sluice/samples/rules.json /etc/sluice/rules.json
printf 'SLUICE_URL=redis://127.0.0.1:6390\nSLUICE_RULES=/etc/sluice/rules.json\nSLUICE_LISTEN=127.0.0.1:8391\nSLUICE_OPTIONS=--workers 2\n' >/etc/sluice/demo.conf
cmd=$(sed -n 's/^ExecStart=//p' /usr/lib/systemd/system/sluice-serve@.service | sed 's/\$\$/$/g')
( set -a; . /etc/sluice/demo.conf; set +a; export CREDENTIALS_DIRECTORY=/run/credentials/sluice-serve@demo.service
  eval "exec $cmd" ) >/tmp/serve.out 2>/tmp/serve.err & spid=$!
for i in $(seq 100); do grep -q listening /tmp/serve.out && break; sleep 0.1; done
get() { exec 3<>/dev/tcp/127.0.0.1/8391; printf 'GET %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n' "$1" >&3; head -n 1 <&3 | tr -d '\r'; exec 3>&-; }
h=$(get /healthz); echo "      /healthz: $h"
check "the unit's ExecStart serves /healthz (200)" grep -q ' 200' <<<"$h"
cmdline=$(tr '\0' ' ' </proc/$spid/cmdline)
check "no password on the service's command line" test -z "$(grep pkgtest-secret <<<"$cmdline")"
kill -HUP $spid; sleep 1
check "SIGHUP: the service reloads its rules and keeps running" grep -q 'SIGHUP: reloaded' /tmp/serve.err
kill -0 $spid && get /healthz | grep -q ' 200' && ok "still answering after SIGHUP" || bad "not answering after SIGHUP"
kill -TERM $spid; wait $spid; check "SIGTERM: the service exits 0" test $? = 0
redis-cli -p 6390 -a pkgtest-secret --no-auth-warning shutdown nosave >/dev/null 2>&1

echo "$pass passed, $failed failed ($(( $(date +%s) - t0 )) s in the chroot)"
[ $failed = 0 ]
INSIDE
echo "test-package: installing $(basename "$deb") into a fresh Debian 12 in $r"
chroot "$r" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
    bash /root/inside.sh </dev/null 2>&1 | tee "$cache/last-run.log"
rc=${PIPESTATUS[0]}

# The unit under a real systemd: the same system, with systemd installed, booted in a container.
if [ $rc = 0 ] && [ "${TEST_PACKAGE_SYSTEMD:-1}" = 1 ] && command -v systemd-nspawn >/dev/null; then
    cat >"$r/root/boot-setup.sh" <<'SETUP'
set -e
printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d
DEBIAN_FRONTEND=noninteractive apt-get install -y -q systemd systemd-sysv dbus curl >/root/boot-install.log 2>&1
rm -f /usr/sbin/policy-rc.d
printf 'requirepass nspawn-secret\n' >>/etc/redis/redis.conf
printf 'nspawn-secret\n' >/etc/sluice/demo.password; chmod 600 /etc/sluice/demo.password
printf 'SLUICE_URL=redis://127.0.0.1:6379\nSLUICE_RULES=/etc/sluice/rules.json\nSLUICE_LISTEN=127.0.0.1:8080\nSLUICE_OPTIONS=--workers 2\n' >/etc/sluice/demo.conf
systemctl enable redis-server.service sluice-serve@demo.service >/dev/null 2>&1
SETUP
    chroot "$r" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 bash /root/boot-setup.sh </dev/null ||
        { echo "FAIL  installing systemd for the boot test (see $r/root/boot-install.log)"; rc=1; }
    umnt
    if [ $rc = 0 ]; then
        echo "test-package: booting it with systemd (systemd-nspawn)"
        systemd-nspawn -D "$r" --boot --register=no --keep-unit --private-network --console=passive -q \
            >"$cache/nspawn.log" 2>&1 &
        npid=$!
        leader=""
        for i in $(seq 100); do
            leader=$(pgrep -P $npid -x systemd | head -n 1)
            [ -n "$leader" ] && break
            sleep 0.2
        done
        inside() { nsenter -t "$leader" -m -u -i -n -p "$@"; }
        for i in $(seq 60); do
            state=$(inside systemctl is-system-running 2>/dev/null)
            case $state in running|degraded) break ;; esac
            sleep 1
        done
        {
            pass=0 failed=0
            ok() { echo "PASS  $*"; pass=$((pass+1)); }
            bad() { echo "FAIL  $*"; failed=$((failed+1)); }
            [ "$state" = running ] && ok "booted with systemd ($state)" || { bad "boot: $state"; inside systemctl --failed --no-pager; }
            st=$(inside systemctl show -p ActiveState -p SubState -p StatusText -p User -p DynamicUser sluice-serve@demo.service | tr '\n' ' ')
            echo "      $st"
            grep -q 'ActiveState=active' <<<"$st" && grep -q 'StatusText=serving' <<<"$st" &&
                ok "sluice-serve@demo is active and told systemd it is serving (Type=notify)" || bad "sluice-serve@demo not active"
            user=$(inside ps -o user= -C sluice-cli | head -n 1)
            [ -n "$user" ] && [ "$user" != root ] && ok "runs as the dynamic user $user" || bad "runs as '$user'"
            code=$(inside curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:8080/healthz)
            [ "$code" = 200 ] && ok "/healthz 200 (Redis with a password, from the credential)" || { bad "/healthz $code"; inside journalctl -u sluice-serve@demo --no-pager | tail -5; }
            src=$(inside curl -s -i 'http://127.0.0.1:8080/v1/check?rule=hello-per-ip&subject=1.2.3.4' | tr -d '\r' | sed -n 's/^Sluice-Source: //ip')
            [ "$src" = redis ] && ok "a decision made by Redis" || bad "decision source '$src'"
            inside grep -q nspawn-secret /proc/"$(inside systemctl show -p MainPID --value sluice-serve@demo)"/cmdline &&
                bad "the password is on the command line" || ok "no password on the command line"
            inside sed -i 's/"hello-per-ip"/"hello-reloaded"/' /etc/sluice/rules.json
            inside systemctl reload sluice-serve@demo.service
            code=$(inside curl -s -o /dev/null -w '%{http_code}' 'http://127.0.0.1:8080/v1/check?rule=hello-reloaded&subject=1.2.3.4')
            [ "$code" = 200 ] && ok "systemctl reload: the edited rule file is served" || bad "after reload: $code"
            sec=$(inside systemd-analyze security sluice-serve@demo.service --no-pager 2>/dev/null | sed -n 's/.*Overall exposure level for [^:]*: \([0-9.]*\).*/\1/p')
            echo "      systemd-analyze security: exposure $sec"
            inside systemctl stop sluice-serve@demo.service
            [ "$(inside systemctl show -p Result --value sluice-serve@demo.service)" = success ] && ok "systemctl stop: a clean exit" || bad "stop result"
            echo "$pass passed, $failed failed (under systemd)"
            [ $failed = 0 ]
        } 2>&1 | tee -a "$cache/last-run.log"
        rc=${PIPESTATUS[0]}
        inside systemctl poweroff >/dev/null 2>&1
        for i in $(seq 30); do kill -0 $npid 2>/dev/null || break; sleep 1; done
        kill $npid 2>/dev/null; wait $npid 2>/dev/null
    fi
else
    umnt
fi
if ! grep -q " $r/" /proc/mounts; then rm -rf --one-file-system "$r"; fi
echo "test-package: exit $rc (log: $cache/last-run.log)"
exit $rc
