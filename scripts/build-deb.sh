#!/usr/bin/env bash
# Builds quoted_<version>-<revision>_<arch>.deb with dpkg-deb from a release build, and prints
# its path last. The files are laid out by scripts/install.sh (one file list for both), with
# the binaries stripped, the manual pages (English, and each language's under
# /usr/share/man/LL/) compressed, the message catalogs compiled from po/*.po by msgfmt
# (/usr/share/locale/LL/LC_MESSAGES/quoted.mo), and the Debian metadata from packaging/debian.
# Needs dpkg-dev, gettext (msgfmt) and bolt-16 (quotectl laid out by BOLT: scripts/lay-out-quotectl.sh).
# The version comes from the binary (QuotedVersion, its one place).
#
#   scripts/build-deb.sh                 # builds, then packages into dist/
#   REVISION=2 scripts/build-deb.sh      # the same upstream version, a later package
#   BUILD=0 scripts/build-deb.sh         # package what .build/release holds
set -euo pipefail
cd "$(dirname "$0")/.."

REVISION=${REVISION:-1}
OUT=${OUT:-dist}
for tool in dpkg-deb:dpkg-dev dpkg-shlibdeps:dpkg-dev msgfmt:gettext llvm-bolt-16:bolt-16; do
    command -v "${tool%%:*}" >/dev/null || { echo "build-deb.sh: ${tool%%:*} is missing (apt-get install ${tool#*:})" >&2; exit 69; }
done
if [ "${BUILD:-1}" != 0 ]; then
    echo "building: swift build -c release --static-swift-stdlib" >&2
    swift build -c release --static-swift-stdlib 2>&1 | tail -1 >&2
fi
bin=$(swift build -c release --static-swift-stdlib --show-bin-path)
# The package's quotectl is laid out by BOLT (bolt-16, a build dependency): a draw's code in
# fewer windows of text than the linker leaves it in (docs/benchmarks.md).
REQUIRE_BOLT=1 scripts/lay-out-quotectl.sh "$bin"
upstream=$("$bin/quoted" --version | cut -d' ' -f2)
version="$upstream-$REVISION"
arch=$(dpkg --print-architecture)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
pkg="$root/quoted"

# The files, where Debian keeps them: install.sh lays them out.
BUILD=0 BUILD_DIR="$bin" DESTDIR="$pkg" PREFIX=/usr SYSCONFDIR=/etc \
    UNITDIR=/usr/lib/systemd/system USERUNITDIR=/usr/lib/systemd/user \
    SYSUSERSDIR=/usr/lib/sysusers.d TMPFILESDIR=/usr/lib/tmpfiles.d \
    MANDIR=/usr/share/man BASHCOMPDIR=/usr/share/bash-completion/completions \
    ZSHCOMPDIR=/usr/share/zsh/vendor-completions FISHCOMPDIR=/usr/share/fish/vendor_completions.d \
    scripts/install.sh >&2
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$pkg/usr/bin/quoted" "$pkg/usr/bin/quotectl"
gzip -9n "$pkg"/usr/share/man/man*/* "$pkg"/usr/share/man/*/man*/*
doc="$pkg/usr/share/doc/quoted"
install -m 0644 packaging/debian/copyright "$doc/copyright"
# The configuration is fully commented: every default applies until a line is uncommented.
install -m 0644 systemd/quoted.conf.example "$pkg/etc/quoted/quoted.conf"
rm -f "$pkg/etc/quoted/quoted.conf.example"
install -d "$pkg/usr/share/lintian/overrides"
install -m 0644 packaging/debian/lintian-overrides "$pkg/usr/share/lintian/overrides/quoted"

# changelog.Debian from the release notes, headed by this package's version.
{
    echo "quoted ($version) unstable; urgency=medium"
    echo
    awk -v v="$upstream" '$0 == v {on=1; next} /^[0-9]/ {on=0} on && NF' packaging/debian/changes
    echo
    echo " -- quoted authors <quoted@lists.quoted.dev>  $(date -R -d "$(sed -n 's/.*date = "\(.*\)".*/\1/p' Sources/QuoteBase/Version.swift) 12:00 UTC")"
} > "$doc/changelog.Debian"
gzip -9n "$doc/changelog.Debian"

# Dependencies that are true for what the binaries link.
shlibs=$(cd "$root" && mkdir -p debian && printf 'Source: quoted\n\nPackage: quoted\nArchitecture: any\n' > debian/control \
    && dpkg-shlibdeps -O -e"quoted/usr/bin/quoted" -e"quoted/usr/bin/quotectl" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')

install -d "$pkg/DEBIAN"
for script in postinst prerm postrm; do install -m 0755 "packaging/debian/$script" "$pkg/DEBIAN/$script"; done
echo /etc/quoted/quoted.conf > "$pkg/DEBIAN/conffiles"
cat > "$pkg/DEBIAN/control" <<CONTROL
Package: quoted
Version: $version
Architecture: $arch
Maintainer: quoted authors <quoted@lists.quoted.dev>
Installed-Size: $(du -sk --exclude=DEBIAN "$pkg" | cut -f1)
Depends: $shlibs, systemd
Section: misc
Priority: optional
Homepage: https://quoted.dev
Description: offline-first quote daemon and command-line reader
 quoted keeps a local SQLite store fresh from public HTTP APIs: custom quote
 lists (GitHub Gist JSON), the Korean happiness quote of the day, the Breaking
 Bad API, the Upbit market list and optionally OpenWeatherMap. It runs as a
 hardened systemd service (or a user service) and syncs politely: conditional
 requests, backoff, and never a lost row on a failed sync.
 .
 quotectl reads the store with no network at all: a random quote (faster than
 fortune), the quote of the day, full-text search, characters, markets and
 weather.
CONTROL
(cd "$pkg" && find . -type f ! -path './DEBIAN/*' -printf '%P\0' | sort -z | xargs -0 md5sum) > "$pkg/DEBIAN/md5sums"
chmod 0644 "$pkg/DEBIAN/md5sums" "$pkg/DEBIAN/control" "$pkg/DEBIAN/conffiles"

mkdir -p "$OUT"
deb="$OUT/quoted_${version}_${arch}.deb"
dpkg-deb --root-owner-group -Zxz --build "$pkg" "$deb" >&2
echo "$deb"
