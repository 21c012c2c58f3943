#!/usr/bin/env bash
# The Debian packages the project needs, in one place. Run it (as root) to install what the
# build and `swift test` need; .ci/run sources it for the end-to-end packages too.
# shellcheck shell=bash
# Building and testing: SQLite, libcurl, libsodium, libcrypto (OpenSSL), zlib and expat headers, signify-openbsd (the fleet's
# keys in the tests), the sqlite3 shell, fortune and strfile for
# the export check, GNU time for the peak-memory tests, python3 for helper servers, mandoc
# to lint the manual pages, zsh and fish to check their completions parse, tmux and i3blocks to
# check that a quote reaches their bars as it should.
test_packages=(libsqlite3-dev sqlite3 libcurl4-openssl-dev libsodium-dev libssl-dev zlib1g-dev libexpat1-dev signify-openbsd fortune-mod fortunes time python3 mandoc zsh fish tmux i3blocks shellcheck)
# The systemd end-to-ends on top (systemd-nspawn), building and checking the package, the
# feed's attack run (real nginx, faketime for the clock), and the metrics run (Prometheus, its
# promtool and node_exporter, started as plain processes: their packages' services stay unused).
ci_packages=("${test_packages[@]}" systemd-container dpkg-dev lintian nginx-light curl faketime prometheus prometheus-node-exporter)
# The desktop end-to-ends: a screen (Xvfb), a session bus, a notification server (dunst),
# notify-send and ImageMagick for the screenshots (scripts/e2e/desktop.sh); the README's bar
# snippets in tmux, i3blocks and polybar (scripts/e2e/bars.sh); fonts for the built-in quotes,
# English and Korean (without fonts-nanum the Hangul draws as boxes).
ci_packages+=(xvfb dbus dunst libnotify-bin imagemagick tmux i3blocks polybar fonts-dejavu-core fonts-nanum)

# Prints the packages of "$@" that are not installed.
missing_packages() {
    local package
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || echo "$package"
    done
}

# Installs what is missing of "$@" (as root, or through sudo); otherwise names it and how to
# get it, and fails.
ensure_packages() {
    local missing
    mapfile -t missing < <(missing_packages "$@")
    [ ${#missing[@]} -eq 0 ] && return 0
    local as_root=()
    [ "$(id -u)" -eq 0 ] || { command -v sudo >/dev/null && as_root=(sudo); }
    if [ "$(id -u)" -eq 0 ] || [ ${#as_root[@]} -gt 0 ]; then
        echo "== installing: ${missing[*]}"
        "${as_root[@]}" apt-get update -qq
        "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
    else
        echo "missing Debian packages: ${missing[*]}" >&2
        echo "install them as root with: apt-get install -y ${missing[*]}" >&2
        return 1
    fi
}

# Run rather than sourced: install (or name) what building and `swift test` need.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
    set -euo pipefail
    ensure_packages "${test_packages[@]}"
    echo "the packages for building and testing are installed"
fi
