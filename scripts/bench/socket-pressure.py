#!/usr/bin/env python3
"""Pressure on quoted's control socket, for scripts/bench/hostile.sh.

  socket-pressure.py trickle SOCKET QUOTECTL   64 clients send a byte every 4 s for 12 s while
                                               `quotectl status` runs every second: prints its times
  socket-pressure.py flood SOCKET COUNT        COUNT clients at once, each sending `status`:
                                               prints how many got a complete answer
"""
import socket
import subprocess
import sys
import threading
import time

mode, path = sys.argv[1], sys.argv[2]


def trickle(stop):
    clients = []
    for _ in range(64):
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        clients.append(s)
    while not stop.is_set():
        for s in clients:
            try:
                s.send(b"s")
            except OSError:
                pass
        stop.wait(4)
    for s in clients:
        s.close()


def ask_status():
    """One well-behaved client, retrying briefly on 'busy' as quotectl does."""
    for attempt in range(20):
        try:
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(10)
            s.connect(path)
            s.sendall(b"status\n")
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    break
                data += chunk
            s.close()
            if data.startswith(b"error busy"):
                time.sleep(0.05 * (attempt + 1))
                continue
            return b"\nend 0" in data
        except OSError:
            time.sleep(0.05 * (attempt + 1))
    return False


if mode == "trickle":
    quotectl = sys.argv[3]
    stop = threading.Event()
    thread = threading.Thread(target=trickle, args=(stop,))
    thread.start()
    time.sleep(0.5)
    times, running = [], 0
    for _ in range(10):
        started = time.monotonic()
        out = subprocess.run([quotectl, "status"], capture_output=True, text=True).stdout
        times.append(time.monotonic() - started)
        running += "Daemon: running" in out
        time.sleep(1)
    stop.set()
    thread.join()
    print("trickle: 64 clients; quotectl status said running %d/10 times, max %.0f ms, median %.0f ms"
          % (running, max(times) * 1000, sorted(times)[5] * 1000))
else:
    count = int(sys.argv[3])
    results = [False] * count

    def client(i):
        results[i] = ask_status()

    threads = [threading.Thread(target=client, args=(i,)) for i in range(count)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print("flood: %d of %d clients answered in %.2f s" % (sum(results), count, time.monotonic() - started))
