#!/usr/bin/env bash
# The README's bar snippets, run as pasted, with real bars: each snippet is cut out of README.md
# (the README is what is tested), then
#   - tmux: an outer tmux's capture-pane shows the inner tmux's status line at 80 columns: the
#     session and window list on the left, the snippet's quote on the right from its first word;
#   - waybar's module (no waybar here: its "exec" and "on-click" run as waybar runs them): one JSON
#     object per line, another on a click (quotectl next), another on a commit;
#   - i3blocks in persist mode reads the follower's lines, and a sync (quotectl import by another
#     process) reaches its output within a second; a click on its ↻ block shows another quote
#     (i3blocks 1.4 hands no click to a persistent block);
#   - polybar (tail = true) under Xvfb shows the quote: a screenshot in ci-artifacts/, not blank;
#   - a follower at rest for 60 s uses under 10 ms of CPU (utime + stime, /proc/PID/stat);
#   - a follower whose reader never reads (a full pipe) keeps its memory for 10 s of SIGUSR1s.
#
# Usage: scripts/e2e/bars.sh   (binaries from .build/release, else .build/debug; about 90 s, most
# of it the minute at rest)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$root/.build/release
[ -x "$bin/quotectl" ] || bin=$root/.build/debug
# shellcheck source=scripts/e2e/host-lib.sh
source scripts/e2e/host-lib.sh
work=$(mktemp -d)
pids=()
trap 'tmux -L "outer-$$" kill-server 2>/dev/null || true; cleanup' EXIT
artifacts=$root/ci-artifacts
mkdir -p "$artifacts" "$work/home" "$work/run"
chmod 700 "$work/run"
export PATH="$bin:$PATH" HOME="$work/home" XDG_RUNTIME_DIR="$work/run" XDG_STATE_HOME="$work/state" QUOTED_DB="$work/store/quotes.db"
unset TMUX

# snippet MARKER: README.md's fenced block whose first line starts with MARKER, that line included.
snippet() { awk -v marker="$1" 'index($0, marker) == 1 { on = 1 } on && /^```/ { exit } on { print }' README.md; }
# wait_until SECONDS COMMAND...: true as soon as COMMAND is, false once SECONDS have passed.
wait_until() {
    local limit start
    limit=$(awk -v seconds="$1" 'BEGIN { print int(seconds * 1000) }'); shift
    start=$(date +%s%3N)
    until "$@"; do
        [ $(($(date +%s%3N) - start)) -lt "$limit" ] || return 1
        sleep 0.02
    done
}
lines_in() { wc -l < "$1"; }
more_lines() { [ "$(lines_in "$1")" -gt "$2" ]; }

echo '[{"id": 1, "text": "Work is love made visible.", "source": "Kahlil Gibran"}]' > "$work/first.json"
echo '[{"id": 1, "text": "The obstacle is the way.", "source": "Marcus Aurelius"}]' > "$work/second.json"
quotectl import "$work/first.json" --name first > /dev/null

# ---- tmux: the inner tmux's status line, seen through an outer tmux at 80 columns.
snippet "# tmux (~/.tmux.conf)" > "$work/tmux.conf"
check "the README has a tmux snippet that raises status-right-length" grep -q 'status-right-length' "$work/tmux.conf"
# Every line the snippet's own command can print (its quotes, each shortened as it shortens them).
tmux_command=$(sed -n "s/^set -g status-right '#(\(.*\))'$/\1/p" "$work/tmux.conf")
check "the tmux snippet's status-right runs quotectl" test -n "$tmux_command"
sh -c "$tmux_command -n 100000" | sed 's/##/#/g' > "$work/tmux-lines"
tmux -L "outer-$$" -f /dev/null new-session -d -x 80 -y 6 "tmux -L inner-$$ -f $work/tmux.conf new-session"
shows_windows_and_quote() {
    tmux -L "outer-$$" capture-pane -p | tail -n 1 | sed 's/ *$//' > "$work/tmux-status"
    python3 - "$work/tmux-status" "$work/tmux-lines" <<'PY'
import sys
status = open(sys.argv[1], encoding="utf-8").read().rstrip("\n")
quotes = [line for line in open(sys.argv[2], encoding="utf-8").read().split("\n") if line]
# "[0] 0:bash*": the session, then the window list; the quote as printed, its start not cut.
sys.exit(0 if status.startswith("[0] 0:") and any(status.endswith(" " + quote) for quote in quotes) else 1)
PY
}
check "tmux at 80 columns keeps the window list and shows the quote from its start" wait_until 10 shows_windows_and_quote
echo "       tmux status line: $(cat "$work/tmux-status")"
tmux -L "inner-$$" kill-server 2>/dev/null || true
tmux -L "outer-$$" kill-server 2>/dev/null || true

# ---- waybar's module: its exec and on-click, run through sh as waybar runs them.
snippet "// waybar (~/.config/waybar/config)" | tail -n +2 > "$work/waybar-member"
waybar_field() { python3 -c 'import json, sys; print(json.loads("{" + open(sys.argv[1]).read() + "}")["custom/quote"].get(sys.argv[2], ""))' "$work/waybar-member" "$1"; }
waybar_follows() {
    [ -z "$(waybar_field interval)" ] && waybar_field exec | grep -q -e --follow && [ "$(waybar_field on-click)" = "quotectl next" ]
}
check "waybar's module follows (no interval, exec with --follow, on-click quotectl next)" waybar_follows
sh -c "$(waybar_field exec)" > "$work/waybar.out" 2> "$work/waybar.err" &
pids+=($!)
check "waybar: a JSON object at once" wait_until 3 more_lines "$work/waybar.out" 0
check "waybar: every line is one JSON object with a text" python3 -c 'import json, sys
for line in open(sys.argv[1]): assert json.loads(line)["text"]' "$work/waybar.out"
before=$(lines_in "$work/waybar.out")
check "waybar: its on-click (quotectl next) shows another quote within 1 s" sh -c "$(waybar_field on-click) >/dev/null"
check "waybar: the line after the click" wait_until 1 more_lines "$work/waybar.out" "$before"

# ---- i3blocks in persist mode.
snippet "# i3blocks (~/.config/i3blocks/config)" > "$work/i3blocks.conf"
check "the i3blocks snippet is persistent and follows" grep -q -x 'interval=persist' "$work/i3blocks.conf"
mkfifo "$work/clicks"
i3blocks -c "$work/i3blocks.conf" < "$work/clicks" > "$work/i3blocks.out" 2> "$work/i3blocks.err" &
i3blocks_pid=$!
pids+=("$i3blocks_pid")
exec 3> "$work/clicks"
echo '[' >&3
i3blocks_quotes() { grep -c '"name":"quote"' "$work/i3blocks.out" || true; }
has_quotes() { [ "$(i3blocks_quotes)" -gt "$1" ]; }
check "i3blocks shows the follower's quote" wait_until 5 has_quotes 0
grep '"name":"quote"' "$work/i3blocks.out" | tail -n 1 | sed 's/^/       i3blocks: /'
before=$(i3blocks_quotes)
quotectl import "$work/second.json" --name second > /dev/null
check "i3blocks: a sync (another process's commit) reaches the bar within 1 s" wait_until 1 has_quotes "$before"
# Every i3blocks line carries every block (the click redraws ↻'s too): the follower's own writes
# (/proc/PID/io's wchar) tell that it printed another quote.
follower_under() {
    local child
    for child in $(pgrep -P "$1"); do
        if [ "$(cat "/proc/$child/comm")" = quotectl ]; then echo "$child"; else follower_under "$child"; fi
    done
}
i3blocks_follower=$(follower_under "$i3blocks_pid" | head -n 1)
written() { awk '/^wchar/ { print $2 }' "/proc/$i3blocks_follower/io"; }
wrote_more() { [ "$(written)" -gt "$1" ]; }
check "i3blocks runs the follower (pid ${i3blocks_follower:-none})" test -n "$i3blocks_follower"
before=$(written)
echo '{"name":"quote-next","instance":"","button":1,"x":1,"y":1}' >&3
check "i3blocks: a click on ↻ (quotectl next) makes the follower print another quote within 1 s" wait_until 1 wrote_more "$before"
exec 3>&-

# ---- the followers so far end, so that polybar's is the only one.
kill "${pids[@]}" 2>/dev/null || true
pids=()
for entry in "$XDG_RUNTIME_DIR"/quoted/followers/*; do
    if [ -e "$entry" ]; then kill "$(basename "$entry")" 2>/dev/null || true; fi
done
no_followers() { [ -z "$(ls "$XDG_RUNTIME_DIR/quoted/followers" 2>/dev/null)" ]; }
check "the earlier followers ended and took their entries with them" wait_until 5 no_followers

# ---- polybar under Xvfb, with the README's module in a bar of its own.
Xvfb -displayfd 4 -screen 0 1000x60x24 -nolisten tcp 4> "$work/display" 2> "$work/xvfb.err" &
pids+=($!)
wait_until 10 test -s "$work/display" || { echo "FAIL - Xvfb did not start"; cat "$work/xvfb.err"; exit 1; }
DISPLAY=":$(cat "$work/display")"
export DISPLAY
{
    # DejaVu has no Hangul: the built-in Korean quotes are drawn with a Korean font (fonts-nanum).
    printf '[bar/quote]\nwidth = 100%%\nheight = 40\nbackground = #202020\nforeground = #f0f0f0\n'
    printf 'font-0 = DejaVu Sans:size=11;2\nfont-1 = %s:size=11;2\nmodules-left = quote\n\n' "$(fc-match -f '%{family[0]}' ':lang=ko')"
    snippet "# polybar (config.ini)"
} > "$work/polybar.ini"
check "the polybar snippet tails the follower" grep -q -x 'tail = true' "$work/polybar.ini"
polybar -q -c "$work/polybar.ini" quote > "$work/polybar.log" 2>&1 &
pids+=($!)
polybar_follows() { [ -n "$(ls "$XDG_RUNTIME_DIR/quoted/followers" 2>/dev/null)" ]; }
check "polybar started the follower" wait_until 10 polybar_follows
# The bar is drawn once polybar has read the line: a screenshot until its bar shows more than background.
bar_colours() { import -display "$DISPLAY" -window root "$artifacts/polybar.png" && convert "$artifacts/polybar.png" -crop 1000x40+0+0 -format '%k' info:; }
bar_shows_text() { [ "$(bar_colours)" -gt 16 ]; }  # antialiased text: many greys, not a dot and a dash
check "polybar's screenshot shows text (ci-artifacts/polybar.png)" wait_until 10 bar_shows_text
echo "       polybar: $(bar_colours) colours in the bar"
kill "${pids[@]}" 2>/dev/null || true
pids=()

# ---- a follower at rest: 60 s, under 10 ms of CPU.
quotectl random --follow --every 1d --oneline > "$work/rest.out" &
rest=$!
pids+=("$rest")
check "a follower at rest printed its first line" wait_until 3 more_lines "$work/rest.out" 0
cpu_ticks() { awk '{ sub(/.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
start=$(cpu_ticks "$rest")
sleep 60
used=$(( ($(cpu_ticks "$rest") - start) * 1000 / $(getconf CLK_TCK) ))
check "a follower at rest for 60 s uses under 10 ms of CPU (used ${used} ms)" test "$used" -lt 10

# ---- a reader that never reads: the pipe fills, the follower waits, its memory stays.
mkfifo "$work/full"
exec 5<> "$work/full"
quotectl random --follow --every 1s --format waybar > "$work/full" &
stuck=$!
pids+=("$stuck")
registered() { [ -e "$XDG_RUNTIME_DIR/quoted/followers/$stuck" ]; }
check "the follower on a full pipe registered (its SIGUSR1 handler in place)" wait_until 3 registered
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
for _ in $(seq 400); do kill -USR1 "$stuck"; sleep 0.005; done
first=$(rss "$stuck")
end=$((SECONDS + 10))
while [ "$SECONDS" -lt "$end" ]; do kill -USR1 "$stuck"; sleep 0.01; done
last=$(rss "$stuck")
rss_stayed() { [ -d "/proc/$stuck" ] && [ "$last" -le $((first + 64)) ]; }
check "a full pipe: the follower is alive and its RSS stays (${first} kB, then ${last} kB after 10 s)" rss_stayed
exec 5<&-

echo "bars: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
