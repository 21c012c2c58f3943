#!/usr/bin/env bash
# The attacks an update system defends against, played on a real feed: a hub publishing a signed
# feed, real nginx serving it, signify-openbsd's keys, spokes (separate stores, `quoted sync --once`
# each), faketime for the clock. Prints one line per attack — refused or survived, rows kept, the
# exit code, the message — and fails when any attack is not refused as it should be. The hub's own
# folder is attacked too: links planted in it and a damaged twin, refused or repaired by its publish.
#
# Usage: scripts/e2e/feed-attacks.sh   (binaries from .build/release, else .build/debug; SPOKES=200 for the race)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
race_spokes=${SPOKES:-200}
bin=$root/.build/release
[ -x "$bin/quoted" ] || bin=$root/.build/debug
[ -x "$bin/quoted" ] || { echo "feed-attacks: build first (swift build -c release)" >&2; exit 1; }
for tool in nginx signify-openbsd python3 sqlite3 faketime openssl curl gzip; do
    command -v "$tool" >/dev/null || { echo "feed-attacks: $tool is missing (apt-get install nginx-light signify-openbsd faketime)" >&2; exit 1; }
done
export FAKETIME_DONT_FAKE_MONOTONIC=1

work=$(mktemp -d /tmp/quoted-attacks.XXXXXX)
chmod 0755 "$work"
port=$((30000 + RANDOM % 10000))
pids=()
trap cleanup EXIT
# shellcheck source=scripts/e2e/host-lib.sh
source scripts/e2e/host-lib.sh

# --- The upstream, the keys, the hub and its feed, nginx.
mkdir -p "$work/nginx" "$work/spokes"
python3 scripts/bench/make-quote-list.py 2000 "$work/list.json" >/dev/null
python3 scripts/bench/fake-upstream.py --port "$((port + 1))" --list "$work/list.json" >/dev/null 2>&1 &
pids+=($!)
wait_for_port "$((port + 1))"
for key in hub other new; do signify-openbsd -G -n -p "$work/$key.pub" -s "$work/$key.sec"; chmod 600 "$work/$key.sec"; done
hub_conf() {  # hub_conf NAME SIGNING_KEYS [NEXT_KEYS] [FOLDER]
    cat <<EOF
[store]
path = $work/hub.db
[publish]
name = $1
dir = ${4:-$work/feed}
signing_key = $2
${3:+next_keys = $3}
[source.custom.list]
url = http://127.0.0.1:$((port + 1))/list.json
[source.happiness]
url = http://127.0.0.1:$((port + 1))/happiness/random-quote
[source.breakingbad]
enabled = false
[source.upbit]
url = http://127.0.0.1:$((port + 1))/v1/market/all
EOF
}
hub_conf attacks.example "$work/hub.sec" > "$work/hub.conf"
"$bin/quoted" sync --once --quiet --config "$work/hub.conf"
publish() { "$bin/quoted" publish --config "${1:-$work/hub.conf}" 2>/dev/null; }
feed_nginx "$work" "$port"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf"
wait_for_port "$port"
keynum() { python3 -c 'import base64, sys; print(base64.b64decode(open(sys.argv[1]).read().split("\n")[1])[2:10].hex())' "$1"; }
signed=$work/feed/manifest.$(keynum "$work/hub.pub").signed

# --- Spokes.
spoke() {  # spoke N [KEYS]: a spoke's configuration, trusting KEYS (default the hub's key)
    mkdir -p "$work/spokes/$1"
    printf '[store]\npath = %s\n[fleet]\nhub = http://127.0.0.1:%s/\nhub_key = %s\n[source.breakingbad]\nenabled = false\n' \
        "$work/spokes/$1/quotes.db" "$port" "${2:-$work/hub.pub}" > "$work/spokes/$1/quoted.conf"
}
sync_spoke() {  # sync_spoke N [FAKETIME]: one sync; its exit code in $status, its messages in $work/spokes/N/err
    local status_=0
    if [ -n "${2:-}" ]; then faketime -f "$2" "$bin/quoted" sync --once --config "$work/spokes/$1/quoted.conf" >/dev/null 2>"$work/spokes/$1/err" || status_=$?
    else "$bin/quoted" sync --once --config "$work/spokes/$1/quoted.conf" >/dev/null 2>"$work/spokes/$1/err" || status_=$?; fi
    status=$status_
}
rows() {  # a digest of every row a spoke holds from the feed (the built-in quotes left out; no store: no rows)
    if [ -f "$work/spokes/$1/quotes.db" ]; then sqlite3 -readonly "$work/spokes/$1/quotes.db" \
        "SELECT source, upstream_id, content_hash FROM quotes WHERE source <> 'builtin' ORDER BY 1, 2; SELECT market, content_hash FROM markets ORDER BY 1;" | md5sum
    else printf '' | md5sum; fi
}
none=$(printf '' | md5sum)

refused=0
survived=0
table=()
# attack NAME N EXPECTED-EXIT EXPECTED-MESSAGE BEFORE-ROWS: the spoke's last sync must have failed so, keeping every row.
attack() {
    local name=$1 n=$2 exit_expected=$3 message=$4 before=$5
    local said; said=$(grep -v '^quoted: warning' "$work/spokes/$n/err" | grep -m1 -e "$message" || head -1 "$work/spokes/$n/err")
    local kept=changed; [ "$(rows "$n")" = "$before" ] && kept=kept
    if [ "$status" = "$exit_expected" ] && grep -q -e "$message" "$work/spokes/$n/err" && [ "$kept" = kept ]; then
        refused=$((refused + 1)); table+=("$(printf '%-34s refused   rows %-7s exit %-3s %s' "$name" "$kept" "$status" "${said:0:150}")")
    else
        survived=$((survived + 1)); table+=("$(printf '%-34s SURVIVED  rows %-7s exit %-3s %s' "$name" "$kept" "$status" "${said:0:150}")")
    fi
}
# accepted NAME N: a sync that must succeed (a recovery the defences must allow).
accepted() {
    local name=$1 n=$2
    if [ "$status" = 0 ]; then refused=$((refused + 1)); table+=("$(printf '%-34s accepted  (as it must be) exit 0' "$name")")
    else survived=$((survived + 1)); table+=("$(printf '%-34s WRONGLY REFUSED exit %s %s' "$name" "$status" "$(head -1 "$work/spokes/$n/err")")"); fi
}

spoke 1
sync_spoke 1
[ "$status" = 0 ] || { echo "feed-attacks: the first sync failed: $(cat "$work/spokes/1/err")" >&2; exit 1; }
cp "$signed" "$work/old.signed"
python3 scripts/bench/make-quote-list.py 2000 "$work/list.json" --changed-fraction 0.05 --seed 3 >/dev/null
"$bin/quoted" sync --once --quiet --config "$work/hub.conf" --source custom.list
sync_spoke 1
current=$(rows 1)
cp "$signed" "$work/current.signed"
# Puts FILE in place of the signed manifest, with a modification time of its own: nginx's ETag is
# the time in seconds and the size, and two manifests of one length within a second would share one.
moved=0
place() { moved=$((moved + 1)); cp "$1" "$signed.tmp" && touch -d "@$(( $(date +%s) + 10 * moved ))" "$signed.tmp" && mv "$signed.tmp" "$signed"; }
restore() { place "$work/current.signed"; }

# 1. Replay: yesterday's signed manifest, served again.
place "$work/old.signed"; sync_spoke 1
attack "replay (an older signed manifest)" 1 75 "older than one verified here" "$current"
# 2. Mix-and-match: that older manifest beside today's by-hash files (all of them still served).
attack "mix-and-match (old manifest, new files)" 1 75 "older than one verified here" "$current"
restore

# 3. Cross-feed: a manifest signed by the same key for another feed (staging).
hub_conf staging.example "$work/hub.sec" "" "$work/staging" > "$work/staging.conf"
publish "$work/staging.conf"
place "$work/staging/manifest.$(keynum "$work/hub.pub").signed"; sync_spoke 1
attack "cross-feed (same key, other name)" 1 75 "which this spoke follows" "$current"
restore

# 4. Freeze: a mirror answering 304 forever for a manifest that has expired since (signed 8 days
#    ago, applied 7 days ago, checked now), and 5. the same manifest replayed to a wiped spoke.
rm -rf "$work/frozen"; cp -a "$work/feed" "$work/frozen"; rm -f "$work/frozen/manifest.json"
hub_conf attacks.example "$work/hub.sec" "" "$work/frozen" > "$work/frozen.conf"
faketime -f "-8d" "$bin/quoted" publish --config "$work/frozen.conf" 2>/dev/null
cp "$signed" "$work/current.signed.keep"
cp "$work/frozen/manifest.$(keynum "$work/hub.pub").signed" "$signed"
spoke 2
sync_spoke 2 "-7d"
frozen_rows=$(rows 2)
[ "$status" = 0 ] || echo "feed-attacks: the frozen spoke's first sync (7 days ago) failed: $(cat "$work/spokes/2/err")" >&2
sync_spoke 2
attack "freeze (304 past valid_until)" 2 75 "expired" "$frozen_rows"
status_json=$(QUOTED_CONFIG=$work/spokes/2/quoted.conf "$bin/quotectl" status --format '{source} {state}' | grep custom.list || true)
if [ "$status_json" = "custom.list failing" ]; then refused=$((refused + 1)); table+=("$(printf '%-34s refused   status says: %s' "freeze: quotectl status" "$status_json")")
else survived=$((survived + 1)); table+=("$(printf '%-34s SURVIVED  status says: %s' "freeze: quotectl status" "$status_json")"); fi
spoke 3
sync_spoke 3
attack "replay past expiry (wiped spoke)" 3 75 "expired" "$none"
place "$work/current.signed.keep"

# 6. Endless data: a by-hash file far longer than its signed size (the hub's list changed; the new file is swapped).
python3 scripts/bench/make-quote-list.py 2000 "$work/list.json" --changed-fraction 0.05 --seed 4 >/dev/null
"$bin/quoted" sync --once --quiet --config "$work/hub.conf" --source custom.list
file=$(python3 -c 'import json,sys; print([s["file"] for s in json.load(open(sys.argv[1]))["sources"] if s["name"]=="custom.list"][0])' "$work/feed/manifest.json")
cp "$work/feed/$file" "$work/good.json"
python3 -c 'import sys; f=open(sys.argv[1], "w"); f.write("["); [f.write("{\"id\": %d, \"text\": \"endless\"}," % i) for i in range(6000000)]; f.write("{}]")' "$work/feed/$file"
rm -f "$work/feed/$file.gz"
status=0
/usr/bin/time -f '%M' -o "$work/rss" "$bin/quoted" sync --once --config "$work/spokes/1/quoted.conf" >/dev/null 2>"$work/spokes/1/err" || status=$?
attack "endless by-hash file ($(($(stat -c %s "$work/feed/$file") / 1000000)) MB, $(( $(tail -1 "$work/rss") / 1024 )) MB peak)" 1 75 "longer than the" "$current"
cp "$work/good.json" "$work/feed/$file"
sync_spoke 1
current=$(rows 1)

# 7. Key file others may read: the hub refuses to publish with it.
chmod 640 "$work/hub.sec"
status=0; "$bin/quoted" publish --config "$work/hub.conf" 2>"$work/publish.err" || status=$?
if [ "$status" = 78 ] && grep -q "chmod 0600" "$work/publish.err"; then refused=$((refused + 1)); table+=("$(printf '%-34s refused   exit %-3s %s' "signing key readable by others" "$status" "$(head -1 "$work/publish.err" | cut -c1-150)")")
else survived=$((survived + 1)); table+=("$(printf '%-34s SURVIVED  exit %-3s %s' "signing key readable by others" "$status" "$(head -1 "$work/publish.err")")"); fi
chmod 600 "$work/hub.sec"

# 8. A wiped spoke trusts a manifest that is valid; 9. a hub whose feed folder was lost starts again above every serial.
rm -rf "$work/spokes/3"; spoke 3; sync_spoke 3
accepted "wiped spoke, valid manifest (TOFU)" 3
rm -rf "$work/feed"; publish; sync_spoke 1
accepted "hub lost its feed folder" 1

# 10. Key rotation: the hub signs with both keys and announces the new one; old and new spokes follow.
hub_conf attacks.example "$work/hub.sec, $work/new.sec" "$work/new.pub" > "$work/rotating.conf"
publish "$work/rotating.conf"; sync_spoke 1
accepted "rotation, phase 1: an old spoke" 1
spoke 4 "$work/new.pub"; sync_spoke 4
accepted "rotation, phase 1: a new spoke" 4
spoke 5  # an old spoke that sleeps through phase 1
hub_conf attacks.example "$work/new.sec" > "$work/rotated.conf"
publish "$work/rotated.conf"; sync_spoke 1
accepted "rotation, phase 2: an old spoke (adopted)" 1
sync_spoke 5
attack "rotation, phase 2: a spoke that missed it" 5 75 "add its public key to hub_key" "$none"
cp "$work/rotated.conf" "$work/hub.conf"
signed=$work/feed/manifest.$(keynum "$work/new.pub").signed

# 10b. Downgrade: an https hub (nginx with a certificate of this run's own CA) whose answers
#      redirect to plain http, loopback even: refused, never followed.
openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
    -keyout "$work/tls.key" -out "$work/tls.pem" 2>/dev/null
# Ports the kernel says are free now: a fixed offset from a random port can be one a client
# connection holds, and a reload whose listen fails keeps the old servers (connection refused).
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
redirecting=$(free_port)
serving=$(free_port)
while [ "$serving" = "$redirecting" ]; do serving=$(free_port); done
cat >> "$work/nginx/server.conf" <<EOF
server {
    listen 127.0.0.1:$redirecting ssl;
    ssl_certificate $work/tls.pem;
    ssl_certificate_key $work/tls.key;
    location / { return 302 http://127.0.0.1:$port\$request_uri; }
}
server {
    listen 127.0.0.1:$serving ssl;
    ssl_certificate $work/tls.pem;
    ssl_certificate_key $work/tls.key;
    root $work/feed;
}
EOF
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -s reload
# A reload hands the new servers to new workers a moment later (longer on a busy machine).
tls_answers() {
    [ "$(curl -s --cacert "$work/tls.pem" -o /dev/null -w '%{http_code}' "https://127.0.0.1:$redirecting/")" = 302 ] &&
        curl -sf --cacert "$work/tls.pem" -o /dev/null "https://127.0.0.1:$serving/manifest.json"
}
for _ in $(seq 100); do tls_answers && break; sleep 0.1; done
if ! tls_answers; then
    # What nginx said of the reload, so a failure here names its cause rather than a downgrade's.
    echo "feed-attacks: nginx's TLS servers (127.0.0.1:$redirecting, :$serving) do not answer after a reload:" >&2
    tail -5 "$work/nginx/"*.log >&2 2>/dev/null || true
fi
spoke 6 "$work/new.pub"
sed -i "s|^hub = .*|hub = https://127.0.0.1:$redirecting/\nca_file = $work/tls.pem|" "$work/spokes/6/quoted.conf"
sync_spoke 6
attack "http downgrade (https hub redirects)" 6 75 "refusing plain http" "$none"
sed -i "s|^hub = .*|hub = https://127.0.0.1:$serving/|" "$work/spokes/6/quoted.conf"
sync_spoke 6
accepted "an https hub of a private CA (ca_file)" 6

# 11. The hub's own folder, planted with links and damage by whoever may write in it: each publish
#     refuses or repairs, nothing outside the feed is written, touched or removed, and nginx serves
#     the feed's own bytes.
# defended NAME WORD OK DETAIL: a defence of the hub's folder held when OK is 0 (WORD: refused, repaired).
defended() {
    if [ "$3" = 0 ]; then refused=$((refused + 1)); table+=("$(printf '%-34s %-9s %s' "$1" "$2" "${4:0:150}")")
    else survived=$((survived + 1)); table+=("$(printf '%-34s SURVIVED  %s' "$1" "${4:0:150}")"); fi
}
entry_of() {  # entry_of FIELD: the custom.list entry's FIELD (file, sha256) in the hub's manifest.json
    python3 -c 'import json, sys; print([s[sys.argv[2]] for s in json.load(open(sys.argv[1]))["sources"] if s["name"] == "custom.list"][0])' \
        "$work/feed/manifest.json" "$1"
}
outside_state() {  # every name, kind, size, time and byte under $work/outside
    (cd "$work/outside" && find . -printf '%p %y %s %T@\n' | sort && find . -type f | sort | xargs cat) | md5sum
}
hub_publish() {  # one `quoted publish`: its exit code in $published, its messages in $work/publish.err
    published=0
    "$bin/quoted" publish --config "$work/hub.conf" 2>"$work/publish.err" || published=$?
}
served() {  # served FILE [CURL-OPTION]: the SHA-256 of what nginx serves as the feed's FILE
    curl -s ${2:+"$2"} "http://127.0.0.1:$port/$1" | sha256sum | cut -d' ' -f1
}
mkdir -p "$work/outside/hashes"
printf '[{"id": 1, "text": "not the feed'"'"'s"}]\n' > "$work/outside/list.json"
zeros=$(printf '%064d' 0)
for name in "$zeros.json" "$zeros.json.gz" notes.txt; do echo "someone else's $name" > "$work/outside/hashes/$name"; done
touch -d 2001-09-09 "$work/outside/list.json" "$work/outside/hashes/"*
outside=$(outside_state)
file=$(entry_of file)
sha=$(entry_of sha256)

# 11a. A link in place of a by-hash file: written again, its target neither signed, touched nor served.
rm "$work/feed/$file"
ln -s "$work/outside/list.json" "$work/feed/$file"
hub_publish
what="the feed's file"; [ "$(served "$file")" = "$sha" ] || what="another file"
ok=1
if [ "$published" = 0 ] && [ ! -L "$work/feed/$file" ] && [ "$what" = "the feed's file" ] && [ "$(outside_state)" = "$outside" ]; then ok=0; fi
defended "symlinked by-hash file" repaired "$ok" "publish exit $published, $(grep -o 'wrote .*' "$work/publish.err" || head -1 "$work/publish.err"); nginx serves $what"

# 11b. A by-hash linked to another folder: refused, before a file is written or pruned through it.
manifest_before=$(sha256sum < "$work/feed/manifest.json")
mv "$work/feed/by-hash" "$work/by-hash.kept"
ln -s "$work/outside/hashes" "$work/feed/by-hash"
hub_publish
ok=1
if [ "$published" = 74 ] && grep -q "by-hash is a symbolic link" "$work/publish.err" && [ "$(outside_state)" = "$outside" ] &&
    [ "$(sha256sum < "$work/feed/manifest.json")" = "$manifest_before" ]; then ok=0; fi
defended "symlinked by-hash folder" refused "$ok" "exit $published $(head -1 "$work/publish.err")"
rm "$work/feed/by-hash"
mv "$work/by-hash.kept" "$work/feed/by-hash"

# 11c. A dangling link in place of the lock file: refused, nothing made where it points.
rm -f "$work/feed/.lock"
ln -s "$work/outside/made-by-the-lock" "$work/feed/.lock"
hub_publish
ok=1
if [ "$published" = 74 ] && grep -q "\.lock is a symbolic link" "$work/publish.err" && [ ! -e "$work/outside/made-by-the-lock" ] &&
    [ "$(outside_state)" = "$outside" ]; then ok=0; fi
defended "dangling .lock link" refused "$ok" "exit $published $(head -1 "$work/publish.err")"
rm "$work/feed/.lock"

# 11d. A twin cut short, then one linked elsewhere, while the list stays as it is: the next publish
#      (a sync of another source, which keeps the list's entry) writes it again, and a new spoke,
#      taking gzip, syncs.
twins="written again"
for damage in cut linked; do
    if [ "$damage" = cut ]; then head -c 100 "$work/feed/$file.gz" > "$work/twin.cut" && mv "$work/twin.cut" "$work/feed/$file.gz"
    else rm "$work/feed/$file.gz" && ln -s "$work/outside/list.json" "$work/feed/$file.gz"; fi
    "$bin/quoted" sync --once --quiet --config "$work/hub.conf" --source happiness || true
    if [ -L "$work/feed/$file.gz" ] || ! gzip -t "$work/feed/$file.gz" 2>/dev/null || [ "$(served "$file" --compressed)" != "$sha" ]; then
        twins="the $damage twin left as it was"
    fi
done
spoke 7 "$work/new.pub"
sync_spoke 7
ok=1
if [ "$twins" = "written again" ] && [ "$status" = 0 ] && [ "$(outside_state)" = "$outside" ]; then ok=0; fi
defended "damaged, then symlinked .gz twin" repaired "$ok" "$twins by a sync of happiness; a new spoke taking gzip: exit $status $(head -1 "$work/spokes/7/err")"

# 12. The publish race: the hub publishes in a loop while many spokes sync; not one signature fails.
( published=0; while [ ! -e "$work/race.done" ]; do publish; published=$((published + 1)); done; echo "$published" > "$work/race.publishes" ) &
publisher=$!
for i in $(seq "$race_spokes"); do spoke "r$i" "$work/new.pub"; done
race_failures=0 race_signature=0
for i in $(seq "$race_spokes"); do
    sync_spoke "r$i" || true
    [ "$status" = 0 ] || race_failures=$((race_failures + 1))
    grep -q "signature does not verify" "$work/spokes/r$i/err" && race_signature=$((race_signature + 1))
done
touch "$work/race.done"; wait "$publisher" || true
publishes=$(cat "$work/race.publishes" 2>/dev/null || echo "?")
if [ "$race_signature" = 0 ] && [ "$race_failures" = 0 ]; then refused=$((refused + 1)); table+=("$(printf '%-34s refused   %s spokes synced during %s back-to-back publishes: %s signature failures, %s failed syncs' "publish race" "$race_spokes" "$publishes" "$race_signature" "$race_failures")")
else survived=$((survived + 1)); table+=("$(printf '%-34s SURVIVED  %s spokes: %s signature failures, %s failed syncs' "publish race" "$race_spokes" "$race_signature" "$race_failures")"); fi

printf '%s\n' "${table[@]}"
echo "$refused defended, $survived not"
[ "$survived" = 0 ]
