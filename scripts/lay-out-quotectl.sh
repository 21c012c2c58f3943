#!/usr/bin/env bash
# Lays quotectl's functions out with BOLT, in place, in the order of Sources/quotectl/quotectl.order:
# lld orders whole sections, and the standard library's functions share one text section, so
# its layout leaves the code a draw runs spread over many 64 KiB windows, each a page fault;
# BOLT moves the functions themselves (the link keeps its relocations for it: Package.swift),
# and a draw faults in a fraction of those windows (docs/benchmarks.md).
#
#   scripts/lay-out-quotectl.sh [BIN_DIR]     # default: the release build's folder
#
# Without llvm-bolt (Debian: bolt-16) the binary keeps the linker's layout and this says so;
# REQUIRE_BOLT=1 makes that a failure (69), as the Debian package's build does. A binary laid
# out already is left as it is.
set -euo pipefail
cd "$(dirname "$0")/.."

bin_dir=${1:-$(swift build -c release --static-swift-stdlib --show-bin-path)}
binary="$bin_dir/quotectl"
[ -x "$binary" ] || { echo "lay-out-quotectl.sh: $binary is missing (swift build -c release first)" >&2; exit 66; }
bolt=$(command -v llvm-bolt-16 || command -v llvm-bolt || true)
if [ -z "$bolt" ]; then
    echo "lay-out-quotectl.sh: llvm-bolt is missing (apt-get install bolt-16): $binary keeps the linker's layout" >&2
    [ "${REQUIRE_BOLT:-0}" = 1 ] && exit 69
    exit 0
fi
sections=$(readelf -S -W "$binary")
if grep -q '\.bolt\.org\.text' <<<"$sections"; then
    echo "lay-out-quotectl.sh: $binary is laid out already" >&2
    exit 0
fi
grep -q '\.rela\.text' <<<"$sections" ||
    { echo "lay-out-quotectl.sh: $binary has no relocations to move its functions by (a release link keeps them)" >&2; exit 65; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The order file names variables too (for lld), which BOLT does not find among functions: its
# warnings go to the log, shown only when it fails.
if ! "$bolt" "$binary" -o "$work/quotectl" -reorder-functions=user \
        -function-order=Sources/quotectl/quotectl.order -use-gnu-stack > "$work/bolt.log" 2>&1; then
    grep -v 'BOLT-WARNING' "$work/bolt.log" >&2
    echo "lay-out-quotectl.sh: $bolt failed on $binary" >&2
    exit 70
fi
chmod 0755 "$work/quotectl"
mv "$work/quotectl" "$binary"
echo "lay-out-quotectl.sh: $binary laid out by $(basename "$bolt")" >&2
