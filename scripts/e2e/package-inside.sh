#!/bin/bash
# Runs inside the container booted by scripts/e2e/package.sh (systemd.run): /out holds the
# packages (/out/debs) and receives the results; /src is the repository (for the fake upstream).
set -u
export PATH=/usr/sbin:/usr/bin:/sbin:/bin
export DEBIAN_FRONTEND=noninteractive
# shellcheck source=scripts/e2e/checks.sh
source /out/e2e-checks.sh
first=$(ls /out/debs/quoted_*-1_*.deb)
second=$(ls /out/debs/quoted_*-2_*.deb)

# This machine's root comes from a Docker image, whose policy-rc.d forbids maintainer
# scripts to start services ("exit 101"); a real Debian system has none. Only this
# container's throwaway copy of /usr loses it.
rm -f /usr/sbin/policy-rc.d

python3 /src/scripts/bench/fake-upstream.py --port 18080 --fixtures /src/Tests/Fixtures &
for _ in $(seq 50); do python3 -c 'import socket; socket.create_connection(("127.0.0.1", 18080), 1)' 2>/dev/null && break; sleep 0.1; done
as_user() { local user=$1; shift; setpriv --reuid="$(id -u "$user")" --regid="$(id -g "$user")" --init-groups env HOME="/home/$user" "$@"; }
export -f as_user
active_after_ready() { [ "$(systemctl is-active quoted)" = active ] && [ "$(systemctl show -p Type --value quoted)" = notify ]; }

# Install.
check "apt install ./$(basename "$first") succeeds (offline: every dependency is there)" apt-get install -y -q "$first"
check "the service is enabled and active after READY=1" bash -c 'systemctl is-enabled quoted && [ "$(systemctl is-active quoted)" = active ]'
check "user and group quoted were made by systemd-sysusers" getent passwd quoted
check "/etc/quoted/quoted.conf is a conffile, 0640 root:quoted, fully commented" bash -c \
    '[ "$(stat -c %a:%U:%G /etc/quoted/quoted.conf)" = 640:root:quoted ] && ! grep -qvE "^\s*(#|$)" /etc/quoted/quoted.conf && dpkg-query -W -f="\${Conffiles}" quoted | grep -q /etc/quoted/quoted.conf'
check "man quotectl renders" bash -c 'MANPAGER=cat MANWIDTH=80 man quotectl 2>/dev/null | grep -q "read the quoted store"'
check "man quoted.conf renders" bash -c 'MANPAGER=cat MANWIDTH=80 man 5 quoted.conf 2>/dev/null | grep -q "max_bytes"'
check "bash completion is installed where bash-completion looks" test -f /usr/share/bash-completion/completions/quotectl

# Korean: the catalog the package installed, found beside /usr/bin; English where no catalog applies.
# Hangul syllables by code point, in UTF-8 mode (grep refuses a bracket range of them).
has_hangul() { LC_ALL=C.UTF-8 grep -qP '[\x{AC00}-\x{D7A3}]'; }
export -f has_hangul
korean_status() {
    local shown; shown=$(LANG=ko_KR.UTF-8 quotectl status 2>&1)
    printf '       LANG=ko_KR.UTF-8 quotectl status: %s\n' "$(head -2 <<<"$shown" | tr '\n' '|')" >&3
    grep -q '저장소' <<<"$shown" && has_hangul <<<"$shown"
}
english_status() {
    local shown; shown=$(LANG=ko_KR.UTF-8 LC_ALL=C quotectl status 2>&1)
    grep -q '^Store: ' <<<"$shown" && ! has_hangul <<<"$shown"
}
check "the package installs the Korean catalog" test -s /usr/share/locale/ko/LC_MESSAGES/quoted.mo
check "LANG=ko_KR.UTF-8 quotectl status --help is Korean (옵션:)" bash -c 'LANG=ko_KR.UTF-8 quotectl status --help | grep -q "^옵션:"'
check "LANG=ko_KR.UTF-8 quotectl status is Korean (저장소)" korean_status
check "LC_ALL=C quotectl status is English (Store:), no Hangul" english_status
check "LC_ALL=C quotectl status --help is English (OPTIONS:)" bash -c 'LANG=ko_KR.UTF-8 LC_ALL=C quotectl status --help | grep -q "^OPTIONS:"'
check "man -L ko -w quotectl finds /usr/share/man/ko/man1/quotectl.1.gz" bash -c \
    '[ "$(man -L ko -w quotectl)" = /usr/share/man/ko/man1/quotectl.1.gz ]'
check "the Korean manual pages of quoted(8) and quoted.conf(5) are installed" bash -c \
    '[ "$(man -L ko -w 8 quoted)" = /usr/share/man/ko/man8/quoted.8.gz ] && [ "$(man -L ko -w 5 quoted.conf)" = /usr/share/man/ko/man5/quoted.conf.5.gz ]'
# The package was built from a Korean session (package.sh): its English pages are still English.
english_manuals() {
    local page
    for page in man1/quotectl.1 man8/quoted.8 man5/quoted.conf.5; do
        zcat "/usr/share/man/$page.gz" | grep -q '^\.SH NAME' || { echo "$page is not English"; return 1; }
    done
}
check "the English manual pages are English though the package was built under ko_KR.UTF-8" english_manuals
# A damaged catalog (cut short: glibc would read past its end and die of SIGSEGV or SIGBUS) is
# refused before glibc sees it: English, the command's own exit code, one warning naming it.
damaged_catalog() {
    local mo=/usr/share/locale/ko/LC_MESSAGES/quoted.mo status errors
    cp "$mo" /tmp/quoted.mo.whole && head -c 5660 /tmp/quoted.mo.whole > "$mo"
    errors=$(LANG=ko_KR.UTF-8 quotectl import /nonexistent --name x 2>&1 >/dev/null); status=$?
    LANG=ko_KR.UTF-8 quoted --help >/dev/null 2>&1 || status=$((status + 1000))
    cp /tmp/quoted.mo.whole "$mo"
    printf '       cut to 5660 bytes: exit %s, %s\n' "$status" "$(tr '\n' '|' <<<"$errors")" >&3
    [ "$status" = 66 ] && grep -q "warning: ignoring the damaged catalog $mo" <<<"$errors" && ! has_hangul <<<"$errors"
}
check "a damaged Korean catalog: both programs speak English and say so, never crash" damaged_catalog
# Hangul alone proves nothing (the English help has 행복 as an example), nor does a rendering
# that differs (man renders for the Korean locale): the Korean page's source must not be the
# English one's, and it must render with Hangul.
korean_manual() {  # korean_manual SECTION PAGE
    local korean english
    korean=$(man -L ko -w "$1" "$2") && english=$(LC_ALL=C man -w "$1" "$2") || return 1
    [ "$korean" != "$english" ] && ! cmp -s <(zcat "$korean") <(zcat "$english") \
        && MANPAGER=cat MANWIDTH=80 man -L ko "$1" "$2" 2>/dev/null | has_hangul
}
export -f korean_manual
check "man -L ko quotectl renders Korean, not the English page" korean_manual 1 quotectl
check "man -L ko 8 quoted and man -L ko 5 quoted.conf render Korean" bash -c 'korean_manual 8 quoted && korean_manual 5 quoted.conf'

# Point it at the fake upstream (an edit the upgrade must keep), and use it as a group member.
cat > /etc/quoted/quoted.conf <<CONF
# edited by the administrator
[source.custom.e2e]
url = http://127.0.0.1:18080/list.json
[source.happiness]
enabled = false
[source.breakingbad]
enabled = false
[source.upbit]
url = http://127.0.0.1:18080/v1/market/all?is_details=true
CONF
systemctl reload quoted
useradd --create-home --groups quoted alice
check "quotectl sync --now as a member of group quoted works" as_user alice quotectl sync --now
check "quotectl random reads what the sync stored" bash -c 'as_user alice quotectl random --source custom.e2e | grep -q "End-to-end quote"'
# A fleet, by the README's four steps as written (step 4 for a spoke on this machine: user bob's
# configuration in place of /etc/quoted/quoted.conf, and no daemon of his own to reload), with
# Debian's nginx serving the feed as www-data.
steps=$(sed -n '/^## A fleet/,/^How the feed is made/p' /src/README.md | sed -n '/^```sh/,/^```/p' | grep -v '^```' | grep -v '^#')
step() { sed -n "${1}p" <<<"$steps"; }
echo "127.0.0.1 feed.example.org" >> /etc/hosts
systemctl start nginx 2>/dev/null || true
check "README fleet step 1 (the signing key) runs as written" bash -c "$(step 1)"
check "README fleet step 2 (publish) runs as written" bash -c "$(step 2)"
check "README fleet step 3 (nginx) runs as written" bash -c "$(step 3)"
# A reload hands the new server block to new workers a moment after systemctl returns.
for _ in $(seq 50); do curl -sf -o /dev/null -H 'Host: feed.example.org' http://127.0.0.1/manifest.json && break; sleep 0.1; done
useradd --create-home bob
# Another host's daemon socket, not this one's (bob may not use the hub's).
mkdir -p /home/bob/.config/quoted && printf '[daemon]\nsocket = /home/bob/.quoted.sock\n' > /home/bob/.config/quoted/quoted.conf
chown -R bob: /home/bob/.config
step 4 | sed -e 's|/etc/quoted/quoted.conf|/home/bob/.config/quoted/quoted.conf|' -e 's| && systemctl reload quoted||' > /tmp/step4.sh
chmod 0755 /tmp/step4.sh
check "README fleet step 4 (a spoke) syncs from nginx" bash -c \
    "as_user bob bash /tmp/step4.sh 2>&1 && as_user bob quotectl random --source custom.e2e | grep -q 'End-to-end quote' || { as_user bob quotectl status; exit 1; }"
check "the spoke's status says which of its sources the hub does not publish" bash -c \
    "as_user bob quotectl status | grep -A3 '^happiness' | grep -q \"not in the hub's feed\""
check "nginx (www-data) serves the signed manifest" bash -c \
    "curl -sf -H 'Host: feed.example.org' http://127.0.0.1/manifest.json >/dev/null && ! grep -q 'Permission denied' /var/log/nginx/error.log || { curl -s -o /dev/null -w '%{http_code}\n' -H 'Host: feed.example.org' http://127.0.0.1/manifest.json; systemctl status nginx --no-pager | head -5; tail -5 /var/log/nginx/error.log; ls -la /var/cache/quoted/feed; exit 1; }"
# The administrator's own files, which a purge leaves alone.
rm -f /etc/quoted/hub.sec /etc/quoted/hub.pub /etc/nginx/conf.d/quoted-feed.conf
check "www-data can read neither the signing key nor the store" bash -c \
    '! setpriv --reuid=www-data --regid=www-data --clear-groups cat /etc/quoted/hub.sec 2>/dev/null && ! setpriv --reuid=www-data --regid=www-data --clear-groups cat /var/lib/quoted/quotes.db >/dev/null 2>&1'
check "a member of group quoted cannot read the signing key" bash -c '! as_user alice cat /etc/quoted/hub.sec 2>/dev/null'
check "the feed is 0755/0644 under /var/cache/quoted" bash -c \
    '[ "$(stat -c %a /var/cache/quoted/feed)" = 755 ] && [ -z "$(find /var/cache/quoted/feed -type f ! -perm 0644)" ]'

# Metrics for node_exporter, by the README's steps as written, into the folder Debian's
# prometheus-node-exporter makes (root's, 0755): the hardened unit must be able to write there.
install -d -m 0755 /var/lib/prometheus/node-exporter
msteps=$(sed -n '/^## Metrics and health checks/,/^Nagios/p' /src/README.md | sed -n '/^```sh/,/^```/p' | grep -v '^```')
check "README metrics steps (the folder, [metrics] textfile, promtool) run as written" bash -c "$msteps"
check "the daemon wrote quoted.prom there: the quoted user's, 0644, accepted by promtool" bash -c \
    'f=/var/lib/prometheus/node-exporter/quoted.prom; for _ in $(seq 100); do [ -s "$f" ] && break; sleep 0.1; done
     [ "$(stat -c %U:%a "$f")" = quoted:644 ] && promtool check metrics < "$f" && grep -q "^quoted_source_up{source=\"custom.e2e\"} 1" "$f"'

# What the store holds, as a member of the group reads it (root's own sqlite3 would leave
# root-owned WAL files behind that group members cannot open).
holdings() { as_user alice quotectl status --json | grep -o '"source":"[^"]*","quotes":[0-9]*' | sort; }
export -f holdings
rows_before=$(holdings)
pid_before=$(systemctl show -p MainPID --value quoted)

# Upgrade.
check "apt install of the higher version succeeds" apt-get install -y -q "$second"
check "the upgrade restarted the service (new pid, active)" bash -c \
    "[ \"\$(systemctl show -p MainPID --value quoted)\" != $pid_before ] && [ \"\$(systemctl is-active quoted)\" = active ]"
check "the upgrade kept the edited conffile" grep -q "edited by the administrator" /etc/quoted/quoted.conf
check "the upgrade kept the store" bash -c '[ -n "$1" ] && [ "$(holdings)" = "$1" ] && as_user alice quotectl random --source custom.e2e >/dev/null' _ "$rows_before"

# Remove, then purge.
check "apt remove succeeds" apt-get remove -y -q quoted
check "remove stopped the service and took the programs" bash -c '! systemctl is-active -q quoted && ! pgrep -x quoted && [ ! -e /usr/bin/quoted ]'
check "remove kept the configuration and the store" bash -c '[ -f /etc/quoted/quoted.conf ] && [ -f /var/lib/quoted/quotes.db ]'
check "apt purge succeeds" apt-get purge -y -q quoted
check "purge left no unit, no user data, nothing running" bash -c \
    '[ ! -e /usr/lib/systemd/system/quoted.service ] && [ -z "$(systemctl list-unit-files quoted.service --no-legend 2>/dev/null)" ] && [ ! -e /var/lib/quoted ] && [ ! -e /etc/quoted ] && ! pgrep -x quoted'

# The user unit, under a real user manager.
check "the package installs again" apt-get install -y -q "$first"
systemctl disable --now quoted >/dev/null 2>&1
useradd --create-home carol
uid=$(id -u carol)
as_carol() { as_user carol env XDG_RUNTIME_DIR=/run/user/$uid "$@"; }
mkdir -p /home/carol/.config/quoted
cat > /home/carol/.config/quoted/quoted.conf <<CONF
[source.custom.e2e]
url = http://127.0.0.1:18080/list.json
[source.happiness]
enabled = false
[source.breakingbad]
enabled = false
[source.upbit]
enabled = false
CONF
chown -R carol:carol /home/carol/.config
# The boot is still going on (this script is part of it): bring up what a user manager needs.
systemctl start dbus.socket systemd-logind.service >/dev/null 2>&1
check "user@$uid.service starts a user manager" systemctl start "user@$uid.service"
check "systemctl --user enable --now quoted works as that user" as_carol systemctl --user enable --now quoted
check "the user daemon is active" bash -c "for _ in \$(seq 50); do [ \"\$(setpriv --reuid=$uid --regid=$uid --init-groups env XDG_RUNTIME_DIR=/run/user/$uid systemctl --user is-active quoted)\" = active ] && exit 0; sleep 0.1; done; exit 1"
check "quotectl sync --now reaches it through \$XDG_RUNTIME_DIR/quoted/control.sock" bash -c \
    "[ -S /run/user/$uid/quoted/control.sock ] && setpriv --reuid=$uid --regid=$uid --init-groups env HOME=/home/carol XDG_RUNTIME_DIR=/run/user/$uid quotectl sync --now 2>&1 | grep -q 'custom.e2e'"
check "quotectl random reads the user's store" bash -c \
    "setpriv --reuid=$uid --regid=$uid --init-groups env HOME=/home/carol XDG_RUNTIME_DIR=/run/user/$uid quotectl random --source custom.e2e | grep -q 'End-to-end quote'"
check "the user's store is under ~/.local/share/quoted" test -f /home/carol/.local/share/quoted/quotes.db
check "systemctl --user reload quoted asks the user daemon (ExecReload=quoted reload) and succeeds" \
    as_carol systemctl --user reload quoted
# What an unprivileged manager can enforce (seccomp, no_new_privs) brings the user unit from 9.1.
user_exposure=$(as_carol systemd-analyze security --user quoted.service 2>/dev/null | grep -o 'Overall exposure level for quoted.service: [0-9.]*' | grep -o '[0-9.]*$')
check "the user unit's exposure is <= 6.5 (is ${user_exposure:-unknown})" \
    python3 -c "import sys; sys.exit(0 if '$user_exposure' and float('$user_exposure') <= 6.5 else 1)"
# The daily notification's pair, shipped disabled: enabled by the user, the timer is listed with
# its next elapse; its service runs quotectl today --notify under the user manager, which has a
# session bus ($XDG_RUNTIME_DIR/bus, dbus-user-session) but no display: the notification server
# the bus would start (dunst, when installed) cannot run, so quotectl must end with exit 69 and
# its one line in the user journal — at once or at its 5 s deadline, never at TimeoutStartSec.
notify_timer_disabled() { [ "$(as_carol systemctl --user is-enabled quoted-notify.timer)" = disabled ]; }
notify_timer_listed() { as_carol systemctl --user list-timers --all --no-pager | grep -q quoted-notify.timer; }
notify_timer_next() { as_carol systemctl --user show quoted-notify.timer -p NextElapseUSecRealtime --value | grep -q '[0-9]:[0-9][0-9]:[0-9][0-9]'; }
notify_service_69() {
    ! as_carol systemctl --user start quoted-notify.service && [ "$(as_carol systemctl --user show quoted-notify.service -p ExecMainStatus --value)" = 69 ]
}
notify_journal_line() {
    local line
    for _ in $(seq 50); do
        line=$(journalctl _SYSTEMD_USER_UNIT=quoted-notify.service --no-pager -o cat | grep '^quotectl: ') && break
        sleep 0.1
    done
    echo "       the journal: $line" >&3
    [ "$(printf '%s\n' "$line" | wc -l)" = 1 ] && grep -qE 'notification (was not shown|server answered)|DBUS_SESSION_BUS_ADDRESS' <<<"$line"
}
check "quoted-notify.timer is shipped disabled" notify_timer_disabled
check "systemctl --user enable --now quoted-notify.timer works as that user" as_carol systemctl --user enable --now quoted-notify.timer
check "systemctl --user list-timers lists quoted-notify.timer" notify_timer_listed
check "its next elapse is set" notify_timer_next
check "starting quoted-notify.service runs quotectl today --notify: exit 69 (no notification server can start)" notify_service_69
check "the user journal has quotectl's one line saying what did not answer" notify_journal_line
