#!/usr/bin/env python3
"""Serves one file at /list.json on 127.0.0.1 with a strong ETag and Last-Modified,
answering If-None-Match with 304 as a CDN would. Writes the port it got to PORTFILE.

Usage: serve-file.py FILE PORTFILE   (the file is re-read when its mtime changes)
"""
import email.utils
import hashlib
import http.server
import os
import sys

path, port_file = sys.argv[1], sys.argv[2]
cache = {}

def current():
    mtime = os.stat(path).st_mtime
    if cache.get("mtime") != mtime:
        with open(path, "rb") as f:
            body = f.read()
        cache.update(mtime=mtime, body=body, etag='"%s"' % hashlib.sha256(body).hexdigest()[:32],
                     modified=email.utils.formatdate(mtime, usegmt=True))
    return cache

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        entry = current()
        if self.headers.get("If-None-Match") == entry["etag"]:
            self.send_response(304)
            self.send_header("ETag", entry["etag"])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("ETag", entry["etag"])
        self.send_header("Last-Modified", entry["modified"])
        self.send_header("Content-Length", str(len(entry["body"])))
        self.end_headers()
        self.wfile.write(entry["body"])

    def log_message(self, *args):
        pass

server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
