#!/usr/bin/env bash
# Measures quoted against a hostile upstream, a crowded control socket and a big sync
# with readers running, on a release build (as users get it):
#
#   scripts/bench/hostile.sh
#
# 1. peak RSS of `quoted sync --once` (default max_bytes, 32 MiB) against a 2 MB gzip
#    bomb that inflates to 2 GiB, its deflate twin, endless close-delimited and chunked
#    bodies and a lying Content-Length. Target: < 200 MB each, refused as "larger than".
# 2. `quotectl status` while 64 clients trickle a byte every 4 s (target: answers within
#    1 s, says the daemon runs), and a flood of 500 clients (target: all answered).
# 3. a 400,000-quote sync while `quotectl search` runs in a loop: the WAL afterwards
#    (target <= 16 MB) and `quotectl random` (hyperfine; target: its usual ~2 ms).
# 4. the sizes of the two binaries, as built and stripped.
# 5. the readers on hostile shapes: `quotectl import` of 1,000,000 line ends and of a fortune
#    file with 262,144 blank lines between two records, and a sync of the 1,000,000 line ends
#    by URL as a fortune list. Target: each under 1 s (a reader that is linear).
# Exits non-zero when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
for tool in time:/usr/bin/time hyperfine:/usr/bin/hyperfine libcurl4-openssl-dev:/usr/include/x86_64-linux-gnu/curl/curl.h; do
    [ -e "${tool#*:}" ] || need+=("${tool%%:*}")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "building: swift build -c release --static-swift-stdlib"
swift build -c release --static-swift-stdlib 2>&1 | tail -1
quoted=$PWD/.build/release/quoted
quotectl=$PWD/.build/release/quotectl
data=bench-data/hostile
mkdir -p "$data"
# The fixed sources stay off: each configuration below syncs only what it lists.
only_listed=$(printf '[source.%s]\nenabled = false\n' happiness breakingbad upbit)
failed=0
miss() { echo "  MISSED: $*"; failed=1; }

rm -f "$data/port"
python3 scripts/bench/fake-upstream.py --bombs "$data" --port-file "$data/port" &
server=$!
pids=("$server")
trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
for _ in $(seq 300); do [ -s "$data/port" ] && break; sleep 0.1; done
port=$(cat "$data/port")

echo "== 1. peak memory of a sync against a hostile upstream (max_bytes 32M, the default)"
for path in gzip-bomb deflate-bomb endless-close endless-chunked lying-length; do
    cat > "$data/hostile.conf" <<CONF
[store]
path = $PWD/$data/hostile.db
[source.custom.hostile]
url = http://127.0.0.1:$port/$path
timeout = 60s
$only_listed
CONF
    /usr/bin/time -f "%M %e" -o "$data/time.txt" "$quoted" sync --once --config "$data/hostile.conf" 2>"$data/err.txt" >/dev/null || true
    read -r rss wall < <(tail -1 "$data/time.txt")
    printf "  %-16s peak RSS %6d kB, %5.2f s: %s\n" "$path" "$rss" "$wall" "$(head -1 "$data/err.txt")"
    [ "$rss" -lt 200000 ] || miss "$path peak RSS $rss kB >= 200 MB"
    grep -q "larger than" "$data/err.txt" || miss "$path was not refused as too large"
done

# The same cap for a local file: `import -` from an endless pipe stops at --max-bytes (64M).
rm -f "$data/import.db"
/usr/bin/time -f "%M %e" -o "$data/time.txt" "$quotectl" --db "$data/import.db" import - --name zero < /dev/zero 2>"$data/err.txt" >/dev/null || true
read -r rss wall < <(tail -1 "$data/time.txt")
printf "  %-16s peak RSS %6d kB, %5.2f s: %s\n" "import </dev/zero" "$rss" "$wall" "$(head -1 "$data/err.txt")"
[ "$rss" -lt 100000 ] || miss "import - < /dev/zero peak RSS $rss kB >= 100 MB"
grep -q "larger than 64 MiB" "$data/err.txt" || miss "import - < /dev/zero was not stopped at its cap"

echo "== 2. the control socket under pressure"
cat > "$data/daemon.conf" <<CONF
[store]
path = $PWD/$data/daemon.db
[daemon]
socket = $PWD/$data/control.sock
$only_listed
CONF
"$quoted" run --config "$data/daemon.conf" --log-level error &
pids+=("$!")
for _ in $(seq 100); do [ -S "$data/control.sock" ] && break; sleep 0.1; done
trickle=$(QUOTED_CONFIG="$data/daemon.conf" python3 scripts/bench/socket-pressure.py trickle "$data/control.sock" "$quotectl")
echo "  $trickle"
[[ "$trickle" == *"running 10/10"* ]] || miss "status did not always see the daemon"
max_ms=$(sed -E 's/.*max ([0-9]+) ms.*/\1/' <<<"$trickle")
[ "$max_ms" -lt 1000 ] || miss "status took $max_ms ms"
flood=$(python3 scripts/bench/socket-pressure.py flood "$data/control.sock" 500)
echo "  $flood"
[[ "$flood" == "flood: 500 of 500"* ]] || miss "not every flooding client was answered"

echo "== 3. a 400,000-quote sync with readers running throughout"
[ -f "$data/list-400k.json" ] || python3 scripts/bench/make-quote-list.py 400000 "$data/list-400k.json"
rm -f "$data/listport" "$data/wal.db" "$data/wal.db-wal" "$data/wal.db-shm"
python3 scripts/bench/fake-upstream.py --list "$data/list-400k.json" --validators --port-file "$data/listport" &
pids+=("$!")
for _ in $(seq 50); do [ -s "$data/listport" ] && break; sleep 0.1; done
cat > "$data/wal.conf" <<CONF
[store]
path = $PWD/$data/wal.db
[source.custom.big]
url = http://127.0.0.1:$(cat "$data/listport")/list.json
max_bytes = 256M
timeout = 5m
$only_listed
CONF
# A store with the starter set (a writer makes it: readers never create a store where --db points).
echo '[{"id": 1, "text": "seed"}]' > "$data/seed.json"
"$quotectl" --db "$data/wal.db" import "$data/seed.json" --name seed >/dev/null
( while [ ! -f "$data/stop-readers" ]; do "$quotectl" --db "$data/wal.db" search time >/dev/null 2>&1 || true; done ) &
readers=$!
pids+=("$readers")
rm -f "$data/stop-readers"
/usr/bin/time -f "%e s, peak RSS %M kB" "$quoted" sync --once --config "$data/wal.conf" 2>&1 | tail -2 | sed 's/^/  sync: /'
touch "$data/stop-readers"
wait "$readers" 2>/dev/null || true
rm -f "$data/stop-readers"
wal=$(stat -c %s "$data/wal.db-wal" 2>/dev/null || echo 0)
echo "  WAL after the sync: $wal bytes"
[ "$wal" -le $((16 << 20)) ] || miss "WAL $wal bytes > 16 MB"
hyperfine -N --warmup 20 --runs 300 --export-json "$data/random.json" "$quotectl --db $data/wal.db random" 2>/dev/null | grep -E "Time|Range" | sed 's/^/  /'
median=$(python3 -c "import json,sys; print('%.2f' % (json.load(open(sys.argv[1]))['results'][0]['median']*1000))" "$data/random.json")
echo "  quotectl random after the sync: median $median ms"
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) < 5 else 1)" "$median" || miss "random took $median ms"

echo "== 4. binary sizes (release, --static-swift-stdlib)"
for binary in "$quoted" "$quotectl"; do
    strip -o "$data/$(basename "$binary").stripped" "$binary"
    printf "  %-9s %6.1f MB as built, %6.1f MB stripped\n" "$(basename "$binary")" \
        "$(echo "$(stat -c %s "$binary") / 1000000" | bc -l)" "$(echo "$(stat -c %s "$data/$(basename "$binary").stripped") / 1000000" | bc -l)"
done
ldd "$quoted" | awk '{print $1}' | tr '\n' ' ' | sed 's/^/  quoted links: /'; echo

echo "== 5. the readers on hostile shapes (a quadratic reader took 11.5 s on 262,144 line ends)"
python3 -c 'import sys; sys.stdout.write("\n" * 1000000)' > "$data/newlines.fortune"
python3 -c 'import sys; sys.stdout.write("one\n%\n" + "\n" * 262144 + "%\ntwo\n")' > "$data/blank-lines.fortune"
under_a_second() { python3 -c 'import sys; sys.exit(0 if float(sys.argv[1]) < 1 else 1)' "$1"; }
for name in newlines blank-lines; do
    rm -f "$data/readers.db" "$data/readers.db-wal" "$data/readers.db-shm"
    /usr/bin/time -f "%e" -o "$data/time.txt" "$quotectl" --db "$data/readers.db" import "$data/$name.fortune" --name "$name" \
        --format fortune >"$data/out.txt" 2>&1 || true
    wall=$(tail -1 "$data/time.txt")
    printf "  import %-20s %5.2f s: %s\n" "$name.fortune" "$wall" "$(head -1 "$data/out.txt")"
    under_a_second "$wall" || miss "import of $name.fortune took $wall s"
done
rm -f "$data/readerport" "$data/readers.db" "$data/readers.db-wal" "$data/readers.db-shm"
python3 scripts/bench/fake-upstream.py --list "$data/newlines.fortune" --port-file "$data/readerport" &
pids+=("$!")
for _ in $(seq 50); do [ -s "$data/readerport" ] && break; sleep 0.1; done
cat > "$data/readers.conf" <<CONF
[store]
path = $PWD/$data/readers.db
[source.custom.newlines]
url = http://127.0.0.1:$(cat "$data/readerport")/list.json
format = fortune
$only_listed
CONF
/usr/bin/time -f "%e" -o "$data/time.txt" "$quoted" sync --once --config "$data/readers.conf" >/dev/null 2>"$data/err.txt" || true
wall=$(tail -1 "$data/time.txt")
printf "  sync of %-19s %5.2f s: %s\n" "newlines by URL" "$wall" "$(head -1 "$data/err.txt")"
under_a_second "$wall" || miss "a sync of 1,000,000 line ends took $wall s"

exit $failed
