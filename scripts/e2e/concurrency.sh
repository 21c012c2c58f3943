#!/usr/bin/env bash
# Processes that meet one store, end to end, with the release binaries: readers while a big sync
# writes, two writers at once, a daemon and `quotectl sync --now` on fresh stores (as a spoke and
# direct), a daemon killed under its sync child, and a store from a newer quoted met by every
# command. Prints the counts (reads and failures, runs and exit codes, I/O errors, unrecorded
# outcomes, the slowest run) and fails on any miss.
#
# Usage: scripts/e2e/concurrency.sh [QUOTES]   (default 1000000: the list the readers race)
# ROUNDS (default 50) two-writer runs per kind, DAEMON_ROUNDS (default 100) daemon rounds direct, SPOKE_ROUNDS (200) as a spoke.
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
quotes=${1:-1000000}
rounds=${ROUNDS:-50}
daemon_rounds=${DAEMON_ROUNDS:-100}
spoke_rounds=${SPOKE_ROUNDS:-200}
bin=$root/.build/release
[ -x "$bin/quoted" ] || bin=$root/.build/debug
[ -x "$bin/quoted" ] || { echo "concurrency-e2e: build first (swift build -c release)" >&2; exit 1; }
for tool in python3 sqlite3 signify-openbsd; do
    command -v "$tool" >/dev/null || { echo "concurrency-e2e: $tool is missing (scripts/debian-packages.sh installs it)" >&2; exit 1; }
done
quoted=$bin/quoted
quotectl=$bin/quotectl

work=$(mktemp -d /tmp/quoted-concurrency.XXXXXX)
pids=()
trap cleanup EXIT

# shellcheck source=scripts/e2e/host-lib.sh
source scripts/e2e/host-lib.sh
count_rows() { sqlite3 "file:$1?mode=ro" "SELECT count(*) FROM quotes WHERE source = '$2'"; }
port_of() { for _ in $(seq 100); do [ -s "$1" ] && break; sleep 0.05; done; cat "$1"; }

# --- The upstream: the big list (swapped for its 1% change later), a small one, the four APIs.
python3 scripts/bench/make-quote-list.py 10000 "$work/small.json" >/dev/null
python3 scripts/bench/make-quote-list.py "$quotes" "$work/big-0.json" >/dev/null
python3 scripts/bench/make-quote-list.py "$quotes" "$work/big-1.json" --changed-fraction 0.01 >/dev/null
cp "$work/big-0.json" "$work/big.json"
python3 scripts/bench/fake-upstream.py --list "$work/big.json" --validators --port-file "$work/big.port" &
pids+=($!)
python3 scripts/bench/fake-upstream.py --list "$work/small.json" --port-file "$work/small.port" &
pids+=($!)
big_url="http://127.0.0.1:$(port_of "$work/big.port")"
small_url="http://127.0.0.1:$(port_of "$work/small.port")"
cat > "$work/big.conf" <<EOF
[source.custom.big]
url = $big_url/list.json
max_bytes = 1G
timeout = 10m
[source.happiness]
enabled = false
[source.breakingbad]
enabled = false
[source.upbit]
enabled = false
EOF
cat > "$work/small.conf" <<EOF
[source.custom.small]
url = $small_url/list.json
[source.happiness]
url = $small_url/happiness/random-quote
[source.breakingbad]
enabled = false
[source.upbit]
url = $small_url/v1/market/all
EOF

# --- 1. Readers never fail while a sync writes: 20 readers during the first sync and a 1% resync.
readers_during() {  # readers_during NAME: 20 reader loops while `quoted sync --once` runs
    local name=$1 store=$work/readers/quotes.db flag=$work/readers/running
    touch "$flag"
    local loops=()
    for i in $(seq 20); do
        (
            reads=0 failures=0
            commands=("random" "search time" "status --json" "today" "random --json")
            while [ -e "$flag" ]; do
                # shellcheck disable=SC2086
                if ! "$quotectl" --db "$store" ${commands[$((reads % 5))]} >/dev/null 2>>"$work/readers/errors.$name.$i"; then
                    failures=$((failures + 1))
                fi
                reads=$((reads + 1))
            done
            echo "$reads $failures" > "$work/readers/count.$name.$i"
        ) &
        loops+=($!)
    done
    local started=$SECONDS
    local status=0
    "$quoted" sync --once --quiet --json --config "$work/big.conf" --db "$store" > "$work/readers/sync.$name.json" || status=$?
    rm -f "$flag"
    wait "${loops[@]}"
    local reads=0 failures=0
    for i in $(seq 20); do
        read -r r f < "$work/readers/count.$name.$i"
        reads=$((reads + r)); failures=$((failures + f))
    done
    echo "$name: sync exit $status in $((SECONDS - started)) s; $reads reads by 20 readers, $failures failed"
    cat "$work"/readers/errors."$name".* | sort | uniq -c | sort -rn | head -5
    echo "$reads $failures $status" > "$work/readers/total.$name"
}
mkdir -p "$work/readers"
echo '[{"id": 1, "text": "A store before the big list."}]' | "$quotectl" --db "$work/readers/quotes.db" import - --name seed >/dev/null
readers_during first-sync
check "readers during a $quotes-quote first sync: every read succeeded, the sync too" \
    bash -c "read -r reads failures status < '$work/readers/total.first-sync'; [ \$reads -gt 100 ] && [ \$failures = 0 ] && [ \$status = 0 ]"
check "the first sync stored $quotes quotes" test "$(count_rows "$work/readers/quotes.db" custom.big)" = "$quotes"
cp "$work/big-1.json" "$work/big.json.new" && mv "$work/big.json.new" "$work/big.json"
readers_during resync
check "readers during a 1% resync: every read succeeded, the sync too" \
    bash -c "read -r reads failures status < '$work/readers/total.resync'; [ \$reads -gt 20 ] && [ \$failures = 0 ] && [ \$status = 0 ]"
check "the resync changed 1% of the list" \
    python3 -c "import json,sys; r=json.load(open('$work/readers/sync.resync.json'))['sources'][0]; sys.exit(0 if abs(r['changed'] - $quotes // 100) <= $quotes // 500 else 1)"

# --- 2. Writers take turns: two `quoted sync --once` at once, on fresh and on existing stores.
two_writers() {  # two_writers fresh|existing: ROUNDS runs; counts into $work/two.KIND
    local kind=$1 both=0 one=0 bad=0 io=0 stored=0 slowest=0
    for run in $(seq "$rounds"); do
        local dir=$work/two/$kind-$run
        mkdir -p "$dir"
        [ "$kind" = existing ] && "$quoted" sync --once --quiet --config "$work/small.conf" --db "$dir/quotes.db"
        local started; started=$(date +%s%N)
        "$quoted" sync --once --config "$work/small.conf" --db "$dir/quotes.db" >/dev/null 2>"$dir/a.err" & local a=$!
        "$quoted" sync --once --config "$work/small.conf" --db "$dir/quotes.db" >/dev/null 2>"$dir/b.err" & local b=$!
        local ra=0 rb=0
        wait $a || ra=$?
        wait $b || rb=$?
        local took=$((($(date +%s%N) - started) / 1000000))
        [ $took -gt $slowest ] && slowest=$took
        if [ $ra = 0 ] && [ $rb = 0 ]; then both=$((both + 1))
        elif { [ $ra = 0 ] && [ $rb = 75 ] && grep -q "another sync or writer of this store is running (pid" "$dir/b.err"; } ||
             { [ $rb = 0 ] && [ $ra = 75 ] && grep -q "another sync or writer of this store is running (pid" "$dir/a.err"; }; then one=$((one + 1))
        else bad=$((bad + 1)); echo "run $run: exits $ra $rb"; head -3 "$dir/a.err" "$dir/b.err"; fi
        if grep -qE "SQLite error 5[0-9]{2}|I/O error|could not be recorded" "$dir/a.err" "$dir/b.err"; then io=$((io + 1)); fi
        [ "$(count_rows "$dir/quotes.db" custom.small)" = 10000 ] && stored=$((stored + 1))
    done
    echo "two writers, $kind stores: $rounds runs: both exit 0 in $both, one 75 naming the other in $one, otherwise $bad; I/O errors in $io; the list stored in $stored; slowest run $slowest ms"
    echo "$both $one $bad $io $stored $slowest" > "$work/two.$kind"
}
mkdir -p "$work/two"
for kind in fresh existing; do
    two_writers "$kind"
    check "two writers on $kind stores: every run both 0 (or one 75 naming the other), no I/O error, the list stored, none over 10 s" \
        bash -c "read -r both one bad io stored slowest < '$work/two.$kind'; [ \$bad = 0 ] && [ \$io = 0 ] && [ \$stored = $rounds ] && [ \$slowest -lt 10000 ]"
done

# --- 3. A daemon and `quotectl sync --now` on fresh stores: direct, and as a spoke of a hub's feed.
signify-openbsd -G -n -p "$work/hub.pub" -s "$work/hub.sec"
mkdir -p "$work/hub"
cat "$work/small.conf" - > "$work/hub/quoted.conf" <<EOF
[publish]
dir = $work/feed
signing_key = $work/hub.sec
EOF
"$quoted" sync --once --quiet --config "$work/hub/quoted.conf" --db "$work/hub/quotes.db"
python3 -m http.server --bind 127.0.0.1 --directory "$work/feed" 0 > "$work/feed.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do grep -q "port" "$work/feed.log" 2>/dev/null && break; sleep 0.05; done
feed_port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$work/feed.log" | head -1)
printf "[fleet]\nhub = http://127.0.0.1:%s/\nhub_key = %s\n[source.breakingbad]\nenabled = false\n" "$feed_port" "$work/hub.pub" > "$work/spoke.conf"

daemon_rounds() {  # daemon_rounds direct|spoke CONFIG ROUNDS
    local mode=$1 config=$2 rounds_=$3 io=0 unrecorded=0 failed_syncs=0 quotectl_failed=0
    for run in $(seq "$rounds_"); do
        local dir=$work/daemon/$mode-$run
        mkdir -p "$dir/run"
        XDG_RUNTIME_DIR=$dir/run HOME=$dir "$quoted" run --config "$config" --db "$dir/quotes.db" --log-level info >"$dir/daemon.log" 2>&1 &
        local daemon=$!
        local status=0
        XDG_RUNTIME_DIR=$dir/run HOME=$dir "$quotectl" --config "$config" --db "$dir/quotes.db" sync --now >"$dir/sync.out" 2>&1 || status=$?
        [ $status = 0 ] || { quotectl_failed=$((quotectl_failed + 1)); echo "$mode $run: quotectl sync --now exited $status: $(tail -3 "$dir/sync.out")"; }
        # The daemon is stopped once it is ready (as systemd waits for READY) and its own first round is done.
        for _ in $(seq 200); do grep -q " started: " "$dir/daemon.log" && break; sleep 0.05; done
        for _ in $(seq 100); do
            [ "$(sqlite3 "file:$dir/quotes.db?mode=ro" "SELECT count(*) FROM sync_state WHERE last_attempt IS NOT NULL" 2>/dev/null)" -ge 3 ] 2>/dev/null && break
            sleep 0.05
        done
        local daemon_status=0
        if kill -0 $daemon 2>/dev/null; then kill -TERM $daemon; wait $daemon || daemon_status=$?
        else wait $daemon || daemon_status=$?; echo "$mode $run: the daemon ended by itself ($daemon_status): $(tail -2 "$dir/daemon.log")"; daemon_status=1; fi
        [ $daemon_status = 0 ] || { quotectl_failed=$((quotectl_failed + 1)); echo "$mode $run: the daemon exited $daemon_status: $(tail -2 "$dir/daemon.log")"; }
        grep -qE "SQLite error 5[0-9]{2}|I/O error" "$dir/daemon.log" "$dir/sync.out" && io=$((io + 1))
        grep -q "could not be recorded\|could not keep" "$dir/daemon.log" "$dir/sync.out" && unrecorded=$((unrecorded + 1))
        # Every source attempted has its outcome in the store: a success, or a failure with its message.
        local missing
        missing=$(sqlite3 "file:$dir/quotes.db?mode=ro" "SELECT count(*) FROM sync_state WHERE last_attempt IS NOT NULL AND last_success IS NULL AND last_error IS NULL")
        [ "$missing" = 0 ] || unrecorded=$((unrecorded + 1))
        local failures
        failures=$(sqlite3 "file:$dir/quotes.db?mode=ro" "SELECT count(*) FROM sync_state WHERE consecutive_failures > 0")
        [ "$failures" = 0 ] || { failed_syncs=$((failed_syncs + 1)); sqlite3 "file:$dir/quotes.db?mode=ro" "SELECT source, last_error FROM sync_state WHERE consecutive_failures > 0" | head -3; }
        [ "$(count_rows "$dir/quotes.db" custom.small)" = 10000 ] || { failed_syncs=$((failed_syncs + 1)); echo "$mode $run: list not stored"; }
    done
    echo "daemon + sync --now, $mode, $rounds_ fresh stores: I/O errors in $io, unrecorded outcomes in $unrecorded, rounds with a failed source $failed_syncs, quotectl sync --now or the daemon non-zero in $quotectl_failed"
    echo "$io $unrecorded $failed_syncs $quotectl_failed" > "$work/daemon.$mode"
}
mkdir -p "$work/daemon"
daemon_rounds direct "$work/small.conf" "$daemon_rounds"
daemon_rounds spoke "$work/spoke.conf" "$spoke_rounds"
for mode in direct spoke; do
    check "daemon + sync --now ($mode): no I/O error, every outcome recorded, every source synced" \
        bash -c "read -r io unrecorded failed quotectl < '$work/daemon.$mode'; [ \$io = 0 ] && [ \$unrecorded = 0 ] && [ \$failed = 0 ] && [ \$quotectl = 0 ]"
done

# --- 4. A sync child stops with its daemon (SIGKILL, no systemd to clean up), leaving the store as it was.
python3 - "$work/slow.port" <<'PY' &
import http.server, socketserver, sys, time
class Slow(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200); self.send_header("Content-Type", "application/json"); self.end_headers()
        self.wfile.write(b"[")
        for i in range(600):
            self.wfile.write(b'{"id": %d, "text": "slowly %d"},' % (i, i)); self.wfile.flush(); time.sleep(0.05)
        self.wfile.write(b'{"id": -1, "text": "end"}]')
    def log_message(self, *a): pass
server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Slow)
open(sys.argv[1], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
pids+=($!)
slow_port=$(port_of "$work/slow.port")
mkdir -p "$work/orphan/run"
printf '[source.custom.slow]\nurl = http://127.0.0.1:%s/l\n[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n' "$slow_port" > "$work/orphan.conf"
XDG_RUNTIME_DIR=$work/orphan/run HOME=$work/orphan "$quoted" run --config "$work/orphan.conf" --db "$work/orphan/quotes.db" >"$work/orphan/daemon.log" 2>&1 &
daemon=$!
child=""
for _ in $(seq 100); do child=$(pgrep -P $daemon -f "sync --once" || true); [ -n "$child" ] && break; sleep 0.05; done
sleep 1
kill -KILL $daemon; wait $daemon 2>/dev/null || true
gone=no
for _ in $(seq 60); do kill -0 "$child" 2>/dev/null || { gone=yes; break; }; sleep 0.05; done
check "a sync child ($child) stops within 3 s of its daemon's SIGKILL" test "$gone" = yes
check "and the store holds nothing of its half-read list" test "$(count_rows "$work/orphan/quotes.db" custom.slow)" = 0

# --- 5. A store from a newer quoted, by either mark, with and without side files: every command
# refuses, nothing appears beside it. A newer migration row alone (a hand's work: each migration
# sets user_version with its row) is refused by every writer, and by every reader whose look reads
# the schema (a WAL store without its side files); a reader of a current store in use trusts
# user_version and reads it.
newer() {  # newer user_version|migration_row with|without
    local mark=$1 side=$2 dir=$work/newer/$1-$2
    mkdir -p "$dir/data"
    local store=$dir/data/quotes.db
    echo '[{"id": 1, "text": "mine"}]' | "$quotectl" --db "$store" import - --name mine >/dev/null
    if [ "$mark" = user_version ]; then sqlite3 "$store" "PRAGMA user_version = 99"
    else sqlite3 "$store" "INSERT INTO schema_migrations VALUES (99, '0099_future', 'x', 0)"; fi
    if [ "$side" = with ]; then : > "$store-wal"; : > "$store-shm"; else rm -f "$store-wal" "$store-shm" "$store-lock"; fi
    listing() { find "$dir/data" -mindepth 1 -printf '%f\n' | sort; }
    local before; before=$(listing)
    local bad=0
    local readers_read=no
    [ "$mark-$side" = migration_row-with ] && readers_read=yes
    for command in "random" "today" "search mine" "status" "export --format json" "import $work/small.json --name x" "forget custom.mine"; do
        local status=0
        # shellcheck disable=SC2086
        "$quotectl" --db "$store" $command >/dev/null 2>"$dir/err" || status=$?
        case "$readers_read-$command" in
            yes-import*|yes-forget*|no-*) { [ $status = 74 ] && grep -q "newer quoted" "$dir/err"; } ;;
            *) [ $status = 0 ] ;;
        esac || { bad=$((bad + 1)); echo "$command: $status $(cat "$dir/err")"; }
    done
    local status=0
    "$quoted" sync --once --config "$work/small.conf" --db "$store" >/dev/null 2>"$dir/err" || status=$?
    { [ $status = 74 ] && grep -q "newer quoted" "$dir/err"; } || { bad=$((bad + 1)); echo "sync: $status $(cat "$dir/err")"; }
    [ "$(listing)" = "$before" ] || { bad=$((bad + 1)); echo "folder changed: $before -> $(listing | tr '\n' ' ')"; }
    [ $bad = 0 ]
}
for mark in user_version migration_row; do
    for side in with without; do
        what="every command exits 74"
        [ "$mark-$side" = migration_row-with ] && what="every writer exits 74, every reader reads"
        check "a newer schema ($mark, $side side files): $what, the folder listing unchanged" newer "$mark" "$side"
    done
done

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
