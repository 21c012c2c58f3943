#!/usr/bin/env bash
# The quote of the day as a desktop notification, with real parts: Xvfb for the screen, a session
# bus of its own (dbus-run-session), Debian's dunst as the notification server and notify-send as
# quotectl runs it. `quotectl today --notify` must reach dunst with app name quoted, the author as
# summary, the body escaped for markup and the language as a hint (read back from dbus-monitor and
# dunstctl history); a quote holding <b>, & and &amp; must show literally (no markup error in
# dunst's log, where an unescaped one, sent as a control, makes one); a screenshot goes to
# ci-artifacts/desktop-notification.png and must not be blank. Then the failures: no bus (exit 69
# within a second, naming DBUS_SESSION_BUS_ADDRESS), a bus with no notification server (69 at
# once), a bus that never answers (69 at quotectl's 5 s deadline, not a hang), notify-send missing
# from PATH (69).
#
# Usage: scripts/e2e/desktop.sh   (binaries from .build/release, else .build/debug; about 15 s)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$root/.build/release
[ -x "$bin/quotectl" ] || bin=$root/.build/debug
[ -x "$bin/quotectl" ] || { echo "desktop-e2e: build first (swift build -c release)" >&2; exit 1; }
for tool in Xvfb dbus-run-session dbus-monitor dbus-send dunst dunstctl notify-send import identify python3; do
    command -v "$tool" >/dev/null || { echo "desktop-e2e: $tool is missing (scripts/debian-packages.sh's ci_packages)" >&2; exit 1; }
done
fc-list :lang=ko | grep -q . || { echo "desktop-e2e: no Korean font: the screenshot's Hangul would be boxes (apt install fonts-nanum)" >&2; exit 1; }
# shellcheck source=scripts/e2e/host-lib.sh
source scripts/e2e/host-lib.sh

# Inside the session bus (the script runs itself under dbus-run-session): dunst, the
# notification and what it read. The checks' helpers read $work and $bin, exported.
owned() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
        org.freedesktop.DBus.NameHasOwner string:org.freedesktop.Notifications 2>/dev/null | grep -q 'boolean true'
}
korean() { "$bin/quotectl" --db "$work/quotes.db" random --source custom.ko --notify; }
notify_today() {
    local out
    out=$("$bin/quotectl" --db "$work/quotes.db" today --source custom.l --notify) || return 1  # its exit status counts
    [ -z "$out" ]
}
app_name() { grep -A1 'member=Notify' "$work/monitor.log" | grep -qxF '   string "quoted"'; }
not_blank() { [ "$(identify -format %k "$1")" -gt 2 ]; }
stop_session() { for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done; }
in_session() {
    pids=()
    trap stop_session EXIT
    dunst -config "$work/dunstrc" > "$work/dunst.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do owned && break; sleep 0.1; done
    check "dunst owns org.freedesktop.Notifications on the session bus" owned
    dbus-monitor --session "type='method_call',interface='org.freedesktop.Notifications',member='Notify'" > "$work/monitor.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do grep -q NameAcquired "$work/monitor.log" && break; sleep 0.1; done

    check "quotectl today --notify exits 0 with nothing on stdout" notify_today
    local body='Use &lt;b&gt;bold&lt;/b&gt; &amp; fish &amp;amp; chips &gt; none'
    for _ in $(seq 100); do grep -qF "string \"$body\"" "$work/monitor.log" && break; sleep 0.1; done
    check "the Notify call: app name quoted" app_name
    check "the Notify call: the author as summary, as plain text" grep -qxF '   string "Tom & Jerry"' "$work/monitor.log"
    check "the Notify call: the body escaped for markup" grep -qxF "   string \"$body\"" "$work/monitor.log"
    check "the Notify call: the language hint x-quoted-lang = en" \
        bash -c "grep -A1 'string \"x-quoted-lang\"' '$work/monitor.log' | grep -qF 'variant             string \"en\"'"
    check "quotectl random --notify with a Korean quote exits 0" korean
    for _ in $(seq 100); do grep -qF 'string "행복은 내면에서 오지 않고 사이에서 온다"' "$work/monitor.log" && break; sleep 0.1; done
    check "the Notify call: the Hangul body as written, the hint x-quoted-lang = ko" \
        bash -c "grep -qxF '   string \"행복은 내면에서 오지 않고 사이에서 온다\"' '$work/monitor.log' && grep -A1 'string \"x-quoted-lang\"' '$work/monitor.log' | grep -qF 'variant             string \"ko\"'"
    sleep 1  # dunst draws after it answers; the screenshot must hold the drawn window
    mkdir -p "$root/ci-artifacts"
    local shot=$root/ci-artifacts/desktop-notification.png
    check "a screenshot of the screen with the notification" import -display "$DISPLAY" -window root "$shot"
    check "the screenshot is not blank (more than 2 colours)" not_blank "$shot"
    check "dunst parsed the body's markup without an error (the quote shows literally)" bash -c "! grep -qi 'markup' '$work/dunst.log'"
    # The control: the same characters unescaped are what dunst cannot parse (dunst #616).
    notify-send --app-name=control "control" "fish & chips <b"
    for _ in $(seq 100); do grep -qi markup "$work/dunst.log" && break; sleep 0.1; done
    check "control: an unescaped body makes dunst's markup error (so the check above can fail)" grep -qi 'markup' "$work/dunst.log"
    dunstctl close-all
    for _ in $(seq 50); do dunstctl history > "$work/history.json" && grep -q '"Tom & Jerry"' "$work/history.json" && break; sleep 0.1; done
    check "dunstctl history: summary, body and app name as sent" python3 - "$work/history.json" "$body" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))["data"][0]
mine = [e for e in entries if e["appname"]["data"] == "quoted" and e["summary"]["data"] == "Tom & Jerry"]
assert len(mine) == 1, entries
assert mine[0]["body"]["data"] == sys.argv[2], mine[0]
PY
    echo "$passed $failed" > "$work/counts"
}
if [ "${1:-}" = --in-session ]; then
    in_session
    exit 0
fi

work=$(mktemp -d /tmp/quoted-desktop.XXXXXX)
export work bin root
pids=()
trap cleanup EXIT
export HOME=$work/home XDG_RUNTIME_DIR=$work/run
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 0700 "$XDG_RUNTIME_DIR"
printf '%s' '[{"id": 1, "text": "Use <b>bold</b> & fish &amp; chips > none", "author": "Tom & Jerry"}]' > "$work/l.json"
"$bin/quotectl" --db "$work/quotes.db" import "$work/l.json" --name l > /dev/null
printf '%s' '[{"id": 1, "text": "행복은 내면에서 오지 않고 사이에서 온다", "author": "작자 미상"}]' > "$work/ko.json"
"$bin/quotectl" --db "$work/quotes.db" import "$work/ko.json" --name ko > /dev/null
cat > "$work/dunstrc" <<'RC'
[global]
    font = DejaVu Sans 12
    markup = full
    format = "<b>%s</b>\n%b"
    width = 500
    origin = top-right
    offset = 10x10
    frame_width = 2
[urgency_low]
    background = "#202020"
    foreground = "#ffffff"
    timeout = 0
RC

echo "== the notification under Xvfb, dunst and a session bus of its own"
Xvfb -displayfd 3 -screen 0 800x600x24 -nolisten tcp 3> "$work/display" > "$work/xvfb.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
[ -s "$work/display" ] || { echo "desktop-e2e: Xvfb did not start:"; cat "$work/xvfb.log"; exit 1; }
DISPLAY=":$(cat "$work/display")"
export DISPLAY
timeout 120 dbus-run-session -- "$root/scripts/e2e/desktop.sh" --in-session || true
read -r inner_passed inner_failed < <(cat "$work/counts" 2>/dev/null || echo "0 1")
passed=$((passed + inner_passed)); failed=$((failed + inner_failed))

echo "== the failures"
milliseconds() { echo $(( $(date +%s%N) / 1000000 )); }
# expect_69 NAME MAX-MS NEEDLE COMMAND...: exit 69 within MAX-MS, stderr one line holding NEEDLE
# (besides what a dbus-daemon of dbus-run-session says on the same stderr).
expect_69() {
    local name=$1 limit=$2 needle=$3; shift 3
    local start status=0 took
    start=$(milliseconds)
    "$@" > "$work/out" 2> "$work/err" || status=$?
    took=$(( $(milliseconds) - start ))
    echo "  $name: exit $status in $took ms" >> "$work/timings"
    [ "$status" = 69 ] && [ "$took" -le "$limit" ] && [ "$(grep -cv '^dbus-daemon\[' "$work/err")" = 1 ] && grep -qF -- "$needle" "$work/err" && [ ! -s "$work/out" ]
}
today=("$bin/quotectl" --db "$work/quotes.db" today --notify)
check "no session bus: exit 69 within a second, naming DBUS_SESSION_BUS_ADDRESS" \
    expect_69 "no bus" 1000 DBUS_SESSION_BUS_ADDRESS env -u DBUS_SESSION_BUS_ADDRESS "${today[@]}"
check "notify-send missing from PATH: exit 69 naming libnotify-bin" \
    expect_69 "no notify-send" 1000 "apt install libnotify-bin" env DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent PATH="$work/empty" "${today[@]}"
cat > "$work/no-services.conf" <<'CONF'
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default"><allow send_destination="*" eavesdrop="true"/><allow eavesdrop="true"/><allow own="*"/></policy>
</busconfig>
CONF
check "a bus with no notification server (none to start): exit 69 at once, with notify-send's reason" \
    expect_69 "no server" 3000 "the notification was not shown" \
    timeout 60 dbus-run-session --config-file="$work/no-services.conf" -- env -u DISPLAY "${today[@]}"
# A bus socket that accepts and never says a word: notify-send would wait for ever.
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
held = []
while True: held.append(s.accept())' "$work/silent-bus" &
pids+=($!)
for _ in $(seq 100); do [ -S "$work/silent-bus" ] && break; sleep 0.1; done
check "a bus that never answers: exit 69 at quotectl's 5 s deadline, not a hang" \
    expect_69 "silent bus" 8000 "no notification server answered" \
    timeout 60 env DBUS_SESSION_BUS_ADDRESS="unix:path=$work/silent-bus" "${today[@]}"

cat "$work/timings"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
