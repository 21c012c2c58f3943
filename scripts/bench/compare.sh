#!/usr/bin/env bash
# Compares two builds of quoted in one run, on the same data and the same machine: the
# revision given (the baseline) against the working tree. A refactoring that must not cost
# anything is checked this way, not against figures from another day.
#
#   scripts/bench/compare.sh REV           # e.g. scripts/bench/compare.sh HEAD~3
#   ROUNDS=5 scripts/bench/compare.sh REV  # sync rounds per build (default 3, medians printed)
#
# Measured for each build, alternating builds so that drift falls on both alike:
#   quotectl random, quotectl random --author A, quotectl search (three queries) on a
#   1,000,000-quote store (hyperfine, median wall time, whole process);
#   quoted sync --once: first sync of a 1,000,000-quote list, then a resync with 1% changed
#   (wall time and peak RSS from /usr/bin/time, median of ROUNDS).
# Prints one table; the ratio column is this tree / baseline. It exits 0 whatever the figures:
# the reader judges them against the noise the table shows (the spread of the rounds).
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${1:?usage: scripts/bench/compare.sh REV}
rounds=${ROUNDS:-3}

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
[ -x /usr/bin/time ] || need+=(time)
command -v sqlite3 >/dev/null || need+=(sqlite3)
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

data=bench-data/compare
mkdir -p "$data/base" "$data/this"
tree="$data/base-tree"
if [ ! -d "$tree" ] || [ "$(git -C "$tree" rev-parse HEAD 2>/dev/null)" != "$(git rev-parse "$base^{commit}")" ]; then
    git worktree remove --force "$tree" 2>/dev/null || rm -rf "$tree"
    git worktree add --detach "$tree" "$base" >/dev/null
fi
echo "building the baseline ($(git -C "$tree" log -1 --format='%h %s' | cut -c1-72))"
(cd "$tree" && swift build -c release --static-swift-stdlib 2>&1 | tail -1)
echo "building this tree"
swift build -c release --static-swift-stdlib 2>&1 | tail -1
# Timed as installed: copies (see random.sh).
for program in quotectl quoted; do
    install -m 0755 "$tree/.build/release/$program" "$data/base/$program"
    install -m 0755 ".build/release/$program" "$data/this/$program"
done

[ -f "$data/list-1m.json" ] || python3 scripts/bench/make-quote-list.py 1000000 "$data/list-1m.json"
[ -f "$data/list-1m-1pct.json" ] || python3 scripts/bench/make-quote-list.py 1000000 "$data/list-1m-1pct.json" --changed-fraction 0.01

rm -f "$data/served.json" "$data/port"
cp "$data/list-1m.json" "$data/served.json"
python3 scripts/bench/fake-upstream.py --list "$data/served.json" --validators --port-file "$data/port" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do [ -s "$data/port" ] && break; sleep 0.1; done
# shellcheck source=scripts/bench/list-config.sh
source scripts/bench/list-config.sh
list_config "$data/quoted.conf" "http://127.0.0.1:$(cat "$data/port")/list.json"

fresh() { rm -f "$1" "$1-wal" "$1-shm"; }
# "seconds peak-KB" of one sync.
sync_once() {
    /usr/bin/time -f "%e %M" -o "$data/time" "$1" sync --once --quiet --config "$data/quoted.conf" --db "$2" >/dev/null
    cat "$data/time"
}
: > "$data/syncs"
for round in $(seq "$rounds"); do
    for build in base this; do
        db="$data/$build/sync.db"
        fresh "$db"
        cp "$data/list-1m.json" "$data/served.json"
        echo "$build first $(sync_once "$data/$build/quoted" "$db")" >> "$data/syncs"
        cp "$data/list-1m-1pct.json" "$data/served.json"
        echo "$build resync $(sync_once "$data/$build/quoted" "$db")" >> "$data/syncs"
        echo "round $round, $build: $(tail -2 "$data/syncs" | cut -d' ' -f2- | paste -sd' ')"
    done
done

# The stores the readers are timed on: each build's own, the same list synced and resynced the
# same way (an older build refuses a store of a newer schema, and must: it does not know it).
for build in base this; do sqlite3 "$data/$build/sync.db" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null; done
store="$data/this/sync.db"
author=$(sqlite3 "$store" "SELECT author FROM quotes WHERE source = 'custom.big' GROUP BY author ORDER BY count(*) DESC, author LIMIT 1")
word=$(sqlite3 "$store" "SELECT text FROM quotes WHERE source = 'custom.big' ORDER BY id LIMIT 1" | cut -d' ' -f1)
hyperfine_json="$data/readers.json"
commands=()
names=()
for build in base this; do
    q="$data/$build/quotectl --db $data/$build/sync.db --no-create"
    commands+=("$q random" "$q random --author '$author'" "$q search '$word'" "$q search 'the lo'" "$q search 'love life'")
    names+=("$build random" "$build random --author" "$build search one word" "$build search prefix" "$build search two words")
done
args=()
for i in "${!commands[@]}"; do args+=(-n "${names[$i]}" "${commands[$i]}"); done
hyperfine -N --warmup 5 --min-runs 40 --export-json "$hyperfine_json" "${args[@]}" >/dev/null

python3 - "$data/syncs" "$hyperfine_json" <<'PY'
import json, statistics, sys
syncs = {}
for line in open(sys.argv[1]):
    build, kind, wall, rss = line.split()
    syncs.setdefault((build, kind), []).append((float(wall), int(rss)))
results = {r["command"]: r for r in json.load(open(sys.argv[2]))["results"]}
print(f"{'measure':30} {'baseline':>22} {'this tree':>22} {'ratio':>6}")
def row(name, base, this, unit, spread_base="", spread_this=""):
    print(f"{name:30} {base:>14.2f} {unit:3}{spread_base:>5} {this:>14.2f} {unit:3}{spread_this:>5} {this / base:6.2f}")
for kind, label in (("first", "sync: first, 1M quotes"), ("resync", "sync: resync, 1% changed")):
    b, t = syncs[("base", kind)], syncs[("this", kind)]
    row(label + " (wall)", statistics.median(w for w, _ in b), statistics.median(w for w, _ in t), "s")
    row(label + " (peak)", statistics.median(r for _, r in b) / 1024, statistics.median(r for _, r in t) / 1024, "MB")
    print(f"{'':30} rounds: base {[w for w, _ in b]}, this {[w for w, _ in t]}")
for name in ("random", "random --author", "search one word", "search prefix", "search two words"):
    b, t = results["base " + name], results["this " + name]
    row("quotectl " + name, b["median"] * 1000, t["median"] * 1000, "ms",
        f"±{b['stddev'] * 1000:.2f}", f"±{t['stddev'] * 1000:.2f}")
PY
