#!/usr/bin/env bash
# Benchmarks `quoted sync --once` on a custom list of 1,000,000 quotes served from
# 127.0.0.1, against a plain Python baseline (json.load + sqlite3 executemany).
#
#   scripts/bench-sync.sh
#
# Targets (same run): first sync <= 0.5 x the Python baseline's wall time into an
# equivalent table, with peak RSS <= 400 MB; an unchanged resync <= 100 ms writing
# 0 rows; a resync with 1% of the quotes changed writes about 10,000 rows.
# Exits non-zero when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/.."

[ -x /usr/bin/time ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null; }
dpkg-query -W -f='${Status}' libcurl4-openssl-dev 2>/dev/null | grep -q "install ok installed" \
    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libcurl4-openssl-dev >/dev/null; }

echo "building: swift build -c release --static-swift-stdlib"
swift build -c release --static-swift-stdlib 2>&1 | tail -1
quoted=.build/release/quoted

data=bench-data/sync
mkdir -p "$data"
[ -f "$data/list-1m.json" ] || python3 scripts/make-quote-list.py 1000000 "$data/list-1m.json"
[ -f "$data/list-1m-1pct.json" ] || python3 scripts/make-quote-list.py 1000000 "$data/list-1m-1pct.json" --changed-fraction 0.01
cp "$data/list-1m.json" "$data/served.json"

rm -f "$data/port"
python3 scripts/serve-file.py "$data/served.json" "$data/port" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$data/port" ] && break; sleep 0.1; done
port=$(cat "$data/port")

cat > "$data/quoted.conf" <<CONF
[source.custom.big]
url = http://127.0.0.1:$port/list.json
max_bytes = 512M
timeout = 5m
[source.happiness]
enabled = false
[source.breakingbad]
enabled = false
[source.upbit]
enabled = false
CONF
db="$data/quotes.db"
rm -f "$db" "$db-wal" "$db-shm"

# Seconds and peak RSS (KB) of a command, from /usr/bin/time -v.
measure() {
    local log="$data/time.log"
    /usr/bin/time -v "$@" 2>"$log" >/dev/null || { cat "$log"; return 1; }
    local wall rss
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$log" | awk -F: '{ if (NF == 3) print $1*3600 + $2*60 + $3; else print $1*60 + $2 }')
    rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$log")
    grep -E "^custom.big:" "$log" >&2 || true
    echo "$wall $rss"
}
rows_written() {
    sqlite3 "$db" "SELECT inserted + updated + removed FROM sync_log WHERE source = 'custom.big' ORDER BY id DESC LIMIT 1"
}

echo "first sync (1,000,000 quotes, $(du -m "$data/list-1m.json" | cut -f1) MB)"
read -r first_wall first_rss < <(measure "$quoted" sync --once --config "$data/quoted.conf" --db "$db")
first_rows=$(rows_written)
echo "unchanged resync (ETag, 304)"
read -r same_wall same_rss < <(measure "$quoted" sync --once --config "$data/quoted.conf" --db "$db")
same_rows=$(rows_written)
echo "resync with 1% changed"
cp "$data/list-1m-1pct.json" "$data/served.json"
read -r pct_wall pct_rss < <(measure "$quoted" sync --once --config "$data/quoted.conf" --db "$db")
pct_rows=$(rows_written)

echo "python baseline: json.load + executemany into the same schema (indexes, FTS5, triggers)"
rm -f "$data/py-eq.db"*
read -r py_wall py_rss < <(measure python3 scripts/python-baseline.py "$data/list-1m.json" "$data/py-eq.db" equivalent)
echo "python baseline: json.load + executemany into a plain table (no search index)"
rm -f "$data/py-plain.db"*
read -r plain_wall plain_rss < <(measure python3 scripts/python-baseline.py "$data/list-1m.json" "$data/py-plain.db" plain)

python3 - "$first_wall" "$first_rss" "$first_rows" "$same_wall" "$same_rss" "$same_rows" "$pct_wall" "$pct_rss" "$pct_rows" \
    "$py_wall" "$py_rss" "$plain_wall" "$plain_rss" <<'PY'
import sys
(first_wall, first_rss, first_rows, same_wall, same_rss, same_rows, pct_wall, pct_rss, pct_rows,
 py_wall, py_rss, plain_wall, plain_rss) = sys.argv[1:]
f = float
rows = [
    ("quoted: first sync", f(first_wall), int(first_rss), first_rows),
    ("quoted: unchanged resync (304)", f(same_wall), int(same_rss), same_rows),
    ("quoted: resync, 1% changed", f(pct_wall), int(pct_rss), pct_rows),
    ("python: same schema", f(py_wall), int(py_rss), "1000000"),
    ("python: plain table", f(plain_wall), int(plain_rss), "1000000"),
]
print(f"{'run':34} {'wall':>9} {'peak RSS':>10} {'rows written':>13}")
for name, wall, rss, written in rows:
    print(f"{name:34} {wall:8.2f}s {rss / 1024:8.0f}MB {written:>13}")
checks = [
    (f"first sync <= 0.5 x python (same schema): {f(first_wall) / f(py_wall):.2f}x", f(first_wall) <= 0.5 * f(py_wall)),
    (f"first sync peak RSS <= 400 MB: {int(first_rss) / 1024:.0f} MB", int(first_rss) <= 400 * 1024),
    (f"unchanged resync <= 100 ms: {f(same_wall) * 1000:.0f} ms", f(same_wall) <= 0.1),
    (f"unchanged resync writes 0 rows: {same_rows}", int(same_rows) == 0),
    (f"1% resync writes about 10,000 rows: {pct_rows}", 5_000 <= int(pct_rows) <= 15_000),
]
print(f"(for reference: first sync vs python into a plain table without search: {f(first_wall) / f(plain_wall):.2f}x)")
failed = False
for text, ok in checks:
    print(("met     " if ok else "MISSED  ") + text)
    failed |= not ok
sys.exit(1 if failed else 0)
PY
