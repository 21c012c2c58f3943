#!/usr/bin/env bash
# Brings the catalogs up to date with the sources: po/quoted.pot from scripts/po/extract.py,
# then each po/LL.po merged with it (msgmerge: new messages come in untranslated, changed ones
# fuzzy, gone ones commented out). Translations written elsewhere (po/parts/*.po) are taken in
# first. Needs gettext (msgmerge, msgcat).
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 scripts/po/extract.py
for catalog in po/*.po; do
    shopt -s nullglob
    parts=(po/parts/*.po)
    if [ ${#parts[@]} -gt 0 ]; then
        # The parts' translations win over older ones; the catalog keeps its own header.
        cp "$catalog" "$catalog.before"
        msgcat --use-first -o "$catalog.new" "${parts[@]}" "$catalog"
        mv "$catalog.new" "$catalog"
        python3 scripts/po/header.py "$catalog" "$catalog.before"
        rm -f "$catalog.before"
    fi
    msgmerge --quiet --update --backup=none --sort-by-file "$catalog" po/quoted.pot
    msgattrib --no-obsolete -o "$catalog" "$catalog"
    printf '%s: ' "$catalog"
    msgfmt --check --statistics -o /dev/null "$catalog"
    # Shown, not fatal: a name a program matches that a translation lost (CI refuses it).
    python3 scripts/po/literals.py "$catalog" || true
done
