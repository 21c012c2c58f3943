# Shared by scripts/e2e/systemd.sh and scripts/e2e/package.sh: booting systemd over this
# machine's root with systemd-nspawn, running a script inside as part of the boot
# (systemd.run), and reporting what it wrote to OUT/log. Sourced, not run.
# shellcheck shell=bash

# skip NAME REASON: an end-to-end that cannot run here says so and exits 0 — except under CI
# (CI=true), where a check that did not run is a failure, not a pass.
skip() {
    if [ "${CI:-}" = true ]; then
        echo "FAIL $1: cannot run, and CI=true: $2"
        exit 1
    fi
    echo "SKIP $1: $2"
    exit 0
}

# boot_and_check NAME OUT INSIDE_SCRIPT NSPAWN_OPTIONS...
#   Copies INSIDE_SCRIPT to OUT/inside.sh, boots, prints OUT/log. Returns 0 when every check
#   passed, 1 when any failed, and skips (see skip) when nspawn cannot run here.
boot_and_check() {
    local name=$1 out=$2 inside=$3
    shift 3
    cp "$inside" "$out/inside.sh"
    chmod 0755 "$out/inside.sh"
    cp scripts/e2e/checks.sh "$out/e2e-checks.sh"
    local nspawn
    set +e
    timeout 300 systemd-nspawn -D / --register=no --keep-unit --private-network --bind="$out:/out" "$@" \
        -b systemd.firstboot=off systemd.mask=systemd-networkd-wait-online.service 'systemd.run="/out/inside.sh"' \
        systemd.run_success_action=poweroff systemd.run_failure_action=poweroff > "$out/console.log" 2>&1
    nspawn=$?
    set -e
    if [ ! -f "$out/log" ]; then
        if grep -qiE "operation not permitted|failed to (create|mount)|not supported" "$out/console.log"; then
            skip "$name" "systemd-nspawn cannot run here: $(grep -iE "operation not permitted|failed|not supported" "$out/console.log" | head -3 | tr '\n' ' ')"
        fi
        echo "FAIL $name: the container produced no results (nspawn exit $nspawn)"
        tail -30 "$out/console.log"
        return 1
    fi
    cat "$out/log"
    if [ "$(cat "$out/status" 2>/dev/null)" != 0 ]; then
        echo "--- journal inside the container:"
        tail -60 "$out/journal.log" 2>/dev/null || true
        return 1
    fi
}
