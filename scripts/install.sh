#!/usr/bin/env bash
# Installs quoted and quotectl, the systemd units, sysusers.d and tmpfiles.d files,
# and a commented example /etc/quoted/quoted.conf.
#
#   sudo scripts/install.sh                      # builds, installs under /usr/local
#   PREFIX=/usr DESTDIR=/tmp/pkg scripts/install.sh   # for packaging
#
# Variables: PREFIX (/usr/local), DESTDIR (empty), SYSCONFDIR (/etc),
#   UNITDIR ($PREFIX/lib/systemd/system), USERUNITDIR ($PREFIX/lib/systemd/user),
#   SYSUSERSDIR ($PREFIX/lib/sysusers.d), TMPFILESDIR ($PREFIX/lib/tmpfiles.d),
#   BUILD=0 to install what .build/release holds without building.
# Then: systemctl enable --now quoted   (or, per user: systemctl --user enable --now quoted)
set -euo pipefail
cd "$(dirname "$0")/.."

PREFIX=${PREFIX:-/usr/local}
DESTDIR=${DESTDIR:-}
SYSCONFDIR=${SYSCONFDIR:-/etc}
UNITDIR=${UNITDIR:-$PREFIX/lib/systemd/system}
USERUNITDIR=${USERUNITDIR:-$PREFIX/lib/systemd/user}
SYSUSERSDIR=${SYSUSERSDIR:-$PREFIX/lib/sysusers.d}
TMPFILESDIR=${TMPFILESDIR:-$PREFIX/lib/tmpfiles.d}
BINDIR=$PREFIX/bin
DOCDIR=$PREFIX/share/doc/quoted
BUILD_DIR=${BUILD_DIR:-.build/release}

if [ "${BUILD:-1}" != 0 ]; then
    echo "building: swift build -c release --static-swift-stdlib"
    swift build -c release --static-swift-stdlib 2>&1 | tail -1
    BUILD_DIR=$(swift build -c release --static-swift-stdlib --show-bin-path)
fi
for binary in quoted quotectl; do
    [ -x "$BUILD_DIR/$binary" ] || { echo "install.sh: $BUILD_DIR/$binary is missing (build first, or BUILD=1)" >&2; exit 66; }
done

say() { printf '  %s\n' "$*"; }
echo "installing into ${DESTDIR:-/} (PREFIX=$PREFIX)"
install -d "$DESTDIR$BINDIR" "$DESTDIR$UNITDIR" "$DESTDIR$USERUNITDIR" "$DESTDIR$SYSUSERSDIR" "$DESTDIR$TMPFILESDIR" \
    "$DESTDIR$DOCDIR" "$DESTDIR$SYSCONFDIR/quoted"
install -m 0755 "$BUILD_DIR/quoted" "$BUILD_DIR/quotectl" "$DESTDIR$BINDIR/"
say "$BINDIR/quoted, $BINDIR/quotectl"
substitute() { sed -e "s|@BINDIR@|$BINDIR|g" -e "s|@DOCDIR@|$DOCDIR|g" "$1" > "$2"; chmod 0644 "$2"; }
substitute systemd/quoted.service "$DESTDIR$UNITDIR/quoted.service"
substitute systemd/user/quoted.service "$DESTDIR$USERUNITDIR/quoted.service"
say "$UNITDIR/quoted.service, $USERUNITDIR/quoted.service"
install -m 0644 systemd/sysusers.d/quoted.conf "$DESTDIR$SYSUSERSDIR/quoted.conf"
install -m 0644 systemd/tmpfiles.d/quoted.conf "$DESTDIR$TMPFILESDIR/quoted.conf"
say "$SYSUSERSDIR/quoted.conf, $TMPFILESDIR/quoted.conf"
install -m 0644 README.md "$DESTDIR$DOCDIR/README.md"
# Never overwrite an administrator's configuration.
if [ -e "$DESTDIR$SYSCONFDIR/quoted/quoted.conf" ]; then
    install -m 0644 systemd/quoted.conf.example "$DESTDIR$SYSCONFDIR/quoted/quoted.conf.example"
    say "$SYSCONFDIR/quoted/quoted.conf kept; the example is quoted.conf.example"
else
    install -m 0644 systemd/quoted.conf.example "$DESTDIR$SYSCONFDIR/quoted/quoted.conf"
    say "$SYSCONFDIR/quoted/quoted.conf (all commented out: the defaults apply)"
fi

# On a live system (not a DESTDIR staging tree) with systemd running, make the user
# and folders now and tell systemd about the new units.
if [ -z "$DESTDIR" ] && [ "$(id -u)" = 0 ] && [ -d /run/systemd/system ]; then
    systemd-sysusers "$SYSUSERSDIR/quoted.conf"
    systemd-tmpfiles --create "$TMPFILESDIR/quoted.conf"
    systemctl daemon-reload
    echo "done: systemctl enable --now quoted  (members of group quoted may use quotectl: usermod -aG quoted USER)"
else
    echo "done (run systemd-sysusers, systemd-tmpfiles --create and systemctl daemon-reload on the target)"
fi
