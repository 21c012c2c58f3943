# shellcheck shell=bash
# Sourced by the sync benchmarks: the configuration they sync with.

# list_config FILE URL [FORMAT]: custom.big alone, from URL (read as FORMAT, default json), with
# room for a big body; the other sources off, so that what is timed is the list.
list_config() {
    cat > "$1" <<CONF
[source.custom.big]
url = $2
${3:+format = $3}
max_bytes = 4G
timeout = 10m
[source.happiness]
enabled = false
[source.breakingbad]
enabled = false
[source.upbit]
enabled = false
CONF
}
