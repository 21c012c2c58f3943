#!/usr/bin/env python3
"""The plain-Python baseline for scripts/bench-sync.sh: json.load, then one
sqlite3 executemany in one transaction.

Usage: python-baseline.py LIST.json DB MODE
  MODE equivalent: the same schema as quoted (Migrations/*.sql: indexes, FTS5, triggers), WAL
  MODE plain:      one table with the list's columns and a unique (source, id) index
"""
import glob
import json
import os
import sqlite3
import sys

list_path, db_path, mode = sys.argv[1:4]
repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
rows = json.load(open(list_path, encoding="utf-8"))
db = sqlite3.connect(db_path, isolation_level=None)
if mode == "equivalent":
    db.execute("PRAGMA journal_mode = WAL")
    for migration in sorted(glob.glob(os.path.join(repo, "Migrations", "*.sql"))):
        db.executescript(open(migration, encoding="utf-8").read())
    db.execute("INSERT INTO sources (name, kind, created_at) VALUES ('custom.big', 'custom', 0)")
    sql = ("INSERT INTO quotes (source, upstream_id, text, author, category, first_seen, last_seen, content_hash, length) "
           "VALUES ('custom.big', ?, ?, ?, ?, 0, 0, 0, ?)")
    values = ((str(r["id"]), r["text"], r["source"], r["category"], len(r["text"])) for r in rows)
else:
    db.execute("CREATE TABLE quotes (id INTEGER PRIMARY KEY, source TEXT, upstream_id TEXT, text TEXT, author TEXT, "
               "category TEXT, UNIQUE (source, upstream_id))")
    sql = "INSERT INTO quotes (source, upstream_id, text, author, category) VALUES ('custom.big', ?, ?, ?, ?)"
    values = ((str(r["id"]), r["text"], r["source"], r["category"]) for r in rows)
db.execute("BEGIN")
db.executemany(sql, values)
db.execute("COMMIT")
