#!/usr/bin/env bash
# Sources sync side by side, end to end, with the release binaries: a daemon (`quoted run`) on a
# fresh store with a slow Breaking Bad (the real adapter against a local imitation: 60 requests at
# its 500 ms politeness pause, ~30 s), a custom list whose server stalls mid-body until the list's
# 20 s timeout, Upbit, happiness and a second list, each upstream on a loopback address of its own
# (one host, one sync at a time: the daemon's rule). Prints each source's first sync, from the
# daemon's start, and the time of `quotectl sync --now --source upbit` issued while Breaking Bad is
# mid-sync; fails when the quick sources' first syncs are not within 5 s of the start, when that
# sync --now takes more than 1 s beyond Upbit's own sync, or when `quotectl status` does not show
# the stalled list in progress. It also prints the longest stretch any writer held the store's
# writer turn (scripts/e2e/turn-probe.py, from outside). About 40 s.
#
# Usage: scripts/e2e/side-by-side.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$root/.build/release
[ -x "$bin/quoted" ] || bin=$root/.build/debug
[ -x "$bin/quoted" ] || { echo "side-by-side-e2e: build first (swift build -c release)" >&2; exit 1; }
for tool in python3 sqlite3; do
    command -v "$tool" >/dev/null || { echo "side-by-side-e2e: $tool is missing (scripts/debian-packages.sh installs it)" >&2; exit 1; }
done
quoted=$bin/quoted
quotectl=$bin/quotectl

work=$(mktemp -d /tmp/quoted-side-by-side.XXXXXX)
pids=()
trap cleanup EXIT

# shellcheck source=scripts/e2e/host-lib.sh
source scripts/e2e/host-lib.sh
export LC_ALL=C
now_ms() { echo $(($(date +%s%N) / 1000000)); }
ask() { sqlite3 "file:$work/quotes.db?mode=ro" "$1" 2>/dev/null || true; }
run_quotectl() { XDG_RUNTIME_DIR=$work/run HOME=$work "$quotectl" --config "$work/quoted.conf" --db "$work/quotes.db" "$@"; }

# --- The upstreams: each on an address of its own, ports in $work/ports.json once all listen.
cat > "$work/upstreams.py" <<'PY'
import http.server, json, os, random, socketserver, sys, threading, time, urllib.parse
fixtures, ports_file = sys.argv[1], sys.argv[2]
def fixture(name):
    with open(f"{fixtures}/{name}", "rb") as f:
        return f.read()
UPBIT = fixture("upbit/market_all_is_details.json")
DEATHS = b"[" + fixture("breakingbad/sampledeath.json") + b"]"
HAPPINESS = json.dumps({"message": "Quote fetched successfully", "statusCode": 200, "data": {
    "id": 60, "content": "행복은 내면에서 오지 않고 사이에서 온다.", "author": "Jonathan Haidt",
    "description": None, "link": None}}).encode()
SECOND = json.dumps([{"id": i, "text": f"Side by side, quote {i}", "source": "Tester"} for i in range(1, 21)]).encode()
STALLED = json.dumps([{"id": i, "text": f"Stalled quote {i}", "source": "Tester"} for i in range(1, 2001)]).encode()
CHARACTERS = ["Walter White", "Jesse Pinkman", "Saul Goodman"]

class Upstream(http.server.BaseHTTPRequestHandler):
    def answer(self, body, headers=()):
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/api/deaths":
            self.answer(DEATHS)
        elif url.path == "/api/characters":
            self.answer(b"[]")
        elif url.path == "/api/quotes/random":
            production = query.get("production", ["Breaking Bad"])[0]
            number = random.randrange(1, 1_000_000)
            quote = {"quote_id": number, "quote": f"Say my name, number {number}.",
                     "character": random.choice(CHARACTERS), "production": production, "episode": 507}
            self.answer(json.dumps(quote).encode())
        elif url.path == "/v1/market/all":
            self.answer(UPBIT, [("Remaining-Req", "group=market; min=599; sec=9")])
        elif url.path == "/happiness/random-quote":
            self.answer(HAPPINESS)
        elif url.path == "/second.json":
            self.answer(SECOND)
        elif url.path == "/stall.json":
            # Half the body, then nothing until long after the list's timeout.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(STALLED)))
            self.end_headers()
            self.wfile.write(STALLED[: len(STALLED) // 2])
            self.wfile.flush()
            time.sleep(90)
        else:
            self.send_error(404)

    def log_message(self, *args):
        pass

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True

ports = {}
for name, address in [("breakingbad", "127.0.0.2"), ("upbit", "127.0.0.3"), ("stall", "127.0.0.4"),
                      ("second", "127.0.0.5"), ("happiness", "127.0.0.6")]:
    server = Server((address, 0), Upstream)
    ports[name] = f"http://{address}:{server.server_address[1]}"
    threading.Thread(target=server.serve_forever, daemon=True).start()
with open(ports_file + ".tmp", "w") as f:
    json.dump(ports, f)
os.replace(ports_file + ".tmp", ports_file)
threading.Event().wait()
PY
python3 "$work/upstreams.py" "$root/Tests/Fixtures" "$work/ports.json" &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/ports.json" ] && break; sleep 0.05; done
base() { python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$work/ports.json" "$1"; }
cat > "$work/quoted.conf" <<EOF
[source.breakingbad]
url = $(base breakingbad)/api
request_budget = 60
pause = 500ms
[source.upbit]
url = $(base upbit)/v1/market/all?is_details=true
[source.happiness]
url = $(base happiness)/happiness/random-quote
[source.custom.stall]
url = $(base stall)/stall.json
timeout = 20s
[source.custom.second]
url = $(base second)/second.json
EOF

# --- The daemon on a fresh store: every first sync from its start, the writer's turn watched.
mkdir -p "$work/run"
python3 scripts/e2e/turn-probe.py "$work/quotes.db-lock" "$work/turn.txt" &
probe=$!
pids+=("$probe")
started=$(now_ms)
XDG_RUNTIME_DIR=$work/run HOME=$work "$quoted" run --config "$work/quoted.conf" --db "$work/quotes.db" --log-level info \
    > "$work/daemon.log" 2>&1 &
daemon=$!
pids+=("$daemon")
declare -A first=()
quick=(upbit happiness custom.second)
until [ ${#first[@]} = ${#quick[@]} ] || [ $(($(now_ms) - started)) -gt 15000 ]; do
    for source in "${quick[@]}"; do
        if [ -z "${first[$source]:-}" ] && [ "$(ask "SELECT count(*) FROM sync_log WHERE source = '$source' AND ok = 1")" = 1 ]; then
            first[$source]=$(($(now_ms) - started))
        fi
    done
    sleep 0.05
done
for source in "${quick[@]}"; do echo "$source: first sync done ${first[$source]:-never} ms after the daemon's start"; done

# --- Mid-sync: what status shows, and `sync --now` of Upbit beside the slow and the stalled one.
for _ in $(seq 100); do [ $(($(now_ms) - started)) -ge 6000 ] && break; sleep 0.1; done
run_quotectl status > "$work/status.txt" 2>&1 || true
daemon_line=$(grep "^Daemon: running" "$work/status.txt" || true)
echo "status ($(($(now_ms) - started)) ms after the start): $daemon_line"
asked=$(now_ms)
now_status=0
run_quotectl sync --now --source upbit > "$work/now.out" 2>&1 || now_status=$?
now_took=$(($(now_ms) - asked))
upbit_own=$(ask "SELECT last_duration_ms FROM sync_state WHERE source = 'upbit'")
breakingbad_then=$(ask "SELECT count(*) FROM sync_log WHERE source = 'breakingbad'")
echo "quotectl sync --now --source upbit: exit $now_status in $now_took ms (Upbit's own sync ${upbit_own:-?} ms); Breaking Bad syncs ended by then: $breakingbad_then"

# --- The rest: the stalled list fails at its timeout, Breaking Bad ends its ~30 s of requests.
until [ -n "$(ask "SELECT 1 FROM sync_log WHERE source = 'breakingbad'")" ] && [ -n "$(ask "SELECT 1 FROM sync_log WHERE source = 'custom.stall'")" ] \
    || [ $(($(now_ms) - started)) -gt 90000 ]; do
    sleep 0.2
done
for source in breakingbad custom.stall; do
    echo "$source: $(ask "SELECT CASE ok WHEN 1 THEN 'ok' ELSE 'failed' END || ', ' || (finished_at - started_at) || ' s: ' || coalesce(message, '')
                          FROM sync_log WHERE source = '$source' ORDER BY id LIMIT 1")"
done
kill -TERM "$daemon"
daemon_status=0
wait "$daemon" || daemon_status=$?
kill -TERM "$probe" 2>/dev/null || true
wait "$probe" 2>/dev/null || true
read -r longest_turn turns < "$work/turn.txt" || { longest_turn="?"; turns="?"; }
echo "the writer's turn: held $turns times, the longest for $longest_turn ms"

within() { [ -n "${first[$1]:-}" ] && [ "${first[$1]}" -le "$2" ]; }
check "upbit's first sync within 5 s of the daemon's start (${first[upbit]:-never} ms)" within upbit 5000
check "happiness's first sync within 5 s of the daemon's start (${first[happiness]:-never} ms)" within happiness 5000
check "custom.second's first sync within 5 s of the daemon's start (${first[custom.second]:-never} ms)" within custom.second 5000
check "Breaking Bad and the stalled list were syncing when status was asked ($daemon_line)" \
    bash -c "grep -q 'syncing .*breakingbad' <<< '$daemon_line' && grep -q 'custom.stall' <<< '$daemon_line'"
check "quotectl sync --now --source upbit, Breaking Bad mid-sync, exits 0 within 1 s of Upbit's own time ($now_took ms, Upbit ${upbit_own:-?} ms)" \
    bash -c "[ $now_status = 0 ] && [ '$breakingbad_then' = 0 ] && [ $now_took -le \$((1000 + ${upbit_own:-100000})) ]"
check "Breaking Bad synced, its requests at the pause taking 20 s or more" \
    test "$(ask "SELECT ok AND finished_at - started_at >= 20 FROM sync_log WHERE source = 'breakingbad' ORDER BY id LIMIT 1")" = 1
check "the stalled list failed at its timeout, recorded, nothing of it stored" \
    bash -c "[ '$(ask "SELECT ok = 0 AND message IS NOT NULL FROM sync_log WHERE source = 'custom.stall' ORDER BY id LIMIT 1")' = 1 ] &&
             [ '$(ask "SELECT count(*) FROM quotes WHERE source = 'custom.stall'")' = 0 ]"
check "no I/O error, nothing unrecorded, the daemon stopped cleanly (exit $daemon_status)" \
    bash -c "! grep -qE 'SQLite error 5[0-9]{2}|I/O error|could not be recorded|could not keep' '$work/daemon.log' && [ $daemon_status = 0 ]"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
