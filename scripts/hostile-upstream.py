#!/usr/bin/env python3
"""A hostile upstream on 127.0.0.1 for scripts/bench-hostile.sh. Writes its port to PORTFILE.

  /gzip-bomb        2 MB of gzip that inflates to 2 GiB (Content-Encoding: gzip, with a length)
  /deflate-bomb     the same as a zlib stream (Content-Encoding: deflate)
  /endless-close    a body with no length that never ends (close-delimited)
  /endless-chunked  a chunked body that never ends
  /lying-length     Content-Length: 10 TB, then an endless body

Usage: hostile-upstream.py PORTFILE CACHEDIR   (the bombs are built once into CACHEDIR)
"""
import http.server
import os
import sys
import zlib

port_file, cache = sys.argv[1], sys.argv[2]
os.makedirs(cache, exist_ok=True)


def bomb(name, wbits):
    path = os.path.join(cache, name)
    if not os.path.exists(path):
        compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
        zeros = bytes(16 << 20)
        with open(path + ".tmp", "wb") as out:
            for _ in range(128):  # 2 GiB
                out.write(compressor.compress(zeros))
            out.write(compressor.flush())
        os.rename(path + ".tmp", path)
    with open(path, "rb") as f:
        return f.read()


BOMBS = {"/gzip-bomb": ("gzip", bomb("bomb.gz", 31)), "/deflate-bomb": ("deflate", bomb("bomb.zz", 15))}
FILLER = b" " * 65536


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        try:
            if self.path in BOMBS:
                encoding, body = BOMBS[self.path]
                self.send_response(200)
                self.send_header("Content-Encoding", encoding)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            elif self.path == "/endless-chunked":
                self.send_response(200)
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                chunk = b"%x\r\n" % len(FILLER) + FILLER + b"\r\n"
                while True:
                    self.wfile.write(chunk)
            else:
                self.send_response(200)
                if self.path == "/lying-length":
                    self.send_header("Content-Length", str(10 ** 13))
                else:
                    self.send_header("Connection", "close")
                self.end_headers()
                while True:
                    self.wfile.write(FILLER)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        pass  # clients hang up on purpose here: that is the point


server = Server(("127.0.0.1", 0), Handler)
with open(port_file, "w") as f:
    f.write(str(server.server_address[1]))
server.serve_forever()
