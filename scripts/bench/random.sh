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
# printed) against `status`, which prints messages, and what one draw does to the user's state
# (strace: one appended line, no rename, no fsync, nothing of /proc on a plain draw).
# Every draw timed has a user's state in place (a hidden quote, the quotes shown, --unseen's
# history, a greeting), and random and today are also printed against the C floor (issue 41's
# 1.15x, reported), as is issue 41's table of filters. Ratios against the floor, between locales
# and between filters are taken in turns (scripts/bench/turns.c), not between hyperfine's
# batches. Exits non-zero when a target is missed. Searches: scripts/bench/search.sh.
set -euo pipefail
cd "$(dirname "$0")/../.."

need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v strace >/dev/null || need+=(strace)
command -v cc >/dev/null || need+=(gcc)
command -v sqlite3 >/dev/null || need+=(sqlite3)
command -v llvm-bolt-16 >/dev/null || need+=(bolt-16)
[ -f /usr/include/sqlite3.h ] || need+=(libsqlite3-dev)
command -v msgfmt >/dev/null || need+=(gettext)
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
# As installed: quotectl's functions laid out by BOLT (scripts/lay-out-quotectl.sh); the linker's
# layout is kept beside it, for its ratio to the floor.
scripts/lay-out-quotectl.sh --check .build/release &&
    { echo "random.sh: the build left a laid-out quotectl: no linker's layout to time" >&2; exit 1; }
install -m 0755 .build/release/quotectl bench-data/bin/quotectl-linked
REQUIRE_BOLT=1 scripts/lay-out-quotectl.sh .build/release
install -m 0755 .build/release/quotectl bench-data/bin/quotectl
# With its catalogs where an installed one finds them (share/locale beside bin), as the package
# lays them out: the Korean runs must have a catalog to (not) read.
for po in po/*.po; do
    install -d "bench-data/share/locale/$(basename "$po" .po)/LC_MESSAGES"
    msgfmt -o "bench-data/share/locale/$(basename "$po" .po)/LC_MESSAGES/quoted.mo" "$po"
done
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
# The filter table's lists beside the big one: 10 and 10,000 quotes (the latter all of category
# "ocean", its rows neighbours), 30,000 of category "garden", and 3,000 long quotes (261-365
# characters; the big list's are 62-153), each a list of its own.
for spec in "10 ten" "10000 k10 --category ocean" "30000 k30 --category garden" "3000 long --extra-words 30"; do
    read -r count list option value <<<"$spec"
    if [ "$(sqlite3 "$store" "SELECT count(*) FROM quotes WHERE source = 'custom.$list'")" != "$count" ]; then
        python3 scripts/bench/make-quote-list.py "$count" "$data/list-$list.json" --seed 7 --authors 50 ${option:+"$option" "$value"}
        "$quotectl" --db "$store" import "$data/list-$list.json" --name "$list" --max-bytes 1G
    fi
done
sqlite3 "$store" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
export QUOTED_DB="$store"
quotes=$(sqlite3 "$store" "SELECT count(*) FROM quotes")
author_quotes=$(sqlite3 "$store" "SELECT count(*) FROM quotes WHERE author = 'Author 0042'")
echo "store: $quotes quotes; 'Author 0042' has $author_quotes"

# The C floor: the same answer from a 16-line C program on libsqlite3, linked statically.
# (libsqlite3.a's dlopen warns of a static link, which the floor, loading no extension, ignores.)
cc -O2 -static -o "$data/random-floor" scripts/bench/random-floor.c -lsqlite3 -lm 2> "$data/random-floor.cc.txt" ||
    { cat "$data/random-floor.cc.txt" >&2; exit 1; }
install -m 0755 "$data/random-floor" "$data/bin/random-floor"
floor=(-n "C floor (static, libsqlite3)" "$data/bin/random-floor $store")
# The same work in Swift (scripts/bench/random-floor.swift), linked statically as swiftc links
# it, and with quotectl's start (its C target, lld): what the Swift runtime's start adds to the
# C floor, whatever the program around it does.
mkdir -p "$data/swift-floor/CSQLite"
printf 'module CSQLite [system] {\n    header "/usr/include/sqlite3.h"\n    link "sqlite3"\n    export *\n}\n' \
    > "$data/swift-floor/CSQLite/module.modulemap"
# swiftcall: the toolchain's clang (gcc ignores the attribute).
clang -O2 -c -I Sources/CQuotectlStart/include -o "$data/swift-floor/start.o" Sources/CQuotectlStart/start.c
for variant in plain start; do
    extra=()
    [ "$variant" = plain ] || extra=(-use-ld=lld "$data/swift-floor/start.o")
    swiftc -O -static-executable -I "$data/swift-floor" scripts/bench/random-floor.swift "${extra[@]}" \
        -o "$data/swift-floor/random-floor-$variant" 2> "$data/swift-floor/$variant.txt" ||
        { cat "$data/swift-floor/$variant.txt" >&2; exit 1; }
    install -m 0755 "$data/swift-floor/random-floor-$variant" "$data/bin/random-floor-swift-$variant"
done
# Ratios are taken in turns (scripts/bench/turns.c): each turn runs every command once, the order
# turned, and a ratio is the median over the turns of one turn's times. hyperfine times one
# command's runs after another's: on this shared machine a drift of its speed between two
# batches moved a ratio by a tenth or more from run to run; within a turn it cancels.
cc -O2 -o "$data/turns" scripts/bench/turns.c

# A user's state as a status bar's leaves it: a hidden quote, the quotes shown, --unseen's
# history and a greeting; "random, the user's state" draws with it in place (a plain draw reads
# the hidden list and appends one line to the shown history).
state_home="$PWD/$data/state-home"
rm -rf "$state_home"
mkdir -p "$state_home"
in_state() { XDG_STATE_HOME="$state_home" "$quotectl" "$@" >/dev/null; }
in_state random && in_state hide && in_state random --unseen && in_state random --once-per day
for _ in $(seq 200); do in_state random; done

results="$data/bench-random.json"
# Both sides read warm files: fortune's are small and stay cached; the 386 MB store is read once first.
cat "$store" "$store-wal" > /dev/null 2>&1 || true
# Every quotectl below draws with that state in place.
XDG_STATE_HOME="$state_home" hyperfine -N --warmup 30 --runs 500 --export-json "$results" \
    -n "/bin/true (the floor)" "/bin/true" \
    "${floor[@]}" \
    -n "quotectl random" "$quotectl random" \
    -n "quotectl today" "$quotectl today" \
    -n "quotectl status" "$quotectl status" \
    -n "quotectl random --author" "$quotectl random --author 'Author 0042'" \
    -n "fortune" "/usr/games/fortune" >/dev/null
# The C floor's ratios, each in 2,000 turns of the floor and the one command: with a third
# command of quotectl's in the turn, quotectl ran twice a turn and found the caches warmer than
# the floor did (random 1.17x the floor beside today, 1.20x alone, the same binaries).
for words in random today; do
    XDG_STATE_HOME="$state_home" "$data/turns" 2000 "C floor=$data/bin/random-floor" "$store" \
        -- "quotectl $words=$quotectl" "$words" > "$data/bench-turns-$words.json"
done
XDG_STATE_HOME="$state_home" "$data/turns" 2000 "C floor=$data/bin/random-floor" "$store" \
    -- "quotectl random=$data/bin/quotectl-linked" random > "$data/bench-turns-random-linked.json"
# What any program must add to the C floor for a draw with the user's state, each in 2,000 turns
# of the floor and the one: the state's reads and append (the C floor doing them, on copies of
# the state's hidden list and history), and the Swift runtime's start (the Swift floors).
cp "$state_home/quoted/hidden" "$data/swift-floor/hidden"
cp "$state_home/quoted/shown" "$data/swift-floor/shown"
"$data/turns" 2000 "C floor=$data/bin/random-floor" "$store" \
    -- "C floor with the user's state=$data/bin/random-floor" "$store" "$data/swift-floor/hidden" "$data/swift-floor/shown" \
    > "$data/bench-turns-floor-state.json"
for variant in plain start; do
    "$data/turns" 2000 "C floor=$data/bin/random-floor" "$store" -- "Swift floor=$data/bin/random-floor-swift-$variant" "$store" \
        > "$data/bench-turns-floor-swift-$variant.json"
done
# The three locales side by side, in 1,000 turns: the difference is taken within each turn.
locale_turns=()
for name in C en_US.UTF-8 ko_KR.UTF-8; do
    [ ${#locale_turns[@]} -eq 0 ] || locale_turns+=(--)
    locale_turns+=("$name=/usr/bin/env" -u LC_ALL -u LC_MESSAGES -u LANGUAGE "LANG=$name" "$quotectl" random)
done
XDG_STATE_HOME="$state_home" "$data/turns" 1000 "${locale_turns[@]}" > "$data/bench-locale.json"
verdict=0
python3 - "$results" "$data/bench-turns-random.json" "$data/bench-turns-today.json" "$data/bench-locale.json" \
    "$data/bench-turns-floor-state.json" "$data/bench-turns-floor-swift-plain.json" "$data/bench-turns-floor-swift-start.json" \
    "$data/bench-turns-random-linked.json" <<'PY' || verdict=1
import json, sys
results = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
def middle(values):
    values = sorted(values)
    return values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
def turned(path):
    read = json.load(open(path))
    return dict(zip(read["names"], read["times"]))
fortune = results["fortune"]["median"]
random = results["quotectl random"]["median"]
targets = {"quotectl random": 0.25, "quotectl random --author": 0.7}
failed = False
print(f"{'command':34} {'median':>9} {'vs fortune':>11}  target")
for name, result in results.items():
    median = result["median"]
    ratio = median / fortune
    verdict = ""
    if name in targets:
        ok = ratio <= targets[name]
        verdict = f"<= {targets[name]} x fortune {'met' if ok else 'MISSED'}"
        failed |= not ok
    elif name in ("quotectl today", "quotectl status"):
        ok = median <= random + 0.001
        verdict = f"within 1 ms of random {'met' if ok else 'MISSED'}"
        failed |= not ok
    print(f"{name:34} {median * 1000:7.2f} ms {ratio:10.2f}x  {verdict}")
# Reported, not enforced: issue 41's target for a draw with the user's state in place.
print("against the C floor, each in turns of the floor and the one command (scripts/bench/turns.c):")
for label, name, path in (("quotectl random", "quotectl random", sys.argv[2]), ("quotectl today", "quotectl today", sys.argv[3]),
                          ("random, the linker's layout", "quotectl random", sys.argv[8])):
    times = turned(path)
    floor = times["C floor"]
    ratio = middle([mine / its for mine, its in zip(times[name], floor)])
    print(f"  {label:28} {middle(times[name]) * 1000:6.2f} ms, the floor {middle(floor) * 1000:.2f} ms in {len(floor):,} turns: "
          f"{ratio:.3f}x (a target of 1.15x: {'met' if ratio <= 1.15 else 'not met'})")
print("what a draw with the user's state must add to the C floor, each in turns of the floor and the one:")
for label, path, name in (("the user's state, done by the C floor", sys.argv[5], "C floor with the user's state"),
                          ("the floor's work in Swift, as swiftc links it", sys.argv[6], "Swift floor"),
                          ("the floor's work in Swift, with quotectl's start", sys.argv[7], "Swift floor")):
    times = turned(path)
    floor = times["C floor"]
    ratio = middle([mine / its for mine, its in zip(times[name], floor)])
    print(f"  {label:48} {middle(times[name]) * 1000:6.2f} ms, the floor {middle(floor) * 1000:.2f} ms: {ratio:.3f}x")

by_locale = turned(sys.argv[4])
print(f"quotectl random by locale (through env(1)), in {len(by_locale['C']):,} turns of the three:")
for name in ("C", "en_US.UTF-8", "ko_KR.UTF-8"):
    print(f"  LANG={name:16} median {middle(by_locale[name]) * 1000:6.2f} ms")
for name in ("en_US.UTF-8", "ko_KR.UTF-8"):
    shown = middle([mine - its for mine, its in zip(by_locale[name], by_locale["C"])]) * 1000
    line = f"  LANG={name} - LANG=C: median of the turns' differences {shown:+.3f} ms"
    if name == "ko_KR.UTF-8":
        ok = shown <= 0.1
        line += f"  (target within 0.1 ms: {'met' if ok else 'MISSED'})"
        failed |= not ok
    print(line)
sys.exit(1 if failed else 0)
PY

# Issue 41's table: each filter alone and the common pairs against unfiltered random, whatever
# share of the store they match, all in 200 turns and with the user's state in place; the ratio
# to the C floor goes through random's own, measured in turns of the two above. Each row: a name, quotectl's words, and the SQL its matches are
# (for the share). Reported, not enforced: the targets are printed met or not met.
filters=(
    "unfiltered|random|1"
    "--source (a list of 1M)|random --source custom.bench|source = 'custom.bench'"
    "--source (a list of 10,000)|random --source custom.k10|source = 'custom.k10'"
    "--source (a list of 10)|random --source custom.ten|source = 'custom.ten'"
    "--source custom (every list)|random --source custom|source LIKE 'custom.%'"
    "--lang ko|random --lang ko|lang = 'ko'"
    "--lang en|random --lang en|lang = 'en'"
    "--category (spread)|random --category life|category = 'life'"
    "--category (one list's)|random --category ocean|category = 'ocean'"
    "--author|random --author 'Author 0042'|author = 'Author 0042'"
    "--short|random --short|length <= 160"
    "--long|random --long|length > 160"
    "--max-length 71|random --max-length 71|length <= 71"
    "--max-length 74|random --max-length 74|length <= 74"
    "shares 50% 50%|random 50% custom.bench 50% custom.ten|source IN ('custom.bench', 'custom.ten')"
    "--source + --category|random --source custom.bench --category life|source = 'custom.bench' AND category = 'life'"
    "--source + --short|random --source custom.k30 --short|source = 'custom.k30' AND length <= 160"
    "--lang + --max-length|random --lang en --max-length 74|lang = 'en' AND length <= 74"
    "--category + --max-length|random --category life --max-length 74|category = 'life' AND length <= 74"
    "ten different quotes|random -n 10|1"
    "each once before repeats|random --unseen|1"
    "the quote of the day|today|1"
)
filter_turns=()
filter_shares="$data/bench-filter-shares.txt"
: > "$filter_shares"
for row in "${filters[@]}"; do
    IFS='|' read -r label words sql <<<"$row"
    # The words as a shell would split them ('Author 0042' is one): they are this script's own.
    eval "set -- $words"
    [ ${#filter_turns[@]} -eq 0 ] || filter_turns+=(--)
    filter_turns+=("$words=$quotectl" "$@")
    printf '%s|%s|%s\n' "$words" "$label" "$(sqlite3 "$store" "SELECT count(*) FROM quotes WHERE $sql")" >> "$filter_shares"
done
XDG_STATE_HOME="$state_home" "$data/turns" 200 "${filter_turns[@]}" > "$data/bench-filters.json"
python3 - "$data/bench-filters.json" "$filter_shares" "$quotes" "$data/bench-turns-random.json" <<'PY' | tee "$data/bench-filters.md"
import json, sys
turned = json.load(open(sys.argv[1]))
times = dict(zip(turned["names"], turned["times"]))
rows = [line.rstrip("\n").split("|") for line in open(sys.argv[2])]
labels = {words: label for words, label, _ in rows}
matches = {words: count for words, _, count in rows}
quotes = int(sys.argv[3])
def median(values):
    values = sorted(values)
    return values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
def ratio(name, other):
    return median([mine / its for mine, its in zip(times[name], times[other])])
# To the floor: through random's own ratio to it, measured in turns of the two alone (with 22
# draws of quotectl's in a turn, quotectl's caches are warmer than the floor's).
paired = json.load(open(sys.argv[4]))
paired = dict(zip(paired["names"], paired["times"]))
random_to_floor = median([mine / its for mine, its in zip(paired["quotectl random"], paired["C floor"])])
targets = {"random -n 10": 1.5}
# The mean beside the median: a draw that ends in its probes most of the time and in a count
# otherwise has a tail the median does not show.
print("| draw | quotectl | matches | share | median | mean | × random | × C floor | target |")
print("|---|---|---:|---:|---:|---:|---:|---:|---|")
for name in turned["names"]:
    if name not in matches:
        continue
    share = int(matches[name]) / quotes
    to_random = ratio(name, "random")
    to_floor = to_random * random_to_floor
    if name in ("random", "today"):
        target = f"≤ 1.15× the floor: {'met' if to_floor <= 1.15 else 'not met'}"
    else:
        limit = targets.get(name, 1.3)
        target = f"≤ {limit}× random: {'met' if to_random <= limit else 'not met'}"
    mean = sum(times[name]) / len(times[name])
    print(f"| {labels[name]} | `{name}` | {int(matches[name]):,} | {share:.3%} | {median(times[name]) * 1000:.2f} ms | {mean * 1000:.2f} ms "
          f"| {to_random:.2f} | {to_floor:.2f} | {target} |")
print(f"\n{quotes:,} quotes; {len(times['random'])} turns of every draw (scripts/bench/turns.c), one run; × C floor: × random times "
      f"random's {random_to_floor:.3f}× the floor in turns of the two.")
PY

# The same draw with a process holding the store open, as a daemon at work does: its -wal and
# -shm are there and set up, and each draw opens a store in use (every figure above is of a store
# no process holds, whose -shm each draw's open sets up). Reported, not enforced. The holder is a
# read-only connection that read once and waits; the checkpoint after it leaves the store as the
# rest of the script found it.
python3 -c '
import sqlite3, sys, time
connection = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
connection.execute("SELECT count(*) FROM sources").fetchall()
time.sleep(600)
' "$store" &
holder=$!
for _ in $(seq 100); do [ -e "$store-shm" ] && break; sleep 0.1; done
XDG_STATE_HOME="$state_home" "$data/turns" 2000 "C floor=$data/bin/random-floor" "$store" \
    -- "quotectl random=$quotectl" random > "$data/bench-turns-held.json"
"$data/turns" 2000 "C floor=$data/bin/random-floor" "$store" \
    -- "Swift floor=$data/bin/random-floor-swift-start" "$store" > "$data/bench-turns-held-swift.json"
kill "$holder"
wait "$holder" 2>/dev/null || true
sqlite3 "$store" "PRAGMA wal_checkpoint(TRUNCATE)" >/dev/null
python3 - "$data/bench-turns-held.json" "$data/bench-turns-held-swift.json" <<'PY'
import json, sys
def middle(values):
    values = sorted(values)
    return values[len(values) // 2] if len(values) % 2 else (values[len(values) // 2 - 1] + values[len(values) // 2]) / 2
print("with a process holding the store open (a daemon at work), each in turns of the C floor and the one:")
for path, name in ((sys.argv[1], "quotectl random"), (sys.argv[2], "Swift floor")):
    read = json.load(open(path))
    times = dict(zip(read["names"], read["times"]))
    ratio = middle([mine / its for mine, its in zip(times[name], times["C floor"])])
    label = name if name != "Swift floor" else "the floor's work in Swift, with quotectl's start"
    print(f"  {label:48} {middle(times[name]) * 1000:6.2f} ms, the floor {middle(times['C floor']) * 1000:.2f} ms "
          f"in {len(times['C floor']):,} turns: {ratio:.3f}x")
PY

# What each opens of the locale under Korean: the locale archive (setlocale) and the catalog
# (bindtextdomain, dgettext), tried or found. random prints no message, so it should open neither.
locale_files() {
    env -u LC_ALL -u LC_MESSAGES -u LANGUAGE LANG=C strace -qq -E LANG=ko_KR.UTF-8 -f -e trace=openat,open -o "$data/strace.txt" "$quotectl" "$@" >/dev/null 2>&1 || true
    { grep -E 'locale-archive|/usr/lib/locale|\.mo"|LC_MESSAGES' "$data/strace.txt" || true; } | sed 's/^[0-9]* *//' | cut -c1-120
}
echo "locale files opened by quotectl random under LANG=ko_KR.UTF-8 (strace -f -e trace=openat):"
opened=$(locale_files random)
if [ -z "$opened" ]; then echo "  none"; else printf '  %s\n' "$opened"; fi
echo "and by quotectl status --help (prints translated messages):"
locale_files status --help | sed 's/^/  /'
[ -z "$opened" ] || { echo "quotectl random opened locale files: the catalog is not lazy" >&2; verdict=1; }

# What one draw does to the user's state, with every kind of it there (a hidden quote, the quotes
# shown, --unseen's history, a greeting): a plain draw reads the hidden list and adds one line to
# the shown history — no rename, no fsync, nothing of /proc (the boot and session are read only
# by --once-per boot|session). Skipped where strace could not be installed.
if command -v strace >/dev/null; then
    echo "the user's state in one draw (strace -f -y; XDG_STATE_HOME holding hidden, shown, seen and greeted):"
    for words in "random" "random --unseen" "random --once-per day" "today"; do
        # shellcheck disable=SC2086  # the words are split on purpose
        XDG_STATE_HOME="$state_home" strace -qq -f -y -o "$data/strace-state.txt" \
            -e trace=open,openat,rename,renameat,renameat2,unlink,unlinkat,write,fsync,fdatasync "$quotectl" $words >/dev/null 2>&1 || true
        python3 - "$data/strace-state.txt" "$state_home/quoted" "$words" <<'PY' || verdict=1
import re, sys
trace, folder, words = sys.argv[1], sys.argv[2], sys.argv[3]
opened, proc, renames, writes, fsyncs, removed = [], [], 0, [], 0, 0
for line in open(trace, errors="replace"):
    call = re.match(r"(?:\d+\s+)?(\w+)\((.*)", line)
    if not call:
        continue
    name, rest = call.groups()
    path = re.search(r'"([^"]*)"', rest)
    path = path.group(1) if path else ""
    if name in ("open", "openat"):
        if path.startswith(folder + "/"):
            opened.append(path[len(folder) + 1:])
        elif path.startswith("/proc/"):
            proc.append(path)
    elif name.startswith("rename") and folder in rest:
        renames += 1
    elif name.startswith("unlink") and folder in rest:
        removed += 1
    elif name == "write":
        target = re.match(r"\d+<([^>]*)>", rest)
        if target and target.group(1).startswith(folder + "/"):
            writes.append(target.group(1)[len(folder) + 1:])
    elif name in ("fsync", "fdatasync") and folder in rest:
        fsyncs += 1
print(f"  quotectl {words:22} opens: {', '.join(opened) or 'none'}; writes: {len(writes)} ({', '.join(writes) or 'none'}); "
      f"renames: {renames}; unlinks: {removed}; fsyncs: {fsyncs}; /proc: {', '.join(proc) or 'none'}")
missed = []
if renames or removed or fsyncs:
    missed.append("a rename, unlink or fsync in the state folder")
if len(writes) > (2 if "--unseen" in words else 1):
    missed.append(f"{len(writes)} writes to the state")
if words == "random" and any(p.endswith(("/sessionid", "/boot_id")) for p in proc):
    missed.append("a plain draw read the boot or session from /proc")
for text in missed:
    print(f"  MISSED: quotectl {words}: {text}")
sys.exit(1 if missed else 0)
PY
    done
else
    echo "the user's state in one draw: strace is not installed, not checked"
fi
exit "$verdict"
