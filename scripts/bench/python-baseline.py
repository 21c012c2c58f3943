#!/usr/bin/env python3
"""The Python baselines for scripts/bench/sync.sh, on quoted's own schema.

Usage: python-baseline.py URL DB MODE
  MODE competent: what a competent engineer writes for a bulk load — fetch, json.loads, then in
                  ONE transaction drop the full-text and length-counting insert triggers and the indexes,
                  executemany the rows (with their content hash, length and dense numberings,
                  as quoted stores them), rebuild the full-text index in one statement, create
                  the indexes and the trigger again, commit. Prints its phase times on stderr.
  MODE naive:     the same schema, rows inserted one by one through the triggers.
  MODE plain:     one table with the list's columns and a unique (source, id) index, no search.
"""
import glob
import json
import os
import sqlite3
import sys
import time
import urllib.request

url, db_path, mode = sys.argv[1:4]
repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # scripts/bench/ -> the repository
phases = []
clock = time.monotonic()


def phase(name):
    global clock
    now = time.monotonic()
    phases.append((name, now - clock))
    clock = now


body = urllib.request.urlopen(url).read()
phase("fetch")
rows = json.loads(body)
phase("json")
db = sqlite3.connect(db_path, isolation_level=None)

if mode == "plain":
    db.execute("CREATE TABLE quotes (id INTEGER PRIMARY KEY, source TEXT, upstream_id TEXT, text TEXT, author TEXT, "
               "category TEXT, UNIQUE (source, upstream_id))")
    db.execute("BEGIN")
    db.executemany("INSERT INTO quotes (source, upstream_id, text, author, category) VALUES ('custom.big', ?, ?, ?, ?)",
                   ((str(r["id"]), r["text"], r["source"], r["category"]) for r in rows))
    phase("insert")
    db.execute("COMMIT")
    phase("commit")
else:
    db.execute("PRAGMA journal_mode = WAL")
    db.execute("PRAGMA synchronous = NORMAL")
    for migration in sorted(glob.glob(os.path.join(repo, "Migrations", "*.sql"))):
        db.executescript(open(migration, encoding="utf-8").read())
    db.execute("INSERT INTO sources (name, kind, created_at) VALUES ('custom.big', 'custom', 0)")
    phase("schema")
    db.execute("BEGIN")
    columns = ("INSERT INTO quotes (source, upstream_id, text, author, category, first_seen, last_seen, content_hash, "
               "length, pick, source_pick, length_pick) VALUES ('custom.big', ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?)")
    # The three dense numberings as quoted keeps them: the store's (pick), the source's
    # (source_pick: one source here, so the same) and each length's (length_pick, 1...count).
    def numbered(rows):
        per_length = {}
        for pick, r in enumerate(rows, start=1):
            length = len(r["text"])
            per_length[length] = per_length.get(length, 0) + 1
            yield (str(r["id"]), r["text"], r["source"], r["category"], hash((r["text"], r["source"], r["category"])),
                   length, pick, pick, per_length[length])
    values = numbered(rows)
    if mode == "competent":
        db.execute("PRAGMA cache_size = -49152")
        # Every index, the full-text trigger and the one that counts each length (its counts are
        # written in one statement after): the per-row work a bulk load puts off.
        dropped = db.execute("SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'quotes' AND sql IS NOT NULL "
                             "AND (type = 'index' OR (type = 'trigger' AND name IN ('quotes_fts_on_insert', "
                             "'quotes_length_on_insert')))").fetchall()
        for kind, name, _ in dropped:
            db.execute(f'DROP {kind.upper()} "{name}"')
        db.executemany(columns, values)
        db.execute("INSERT INTO quote_lengths (length, quotes) SELECT length, count(*) FROM quotes GROUP BY length")
        phase("insert")
        db.execute("INSERT INTO quotes_fts(quotes_fts) VALUES ('rebuild')")
        phase("fts")
        for _, _, sql in dropped:
            db.execute(sql)
    else:
        db.executemany(columns, values)
        phase("insert")
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    phase("indexes + commit")

print(" ".join(f"{name} {seconds:.1f}" for name, seconds in phases), file=sys.stderr)
