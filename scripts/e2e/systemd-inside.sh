#!/bin/bash
# Runs inside the container booted by scripts/e2e/systemd.sh, as the unit systemd.run
# makes. /src is the repository, /build the release binaries, /out the results.
set -u
export PATH=/opt/quoted/bin:/usr/sbin:/usr/bin:/sbin:/bin
JOURNAL_UNIT=quoted
# shellcheck source=scripts/e2e/checks.sh
source /out/e2e-checks.sh

# This script is itself part of the boot (systemd.run), so it must not wait for the
# boot to finish; systemd as PID 1 and its units are usable already.
echo "systemd $(systemctl --version | head -1 | cut -d' ' -f2) is PID 1 ($(cat /proc/1/comm)); state $(systemctl is-system-running)" >&3

# A fake upstream on loopback, and the install.
python3 /src/scripts/bench/fake-upstream.py --port 18080 --fixtures /src/Tests/Fixtures &
for _ in $(seq 50); do python3 -c 'import socket; socket.create_connection(("127.0.0.1", 18080), 1)' 2>/dev/null && break; sleep 0.1; done
check "install.sh installs binaries, units, sysusers.d, tmpfiles.d and the example config" \
    env BUILD=0 BUILD_DIR=/build PREFIX=/opt/quoted UNITDIR=/etc/systemd/system USERUNITDIR=/etc/systemd/user \
    SYSUSERSDIR=/etc/sysusers.d TMPFILESDIR=/etc/tmpfiles.d /src/scripts/install.sh
check "user and group quoted exist" getent passwd quoted
useradd --create-home --groups quoted alice
useradd --create-home bob
# setpriv, not runuser or su: those need PAM's files in /etc, which --volatile=yes leaves empty.
as_alice() { setpriv --reuid="$(id -u alice)" --regid="$(id -g alice)" --init-groups env HOME=/home/alice "$@"; }
as_bob() { setpriv --reuid="$(id -u bob)" --regid="$(id -g bob)" --init-groups env HOME=/home/bob "$@"; }
export -f as_alice as_bob
cat > /etc/quoted/quoted.conf <<CONF
[source.custom.e2e]
url = http://127.0.0.1:18080/list.json
interval = 1h
[source.happiness]
url = http://127.0.0.1:18080/happiness/random-quote
[source.breakingbad]
url = http://127.0.0.1:18080/api
productions = Breaking Bad
known_streak = 3
pause = 0
[source.upbit]
url = http://127.0.0.1:18080/v1/market/all?is_details=true
CONF
# Documentation= names the manual pages, which verify asks man for; man itself cannot run here
# (--volatile=yes leaves /etc, and its man configuration, empty): those lines are left out. The
# package's end-to-end checks that the pages render.
check "systemd-analyze verify prints nothing (but man's own failure in an empty /etc)" \
    bash -c '[ -z "$(systemd-analyze verify quoted.service 2>&1 | grep -v "^quoted.service: Command .man [a-z.]*([1-8]). failed")" ]'
# (No awk here: --volatile=yes leaves /etc empty, and awk is an /etc/alternatives link.)
score=$(systemd-analyze security quoted.service 2>/dev/null | grep -o 'Overall exposure level for quoted.service: [0-9.]*' | grep -o '[0-9.]*$')
check "systemd-analyze security exposure <= 1.5 (is ${score:-unknown})" python3 -c "import sys; sys.exit(0 if '$score' and float('$score') <= 1.5 else 1)"

# Start: Type=notify, so `systemctl start` returns once READY=1 arrived.
check "systemctl start quoted succeeds" systemctl start quoted
check "the unit is active (Type=notify: only after READY=1)" bash -c '[ "$(systemctl is-active quoted)" = active ] && [ "$(systemctl show -p Type --value quoted)" = notify ]'
started_order() {
    local ours systemd
    ours=$(journalctl -u quoted -o cat --no-pager | grep -n "quoted 0.1.0 started" | head -1 | cut -d: -f1)
    systemd=$(journalctl -u quoted -o cat --no-pager | grep -n "Started quoted" | head -1 | cut -d: -f1)
    [ -n "$ours" ] && [ -n "$systemd" ] && [ "$ours" -lt "$systemd" ]
}
check "the daemon logged its start before systemd called it started" started_order
sleep 3
check "systemctl status shows the STATUS line" bash -c 'systemctl status quoted --no-pager | grep -E "Status: \"[0-9]+ of [0-9]+ sources fresh"'
check "the store is group-readable (0750 folder, owner quoted)" bash -c '[ "$(stat -c %a:%U:%G /var/lib/quoted)" = 750:quoted:quoted ]'
check "quotectl sync --now as a member of group quoted works through the socket" \
    as_alice quotectl sync --now
check "the sync filled the store" bash -c 'as_alice quotectl random --source custom.e2e | grep -q "End-to-end quote"'
check "quotectl random reads the store as that user" as_alice quotectl random
check "quotectl markets sees the Upbit snapshot" bash -c 'as_alice quotectl markets --quote KRW | grep -q "^KRW-"'
check "quotectl status sees the running daemon" bash -c 'as_alice quotectl status | grep -q "Daemon: running, pid $(systemctl show -p MainPID --value quoted)"'
check "a user outside group quoted is refused" bash -c '! as_bob quotectl sync --now --no-wait'

# Reload: a new custom list appears without a restart.
pid_before=$(systemctl show -p MainPID --value quoted)
printf '[source.custom.reloaded]\nurl = http://127.0.0.1:18080/list.json\n' >> /etc/quoted/quoted.conf
check "systemctl reload quoted succeeds" systemctl reload quoted
check "the reload re-read the config (same pid, new source synced)" bash -c \
    "sleep 3; [ \"\$(systemctl show -p MainPID --value quoted)\" = $pid_before ] && as_alice quotectl random --source custom.reloaded >/dev/null"

# Stop: clean, inside the stop timeout.
start=$(date +%s%N)
check "systemctl stop quoted succeeds" systemctl stop quoted
elapsed=$(( ($(date +%s%N) - start) / 1000000 ))
check "stop ended with Result=success in ${elapsed} ms (< 15 s)" bash -c \
    "[ \"\$(systemctl show -p Result --value quoted)\" = success ] && [ $elapsed -lt 15000 ]"

# A SIGKILL of the main process brings a restart, and the store survives it.
systemctl start quoted
old=$(systemctl show -p MainPID --value quoted)
as_alice quotectl sync --now --no-wait >/dev/null 2>&1
systemctl kill --kill-whom=main --signal=SIGKILL quoted
restarted() {
    for _ in $(seq 100); do
        new=$(systemctl show -p MainPID --value quoted)
        [ "$(systemctl is-active quoted)" = active ] && [ "$new" != 0 ] && [ "$new" != "$old" ] && return 0
        sleep 0.2
    done
    return 1
}
check "SIGKILL of the main process brings a restart (Restart=on-failure)" restarted
check "the store passes PRAGMA integrity_check after the kill" bash -c \
    '[ "$(sqlite3 /var/lib/quoted/quotes.db "PRAGMA integrity_check")" = ok ]'
check "the restarted daemon still answers" as_alice quotectl sync --now --source upbit
systemctl stop quoted
