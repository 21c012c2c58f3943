# What the end-to-end scripts that run on this machine itself (not in a container) share:
# `check`, a loopback port's wait, and nginx serving a feed folder with the shipped server block.
# shellcheck shell=bash
passed=0
failed=0

# The scripts' exit trap: stops the nginx of "$work" (if one runs) and the processes in "$pids",
# then removes "$work" unless KEEP is set. (Both are the sourcing script's.)
# shellcheck disable=SC2154
cleanup() {
    if [ -f "$work/nginx/nginx.pid" ]; then nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -s stop 2>/dev/null || true; fi
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    [ -n "${KEEP:-}" ] || rm -rf "$work"
}
check() {  # check NAME COMMAND...
    local name=$1; shift
    local output
    if output=$("$@" 2>&1); then
        echo "ok   - $name"; passed=$((passed + 1))
    else
        echo "FAIL - $name"; printf '       %s\n' "$output" | head -12; failed=$((failed + 1))
    fi
}

wait_for_port() { python3 -c 'import socket, sys, time
for _ in range(100):
    try: socket.create_connection(("127.0.0.1", int(sys.argv[1]))).close(); break
    except OSError: time.sleep(0.05)' "$1"; }

# feed_nginx WORK PORT [ACCESS-LOG]: writes WORK/nginx/nginx.conf, serving WORK/feed on 127.0.0.1:PORT
# with contrib/nginx/quoted-feed.conf (its listen and root moved); ACCESS-LOG is its access_log line (none by default).
feed_nginx() {
    local work=$1 port=$2 access=${3:-access_log off;}
    mkdir -p "$work/nginx"
    sed -e "s|listen 80;|listen 127.0.0.1:$port;|" -e '/listen \[::\]:80;/d' -e "s|root /var/cache/quoted/feed;|root $work/feed;|" \
        contrib/nginx/quoted-feed.conf > "$work/nginx/server.conf"
    cat > "$work/nginx/nginx.conf" <<CONF
worker_processes 2;
error_log $work/nginx/error.log;
pid $work/nginx/nginx.pid;
$( [ "$(id -u)" = 0 ] && echo "user root root;" )
events { worker_connections 1024; }
http {
    $access
    client_body_temp_path $work/nginx/body;
    include $work/nginx/server.conf;
}
CONF
}
