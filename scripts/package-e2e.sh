#!/usr/bin/env bash
# Proves the Debian package in a real systemd: builds quoted_<v>-1 and quoted_<v>-2 with
# scripts/build-deb.sh, boots systemd with systemd-nspawn over this machine's root (an overlay
# that keeps /usr writable and forgets everything at exit), and there installs, uses, upgrades,
# removes and purges the package, and runs the user unit under a user manager. Prints each
# check; exits non-zero on any failure. Skips (exit 0, saying why) only where nspawn cannot run.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
cd "$repo"

if [ "$(id -u)" != 0 ] || ! command -v systemd-nspawn >/dev/null; then
    echo "SKIP package-e2e: needs root and systemd-nspawn (package systemd-container)"; exit 0
fi
for tool in dpkg-shlibdeps lintian; do
    command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev lintian >/dev/null; }
done

out=$(mktemp -d /tmp/quoted-package-e2e.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$out"' EXIT
chmod 0777 "$out"
mkdir "$out/debs"
first=$(OUT="$out/debs" REVISION=1 scripts/build-deb.sh 2>/dev/null | tail -1)
second=$(BUILD=0 OUT="$out/debs" REVISION=2 scripts/build-deb.sh 2>/dev/null | tail -1)
echo "built $(basename "$first") ($(du -k "$first" | cut -f1) kB) and $(basename "$second")"
echo "lintian $(basename "$first"):"
lintian --pedantic "$first" 2>&1 | grep -v "running with root" | sed 's/^/  /' || true
if lintian "$first" 2>/dev/null | grep -q "^E:"; then echo "FAIL lintian reports errors"; exit 1; fi
cp scripts/package-e2e-inside.sh "$out/inside.sh"
chmod 0755 "$out/inside.sh"

echo "booting systemd in a container (systemd-nspawn over /: a tmpfs root with throwaway overlays on /usr, /etc and /var)"
set +e
timeout 300 systemd-nspawn -D / --volatile=yes --overlay=/usr::/usr --overlay=/etc::/etc --overlay=/var::/var --register=no --keep-unit --private-network \
    --bind-ro="$repo:/src" --bind="$out:/out" \
    -b systemd.firstboot=off systemd.mask=systemd-networkd-wait-online.service 'systemd.run="/out/inside.sh"' \
    systemd.run_success_action=poweroff systemd.run_failure_action=poweroff > "$out/console.log" 2>&1
nspawn=$?
set -e
if [ ! -f "$out/log" ]; then
    if grep -qiE "operation not permitted|failed to (create|mount)|not supported" "$out/console.log"; then
        echo "SKIP package-e2e: systemd-nspawn cannot run here:"; grep -iE "operation not permitted|failed|not supported" "$out/console.log" | head -3
        exit 0
    fi
    echo "FAIL package-e2e: the container produced no results (nspawn exit $nspawn)"; tail -30 "$out/console.log"
    exit 1
fi
cat "$out/log"
if [ "$(cat "$out/status" 2>/dev/null)" != 0 ]; then
    echo "--- journal inside the container:"
    tail -60 "$out/journal.log" 2>/dev/null || true
    exit 1
fi
