#!/usr/bin/env python3
"""The one stand-in for quoted's upstreams on 127.0.0.1, for the end-to-end runs and the
benchmarks (the Swift tests have their own in-process server, programmed per test).

  fake-upstream.py (--port N | --port-file FILE) [--fixtures DIR] [--list FILE [--validators]]
                   [--count FILE] [--bombs CACHEDIR]

The five APIs, from the captured fixtures in DIR (default Tests/Fixtures):
  /list.json                 a custom list: 20 quotes, or FILE (--list), read anew when it changes;
                             with --validators it carries a strong ETag and Last-Modified and
                             answers If-None-Match with 304, as a CDN does
  /happiness/random-quote    the Korean quote of the day
  /api/quotes/random, /api/deaths, /api/characters?name=   Breaking Bad
  /v1/market/all             Upbit, with its Remaining-Req header
Hostile answers, for the memory benchmarks (--bombs: where the 2 MB bombs are built, once, at start):
  /gzip-bomb, /deflate-bomb  2 MB that inflate to 2 GiB (Content-Encoding gzip / deflate)
  /endless-close             a body with no length that never ends
  /endless-chunked           a chunked body that never ends
  /lying-length              Content-Length: 10 TB, then an endless body
--port 0 / --port-file: any free port, written to FILE. --count keeps the number of requests
served, per path and in all, as JSON in FILE.
"""
import argparse
import email.utils
import hashlib
import http.server
import json
import os
import shutil
import threading
import urllib.parse
import zlib

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, default=0)
parser.add_argument("--port-file")
# scripts/bench/ -> the repository's captured fixtures, wherever this is started from
parser.add_argument("--fixtures", default=os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Tests", "Fixtures"))
parser.add_argument("--list")
parser.add_argument("--validators", action="store_true")
parser.add_argument("--count")
parser.add_argument("--bombs")
options = parser.parse_args()
counts = {"total": 0}
lock = threading.Lock()


def count(path):
    if not options.count:
        return
    with lock:
        counts["total"] += 1
        counts[path] = counts.get(path, 0) + 1
        with open(options.count + ".tmp", "w") as f:
            json.dump(counts, f)
        os.replace(options.count + ".tmp", options.count)


def fixture(name):
    with open(os.path.join(options.fixtures, name), "rb") as f:
        return f.read()


ROUTES = {
    "/list.json": json.dumps([{"id": i, "category": "e2e", "text": f"End-to-end quote {i}", "source": "Tester"}
                              for i in range(1, 21)]).encode(),
    "/happiness/random-quote": json.dumps({"message": "Quote fetched successfully", "statusCode": 200, "data": {
        "id": 60, "content": "행복은 내면에서 오지 않고 사이에서 온다. Happiness comes from between.",
        "author": "Jonathan Haidt, 사회심리학자", "description": None, "link": None}}).encode(),
    "/api/quotes/random": fixture("breakingbad/samplequote.json"),
    "/api/deaths": b"[" + fixture("breakingbad/sampledeath.json") + b"]",
    "/v1/market/all": fixture("upbit/market_all_is_details.json"),
}
listed = {}


def current_list():
    """The --list file as last read, with its validators; read again when its mtime changes."""
    info = os.stat(options.list)
    mtime = info.st_mtime
    with lock:
        if listed.get("mtime") != mtime or listed.get("path") != os.path.realpath(options.list):
            if info.st_size > BIG:
                # A list too big to hold (the 10M bench list, 1.7 GB) is streamed from its file;
                # its ETag comes from its size and time.
                body, tag = None, "%d-%d" % (info.st_size, info.st_mtime_ns)
            else:
                with open(options.list, "rb") as f:
                    body = f.read()
                tag = hashlib.sha256(body).hexdigest()[:32]
            listed.update(mtime=mtime, path=os.path.realpath(options.list), body=body, size=info.st_size,
                          etag='"%s"' % tag, modified=email.utils.formatdate(mtime, usegmt=True))
        return dict(listed)


BIG = 256 << 20


def bomb(name, wbits):
    path = os.path.join(options.bombs, name)
    with lock:
        if not os.path.exists(path):
            os.makedirs(options.bombs, exist_ok=True)
            compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
            zeros = bytes(16 << 20)
            with open(path + ".tmp", "wb") as out:
                for _ in range(128):  # 2 GiB
                    out.write(compressor.compress(zeros))
                out.write(compressor.flush())
            os.rename(path + ".tmp", path)
    with open(path, "rb") as f:
        return f.read()


BOMBS = {"/gzip-bomb": ("gzip", "bomb.gz", 31), "/deflate-bomb": ("deflate", "bomb.zz", 15)}
ENDLESS = {"/endless-close", "/endless-chunked", "/lying-length"}
FILLER = b" " * 65536


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        count(url.path)
        try:
            if url.path in BOMBS and options.bombs:
                encoding, name, wbits = BOMBS[url.path]
                self.answer(200, bomb(name, wbits), [("Content-Encoding", encoding)])
            elif url.path in ENDLESS:
                self.endless(url.path)
            elif url.path == "/list.json" and options.list:
                self.serve_list()
            elif url.path == "/api/characters":
                name = urllib.parse.parse_qs(url.query).get("name", [""])[0]
                self.answer(200, b"[" + fixture("breakingbad/samplecharacter.json") + b"]" if name == "Walter White" else b"[]")
            elif url.path in ROUTES:
                headers = [("Remaining-Req", "group=market; min=600; sec=9")] if url.path == "/v1/market/all" else []
                self.answer(200, ROUTES[url.path], headers)
            else:
                self.answer(404, b'{"message": "not found"}')
        except (BrokenPipeError, ConnectionResetError):
            pass  # clients hang up on purpose on the hostile paths: that is the point

    def answer(self, status, body, headers=()):
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def serve_list(self):
        if not options.validators:
            with open(options.list, "rb") as f:
                return self.answer(200, f.read())
        entry = current_list()
        if self.headers.get("If-None-Match") == entry["etag"]:
            self.send_response(304)
            self.send_header("ETag", entry["etag"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        headers = [("ETag", entry["etag"]), ("Last-Modified", entry["modified"])]
        if entry["body"] is not None:
            return self.answer(200, entry["body"], headers)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(entry["size"]))
        self.end_headers()
        with open(options.list, "rb") as f:
            shutil.copyfileobj(f, self.wfile, 1 << 20)

    def endless(self, path):
        self.send_response(200)
        if path == "/endless-chunked":
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"%x\r\n" % len(FILLER) + FILLER + b"\r\n"
            while True:
                self.wfile.write(chunk)
        self.send_header("Content-Length", str(10 ** 13)) if path == "/lying-length" else self.send_header("Connection", "close")
        self.end_headers()
        while True:
            self.wfile.write(FILLER)

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass


if options.bombs:  # built before the port is told: the first request must not wait minutes
    for _, name, wbits in BOMBS.values():
        bomb(name, wbits)
server = Server(("127.0.0.1", options.port), Handler)
if options.port_file:
    with open(options.port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.replace(options.port_file + ".tmp", options.port_file)
server.serve_forever()
