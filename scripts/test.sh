#!/usr/bin/env bash
# The README's test command: installs the Debian packages the tests need when run as root
# (otherwise names what is missing and how to get it), then runs `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/debian-packages.sh
source scripts/debian-packages.sh
ensure_packages "${test_packages[@]}"
exec swift test "$@"
