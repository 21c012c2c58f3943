#!/usr/bin/env bash
# Lays quotectl's functions out with BOLT, in place, in the order of Sources/quotectl/quotectl.order:
# lld orders whole sections, and the standard library's functions share one text section, so
# its layout leaves the code a draw runs spread over many 64 KiB windows, each a page fault;
# BOLT moves the functions themselves (the link keeps its relocations for it: Package.swift),
# and a draw faults in fewer of those windows (docs/benchmarks.md).
#
#   scripts/lay-out-quotectl.sh [BIN_DIR]          # default: the release build's folder
#   scripts/lay-out-quotectl.sh --check [BIN_DIR]  # exits 0 when laid out, 1 when as linked
#
# Without llvm-bolt (Debian: bolt-16), or for a binary linked without its relocations (a debug
# build), the binary keeps the linker's layout and this says so; REQUIRE_BOLT=1 makes that a
# failure (69, 65), as the Debian package's build and CI do. A binary laid
# out already is left as it is. SwiftPM links quotectl again at the next release build (its
# output changed): lay it out after each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

check=0
if [ "${1:-}" = --check ]; then check=1; shift; fi
if [ $# -gt 0 ]; then
    bin_dir=$(cd "$1" && pwd)
else
    bin_dir=$(cd "$root" && swift build -c release --static-swift-stdlib --show-bin-path)
fi
binary="$bin_dir/quotectl"
[ -x "$binary" ] || { echo "lay-out-quotectl.sh: $binary is missing (swift build -c release first)" >&2; exit 66; }
sections=$(readelf -S -W "$binary")
# BOLT's mark: the section it keeps the linked text in.
laid_out_already=0
grep -q '\.bolt\.org\.text' <<<"$sections" && laid_out_already=1
[ "$check" = 0 ] || { [ "$laid_out_already" = 1 ]; exit; }
if [ "$laid_out_already" = 1 ]; then
    echo "lay-out-quotectl.sh: $binary is laid out already" >&2
    exit 0
fi
bolt=$(command -v llvm-bolt-16 || command -v llvm-bolt || true)
if [ -z "$bolt" ]; then
    echo "lay-out-quotectl.sh: llvm-bolt is missing (apt-get install bolt-16): $binary keeps the linker's layout" >&2
    [ "${REQUIRE_BOLT:-0}" = 1 ] && exit 69
    exit 0
fi
if ! grep -q '\.rela\.text' <<<"$sections"; then
    echo "lay-out-quotectl.sh: $binary has no relocations to move its functions by (a release link keeps them): it keeps the linker's layout" >&2
    [ "${REQUIRE_BOLT:-0}" = 1 ] && exit 65
    exit 0
fi
# Written beside the binary and renamed over it: never a half-written quotectl.
laid_out=$(mktemp "$bin_dir/.quotectl.XXXXXX")
log=$(mktemp)
trap 'rm -f "$laid_out" "$log"' EXIT
# The order file names variables too (for lld), which BOLT does not find among functions: its
# warnings go to the log, shown only when it fails.
if ! "$bolt" "$binary" -o "$laid_out" -reorder-functions=user \
        -function-order="$root/Sources/quotectl/quotectl.order" -use-gnu-stack > "$log" 2>&1; then
    grep -v 'BOLT-WARNING' "$log" >&2 || true
    echo "lay-out-quotectl.sh: $bolt failed on $binary" >&2
    exit 70
fi
chmod 0755 "$laid_out"
mv -f "$laid_out" "$binary"
echo "lay-out-quotectl.sh: $binary laid out by $(basename "$bolt")" >&2
