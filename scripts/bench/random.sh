#!/usr/bin/env bash
# Benchmarks quotectl's start-to-answer time against fortune on a 1,000,000-quote store.
#
#   scripts/bench/random.sh            # builds, makes the store once (kept in bench-data/), measures
#   KEEP_STORE=0 scripts/bench/random.sh  # rebuilds the store too
#
# Targets (same run, median wall time): quotectl random <= 0.25 x fortune, with
# /bin/true printed beside both as the floor (a process that does nothing); `status` and `today`
# within 1 ms of `random`; quotectl random --author <an author with 200 quotes> <= 0.7 x fortune;
# quotectl random under LANG=ko_KR.UTF-8 within 0.1 ms of LANG=C (English), with en_US.UTF-8
# beside them (all three through env(1), so each pays the same exec). Then strace shows which
# locale files `random` opens under Korean (none: the catalog is read only when a message is
# printed) against `status`, which prints messages.
# Exits non-zero when a target is missed. Searches: scripts/bench/search.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v strace >/dev/null || need+=(strace)
[ -x /usr/games/fortune ] || need+=(fortune-mod fortunes)
[ -f /usr/share/games/fortunes/fortunes ] || need+=(fortunes)
if [ ${#need[@]} -gt 0 ]; then
    echo "installing: ${need[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null
fi

echo "building: swift build -c release --static-swift-stdlib"
swift build -c release --static-swift-stdlib 2>&1 | tail -1
# What is timed is a copy, as installed (dpkg and install(1) write the file with write(2)): the
# linker's own output file started 0.1-0.4 ms slower here, the same bytes, the same inode once
# rewritten by cp (docs/benchmarks.md); the C floor is copied the same way.
mkdir -p bench-data/bin
install -m 0755 .build/release/quotectl bench-data/bin/quotectl
quotectl="bench-data/bin/quotectl"

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

# The C floor: the same answer from a 16-line C program on libsqlite3, linked statically.
floor=()
if command -v cc >/dev/null && cc -O2 -static -o "$data/random-floor" scripts/bench/random-floor.c -lsqlite3 -lm 2>/dev/null; then
    install -m 0755 "$data/random-floor" "$data/bin/random-floor"
    floor=(-n "C floor (static, libsqlite3)" "$data/bin/random-floor $store")
fi

results="$data/bench-random.json"
# Both sides read warm files: fortune's are small and stay cached; the 386 MB store is read once first.
cat "$store" "$store-wal" > /dev/null 2>&1 || true
hyperfine -N --warmup 30 --runs 500 --export-json "$results" \
    -n "/bin/true (the floor)" "/bin/true" \
    "${floor[@]}" \
    -n "quotectl random" "$quotectl random" \
    -n "quotectl today" "$quotectl today" \
    -n "quotectl status" "$quotectl status" \
    -n "quotectl random --author" "$quotectl random --author 'Author 0042'" \
    -n "fortune" "/usr/games/fortune" \
    -n "quotectl random, LANG=C" "env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=C $quotectl random" \
    -n "quotectl random, LANG=en_US.UTF-8" "env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=en_US.UTF-8 $quotectl random" \
    -n "quotectl random, LANG=ko_KR.UTF-8" "env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=ko_KR.UTF-8 $quotectl random" >/dev/null
verdict=0
python3 - "$results" <<'PY' || verdict=1
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
fortune = results["fortune"]["median"]
random = results["quotectl random"]["median"]
targets = {"quotectl random": 0.25, "quotectl random --author": 0.7}
english = results["quotectl random, LANG=C"]["median"]
failed = False
print(f"{'command':34} {'median':>9} {'vs fortune':>11}  target")
for name, result in results.items():
    median = result["median"]
    ratio = median / fortune
    verdict = ""
    if name == "quotectl random, LANG=ko_KR.UTF-8":
        ok = median <= english + 0.0001
        verdict = f"{(median - english) * 1000:+.3f} ms vs LANG=C: within 0.1 ms {'met' if ok else 'MISSED'}"
        failed |= not ok
    elif name == "quotectl random, LANG=en_US.UTF-8":
        verdict = f"{(median - english) * 1000:+.3f} ms vs LANG=C"
    elif name in targets:
        ok = ratio <= targets[name]
        verdict = f"<= {targets[name]} x fortune {'met' if ok else 'MISSED'}"
        failed |= not ok
    elif name in ("quotectl today", "quotectl status"):
        ok = median <= random + 0.001
        verdict = f"within 1 ms of random {'met' if ok else 'MISSED'}"
        failed |= not ok
    print(f"{name:34} {median * 1000:7.2f} ms {ratio:10.2f}x  {verdict}")
sys.exit(1 if failed else 0)
PY

# What each opens of the locale under Korean: the locale archive (setlocale) and the catalog
# (bindtextdomain, dgettext). random prints no message, so it should open neither.
locale_files() {
    env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=ko_KR.UTF-8 strace -f -e trace=openat,open -o "$data/strace.txt" "$quotectl" "$@" >/dev/null 2>&1 || true
    grep -E 'locale-archive|/usr/lib/locale|\.mo"|LC_MESSAGES' "$data/strace.txt" | grep -v ENOENT | sed 's/^[0-9]* *//' | cut -c1-110
}
echo "locale files opened by quotectl random under LANG=ko_KR.UTF-8 (strace -f -e trace=openat):"
opened=$(locale_files random)
if [ -z "$opened" ]; then echo "  none"; else printf '  %s\n' "$opened"; fi
echo "and by quotectl status (prints messages):"
locale_files status | sed 's/^/  /'
[ -z "$opened" ] || { echo "quotectl random opened locale files: the catalog is not lazy" >&2; verdict=1; }
exit "$verdict"
