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
objcopy --strip-debug --discard-locals .build/release/quotectl "$work/quotectl"
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

# random first: what it touches is laid out first, the rest after it; then the filters of
# random.sh's table whose draws take their own ways (an exact condition's span, the lengths,
# probes then a count). Each is words as a shell splits them ('Author 0007' is one).
commands=("random" "today" "random --oneline" "random --short" "random --source custom.hot"
          "random --unseen" "random -n 10" "random --format waybar" "status"
          "random --author 'Author 0007'" "random --lang en" "random --category life"
          "random --category life --max-length 74" "random 50% custom.hot 50% builtin")
# Runs $binary under valgrind: run WORDS VALGRIND-OPTIONS...
run() {
    local words=$1
    shift
    local options=("$@")
    eval "set -- $words"
    valgrind "${options[@]}" "$binary" "$@" >/dev/null 2>&1
}
index=0
for words in "${commands[@]}"; do
    index=$((index + 1))
    run "$words" --tool=callgrind --demangle=no --callgrind-out-file="$work/functions.$index"
    run "$words" --tool=lackey --trace-mem=yes --log-file="$work/memory.$index"
done
# The store above has no side files (its last connection removed them): the careful look's path.
# With a daemon at work it has them, and a draw takes the way in of a store in use: drawn so too.
: > "$QUOTED_DB-wal"
: > "$QUOTED_DB-shm"
for words in "random" "today"; do
    index=$((index + 1))
    commands+=("$words")
    run "$words" --tool=callgrind --demangle=no --callgrind-out-file="$work/functions.$index"
    run "$words" --tool=lackey --trace-mem=yes --log-file="$work/memory.$index"
done
rm -f "$QUOTED_DB-wal" "$QUOTED_DB-shm"

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
    # The link keeps its relocations, and with them local symbols named after string literals,
    # newlines and all: a line that does not start with an address is the rest of such a name.
    if not fields or not re.fullmatch(r"[0-9a-f]+", fields[0]):
        continue
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
        if match and not match.group(1).startswith(("0x", "(")):
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

# Second pass, with BOLT: laid out by the order above, the commands are run under callgrind again,
# and the functions they run that the order does not name yet — outlined code with no symbol of
# its own in the linked binary, which BOLT names and would otherwise leave with the cold rest —
# are named right after what runs before main.
if command -v llvm-bolt-16 >/dev/null; then
    mkdir -p "$work/laid-out"
    cp .build/release/quotectl "$work/laid-out/quotectl"
    scripts/lay-out-quotectl.sh "$work/laid-out"
    objcopy --strip-debug --discard-locals "$work/laid-out/quotectl" "$work/laid-out.stripped"
    index=0
    binary=$work/laid-out.stripped
    for words in "${commands[@]}"; do
        index=$((index + 1))
        run "$words" --tool=callgrind --demangle=no --callgrind-out-file="$work/laid-out.$index"
    done
    nm -n "$work/laid-out.stripped" > "$work/laid-out.symbols"
    python3 - "$work" "$index" Sources/quotectl/quotectl.order <<'PY'
import bisect, re, sys

work, runs, path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
order = open(path).read().split("\n")
named = set(order)
symbols = sorted((int(fields[0], 16), fields[-1]) for fields in (line.split() for line in open(f"{work}/laid-out.symbols"))
                 if len(fields) == 3 and fields[1] in "tTwW" and re.fullmatch(r"[0-9a-f]+", fields[0]))
starts = [start for start, _ in symbols]
found = []
for run in range(1, runs + 1):
    for line in open(f"{work}/laid-out.{run}"):
        match = re.match(r"^c?fn=\(\d+\) (.+)$", line.rstrip("\n"))
        if not match:
            continue
        name = match.group(1).split("'")[0]
        if name.startswith("0x"):
            at = bisect.bisect_right(starts, int(name, 16)) - 1
            name = symbols[at][1] if at >= 0 else name
        # BOLT's names for what it left in place end in .org.0: the linked binary's own.
        if name.startswith(("0x", "(")) or name.endswith(".org.0") or name in named:
            continue
        named.add(name)
        found.append(name)
at = order.index("frame_dummy") + 1
order[at:at] = found
open(path, "w").write("\n".join(order))
print(f"{path}: {len(found)} more functions named from the laid-out binary")
PY
    rm -f .build/release/quotectl
    swift build -c release --static-swift-stdlib --product quotectl 2>&1 | tail -1
fi
