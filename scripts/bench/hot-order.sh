#!/usr/bin/env bash
# Writes Sources/quotectl/quotectl.order: the functions and data that quotectl's everyday
# commands touch, in the order the release link lays them out first (lld's
# --symbol-ordering-file, Package.swift; then BOLT moves the functions themselves in the same
# order, inside sections too: scripts/lay-out-quotectl.sh). Laid out as the linker met them, `quotectl random`
# touched 97 of the text's 64 KiB windows (each a page fault that maps 16 pages) and 64 pages
# of data; together they are as few as the C floor's (docs/benchmarks.md).
#
#   scripts/bench/hot-order.sh      # builds, runs each command under valgrind, rewrites the file
#
# Run it again when the hot path changes (a name that is gone is skipped by the linker, and a
# new function left out is laid out where it falls: slower, never wrong). Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/../.."

command -v valgrind >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
command -v nm >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq binutils >/dev/null; }

echo "building: swift build -c release --static-swift-stdlib --product quotectl"
swift build -c release --static-swift-stdlib --product quotectl 2>&1 | tail -1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Run without its debug information, which valgrind cannot read all of (clang's DWARF 5 forms
# in the C targets): the same code at the same addresses, its symbols kept.
objcopy --strip-debug .build/release/quotectl "$work/quotectl"
binary=$work/quotectl

# A store and a user's state as a status bar's leaves them (a hidden quote, the quotes shown,
# --unseen's history, a greeting), so that every command below takes its everyday path.
python3 scripts/bench/make-quote-list.py 2000 "$work/list.json" --authors 40 >/dev/null
export QUOTED_DB="$work/quotes.db" XDG_STATE_HOME="$work/state"
"$binary" import "$work/list.json" --name hot >/dev/null
for words in "random" "hide" "random --unseen" "random --once-per day" "random"; do
    # shellcheck disable=SC2086
    "$binary" $words >/dev/null
done

# random first: what it touches is laid out first, the rest after it.
commands=("random" "today" "random --oneline" "random --short" "random --source custom.hot"
          "random --unseen" "random -n 10" "random --format waybar" "status")
index=0
for words in "${commands[@]}"; do
    index=$((index + 1))
    # shellcheck disable=SC2086
    valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/functions.$index" "$binary" $words >/dev/null 2>&1
    # shellcheck disable=SC2086
    valgrind --tool=lackey --trace-mem=yes --log-file="$work/memory.$index" "$binary" $words >/dev/null 2>&1
done

nm -n -S "$binary" > "$work/symbols"
readelf -S -W "$binary" > "$work/sections"
python3 - "$work" "$index" > Sources/quotectl/quotectl.order <<'PY'
import bisect, re, sys

work, runs = sys.argv[1], int(sys.argv[2])
order, seen = [], set()

def add(name):
    if name not in seen:
        seen.add(name)
        order.append(name)

symbols = []
for line in open(f"{work}/symbols"):
    fields = line.split()
    if len(fields) == 4:
        symbols.append((int(fields[0], 16), int(fields[1], 16), fields[2], fields[3]))
    elif len(fields) == 3 and fields[1] == "i":
        add(fields[2])  # ifunc resolvers: glibc runs them all before main
for _, _, kind, name in symbols:
    if kind in "tT" and name.endswith("_ifunc"):
        add(name)
# What runs before main, which callgrind names otherwise ("(below main)", an address): the entry,
# glibc's start, crtbegin's frame registration.
for name in ("_start", "__libc_start_main_impl", "frame_dummy"):
    add(name)

# Functions: every one a run executed, in the order callgrind names them, run after run.
for run in range(1, runs + 1):
    for line in open(f"{work}/functions.{run}"):
        match = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
        if match and not match.group(1).startswith("0x"):
            add(match.group(1))

# Data: the variables a run read or wrote, in the order it first touched them.
low = high = None
for line in open(f"{work}/sections"):
    fields = line.replace("[ ", "[").split()
    for name in (".tdata", ".data.rel.ro", ".data", ".rodata", ".bss"):
        if name in fields:
            at = fields.index(name)
            start, size = int(fields[at + 2], 16), int(fields[at + 4], 16)
            low = start if low is None else min(low, start)
            high = start + size if high is None else max(high, start + size)
variables = sorted((start, size, name) for start, size, kind, name in symbols if kind in "bBdDrRvV")
starts = [start for start, _, _ in variables]
for run in range(1, runs + 1):
    for line in open(f"{work}/memory.{run}"):
        if len(line) < 4 or line[1] not in "LSM":
            continue
        address = int(line[3:].split(",")[0], 16)
        if not low <= address < high:
            continue
        at = bisect.bisect_right(starts, address) - 1
        if at >= 0 and address < variables[at][0] + max(variables[at][1], 1):
            add(variables[at][2])

print("\n".join(order))
PY
echo "Sources/quotectl/quotectl.order: $(wc -l < Sources/quotectl/quotectl.order) symbols"
# The file is no input SwiftPM tracks: the binary is removed so that the next build links again.
rm -f .build/release/quotectl
swift build -c release --static-swift-stdlib --product quotectl 2>&1 | tail -1
