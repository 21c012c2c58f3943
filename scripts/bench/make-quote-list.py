#!/usr/bin/env python3
"""Writes a custom quote list (the Gist format) of N quotes for benchmarks.

Usage: make-quote-list.py N OUT [--authors A] [--changed-fraction F] [--seed S] [--category C] [--extra-words W] [--format json|fortune|csv]

Quotes are spread evenly over A authors ("Author 0001" ...), so with the defaults
(1,000,000 quotes, 5,000 authors) every author has 200 quotes. --changed-fraction
rewrites that share of the texts, for resync benchmarks. --format writes the same quotes as a
fortune file (the author on an indented "-- " line) or as CSV (id,text,author,category), so the
formats' syncs can be compared. --category gives every quote that category instead of one of
seven words in turn (a list whose category is its own, for filtered draws' benchmarks).
"""
import argparse
import csv
import json
import random

WORDS = ("time life love truth light river mountain silence courage patience wisdom "
         "friend morning winter harvest journey lantern garden ocean promise").split()

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("count", type=int)
    parser.add_argument("out")
    parser.add_argument("--authors", type=int, default=5000)
    parser.add_argument("--changed-fraction", type=float, default=0.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--category")
    parser.add_argument("--extra-words", type=int, default=0, help="words added to every quote (30: past --short's 160)")
    parser.add_argument("--format", choices=("json", "fortune", "csv"), default="json")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    changed = random.Random(args.seed + 1)
    with open(args.out, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, lineterminator="\r\n") if args.format == "csv" else None
        if writer:
            writer.writerow(["id", "text", "author", "category"])
        elif args.format == "json":
            out.write("[")
        for i in range(args.count):
            words = " ".join(rng.choice(WORDS) for _ in range(8 + i % 9 + args.extra_words))
            # One word from a 20,000-word tail, so searches can hit a realistic ~50 quotes.
            text = f"Quote {i}: {words} kw{rng.randrange(20000)}."
            if args.changed_fraction and changed.random() < args.changed_fraction:
                text += " (revised)"
            author = f"Author {i % args.authors:04d}"
            category = args.category or WORDS[i % 7]
            if writer:
                writer.writerow([i + 1, text, author, category])
            elif args.format == "fortune":
                out.write(f"{text}\n\t\t-- {author}\n%\n")
            else:
                record = {"id": i + 1, "category": category, "text": text, "source": author}
                out.write(("," if i else "") + "\n" + json.dumps(record, ensure_ascii=False))
        if args.format == "json":
            out.write("\n]\n")

if __name__ == "__main__":
    main()
