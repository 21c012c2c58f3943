# Sourced by the scripts that run inside the containers (scripts/e2e/*-inside.sh): `check`
# records each result in /out/log, and on exit the counts, the verdict in /out/status and the
# journal (of JOURNAL_UNIT, or everything) in /out/journal.log.
# shellcheck shell=bash
log=/out/log
passed=0
failed=0
exec 3>>"$log"
check() {  # check NAME COMMAND...: runs COMMAND, records ok/FAIL
    local name=$1; shift
    local output
    if output=$("$@" 2>&1); then
        echo "ok   - $name" >&3; passed=$((passed + 1))
    else
        echo "FAIL - $name" >&3; printf '       %s\n' "$output" | head -15 >&3; failed=$((failed + 1))
    fi
}
finish() {
    journalctl ${JOURNAL_UNIT:+-u "$JOURNAL_UNIT"} --no-pager -o short-monotonic -n 300 > /out/journal.log 2>&1
    echo "$passed passed, $failed failed" >&3
    [ "$failed" = 0 ] && echo 0 > /out/status || echo 1 > /out/status
    exit 0
}
trap finish EXIT
