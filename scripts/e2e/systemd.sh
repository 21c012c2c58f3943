#!/usr/bin/env bash
# Proves the system service in a real systemd: boots one over this machine's root
# with systemd-nspawn (PID 1 here is not systemd), installs quoted with
# scripts/install.sh, points the sources at a local fake upstream, and checks what a
# sysadmin relies on. Prints each check and its result; exits non-zero on any failure.
# Skips (exit 0, saying why) only where nspawn cannot run at all.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
# shellcheck source=scripts/e2e/nspawn-lib.sh
source scripts/e2e/nspawn-lib.sh

if ! command -v systemd-nspawn >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd-container >/dev/null
    fi
fi
if ! command -v systemd-nspawn >/dev/null; then
    skip systemd-e2e "systemd-nspawn is not available (package systemd-container)"
fi
if [ "$(id -u)" != 0 ]; then
    skip systemd-e2e "systemd-nspawn needs root"
fi

bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
if [ ! -x "$bin/quoted" ] || [ ! -x "$bin/quotectl" ]; then
    echo "building: swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib 2>&1 | tail -1
fi

out=$(mktemp -d /tmp/quoted-e2e.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$out"' EXIT
chmod 0777 "$out"
echo "booting systemd in a container (systemd-nspawn --volatile=yes over /)"
boot_and_check systemd-e2e "$out" scripts/e2e/systemd-inside.sh \
    --volatile=yes --bind-ro="$repo:/src" --bind-ro="$bin:/build"
