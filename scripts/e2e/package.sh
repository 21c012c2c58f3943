#!/usr/bin/env bash
# Proves the Debian package in a real systemd: builds quoted_<v>-1 and quoted_<v>-2 with
# scripts/build-deb.sh, boots systemd with systemd-nspawn over this machine's root (an overlay
# that keeps /usr writable and forgets everything at exit), and there installs, uses, upgrades,
# removes and purges the package, and runs the user unit under a user manager. Prints each
# check; exits non-zero on any failure. Skips (exit 0, saying why) only where nspawn cannot run.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
# shellcheck source=scripts/e2e/nspawn-lib.sh
source scripts/e2e/nspawn-lib.sh

if [ "$(id -u)" != 0 ] || ! command -v systemd-nspawn >/dev/null; then
    skip package-e2e "needs root and systemd-nspawn (package systemd-container)"
fi
for tool in dpkg-shlibdeps lintian; do
    command -v "$tool" >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq dpkg-dev lintian >/dev/null; }
done

out=$(mktemp -d /tmp/quoted-package-e2e.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$out"' EXIT
chmod 0777 "$out"
mkdir "$out/debs"
# Built from a Korean session: the English manual pages and completions must stay English.
first=$(LANG=ko_KR.UTF-8 LANGUAGE=ko OUT="$out/debs" REVISION=1 scripts/build-deb.sh 2>/dev/null | tail -1)
second=$(BUILD=0 OUT="$out/debs" REVISION=2 scripts/build-deb.sh 2>/dev/null | tail -1)
echo "built $(basename "$first") ($(du -k "$first" | cut -f1) kB) and $(basename "$second")"
echo "lintian $(basename "$first"):"
# Read whole before grep: under pipefail, `lintian | grep -q` took lintian's own non-zero exit
# (it has one when it reports errors) for grep's, and never failed.
report=$(lintian --pedantic "$first" 2>&1 | grep -v "running with root" || true)
printf '%s\n' "$report" | sed 's/^/  /'
if grep -q "^E:" <<<"$report"; then echo "FAIL lintian reports errors"; exit 1; fi
echo "booting systemd in a container (systemd-nspawn over /: a tmpfs root with throwaway overlays on /usr, /etc and /var)"
boot_and_check package-e2e "$out" scripts/e2e/package-inside.sh \
    --volatile=yes --overlay=/usr::/usr --overlay=/etc::/etc --overlay=/var::/var --bind-ro="$repo:/src"
