#!/usr/bin/env bash
# Proves the system service in a real systemd: boots one over this machine's root
# with systemd-nspawn (PID 1 here is not systemd), installs quoted with
# scripts/install.sh, points the sources at a local fake upstream, and checks what a
# sysadmin relies on. Prints each check and its result; exits non-zero on any failure.
# Skips (exit 0, saying why) only where nspawn cannot run at all.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

if ! command -v systemd-nspawn >/dev/null; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd-container >/dev/null
    fi
fi
if ! command -v systemd-nspawn >/dev/null; then
    echo "SKIP systemd-e2e: systemd-nspawn is not available (package systemd-container)"; exit 0
fi
if [ "$(id -u)" != 0 ]; then
    echo "SKIP systemd-e2e: systemd-nspawn needs root"; exit 0
fi

bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
if [ ! -x "$bin/quoted" ] || [ ! -x "$bin/quotectl" ]; then
    echo "building: swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib 2>&1 | tail -1
fi

out=$(mktemp -d /tmp/quoted-e2e.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$out"' EXIT
chmod 0777 "$out"
cp scripts/systemd-e2e-inside.sh "$out/inside.sh"
chmod 0755 "$out/inside.sh"

echo "booting systemd in a container (systemd-nspawn --volatile=yes over /)"
set +e
timeout 240 systemd-nspawn -D / --volatile=yes --register=no --keep-unit --private-network \
    --bind-ro="$repo:/src" --bind-ro="$bin:/build" --bind="$out:/out" \
    -b systemd.firstboot=off systemd.mask=systemd-networkd-wait-online.service 'systemd.run="/out/inside.sh"' \
    systemd.run_success_action=poweroff systemd.run_failure_action=poweroff > "$out/console.log" 2>&1
nspawn=$?
set -e
if [ ! -f "$out/log" ]; then
    if grep -qiE "operation not permitted|failed to (create|mount)|not supported" "$out/console.log"; then
        echo "SKIP systemd-e2e: systemd-nspawn cannot run here:"; grep -iE "operation not permitted|failed|not supported" "$out/console.log" | head -3
        exit 0
    fi
    echo "FAIL systemd-e2e: the container produced no results (nspawn exit $nspawn)"; tail -30 "$out/console.log"
    exit 1
fi
cat "$out/log"
if [ "$(cat "$out/status" 2>/dev/null)" != 0 ]; then
    echo "--- journal of quoted.service inside the container:"
    cat "$out/journal.log" 2>/dev/null | tail -40 || true
    exit 1
fi
