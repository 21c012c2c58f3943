#!/usr/bin/env python3
"""Writes a custom quote list (the Gist format) of N quotes for benchmarks.

Usage: make-quote-list.py N OUT.json [--authors A] [--changed-fraction F] [--seed S]

Quotes are spread evenly over A authors ("Author 0001" ...), so with the defaults
(1,000,000 quotes, 5,000 authors) every author has 200 quotes. --changed-fraction
rewrites that share of the texts, for resync benchmarks.
"""
import argparse
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
    args = parser.parse_args()
    rng = random.Random(args.seed)
    changed = random.Random(args.seed + 1)
    with open(args.out, "w", encoding="utf-8") as out:
        out.write("[")
        for i in range(args.count):
            words = " ".join(rng.choice(WORDS) for _ in range(8 + i % 9))
            # One word from a 20,000-word tail, so searches can hit a realistic ~50 quotes.
            text = f"Quote {i}: {words} kw{rng.randrange(20000)}."
            if args.changed_fraction and changed.random() < args.changed_fraction:
                text += " (revised)"
            record = {"id": i + 1, "category": WORDS[i % 7], "text": text,
                      "source": f"Author {i % args.authors:04d}"}
            out.write(("," if i else "") + "\n" + json.dumps(record, ensure_ascii=False))
        out.write("\n]\n")

if __name__ == "__main__":
    main()
