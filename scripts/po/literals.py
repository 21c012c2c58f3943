#!/usr/bin/env python3
"""What a program matches stays literal in every translation: a name an English message gives for
something typed or read by a program (an option, a configuration key or [section], a CSV column, a
JSON member, a template's {field}, a format or source name, a command, an environment variable, a
path) must be in its translation as the English writes it. A Korean manual that names the column
`본문` where the importer wants `text` sends its reader to a refused file.

  literals.py                 checks every po/*.po
  literals.py FILE.po ...     checks those

Exits 1 naming each translation that lost one, as `FILE:LINE: 'NAME' is not in the translation
of "…"`. Untranslated and fuzzy messages are not checked (msgfmt --statistics counts them).
"""
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# Words that are names wherever they appear in lower case: formats, sources, programs.
NAMES = ["json", "csv", "rss", "atom", "fortune", "strfile", "auto", "tmux", "waybar", "i3blocks", "polybar",
         "prometheus", "builtin", "breakingbad", "upbit", "quotectl", "systemctl", "libcurl", "libdispatch",
         "notify-send", "node_exporter"]

# Words that are names when the English lists them ("id, text, author, category", "line or
# paragraph"): alone, most of them are also plain English (a quote's text, the weather).
LISTED = set(NAMES) | {
    "id", "text", "quote", "author", "category", "source", "lang", "production", "episode",
    "line", "paragraph", "true", "false", "metric", "imperial", "standard", "bash", "zsh", "fish",
    "sources", "lists", "characters", "productions", "categories", "happiness", "weather", "custom",
    "store", "daemon", "publish", "fleet", "metrics", "check", "error", "warning", "info", "debug",
    "kr", "en", "zh_cn", "always", "never", "fresh", "stale", "failing", "ok", "unchanged", "failed",
}

# The configuration's keys (QuoteConfig/ConfigKeys.swift), names where the English puts them
# beside their section ("[metrics] textfile") or their value ("url in [source.custom.a]").
KEYS = ("allow_http|allow_shrink|api_key|api_key_file|archive|author_pattern|ca_file|critical_after|dir|enabled|"
        "fields|format|hub|hub_key|interval|items|known_streak|lang|lat|log_level|lon|max_bytes|name|next_keys|path|"
        "pause|productions|request_budget|signing_key|socket|split|stale_after_intervals|textfile|timeout|units|url|"
        "valid_for")

SUBCOMMANDS = ("random|today|search|status|sync|import|export|like|liked|hide|unhide|next|forget|config|check|"
               "characters|deaths|markets|weather|completion|manual|run|reload|publish|metrics")

# Each pattern's first group (or whole match) is a name that must appear in the translation.
PATTERNS = [
    re.compile(r"`([^`]+)`"),                                                    # `quotectl config check`
    re.compile(r"(?<![\w-])(--[a-z][a-z0-9]*(?:-[a-z0-9]+)*)"),                  # --stale-after-intervals
    re.compile(r"(?<![\w-])(-[a-zA-Z])(?![\w-])"),                               # -n, -e
    re.compile(r"(\[(?:store|daemon|publish|fleet|metrics|check|source(?:\.[\w.%$]+)?)\])"),  # [source.NAME]
    re.compile(r"(\{[a-z_]+\})"),                                                # {text}
    re.compile(r"(\$[A-Z][A-Z0-9_]*)"),                                          # $XDG_STATE_HOME, $PAGER
    re.compile(r"(?<![\w$])([A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+)"),          # api_key_file, QUOTED_DB
    re.compile(r"(?<![\w$-])([a-z][a-z0-9_]*) = (?!value\b)"),                   # allow_http = true
    re.compile(r"\] (%s)(?![\w-])" % KEYS),                                      # [metrics] textfile
    re.compile(r"(?<![\w$.-])(%s)(?= in \[| does not apply)" % KEYS),            # url in [source.x]
    re.compile(r"(?<![\w-])= (true|false)\b"),
    re.compile(r"(?<![\w-])([A-Za-z][A-Za-z0-9_]*=[A-Za-z0-9]*)"),               # interval=persist, ExecReload=
    re.compile(r"(?<![\w.~$/])((?:~|\$[A-Z_]+)?/[A-Za-z.*][^\s,;()'\"]*)"),     # /var/lib/quoted/quotes.db
    re.compile(r"(?<![\w.-])([\w-]+(?:\.[\w-]+)*\.(?:db|conf|sock|json|sig|signed|prom|pub|sec|timer|service))\b"),
    re.compile(r"(?<![\w.-])([a-z][\w.-]*\([1-8]\))"),                           # quoted.conf(5)
    re.compile(r"(?<![\w.-])(custom\.[A-Za-z]+)"),                               # custom.NAME
    re.compile(r"(?<![\w.-])((?:quotectl|quoted) (?:%s))(?![\w-])" % SUBCOMMANDS),
    re.compile(r"(?<![\w.:/-])(%s)(?![\w.:/-])" % "|".join(re.escape(n) for n in NAMES)),
]

WORD = r"[a-z][a-z0-9_.]*"
SEPARATOR = r"(?:, or |, and |, | or | and )"
LIST = re.compile(r"(?<![\w.:/-])(%s(?:%s%s)+)(?![\w:/-])" % (WORD, SEPARATOR, WORD))


def listed_names(english):
    """The words of each list of names: three or more, or two joined by "or"."""
    names = []
    for match in LIST.finditer(english):
        words = re.split(SEPARATOR, match.group(1))
        separators = re.findall(SEPARATOR, match.group(1))
        # The longest runs of listed words inside the match ("its source, upstream id" is none).
        run, joins = [], []
        for k, word in enumerate(words + [None]):
            if word is not None and word.rstrip(".") in LISTED:
                if run:
                    joins.append(separators[k - 1])
                run.append(word.rstrip("."))
                continue
            if len(run) >= 3 or (len(run) == 2 and "or" in joins[0]):
                names.extend(run)
            run, joins = [], []
    return names


def names_in(english):
    found = []
    for pattern in PATTERNS:
        for match in pattern.finditer(english):
            name = match.group(1).rstrip(".:")
            if name and name not in found:
                found.append(name)
    for name in listed_names(english):
        if name not in found:
            found.append(name)
    return found


def present(name, translation):
    """Whether `name` is in `translation`, not as a part of a longer Latin name."""
    for match in re.finditer(re.escape(name), translation):
        before = translation[match.start() - 1] if match.start() else " "
        after = translation[match.end()] if match.end() < len(translation) else " "
        inner = name[0].isalnum() or name[0] == "-"
        if inner and (re.match(r"[A-Za-z0-9_-]", before) or (name[-1].isalnum() and re.match(r"[A-Za-z0-9_]", after))):
            continue
        return True
    return False


def unquote(text):
    body = text.strip()[1:-1]
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def entries(path):
    """(line of msgid, msgid, [msgstr...], fuzzy) for each message of a catalog."""
    result, current, field, fuzzy, line_of = [], None, None, False, 0
    for number, line in enumerate(open(path, encoding="utf-8"), start=1):
        line = line.rstrip("\n")
        if line.startswith("#~"):
            continue
        if not line.strip():
            if current:
                result.append(current)
            current, field, fuzzy = None, None, False
            continue
        if line.startswith("#"):
            fuzzy = fuzzy or (line.startswith("#,") and "fuzzy" in line)
            continue
        keyword = re.match(r"(msgid_plural|msgid|msgstr(?:\[\d+\])?|msgctxt)\s+(\".*\")$", line)
        if keyword:
            if current is None:
                current = {"line": number, "msgid": "", "msgstr": [], "fuzzy": fuzzy}
            field = keyword.group(1)
            if field.startswith("msgstr"):
                current["msgstr"].append("")
            if field == "msgid":
                current["line"] = number
            text = unquote(keyword.group(2))
        else:
            text = unquote(line)
        if field == "msgid":
            current["msgid"] += text
        elif field and field.startswith("msgstr"):
            current["msgstr"][-1] += text
    if current:
        result.append(current)
    return result


def check(path):
    problems = []
    for entry in entries(path):
        if not entry["msgid"] or entry["fuzzy"] or not any(entry["msgstr"]):
            continue
        for name in names_in(entry["msgid"]):
            for translation in entry["msgstr"]:
                if not present(name, translation):
                    shown = entry["msgid"].replace("\n", " ")
                    shown = shown if len(shown) <= 60 else shown[:59] + "…"
                    problems.append("%s:%d: '%s' is not in the translation of \"%s\"" % (path, entry["line"], name, shown))
                    break
    return problems


def main():
    paths = sys.argv[1:] or sorted(glob.glob(os.path.join(ROOT, "po", "*.po")))
    problems = []
    for path in paths:
        if not os.path.isfile(path):
            print("literals.py: no catalog %s" % path, file=sys.stderr)
            return 66
        problems += check(path)
    for problem in problems:
        print(problem)
    if problems:
        print("%d names translated that a program matches: keep them as the English writes them (docs/translating.md)" % len(problems))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
