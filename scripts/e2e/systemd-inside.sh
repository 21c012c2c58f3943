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
# A second one serving a 1,000,000-quote list: the unit's limits are sized with a big first sync in them.
python3 /src/scripts/bench/make-quote-list.py 1000000 /tmp/big.json
python3 /src/scripts/bench/fake-upstream.py --port 18081 --fixtures /src/Tests/Fixtures --list /tmp/big.json &
for port in 18080 18081; do
    for _ in $(seq 50); do python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1)" 2>/dev/null && break; sleep 0.1; done
done
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
cat > /tmp/journal-check.py <<'PY'
import json, sqlite3, subprocess, sys
def entries(*match):
    out = subprocess.run(["journalctl", "-u", "quoted", "-o", "json", "--no-pager", *match], capture_output=True, text=True).stdout
    return [json.loads(line) for line in out.splitlines() if line.strip()]
mode = sys.argv[1]
if mode == "fields":
    found = entries("QUOTED_SOURCE=" + sys.argv[2])
    ok = found and all(e.get("QUOTED_RESULT") in ("ok", "unchanged", "failed") and len(e.get("MESSAGE_ID", "")) == 32
                       and e.get("QUOTED_ROWS_CHANGED", "").isdigit() and e.get("SYSLOG_IDENTIFIER") == "quoted" for e in found)
    print(found[-1] if found else "no entry"); sys.exit(0 if ok else 1)
if mode == "one-per-sync":
    logged = dict(sqlite3.connect("file:/var/lib/quoted/quotes.db?mode=ro", uri=True).execute(
        "SELECT source, count(*) FROM sync_log GROUP BY source").fetchall())
    counted = {}
    for e in entries():
        if "QUOTED_SOURCE" in e: counted[e["QUOTED_SOURCE"]] = counted.get(e["QUOTED_SOURCE"], 0) + 1
    # A sync's child sends nothing of its own: every entry of a quoted process but the daemons'
    # is a publish or what `quoted reload` (ExecReload=) said.
    daemons = {e["_PID"] for e in entries("MESSAGE_ID=841ef77305944729bfbebbb509664014")}
    strays = [e.get("MESSAGE") for e in entries("SYSLOG_IDENTIFIER=quoted") if e.get("_PID") not in daemons
              and e.get("MESSAGE_ID") != "d686e9242e1142c89288c3aa1b2a6008" and not str(e.get("MESSAGE")).startswith("quoted: reload")]
    print("sync_log", logged, "journal", counted, "other lines", strays[:5])
    sys.exit(0 if logged == counted and not strays else 1)
if mode == "published":
    found = entries("MESSAGE_ID=d686e9242e1142c89288c3aa1b2a6008")
    print([e.get("MESSAGE") for e in found])
    sys.exit(0 if len(found) == 1 and found[0].get("QUOTED_FEED_SERIAL", "").isdigit() else 1)
PY
# Samples the unit's processes every 0.1 s while every source syncs (one child each, the
# 1,000,000-quote list among them): their summed resident memory and threads (read from /proc:
# the cgroup's own accounting may be off inside the container), and writes the peaks to the log.
measure_during_syncs() {
    as_alice quotectl sync --now >/dev/null 2>&1 &
    local client=$! cgroup
    cgroup=$(systemctl show -p ControlGroup --value quoted)
    python3 - "$client" "$cgroup" <<'PY' >&3
import os, sys, time
client, cgroup = int(sys.argv[1]), sys.argv[2]
procs = [p for p in ("/sys/fs/cgroup" + cgroup + "/cgroup.procs", "/sys/fs/cgroup/unified" + cgroup + "/cgroup.procs",
                     "/sys/fs/cgroup/systemd" + cgroup + "/cgroup.procs") if os.path.exists(p)][0]
peak_rss = peak_threads = peak_processes = 0
def alive(pid):
    try: os.kill(pid, 0); return True
    except OSError: return False
while alive(client) and not open(f"/proc/{client}/stat").read().split()[2] == "Z":
    rss = threads = 0
    pids = open(procs).read().split()
    for pid in pids:
        try:
            for line in open(f"/proc/{pid}/status"):
                if line.startswith("VmRSS:"): rss += int(line.split()[1])
                if line.startswith("Threads:"): threads += int(line.split()[1])
        except OSError: pass
    peak_rss, peak_threads, peak_processes = max(peak_rss, rss), max(peak_threads, threads), max(peak_processes, len(pids))
    time.sleep(0.1)
print(f"measured: the unit's peak summed RSS {peak_rss // 1024} MiB, peak threads {peak_threads}, peak processes {peak_processes}")
PY
    wait "$client"
    echo "measured: daemon VmHWM $(grep VmHWM /proc/"$(systemctl show -p MainPID --value quoted)"/status | tr -s ' ' | cut -d' ' -f2-)" >&3
}
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
# The daily notification's user units as install.sh put them (a user manager runs them in the
# package's end-to-end); verify exits 0 on unknown keys, so its output is what is checked. A
# user manager's environment generators run too, and gnupg's needs awk, an /etc/alternatives
# link an empty /etc lacks: their lines are other packages' failures, not our units'.
user_verify=$(XDG_RUNTIME_DIR=$(mktemp -d) systemd-analyze verify --user /etc/systemd/user/quoted-notify.timer /etc/systemd/user/quoted-notify.service 2>&1 \
    | grep -v -e "^quoted-notify\.[a-z]*: Command .man [a-z.]*([1-8]). failed" -e "^/usr/lib/systemd/user-environment-generators/" || true)
check "systemd-analyze verify --user quoted-notify.timer and .service print nothing (but man's failure)${user_verify:+: $user_verify}" \
    test -z "$user_verify"
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

# Reload: a configuration the daemon refuses fails `systemctl reload` (ExecReload= asks over the
# control socket and exits 78) and the old configuration keeps running.
pid_before=$(systemctl show -p MainPID --value quoted)
cp /etc/quoted/quoted.conf /tmp/good.conf
printf '[daemon]\nlog_levle = info\n' >> /etc/quoted/quoted.conf
check "systemctl reload quoted with a refused config exits non-zero" bash -c '! systemctl reload quoted'
check "quoted reload (what ExecReload runs) exits 78 naming the file, line and key" bash -c \
    'out=$(setpriv --reuid=quoted --regid=quoted --clear-groups quoted reload 2>&1); [ $? = 78 ] && grep -q "/etc/quoted/quoted.conf:[0-9]*: unknown key .log_levle." <<<"$out"'
check "after the refusal the daemon runs on, same pid, old configuration syncing" bash -c \
    "[ \"\$(systemctl is-active quoted)\" = active ] && [ \"\$(systemctl show -p MainPID --value quoted)\" = $pid_before ] && as_alice quotectl sync --now --source upbit"
check "a member of group quoted may not ask a reload (only root and quoted may)" bash -c \
    'as_alice quoted reload 2>&1; [ $? = 77 ]'
# A good file again, with a new custom list and a feed to publish (a hub): a reload exits 0.
cp /tmp/good.conf /etc/quoted/quoted.conf
printf '[source.custom.reloaded]\nurl = http://127.0.0.1:18080/list.json\n[publish]\ndir = /var/cache/quoted/feed\n' >> /etc/quoted/quoted.conf
check "systemctl reload quoted succeeds" systemctl reload quoted
check "the reload re-read the config (same pid, new source synced)" bash -c \
    "sleep 3; [ \"\$(systemctl show -p MainPID --value quoted)\" = $pid_before ] && as_alice quotectl random --source custom.reloaded >/dev/null"

# The journal: each sync is one entry, sent over the native protocol with its fields; a
# publish is one entry; libdispatch's thread-priority refusal appears nowhere.
check "a sync's entry carries QUOTED_SOURCE, QUOTED_RESULT, QUOTED_ROWS_CHANGED and MESSAGE_ID" \
    python3 /tmp/journal-check.py fields upbit
check "journalctl MESSAGE_ID= finds syncs that changed rows (LogEvent.syncOK)" bash -c \
    'journalctl MESSAGE_ID=725c0403c8c746ca886ce4e25733edcf -o cat --no-pager | grep -q "^custom.e2e: 20 quotes, 20 changed"'
check "one journal entry per sync: entries per source equal sync_log's rows" python3 /tmp/journal-check.py one-per-sync
check "the hub's publish after a changing sync is one entry (LogEvent.feedPublished) with its serial" \
    python3 /tmp/journal-check.py published
check "no 'Failed to set thread priority' line from libdispatch in the unit's journal" bash -c \
    '! journalctl -u quoted -o cat --no-pager | grep "Failed to set thread priority"'
check "the daemon's start and the reloads have their MESSAGE_IDs" bash -c \
    '[ -n "$(journalctl -u quoted MESSAGE_ID=841ef77305944729bfbebbb509664014 -o cat --no-pager)" ] && [ -n "$(journalctl -u quoted MESSAGE_ID=1c678ec6ce4c4e89810a85208d34ce50 -o cat --no-pager)" ] && [ -n "$(journalctl -u quoted MESSAGE_ID=70059a6f281f4e019853b01794de3549 -o cat --no-pager)" ]'

# The limits: what a first sync of the 1,000,000-quote list and the other sources at once cost
# the unit, sampled while they run (docs/benchmarks.md has the figures, quoted.service the limits).
printf '[source.custom.big]\nurl = http://127.0.0.1:18081/list.json\ninterval = 1h\nmax_bytes = 512M\ntimeout = 5m\n' >> /etc/quoted/quoted.conf
systemctl reload quoted
measure_during_syncs
check "the unit stays under its MemoryMax and TasksMax during the big sync (limits set, sync ok)" bash -c \
    '[ "$(systemctl show -p MemoryMax --value quoted)" != infinity ] && [ "$(systemctl show -p TasksMax --value quoted)" != infinity ] && as_alice quotectl random --source custom.big >/dev/null'

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
