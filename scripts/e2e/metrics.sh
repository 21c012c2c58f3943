#!/usr/bin/env bash
# Seeing a fleet, with real parts: a hub and three spokes, each a `quoted run` daemon writing its
# metrics textfile ([metrics] textfile) into its own folder; Debian's node_exporter, one per host
# as in a real fleet, serving each folder with its textfile collector; Debian's Prometheus
# scraping all four every second and evaluating contrib/prometheus/quoted.rules.yml; real nginx
# serving the hub's feed. One source of the hub then fails (its upstream stopped), and
# Prometheus' HTTP API must say so: its quoted_source_up is 0, its consecutive failures grow
# with each sync, the rules' alerts fire for it and for nothing else, and every spoke's applied
# serial equals the hub's after a sync. `quotectl check` is asked in each state (OK, WARNING,
# CRITICAL, UNKNOWN) for its exit code.
#
# One node_exporter per host rather than one reading every host's file: node_exporter adds no
# label per file, so four files with the same series (source="upbit" on every host) would
# collide, and the host a sample came from is what Prometheus' `instance` label says in a fleet.
#
# The rules run as shipped except for their waits: every `for:` becomes 1s and "failing for an
# hour" becomes "for 5 seconds" (a sed of the contrib file into the run's folder), so an alert
# can fire within the run; promtool's unit tests cover the real durations.
#
# Usage: scripts/e2e/metrics.sh   (binaries from .build/release, else .build/debug; about 90 s, most of it the minute a failure must last to be CRITICAL)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
bin=$root/.build/release
[ -x "$bin/quoted" ] || bin=$root/.build/debug
[ -x "$bin/quoted" ] || { echo "metrics-e2e: build first (swift build -c release)" >&2; exit 1; }
for tool in prometheus promtool prometheus-node-exporter nginx signify-openbsd python3 curl; do
    command -v "$tool" >/dev/null || { echo "metrics-e2e: $tool is missing (scripts/debian-packages.sh's ci_packages)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/quoted-metrics.XXXXXX)
pids=()
# shellcheck source=scripts/e2e/host-lib.sh
source scripts/e2e/host-lib.sh
# Every process this run started is stopped and waited for (a bounded wait, then SIGKILL) before
# host-lib's cleanup removes the folder they write into.
stop_everything() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    cleanup
}
trap stop_everything EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
# eventually SECONDS COMMAND...: COMMAND until it succeeds, at most SECONDS.
eventually() {
    local deadline=$((SECONDS + $1)); shift
    until "$@" >/dev/null 2>&1; do [ $SECONDS -lt $deadline ] || return 1; sleep 0.3; done
}
hosts=(hub spoke1 spoke2 spoke3)
spokes=(spoke1 spoke2 spoke3)
# on HOST COMMAND...: COMMAND as that host's administrator runs it (its configuration, its socket).
on() { local host=$1; shift; XDG_RUNTIME_DIR=$work/$host/run HOME=$work/$host QUOTED_CONFIG=$work/$host/quoted.conf "$@"; }
feed=fleet.e2e.example

# --- The upstreams (one of them stopped later), the hub's key, nginx for its feed.
upstream_port=$(free_port)
flaky_port=$(free_port)
nginx_port=$(free_port)
python3 scripts/bench/make-quote-list.py 1000 "$work/list.json" >/dev/null
python3 scripts/bench/fake-upstream.py --port "$upstream_port" --list "$work/list.json" &
pids+=($!)
python3 scripts/bench/fake-upstream.py --port "$flaky_port" &
flaky_pid=$!
pids+=("$flaky_pid")
signify-openbsd -G -n -p "$work/hub.pub" -s "$work/hub.sec"
mkdir -p "$work/feed"
feed_nginx "$work" "$nginx_port"
wait_for_port "$upstream_port"
wait_for_port "$flaky_port"
nginx -p "$work/nginx" -c "$work/nginx/nginx.conf"
wait_for_port "$nginx_port"

# --- The four hosts: configurations and daemons.
for host in "${hosts[@]}"; do
    mkdir -p "$work/$host/run" "$work/$host/textfile"
    printf '[store]\npath = %s\n[metrics]\ntextfile = %s\n' "$work/$host/quotes.db" "$work/$host/textfile/quoted.prom" > "$work/$host/quoted.conf"
done
cat >> "$work/hub/quoted.conf" <<EOF
[publish]
name = $feed
dir = $work/feed
signing_key = $work/hub.sec
[source.custom.list]
url = http://127.0.0.1:$upstream_port/list.json
[source.custom.flaky]
url = http://127.0.0.1:$flaky_port/list.json
[source.happiness]
url = http://127.0.0.1:$upstream_port/happiness/random-quote
[source.breakingbad]
url = http://127.0.0.1:$upstream_port/api
request_budget = 12
pause = 0s
[source.upbit]
url = http://127.0.0.1:$upstream_port/v1/market/all
EOF
for spoke in "${spokes[@]}"; do
    printf '[fleet]\nhub = http://127.0.0.1:%s/\nhub_key = %s\n' "$nginx_port" "$work/hub.pub" >> "$work/$spoke/quoted.conf"
done
start_daemon() {  # start_daemon HOST: its daemon, until its first round is done and its textfile written
    # Started directly, not through `on`: a function in the background is a subshell, and $! its
    # pid, which a kill would stop without stopping the daemon.
    XDG_RUNTIME_DIR=$work/$1/run HOME=$work/$1 "$bin/quoted" run --config "$work/$1/quoted.conf" > "$work/$1/daemon.log" 2>&1 &
    pids+=($!)
    if ! eventually 60 grep -q " started: " "$work/$1/daemon.log" || ! eventually 60 test -s "$work/$1/textfile/quoted.prom"; then
        echo "metrics-e2e: the daemon of $1 did not start or write its textfile: $(tail -3 "$work/$1/daemon.log")" >&2
        exit 1
    fi
}
start_daemon hub
# The spokes start once the hub has published all five sources (it publishes after each sync
# that changes one; a spoke that came earlier would find some "not in the hub's feed").
published() { python3 -c 'import json, sys; sys.exit(len(json.load(open(sys.argv[1]))["sources"]) != 5)' "$work/feed/manifest.json"; }
eventually 60 published || { echo "metrics-e2e: the hub did not publish its five sources" >&2; exit 1; }
for spoke in "${spokes[@]}"; do start_daemon "$spoke"; done

# --- node_exporter per host, Prometheus over them all with the rules (their waits shortened).
declare -A exporter_port
targets=""
for host in "${hosts[@]}"; do
    exporter_port[$host]=$(free_port)
    prometheus-node-exporter --web.listen-address="127.0.0.1:${exporter_port[$host]}" --collector.disable-defaults \
        --collector.textfile --collector.textfile.directory="$work/$host/textfile" > "$work/$host/node-exporter.log" 2>&1 &
    pids+=($!)
    targets+="      - targets: ['127.0.0.1:${exporter_port[$host]}']
        labels: {instance: $host}
"
done
mkdir -p "$work/prometheus"
sed -e 's/^\( *for:\) .*/\1 1s/' -e 's/ > 3600$/ > 5/' contrib/prometheus/quoted.rules.yml > "$work/prometheus/quoted.rules.yml"
cat > "$work/prometheus/prometheus.yml" <<EOF
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $work/prometheus/quoted.rules.yml
scrape_configs:
  - job_name: quoted-fleet
    static_configs:
$targets
EOF
prometheus_port=$(free_port)
prometheus --config.file="$work/prometheus/prometheus.yml" --storage.tsdb.path="$work/prometheus/data" \
    --web.listen-address="127.0.0.1:$prometheus_port" > "$work/prometheus/log" 2>&1 &
pids+=($!)
api=http://127.0.0.1:$prometheus_port/api/v1

# query PROMQL: one line per sample, "LABEL=VALUE,... VALUE" (labels sorted, job left out).
query() {
    curl -sf --max-time 5 --get --data-urlencode "query=$1" "$api/query" | python3 -c 'import json, sys
for sample in json.load(sys.stdin)["data"]["result"]:
    labels = ",".join(f"{k}={v}" for k, v in sorted(sample["metric"].items()) if k != "job")
    print(labels, sample["value"][1])'
}
value() { query "$1" | head -1 | awk '{print $NF}'; }   # value PROMQL: the first sample's value
is() { [ "$(value "$1")" = "$2" ]; }                      # is PROMQL VALUE
# firing: the alerts firing now, one line each: "ALERTNAME instance=... source=... feed=..."
firing() {
    curl -sf --max-time 5 "$api/alerts" | python3 -c 'import json, sys
for alert in json.load(sys.stdin)["data"]["alerts"]:
    if alert["state"] == "firing":
        labels = alert["labels"]
        print(labels["alertname"], " ".join(f"{k}={labels[k]}" for k in ("instance", "source", "feed") if k in labels))'
}
fires() { firing | grep -qx -- "$1"; }  # fires "ALERTNAME instance=... ...": that alert is firing

# The checks' compound conditions, each a function so `check` runs it in this shell.
copy_shortened() {
    promtool check rules "$work/prometheus/quoted.rules.yml" &&
        grep -q ' > 5$' "$work/prometheus/quoted.rules.yml" && ! grep -Eq 'for: [0-9]+[mh]' "$work/prometheus/quoted.rules.yml"
}
metrics_clean() {  # metrics_clean HOST: promtool check metrics prints nothing for its textfile
    local out; out=$(promtool check metrics < "$work/$1/textfile/quoted.prom" 2>&1) || { echo "$out"; return 1; }
    [ -z "$out" ] || { echo "$out"; return 1; }
}
none() { local out; out=$("$@"); [ -z "$out" ] || { echo "$out"; return 1; }; }  # none COMMAND: it prints nothing
check_exit() {  # check_exit EXPECTED-EXIT EXPECTED-WORD COMMAND...: quotectl check's exit and verdict
    local expected=$1 word=$2; shift 2
    local out status=0
    out=$("$@" 2>"$work/check.err") || status=$?   # what Nagios reads: the standard output
    echo "$out (exit $status)"
    [ "$status" = "$expected" ] && [[ $out == "QUOTED $word - "* ]]
}
same_serial() {  # every spoke applied the hub's serial, and the recording rule counts none behind
    local hub; hub=$(value "quoted_hub_feed_serial{feed=\"$feed\"}")
    [ -n "$hub" ] || return 1
    for spoke in "${spokes[@]}"; do is "quoted_spoke_feed_applied_serial{instance=\"$spoke\",feed=\"$feed\"}" "$hub" || return 1; done
    is "feed:quoted_spokes_behind_hub:count{feed=\"$feed\"}" 0
}
above() { local now; now=$(value "$1"); [ -n "$now" ] && [ "${now%.*}" -gt "$2" ]; }  # above PROMQL N
only_the_failing_source_alerts() { ! firing | grep -v ' instance=hub source=custom.flaky$'; }

check "promtool: the shipped rules are valid" promtool check rules contrib/prometheus/quoted.rules.yml
check "promtool: the rules' unit tests pass" bash -c "cd contrib/prometheus && promtool test rules quoted.rules.test.yml"
check "promtool: the run's copy (waits shortened) is valid and shortened" copy_shortened
for host in "${hosts[@]}"; do
    check "promtool check metrics: $host's textfile has nothing to fix" metrics_clean "$host"
done

# --- Every host scraped; all healthy; no alert; quotectl check says OK.
check "Prometheus scrapes the four node_exporters" eventually 60 is 'count(up{job="quoted-fleet"} == 1)' 4
check "every host's quoted metrics reach Prometheus (quoted_build_info on 4 instances)" eventually 30 is 'count(quoted_build_info == 1)' 4
check "every source of the hub is up (5)" eventually 30 is 'count(quoted_source_up{instance="hub"} == 1)' 5
for spoke in "${spokes[@]}"; do
    # All five the hub publishes: its two custom lists too, which no spoke's configuration names.
    check "$spoke: its 5 sources are up, labelled with the feed" eventually 30 is "count(quoted_source_up{instance=\"$spoke\",feed=\"$feed\"} == 1)" 5
done
check "no source is down anywhere" none query 'quoted_source_up == 0'
sleep 3  # three evaluations of the rules: an alert wrongly due would be firing by now (its for: is 1s)
check "no alert fires while the fleet is healthy" none firing
for host in "${hosts[@]}"; do
    check "quotectl check on $host: OK, exit 0" check_exit 0 OK on "$host" "$bin/quotectl" check
done

# --- One source of the hub fails: its upstream is stopped.
kill "$flaky_pid"
flaky() { on hub "$bin/quotectl" sync --now --source custom.flaky > /dev/null 2>&1 || true; }
flaky
check "the failing source's quoted_source_up is 0" eventually 30 is 'quoted_source_up{instance="hub",source="custom.flaky"}' 0
failures_then=$(value 'quoted_source_consecutive_failures{instance="hub",source="custom.flaky"}')
flaky
check "its consecutive failures grow with the next sync (were ${failures_then:-none})" \
    eventually 30 above 'quoted_source_consecutive_failures{instance="hub",source="custom.flaky"}' "${failures_then:-0}"
check "it has a failing-since time, and no other source has" is 'count(quoted_source_failing_since_timestamp_seconds{instance="hub",source="custom.flaky"}) == count(quoted_source_failing_since_timestamp_seconds)' 1
check "syncs_total counts its failed syncs" eventually 30 above 'quoted_source_syncs_total{instance="hub",source="custom.flaky",result="failed"}' 1
check "alert QuotedSourceSyncFailed fires for it" eventually 30 fires "QuotedSourceSyncFailed instance=hub source=custom.flaky"
check "alert QuotedSourceFailing fires for it once it has failed long enough" eventually 30 fires "QuotedSourceFailing instance=hub source=custom.flaky"
check "no alert fires for anything else" only_the_failing_source_alerts
check "the spokes are untouched: their 15 sources up" is 'count(quoted_source_up{instance=~"spoke."} == 1)' 15

# --- The serials: every spoke at the hub's; a publish puts all three behind; a sync catches up.
check "every spoke's applied serial equals the hub's (and the recording rule counts 0 behind)" eventually 30 same_serial
serial_before=$(value "quoted_hub_feed_serial{feed=\"$feed\"}")
python3 scripts/bench/make-quote-list.py 1000 "$work/list.json" --changed-fraction 0.05 >/dev/null
on hub "$bin/quotectl" sync --now --source custom.list > /dev/null 2>&1
check "the hub publishes a higher serial after its list changed (was $serial_before)" \
    eventually 30 above "quoted_hub_feed_serial{feed=\"$feed\"}" "${serial_before%.*}"
# The spokes' own schedules (an hour and more) cannot catch up before this is read: only the
# `sync --now` below does.
check "the recording rule counts the three spokes behind the hub" eventually 30 is "feed:quoted_spokes_behind_hub:count{feed=\"$feed\"}" 3
for spoke in "${spokes[@]}"; do on "$spoke" "$bin/quotectl" sync --now > /dev/null 2>&1 || true; done
check "after a sync every spoke's applied serial equals the hub's new one" eventually 30 same_serial

# --- quotectl check in each state.
check "quotectl check on the hub with a failed source: WARNING, exit 1" check_exit 1 WARNING on hub "$bin/quotectl" check
# CRITICAL: failing for longer than --critical-after (at least a minute; the source has been
# failing since the section above, so this waits out the rest of that minute).
check "quotectl check on the hub, the failure over a minute old, --critical-after 1m: CRITICAL, exit 2" \
    eventually 90 check_exit 2 CRITICAL on hub "$bin/quotectl" check --critical-after 1m
check "... while the default hour still says WARNING, exit 1" check_exit 1 WARNING on hub "$bin/quotectl" check
mkdir -p "$work/none"
check "quotectl check with no store: UNKNOWN, exit 3" check_exit 3 UNKNOWN on hub "$bin/quotectl" --db "$work/none/quotes.db" check
check "... and it made no store" test -z "$(ls -A "$work/none")"
printf 'not a database' > "$work/garbage.db"
check "quotectl check on a file that is no store: UNKNOWN, exit 3" check_exit 3 UNKNOWN on hub "$bin/quotectl" --db "$work/garbage.db" check
check "quotectl check with a bad argument: UNKNOWN, exit 3" check_exit 3 UNKNOWN on hub "$bin/quotectl" check --no-such-option

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
