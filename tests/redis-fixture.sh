#!/usr/bin/env bash
# CTest fixture: start or stop a private redis-server on a free loopback port.
#   redis-fixture.sh start DIR   -> DIR/url holds redis://127.0.0.1:PORT, DIR/redis.pid the pid
#   redis-fixture.sh stop DIR
# No persistence, bound to 127.0.0.1 only. A port that is taken (or lost to a race) is retried.
set -u
action=${1:?start|stop}
dir=${2:?directory}

stop() {
    if [ -f "$dir/redis.pid" ]; then
        pid=$(cat "$dir/redis.pid")
        kill "$pid" 2>/dev/null
        for _ in $(seq 1 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$pid" 2>/dev/null
    fi
    rm -f "$dir/url" "$dir/redis.pid"
}

case $action in
start)
    command -v redis-server >/dev/null || { echo "redis-server is not installed" >&2; exit 1; }
    mkdir -p "$dir"
    [ -f "$dir/redis.pid" ] && stop
    for _ in $(seq 1 30); do
        port=$((20000 + RANDOM % 40000))
        # Taken already? (bash connects to it: someone listens)
        if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then continue; fi
        redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no \
            --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log" \
            --dir "$dir" --enable-debug-command local >/dev/null 2>&1 || continue
        for _ in $(seq 1 50); do
            if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = PONG ]; then
                echo "redis://127.0.0.1:$port" >"$dir/url"
                echo "redis-server $(redis-server --version | grep -o 'v=[0-9.]*') on 127.0.0.1:$port"
                exit 0
            fi
            sleep 0.1
        done
        [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null
    done
    echo "could not start redis-server on a free port; see $dir/redis.log" >&2
    exit 1
    ;;
stop)
    stop
    ;;
*)
    echo "usage: $0 start|stop DIR" >&2
    exit 2
    ;;
esac
