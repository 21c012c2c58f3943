# shellcheck shell=sh
# /etc/profile.d/quoted.sh — a quote at the first interactive login shell of the day (from the
# quoted package's examples: copy it to /etc/profile.d/quoted.sh). It reads an existing store
# only: no network, no store created, at most 2 s even when the store is locked (a few
# milliseconds otherwise), each quote shown once before any repeats, nothing more once this
# snippet greeted this user today (--once-per day; boot or session for other rhythms: a status
# bar's quotes do not count), and the login shell's exit status left as it was.
case $- in
    *i*)
        if command -v quotectl >/dev/null 2>&1; then
            if command -v timeout >/dev/null 2>&1; then
                timeout 2 quotectl --no-create random --short --unseen --once-per day 2>/dev/null
            else
                quotectl --no-create random --short --unseen --once-per day 2>/dev/null
            fi
        fi
        ;;
esac
true
