#!/usr/bin/env python3
"""A stand-in for the five upstreams on 127.0.0.1, for scripts/systemd-e2e.sh.

Usage: fake-upstream.py PORT FIXTURES_DIR [--list FILE] [--count FILE]
Serves /list.json (a custom list), /happiness/random-quote, /api/quotes/random,
/api/deaths, /api/characters?name=, /v1/market/all (the Upbit capture).
--list serves /list.json from FILE, read anew for every request (a test edits it);
--count keeps the number of requests served, per path and in all, as JSON in FILE.
"""
import argparse
import http.server
import json
import os
import threading
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("port", type=int)
parser.add_argument("fixtures")
parser.add_argument("--list")
parser.add_argument("--count")
options = parser.parse_args()
port, fixtures = options.port, options.fixtures
counts = {"total": 0}
counts_lock = threading.Lock()

def count(path):
    if not options.count:
        return
    with counts_lock:
        counts["total"] += 1
        counts[path] = counts.get(path, 0) + 1
        with open(options.count + ".tmp", "w") as f:
            json.dump(counts, f)
        os.replace(options.count + ".tmp", options.count)

def load(name):
    with open(os.path.join(fixtures, name), "rb") as f:
        return f.read()

ROUTES = {
    "/list.json": json.dumps([{"id": i, "category": "e2e", "text": f"End-to-end quote {i}", "source": "Tester"}
                              for i in range(1, 21)]).encode(),
    "/happiness/random-quote": json.dumps({"message": "Quote fetched successfully", "statusCode": 200, "data": {
        "id": 60, "content": "행복은 내면에서 오지 않고 사이에서 온다. Happiness comes from between.",
        "author": "Jonathan Haidt, 사회심리학자", "description": None, "link": None}}).encode(),
    "/api/quotes/random": load("breakingbad/samplequote.json"),
    "/api/deaths": b"[" + load("breakingbad/sampledeath.json") + b"]",
    "/v1/market/all": load("upbit/market_all_is_details.json"),
}

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        count(url.path)
        if url.path == "/list.json" and options.list:
            with open(options.list, "rb") as f:
                body = f.read()
        elif url.path == "/api/characters":
            name = urllib.parse.parse_qs(url.query).get("name", [""])[0]
            body = b"[" + load("breakingbad/samplecharacter.json") + b"]" if name == "Walter White" else b"[]"
        else:
            body = ROUTES.get(url.path)
        if body is None:
            self.send_response(404)
            body = b'{"message": "not found"}'
        else:
            self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        if url.path == "/v1/market/all":
            self.send_header("Remaining-Req", "group=market; min=600; sec=9")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass

http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
