#!/usr/bin/env bash
# Records the English golden files from the binaries in BIN (a build of the commit before
# gettext came in, 4f4b4ee): for each line of cases.txt, NN.out holds the command, its exit
# status, its standard output and its standard error, normalised as the test normalises the
# current binaries' (the version and the manual's date as @VERSION@ and @DATE@, the home
# folder as @HOME@).
#
#   git worktree add /tmp/golden-src 4f4b4ee && (cd /tmp/golden-src && swift build)
#   Tests/Fixtures/english/record.sh /tmp/golden-src/.build/debug
set -euo pipefail
bin=$(cd "$1" && pwd)
cd "$(dirname "$0")"
rm -f ./*.out
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
version=$("$bin/quoted" --version | cut -d' ' -f2)
n=0
while read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    n=$((n + 1))
    read -ra words <<<"$line"
    set +e
    env -i HOME="$home" PATH=/usr/bin:/bin LANG=C.UTF-8 TZ=UTC "$bin/${words[0]}" "${words[@]:1}" \
        >"$home/stdout" 2>"$home/stderr" </dev/null
    status=$?
    set -e
    {
        printf '$ %s\nexit %d\n--- stdout\n' "$line" "$status"
        cat "$home/stdout"
        printf -- '--- stderr\n'
        cat "$home/stderr"
    } | sed -e "s|$home|@HOME@|g" -e "s|quoted $version\\b|quoted @VERSION@|g" \
            -e 's|^\(\.TH [^ ]* [0-9]*\) [0-9-]*|\1 @DATE@|' > "$(printf '%02d' "$n").out"
done < cases.txt
echo "recorded $n cases from $bin (quoted $version)"
