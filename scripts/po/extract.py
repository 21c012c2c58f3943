#!/usr/bin/env python3
"""The message extractor: reads the marked English out of Sources/**/*.swift into po/quoted.pot.

xgettext has no Swift parser, and its C parser misreads Swift's interpolation and multi-line
literals, so this reads Swift's string literals itself. What it takes, as the code writes it:

  tr("cannot read \\(path): \\(reason)")      a message; each \\(value) becomes %1$s, %2$s...
  tr("first half " + "second half")          one message over several literals
  trn(count, "\\(count) quote", "\\(count) quotes")   a message with a plural
  help: "...", overview: "..."              a spec's Message (also help: { "... \\($0)" }), shown by .text
  declared("...")                            any other English kept for later (tr(declared:))

A `// TRANSLATORS: ...` comment on the lines just above reaches the translator (#.).

  extract.py            writes po/quoted.pot
  extract.py --check    exits 1 when po/quoted.pot is not what the sources give, or when a
                        user-visible English literal does not go through the catalog (each
                        named file:line). A literal that must stay English says why on its
                        line or the line above: `// English on purpose: <why>`.
  --root DIR            reads DIR/Sources and DIR/po instead of this checkout's (the tests
                        check a copy with a planted mistake, to see the check fail).
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = os.path.join(ROOT, "Sources")
POT = os.path.join(ROOT, "po", "quoted.pot")

# Build tools, and modules whose every line is for machines or for the journal: administrators
# grep the journal, monitoring parses plugin output, upstream text is never translated.
ENGLISH_BY_DESIGN = {
    "migration-embedder/": "a build tool",
    "catalog-compiler/": "a build tool",
    "QuoteSystem/": "below the catalog: system errors, named by errno",
    "QuoteDaemon/": "the daemon's lines go to the journal (English, as systemd's)",
    "QuoteSync/": "sync results are stored in sync_log and logged to the journal",
    "QuoteFeed/": "the hub's feed and its log lines",
    "QuoteScheduling/": "the daemon's scheduling notes, stored and logged",
    "QuoteHealth/": "monitoring output: Nagios plugin lines and Prometheus text",
}

LABELS = ("help", "overview")
OPT_OUT = "English on purpose:"


class Literal:
    def __init__(self, start, end, line, pieces):
        self.start, self.end, self.line = start, end, line
        self.pieces = pieces  # list of str (literal text) and None (an interpolated value)

    @property
    def has_values(self):
        return any(p is None for p in self.pieces)

    def english(self):
        return "".join(p for p in self.pieces if p is not None)


def decode_escape(text, i):
    """The character of the escape at text[i] (just after the backslash) and the index after it."""
    c = text[i]
    simple = {"n": "\n", "t": "\t", "r": "\r", "0": "\0", "\\": "\\", '"': '"', "'": "'"}
    if c in simple:
        return simple[c], i + 1
    if c == "u" and text[i + 1] == "{":
        close = text.index("}", i)
        return chr(int(text[i + 2:close], 16)), close + 1
    raise ValueError("unknown escape \\" + c)


def skip_interpolation(text, i):
    """Index just past the ')' closing the interpolation whose '(' is at text[i]."""
    depth = 0
    while i < len(text):
        c = text[i]
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == '"':
            lit = read_literal(text, i, 0)
            i = lit.end
            continue
        i += 1
    raise ValueError("unterminated interpolation")


def read_literal(text, start, line):
    """The string literal starting at text[start] (a '"' or the '#' of a raw string)."""
    hashes = 0
    i = start
    while text[i] == "#":
        hashes += 1
        i += 1
    multiline = text.startswith('"""', i)
    i += 3 if multiline else 1
    close = ('"""' if multiline else '"') + "#" * hashes
    escape = "\\" + "#" * hashes
    pieces, current = [], []
    while True:
        if text.startswith(close, i):
            i += len(close)
            break
        if text.startswith(escape, i):
            j = i + len(escape)
            if text[j] == "(":
                pieces.append("".join(current))
                current = []
                pieces.append(None)
                i = skip_interpolation(text, j)
                continue
            if multiline and text[j] == "\n":
                current.append("\\\n")  # a line continuation, resolved with the indentation
                i = j + 1
                continue
            ch, i = decode_escape(text, j)
            current.append(ch)
            continue
        if not multiline and text[i] == "\n":
            raise ValueError("newline in a string literal")
        current.append(text[i])
        i += 1
    pieces.append("".join(current))
    if multiline:
        pieces = dedent(pieces)
    pieces = [p for p in pieces if p != ""]
    return Literal(start, i, line, pieces)


def dedent(pieces):
    """A multi-line literal's text: the first and last lines dropped, the closing line's
    indentation removed from every line, line continuations joined."""
    marker = "\x00"
    joined = "".join(marker if p is None else p for p in pieces)
    lines = joined.split("\n")
    indent = lines[-1]
    body = lines[1:-1]
    out = []
    for line in body:
        out.append(line[len(indent):] if line.startswith(indent) else line.lstrip(" "))
    text = "\n".join(out)
    text = text.replace("\\\n", "")
    result = []
    for k, part in enumerate(text.split(marker)):
        if k:
            result.append(None)
        result.append(part)
    return result


def scan(text):
    """Every string literal of a Swift file, comments skipped, with the line it starts on."""
    literals, comments = [], {}
    i, line, n = 0, 1, len(text)
    while i < n:
        c = text[i]
        if c == "\n":
            line += 1
            i += 1
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            comments[line] = text[i + 2:end].strip()
            i = end
        elif text.startswith("/*", i):
            depth, i = 1, i + 2
            while depth and i < n:
                if text.startswith("/*", i):
                    depth, i = depth + 1, i + 2
                elif text.startswith("*/", i):
                    depth, i = depth - 1, i + 2
                else:
                    line += text[i] == "\n"
                    i += 1
        elif c == '"' or (c == "#" and re.match(r'#+"', text[i:i + 8])):
            lit = read_literal(text, i, line)
            line += text.count("\n", i, lit.end)
            literals.append(lit)
            i = lit.end
        elif c == "'":
            i += 1
        else:
            i += 1
    return literals, comments


class Entry:
    def __init__(self, msgid, plural, values):
        self.msgid, self.plural, self.values = msgid, plural, values
        self.references, self.comments = [], []


def key_of(pieces):
    """What Message.key gives: %N$s per value, and % doubled when there are values."""
    if not any(p is None for p in pieces):
        return "".join(pieces)
    out, number = [], 0
    for p in pieces:
        if p is None:
            number += 1
            out.append("%%%d$s" % number)
        else:
            out.append(p.replace("%", "%%"))
    return "".join(out)


def continued(text, literals, k):
    """The literal at k with those joined to it by '+' (inside one marked call), and the next index."""
    pieces = list(literals[k].pieces)
    j = k
    while j + 1 < len(literals) and re.fullmatch(r"\s*\+\s*", text[literals[j].end:literals[j + 1].start]):
        j += 1
        pieces += literals[j].pieces
    return pieces, j + 1


def first_argument_of_trn(before):
    """Whether `before` ends with `trn(COUNT, ` (COUNT any expression without a string, its
    parentheses balanced: trn(items.count(), ...) too)."""
    for match in reversed(list(re.finditer(r"(?<![A-Za-z0-9_.])trn\(", before))):
        argument = before[match.end():]
        if '"' in argument:
            return False
        depth = 0
        for c in argument.rstrip()[:-1] if argument.rstrip().endswith(",") else argument:
            depth += {"(": 1, ")": -1}.get(c, 0)
            if depth < 0:
                return False
        return argument.rstrip().endswith(",") and depth == 0
    return False


def extract(path, relative, entries, marked_spans):
    text = open(path, encoding="utf-8").read()
    literals, comments = scan(text)
    k = 0
    while k < len(literals):
        lit = literals[k]
        before = text[max(0, lit.start - 120):lit.start]
        kind = None
        if re.search(r"(?<![A-Za-z0-9_.])(tr|declared)\(\s*$", before):
            kind = "message"
        elif first_argument_of_trn(before):
            kind = "plural"
        elif re.search(r"(?<![A-Za-z0-9_])(%s):\s*(\{\s*(\w+\s+in\s+)?)?$" % "|".join(LABELS), before):
            kind = "message"
        if kind is None:
            k += 1
            continue
        pieces, after = continued(text, literals, k)
        plural_pieces = None
        if kind == "plural" and after < len(literals) and re.fullmatch(r"\s*,\s*", text[literals[after - 1].end:literals[after].start]):
            plural_pieces, after2 = continued(text, literals, after)
            for m in range(after, after2):
                marked_spans.add((relative, literals[m].start))
            after = after2
        for m in range(k, after):
            marked_spans.add((relative, literals[m].start))
        msgid = key_of(pieces)
        plural = key_of(plural_pieces) if plural_pieces is not None else None
        if msgid == "":
            k = after
            continue
        values = any(p is None for p in pieces) or (plural_pieces is not None and any(p is None for p in plural_pieces))
        entry = entries.setdefault((msgid, plural), Entry(msgid, plural, values))
        entry.references.append("%s:%d" % (relative, lit.line))
        note = []
        above = lit.line - 1
        while above in comments and not comments[above].startswith("TRANSLATORS:") and above > lit.line - 4:
            above -= 1
        if above in comments and comments[above].startswith("TRANSLATORS:"):
            note.append(comments[above][len("TRANSLATORS:"):].strip())
        for n in note:
            if n not in entry.comments:
                entry.comments.append(n)
        k = after
    return literals, comments, text


PROSE = re.compile(r"[A-Za-z]{2,}[,;:']?\s+(?:[A-Za-z]+\s+)*[a-z]{2,}")


def looks_like_prose(english):
    """English a person reads: two words or more, not SQL, not a path or an option list alone."""
    if not PROSE.search(english):
        return False
    stripped = english.strip()
    if re.match(r"(SELECT|INSERT|UPDATE|DELETE|CREATE|PRAGMA|WITH|BEGIN|DROP|ALTER|REPLACE)\b", stripped):
        return False
    return True


def po_string(text):
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t").replace("\r", "\\r")
    parts = escaped.split("\n")
    if len(parts) == 1 and len(escaped) < 70:
        return '"%s"' % escaped
    lines = ['""']
    for k, part in enumerate(parts):
        piece = part + ("\\n" if k < len(parts) - 1 else "")
        if piece:
            lines.append('"%s"' % piece)
    return "\n".join(lines)


HEADER = """# The messages of quoted and quotectl, in English as the sources write them.
# Generated by scripts/po/extract.py: do not edit (scripts/po/update.sh merges it into po/*.po).
#, fuzzy
msgid ""
msgstr ""
"Project-Id-Version: quoted\\n"
"Report-Msgid-Bugs-To: \\n"
"Language: \\n"
"MIME-Version: 1.0\\n"
"Content-Type: text/plain; charset=UTF-8\\n"
"Content-Transfer-Encoding: 8bit\\n"
"Plural-Forms: nplurals=INTEGER; plural=EXPRESSION;\\n"
"""


def render(entries):
    out = [HEADER]
    for entry in sorted(entries.values(), key=lambda e: (e.references[0].split(":")[0], int(e.references[0].split(":")[1]))):
        block = []
        for comment in entry.comments:
            block.append("#. " + comment)
        block.append("#: " + " ".join(entry.references))
        if entry.values:
            block.append("#, c-format")
        elif "%" in entry.msgid or (entry.plural and "%" in entry.plural):
            block.append("#, no-c-format")
        block.append("msgid " + po_string(entry.msgid))
        if entry.plural is not None:
            block.append("msgid_plural " + po_string(entry.plural))
            block.append('msgstr[0] ""')
            block.append('msgstr[1] ""')
        else:
            block.append('msgstr ""')
        out.append("\n".join(block) + "\n")
    return "\n".join(out)


def swift_files():
    for folder, _, names in sorted(os.walk(SOURCES)):
        for name in sorted(names):
            if name.endswith(".swift"):
                path = os.path.join(folder, name)
                yield path, os.path.relpath(path, SOURCES)


def use_root(root):
    """Reads the sources and writes the pot of the checkout at `root`."""
    global ROOT, SOURCES, POT
    ROOT = os.path.abspath(root)
    SOURCES = os.path.join(ROOT, "Sources")
    POT = os.path.join(ROOT, "po", "quoted.pot")


def main():
    arguments = sys.argv[1:]
    if "--root" in arguments:
        at = arguments.index("--root")
        if at + 1 >= len(arguments) or not os.path.isdir(arguments[at + 1]):
            print("extract.py: --root takes the folder of a checkout (with Sources/ and po/)", file=sys.stderr)
            return 64
        use_root(arguments[at + 1])
        del arguments[at:at + 2]
    unknown = [a for a in arguments if a != "--check"]
    if unknown:
        print("extract.py: unknown argument '%s' (extract.py [--check] [--root DIR])" % unknown[0], file=sys.stderr)
        return 64
    check = "--check" in arguments
    entries, marked, unmarked = {}, set(), []
    for path, relative in swift_files():
        literals, comments, text = extract(path, relative, entries, marked)
        if not check or any(relative.startswith(prefix) for prefix in ENGLISH_BY_DESIGN):
            continue
        for lit in literals:
            if (relative, lit.start) in marked or not looks_like_prose(lit.english()):
                continue
            if any(OPT_OUT in comments.get(n, "") for n in (lit.line, lit.line - 1)):
                continue
            unmarked.append("Sources/%s:%d: %s" % (relative, lit.line, lit.english()[:70].replace("\n", "\\n")))
    pot = render(entries)
    if not check:
        with open(POT, "w", encoding="utf-8") as f:
            f.write(pot)
        print("po/quoted.pot: %d messages" % len(entries))
        return 0
    failed = False
    current = open(POT, encoding="utf-8").read() if os.path.exists(POT) else ""
    if current != pot:
        print("po/quoted.pot is not what the sources give: run scripts/po/update.sh")
        failed = True
    for line in unmarked:
        print(line + "  (not through tr(): translate it, or say `// %s <why>`)" % OPT_OUT)
    if unmarked:
        print("%d English literals do not go through the catalog" % len(unmarked))
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
