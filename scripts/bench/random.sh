#!/usr/bin/env bash
# Benchmarks quotectl's start-to-answer time against fortune on a 1,000,000-quote store.
#
#   scripts/bench/random.sh            # builds, makes the store once (kept in bench-data/), measures
#   KEEP_STORE=0 scripts/bench/random.sh  # rebuilds the store too
#
# Targets (same run, median wall time): quotectl random <= 0.6 x fortune;
# quotectl random --author <an author with 200 quotes> <= 0.7 x fortune.
# Exits non-zero when a target is missed.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
[ -x /usr/games/fortune ] || need+=(fortune-mod fortunes)
[ -f /usr/share/games/fortunes/fortunes ] || need+=(fortunes)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "building: swift build -c release --static-swift-stdlib"
swift build -c release --static-swift-stdlib 2>&1 | tail -1
quotectl=".build/release/quotectl"

data=bench-data
store="$data/random-1m.db"
mkdir -p "$data"
if [ "${KEEP_STORE:-1}" = 0 ] || [ ! -f "$store" ]; then
    rm -f "$store" "$store-wal" "$store-shm"
    echo "making 1,000,000 quotes (5,000 authors x 200)"
    python3 scripts/bench/make-quote-list.py 1000000 "$data/list-1m.json"
    echo "importing them: quotectl import"
    /usr/bin/time -f "import: %e s, peak RSS %M KB" "$quotectl" --db "$store" import "$data/list-1m.json" --name bench --max-bytes 1G
fi
export QUOTED_DB="$store"
quotes=$(sqlite3 "$store" "SELECT count(*) FROM quotes")
author_quotes=$(sqlite3 "$store" "SELECT count(*) FROM quotes WHERE author = 'Author 0042'")
echo "store: $quotes quotes; 'Author 0042' has $author_quotes"

results="$data/bench-random.json"
# Both sides read warm files: fortune's are small and stay cached; the 386 MB store is read once first.
cat "$store" "$store-wal" > /dev/null 2>&1 || true
hyperfine -N --warmup 30 --runs 500 --export-json "$results" \
    -n "quotectl random" "$quotectl random" \
    -n "quotectl random --author" "$quotectl random --author 'Author 0042'" \
    -n "quotectl search" "$quotectl search kw4242 --limit 10" \
    -n "quotectl search (45% match)" "$quotectl search time --limit 10" \
    -n "fortune" "/usr/games/fortune" >/dev/null

python3 - "$results" <<'PY'
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
fortune = results["fortune"]["median"]
targets = {"quotectl random": 0.6, "quotectl random --author": 0.7}
# The worst search: a word in ~45% of the million quotes, under 100 ms (absolute, not vs fortune).
worst = results["quotectl search (45% match)"]["median"]
failed = False
print(f"{'command':28} {'median':>9} {'vs fortune':>11}  target")
for name, result in results.items():
    median = result["median"]
    ratio = median / fortune
    target = targets.get(name)
    verdict = ""
    if target is not None:
        ok = ratio <= target
        failed |= not ok
        verdict = f"<= {target} {'met' if ok else 'MISSED'}"
    if name == "quotectl search (45% match)":
        ok = median <= 0.1
        failed |= not ok
        verdict = f"<= 100 ms {'met' if ok else 'MISSED'}"
    print(f"{name:28} {median * 1000:7.2f} ms {ratio:10.2f}x  {verdict}")
sys.exit(1 if failed else 0)
PY
