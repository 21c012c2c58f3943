#!/usr/bin/env python3
"""Clients that wait for a sync and hang up, against a running quoted.

  socket-hangup.py QUOTED

Starts QUOTED (`quoted run`) on a throwaway store and configuration whose one custom list is
served from 127.0.0.1 so slowly (40 s) that its sync outlasts the run. Then:
  1. 260 clients each send `sync custom.x` and read their first line (the slots: 256 for
     everyone and 2 kept for root and the daemon's user; the rest hear "busy"), and hang up;
  2. from then on, 256 new waiting clients are tried until none hears "busy" (at most 15 s):
     prints how many heard it at the end, and after how long;
  3. 200 clients wait (100 of them having shut down their writing side): the daemon's CPU
     time over 3 s (a poll loop that spun on them would show).
"""
import http.server
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

quoted = sys.argv[1]
folder = tempfile.mkdtemp(prefix="quoted-hangup-")


class Slow(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        time.sleep(40)
        body = b'[{"text": "a", "author": "b"}]'
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Slow)
threading.Thread(target=upstream.serve_forever, daemon=True).start()
path = folder + "/control.sock"
with open(folder + "/q.conf", "w") as configuration:
    configuration.write(f"[daemon]\nsocket = {path}\n[source.custom.x]\nurl = http://127.0.0.1:{upstream.server_address[1]}/l.json\n"
                        "[source.happiness]\nenabled = false\n[source.breakingbad]\nenabled = false\n[source.upbit]\nenabled = false\n")
daemon = subprocess.Popen([quoted, "run", "--config", folder + "/q.conf", "--db", folder + "/q.db"],
                          stderr=open(folder + "/log", "w"))


def clients(count):
    """COUNT clients, one after the other, each sending `sync custom.x`: their sockets and first words."""
    held, first = [], []
    for _ in range(count):
        client = socket.socket(socket.AF_UNIX)
        client.settimeout(10)
        client.connect(path)
        client.sendall(b"sync custom.x\n")
        line = b""
        while not line.endswith(b"\n"):
            byte = client.recv(1)
            if not byte:
                break
            line += byte
        held.append(client)
        first.append(line.decode().split(" ")[0])
    return held, first


def cpu_seconds():
    fields = open(f"/proc/{daemon.pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


try:
    for _ in range(200):
        if os.path.exists(path):
            break
        time.sleep(0.05)
    held, first = clients(260)
    print("260 waiting clients:", ", ".join(f"{word} {first.count(word)}" for word in sorted(set(first))))
    for client in held:
        client.close()
    start = time.monotonic()
    attempts = 0
    while True:
        attempts += 1
        held, first = clients(256)
        busy = first.count("error")
        for client in held:
            client.close()
        if busy == 0 or time.monotonic() - start > 15:
            break
    print(f"after they hung up: {busy} of 256 new waiting clients heard busy, {time.monotonic() - start:.2f} s, {attempts} rounds")
    held, _ = clients(200)
    for client in held[:100]:
        client.shutdown(socket.SHUT_WR)
    before = cpu_seconds()
    time.sleep(3)
    print(f"200 clients waiting (100 half-closed): the daemon's CPU over 3 s {cpu_seconds() - before:.2f} s")
    for client in held:
        client.close()
finally:
    daemon.terminate()
    daemon.wait(timeout=30)
    upstream.shutdown()
