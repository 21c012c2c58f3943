# /etc/profile.d/quoted.sh — a quote at each interactive login shell (from the quoted package's
# examples: copy it to /etc/profile.d/quoted.sh). It reads the local store only: no network, no
# delay worth noticing (a few milliseconds), and each quote is shown once before any repeats.
case $- in
    *i*) command -v quotectl >/dev/null 2>&1 && quotectl random --short --unseen 2>/dev/null ;;
esac
