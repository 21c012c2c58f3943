#!/usr/bin/env bash
# A fleet end to end, with real parts: the project's fake upstream (counting requests), a hub
# that syncs and publishes a signed feed, real nginx from Debian (nginx-light) serving it on a
# loopback port with contrib/nginx/quoted-feed.conf, and SPOKES hosts (separate stores, one
# `quoted sync --once` process each, a few at a time) syncing from nginx. It checks that every
# spoke holds the hub's rows, that faults fail safely, and prints the figures: spokes per second,
# requests nginx served, bytes per spoke
# for an unchanged round and for a 1% round, upstream requests for the whole fleet.
#
# Usage: scripts/e2e/fleet.sh [SPOKES]   (default 1000; binaries from .build/release, else .build/debug)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
spokes=${1:-1000}
parallel=${PARALLEL:-4}
bin=$root/.build/release
[ -x "$bin/quoted" ] || bin=$root/.build/debug
[ -x "$bin/quoted" ] || { echo "fleet-e2e: build first (swift build -c release)" >&2; exit 1; }
for tool in nginx signify-openbsd python3 sqlite3 curl; do
    command -v "$tool" >/dev/null || { echo "fleet-e2e: $tool is missing (scripts/debian-packages.sh installs it)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/quoted-fleet.XXXXXX)
upstream_port=$((20000 + RANDOM % 10000))
nginx_port=$((upstream_port + 1))
pids=()
trap cleanup EXIT

# shellcheck source=scripts/e2e/host-lib.sh
source scripts/e2e/host-lib.sh

# --- The upstream, the hub, its key, its feed.
mkdir -p "$work/hub" "$work/nginx" "$work/spokes"
python3 scripts/bench/make-quote-list.py 10000 "$work/list.json" >/dev/null
python3 scripts/bench/fake-upstream.py --port "$upstream_port" --list "$work/list.json" --count "$work/upstream-count.json" &
pids+=($!)
signify-openbsd -G -n -p "$work/hub.pub" -s "$work/hub.sec"
signify-openbsd -G -n -p "$work/other.pub" -s "$work/other.sec"
cat > "$work/hub/quoted.conf" <<EOF
[store]
path = $work/hub/quotes.db
[publish]
dir = $work/feed
signing_key = $work/hub.sec
[source.custom.ten-thousand]
url = http://127.0.0.1:$upstream_port/list.json
[source.happiness]
url = http://127.0.0.1:$upstream_port/happiness/random-quote
[source.breakingbad]
url = http://127.0.0.1:$upstream_port/api
request_budget = 12
pause = 0s
[source.upbit]
url = http://127.0.0.1:$upstream_port/v1/market/all
EOF
wait_for_port "$upstream_port"  # a connection, not a request: the count stays the hub's
"$bin/quoted" sync --once --quiet --config "$work/hub/quoted.conf"
upstream_count() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["total"])' "$work/upstream-count.json"; }
after_hub=$(upstream_count)
check "the hub signs its manifest in signify's format" signify-openbsd -V -q -p "$work/hub.pub" -m "$work/feed/manifest.json"
check "no secret under the feed folder" bash -c "! grep -rq -e 'SECRET' -e \"\$(sed -n 2p '$work/hub.sec')\" '$work/feed'"

# --- nginx with the shipped server block, moved to a loopback port and the test's feed.
feed_nginx "$work" "$nginx_port" "log_format feed '\$status \$body_bytes_sent \$request_uri'; access_log $work/nginx/access.log feed;"
start_nginx() { nginx -p "$work/nginx" -c "$work/nginx/nginx.conf"; wait_for_port "$nginx_port"; }
stop_nginx() { nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -s stop 2>/dev/null; for _ in $(seq 50); do [ -f "$work/nginx/nginx.pid" ] || return 0; sleep 0.1; done; }
start_nginx
check "nginx: no listing, no dot files" bash -c "[ \$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$nginx_port/by-hash/) = 404 ] && [ \$(curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:$nginx_port/.lock) = 404 ]"
check "nginx: by-hash immutable, manifest no-cache, gzip twin" bash -c "
    file=\$(grep -o 'by-hash/[0-9a-f]*.json' '$work/feed/manifest.json' | head -1)
    curl -sI -H 'Accept-Encoding: gzip' http://127.0.0.1:$nginx_port/\$file | grep -qi 'cache-control: public, max-age=31536000, immutable' &&
    curl -sI -H 'Accept-Encoding: gzip' http://127.0.0.1:$nginx_port/\$file | grep -qi 'content-encoding: gzip' &&
    curl -sI http://127.0.0.1:$nginx_port/manifest.json | grep -qi 'cache-control: no-cache'"

# --- The spokes.
for i in $(seq "$spokes"); do
    mkdir -p "$work/spokes/$i"
    printf '[store]\npath = %s\n[fleet]\nhub = http://127.0.0.1:%s/\nhub_key = %s\n' \
        "$work/spokes/$i/quotes.db" "$nginx_port" "$work/hub.pub" > "$work/spokes/$i/quoted.conf"
done
round() {  # round NAME: every spoke syncs once; its --json summary and exit status kept
    local name=$1
    : > "$work/nginx/access.log"
    nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -s reopen 2>/dev/null || true
    local started; started=$(date +%s.%N)
    seq "$spokes" | xargs -P "$parallel" -I{} sh -c \
        "'$bin/quoted' sync --once --quiet --json --config '$work/spokes/{}/quoted.conf' > '$work/spokes/{}/$name.json' 2>'$work/spokes/{}/$name.err'; echo \$? > '$work/spokes/{}/$name.status'"
    local ended; ended=$(date +%s.%N)
    python3 - "$work" "$name" "$spokes" "$started" "$ended" <<'PY'
import json, sys
work, name, spokes, started, ended = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
changed = statuses = 0
codes = {}
for i in range(1, spokes + 1):
    code = open(f"{work}/spokes/{i}/{name}.status").read().strip()
    codes[code] = codes.get(code, 0) + 1
    try:
        summary = json.load(open(f"{work}/spokes/{i}/{name}.json"))
        changed += sum(s["changed"] for s in summary["sources"])
    except Exception:
        pass
requests, bytes_sent, by_status = 0, 0, {}
for line in open(f"{work}/nginx/access.log"):
    status, size, _ = line.split(" ", 2)
    requests += 1
    bytes_sent += int(size)
    by_status[status] = by_status.get(status, 0) + 1
seconds = ended - started
json.dump({"codes": codes, "changed": changed, "requests": requests, "bytes": bytes_sent, "by_status": by_status,
           "seconds": seconds}, open(f"{work}/round-{name}.json", "w"))
print(f"   round {name}: {spokes} spokes in {seconds:.1f} s ({spokes / seconds:.0f} spokes/s), exits {codes}, "
      f"nginx served {requests} requests {by_status}, {bytes_sent} body bytes ({bytes_sent / spokes:.0f} per spoke), "
      f"{changed} rows written ({changed / spokes:.1f} per spoke)")
PY
}
field() { python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); print(eval(sys.argv[2], {}, v))' "$work/round-$1.json" "$2"; }

round first
check "first round: every spoke exits 0" test "$(field first 'codes.get("0", 0)')" = "$spokes"
check "the upstream saw the hub's requests and not one more" test "$(upstream_count)" = "$after_hub"
answers() {  # answers STORE: what quotectl says of each source (exports are per source: the
            # order of rows across sources is the order each host happened to write them in)
    for source in custom.ten-thousand happiness breakingbad; do QUOTED_DB=$1 "$bin/quotectl" export --source "$source" --format json; done
    for command in markets characters deaths; do QUOTED_DB=$1 "$bin/quotectl" "$command" --json; done
}
exports_match() {  # every spoke answers exactly as the hub does, for every source
    local hub_sum; hub_sum=$(answers "$work/hub/quotes.db" | md5sum)
    local bad=0
    for i in $(seq "$spokes"); do
        local sum; sum=$(answers "$work/spokes/$i/quotes.db" | md5sum)
        [ "$sum" = "$hub_sum" ] || { bad=$((bad + 1)); echo "spoke $i differs"; }
    done
    [ "$bad" = 0 ]
}
check "every spoke's export (and markets, characters, deaths) equals the hub's" exports_match

round unchanged
check "unchanged round: one request per spoke" test "$(field unchanged 'requests')" = "$spokes"
check "unchanged round: each answered 304" test "$(field unchanged 'by_status.get("304", 0)')" = "$spokes"
check "unchanged round: 0 rows written" test "$(field unchanged 'changed')" = 0
check "unchanged round: every spoke exits 0" test "$(field unchanged 'codes.get("0", 0)')" = "$spokes"

# --- The hub changes 1% of its list; each spoke writes exactly those rows.
python3 scripts/bench/make-quote-list.py 10000 "$work/list.json" --changed-fraction 0.01 >/dev/null
hub_changed=$("$bin/quoted" sync --once --json --quiet --config "$work/hub/quoted.conf" --source custom.ten-thousand |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["sources"][0]["changed"])')
after_change=$(upstream_count)
round one-percent
check "1% round: each spoke writes exactly the hub's $hub_changed changed rows" test "$(field one-percent 'changed')" = "$((hub_changed * spokes))"
check "1% round: the upstream saw only the hub" test "$(upstream_count)" = "$after_change"
check "after the 1% round every spoke still equals the hub" exports_match

# --- The baseline: the same first sync from the upstreams, as a host without a hub does it
# (the fake upstream on loopback: no network time on either side), against one spoke's.
mkdir -p "$work/direct" "$work/fresh-spoke"
sed -e "s|$work/hub/quotes.db|$work/direct/quotes.db|" -e '/^\[publish\]/,/^signing_key/d' "$work/hub/quoted.conf" > "$work/direct/quoted.conf"
sed -e "s|$work/spokes/1/quotes.db|$work/fresh-spoke/quotes.db|" "$work/spokes/1/quoted.conf" > "$work/fresh-spoke/quoted.conf"
seconds() { local start end; start=$(date +%s%N); "$@" >/dev/null 2>&1 || true; end=$(date +%s%N); echo $(((end - start) / 1000000)); }
direct_ms=$(seconds "$bin/quoted" sync --once --quiet --config "$work/direct/quoted.conf" --source custom.ten-thousand --source upbit --source happiness)
feed_ms=$(seconds "$bin/quoted" sync --once --quiet --config "$work/fresh-spoke/quoted.conf")
unchanged_ms=$(for _ in 1 2 3 4 5; do seconds "$bin/quoted" sync --once --quiet --config "$work/fresh-spoke/quoted.conf"; done | sort -n | sed -n 3p)
start_ms=$(for _ in 1 2 3 4 5; do seconds "$bin/quoted" --version; done | sort -n | sed -n 3p)


# --- Faults: each leaves every spoke with every row, exit 75 and the reason in status.
snapshot() {  # every data row of every spoke (the content hashes the store keeps), as one digest
    for i in $(seq "$spokes"); do
        sqlite3 -readonly "$work/spokes/$i/quotes.db" "SELECT source, upstream_id, content_hash FROM quotes ORDER BY 1, 2;
            SELECT market, content_hash FROM markets ORDER BY 1; SELECT character_id, content_hash FROM characters ORDER BY 1;
            SELECT death_id, content_hash FROM deaths ORDER BY 1; SELECT day, quote_id FROM daily_quotes ORDER BY 1;"
    done | md5sum
}
before=$(snapshot)
fault() {  # fault NAME EXPECTED-REASON: a round that must fail everywhere and change nothing
    local name=$1 reason=$2
    round "$name"
    check "fault $name: every spoke exits 75" test "$(field "$name" 'codes.get("75", 0)')" = "$spokes"
    check "fault $name: every row kept" test "$(snapshot)" = "$before"
    check "fault $name: status says why ($reason)" bash -c "QUOTED_CONFIG='$work/spokes/1/quoted.conf' '$bin/quotectl' status | grep -q -- '$reason'"
}
manifest=$work/feed/manifest.json
# What spokes fetch: the manifest signed inline by the hub's key, one file (signify -e).
keynum=$(python3 -c 'import base64, sys; print(base64.b64decode(open(sys.argv[1]).read().split("\n")[1])[2:10].hex())' "$work/hub.pub")
signed=$work/feed/manifest.$keynum.signed
# nginx's ETag is the file's time in whole seconds and its size: two publishes within a second
# with manifests of one length must still give two ETags, or a spoke would be told 304.
etag() { curl -sI "http://127.0.0.1:$nginx_port/manifest.$keynum.signed" | tr -d '\r' | sed -n 's/^ETag: //Ip'; }
"$bin/quoted" publish --config "$work/hub/quoted.conf" 2>/dev/null
etag_before=$(etag)
"$bin/quoted" publish --config "$work/hub/quoted.conf" 2>/dev/null  # within the same second, as a rule
etag_after=$(etag)
check "two publishes in a second: the manifest's ETag changes ($etag_before -> $etag_after)" test "$etag_before" != "$etag_after"
round after-republish
check "a republished manifest is fetched again (one signed file), its unchanged files are not" test "$(field after-republish 'by_status.get("200", 0)')" = "$spokes"
check "a republished manifest with the same data writes no row" test "$(field after-republish 'changed')" = 0
# A new manifest the spokes have not seen (else they would be told 304): the hub publishes again.
"$bin/quoted" publish --config "$work/hub/quoted.conf" 2>/dev/null
cp "$manifest" "$work/manifest.next"; cp "$signed" "$work/signed.next"
restore() { cp "$work/manifest.next" "$manifest.tmp"; mv "$manifest.tmp" "$manifest"; cp "$work/signed.next" "$signed.tmp"; mv "$signed.tmp" "$signed"; }

stop_nginx
fault nginx-stopped "connection refused"
start_nginx

head -c 300 "$work/signed.next" > "$signed"
fault manifest-truncated "signature does not verify"

restore
# A by-hash file the spokes must fetch (its digest differs from what they applied): the hub's
# list changes once more and is published, then that file is damaged on the server.
python3 scripts/bench/make-quote-list.py 10000 "$work/list.json" --changed-fraction 0.02 --seed 7 >/dev/null
"$bin/quoted" sync --once --quiet --config "$work/hub/quoted.conf" --source custom.ten-thousand
cp "$manifest" "$work/manifest.next"; cp "$signed" "$work/signed.next"
file=$(python3 -c 'import json,sys; print([s["file"] for s in json.load(open(sys.argv[1]))["sources"] if s["name"]=="custom.ten-thousand"][0])' "$manifest")
printf 'X' | dd of="$work/feed/$file" bs=1 seek=10 conv=notrunc 2>/dev/null
rm -f "$work/feed/$file.gz"
round corrupt-list
check "fault by-hash-corrupted: every spoke exits 75" test "$(field corrupt-list 'codes.get("75", 0)')" = "$spokes"
check "fault by-hash-corrupted: every row kept" test "$(snapshot)" = "$before"
check "fault by-hash-corrupted: status says why" bash -c "QUOTED_CONFIG='$work/spokes/1/quoted.conf' '$bin/quotectl' status | grep -q -- 'does not match the manifest'"

signify-openbsd -S -e -s "$work/other.sec" -m "$manifest" -x "$signed"
fault wrong-signature "signature does not verify"
restore

python3 - "$manifest" <<'PY'
import json, sys
manifest = json.load(open(sys.argv[1]))
for source in manifest["sources"]:
    if source["name"] == "custom.ten-thousand":
        source["sha256"] = "0" * 64
        source["file"] = "by-hash/" + "0" * 64 + ".json"
manifest["serial"] += 1
open(sys.argv[1], "w").write(json.dumps(manifest))
PY
signify-openbsd -S -e -s "$work/hub.sec" -m "$manifest" -x "$signed"
fault missing-file "HTTP 404"
restore

# --- The figures.
echo "== figures ($spokes spokes, $parallel at a time, binaries from $bin)"
echo "   one host's first sync of the list, the markets and happiness: from the upstreams $direct_ms ms, from the feed $feed_ms ms (with Breaking Bad's bundle); an unchanged round alone: $unchanged_ms ms (median of 5), of which starting the process ($bin/quoted --version): $start_ms ms"
python3 - "$work" "$spokes" "$after_hub" "$(upstream_count)" <<'PY'
import json, sys
work, spokes, hub_requests, total = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
rounds = {name: json.load(open(f"{work}/round-{name}.json")) for name in ("first", "unchanged", "one-percent")}
first = rounds["first"]
print(f"   first sync from the feed: {spokes / first['seconds']:.0f} spokes/s ({first['seconds'] / spokes * 1000:.1f} ms per spoke, process included)")
print(f"   unchanged round: {spokes / rounds['unchanged']['seconds']:.0f} spokes/s, "
      f"{rounds['unchanged']['seconds'] / spokes * 1000:.1f} ms per spoke, {rounds['unchanged']['bytes'] / spokes:.0f} body bytes per spoke")
print(f"   1% round: {rounds['one-percent']['bytes'] / spokes:.0f} body bytes per spoke (gzip), {rounds['one-percent']['requests']} requests")
print(f"   nginx served {sum(r['requests'] for r in rounds.values())} requests over the three rounds")
print(f"   upstream requests for the whole fleet per interval: {hub_requests} (the hub's first sync), {total} in the whole run")
PY
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
