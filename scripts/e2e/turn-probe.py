"""Measures how long quoted's writers hold a store's writer turn, from outside: every 5 ms it
asks for the POSIX lock on STORE-lock (F_SETLK, never waiting; F_GETLK would not see a lock this
process could take), lets it go at once, and writes the longest stretch it found the lock held,
in milliseconds, to OUT (also on SIGTERM). Usage: turn-probe.py STORE-lock OUT"""
import fcntl, os, signal, sys, time

lock_path, out_path = sys.argv[1], sys.argv[2]
longest = held_since = 0.0
holds = 0

def report(*_):
    with open(out_path + ".tmp", "w") as f:
        f.write(f"{int(longest * 1000)} {holds}\n")
    os.replace(out_path + ".tmp", out_path)
    if _:
        sys.exit(0)

signal.signal(signal.SIGTERM, report)
while not os.path.exists(lock_path):
    time.sleep(0.005)
fd = os.open(lock_path, os.O_RDWR)
while True:
    now = time.monotonic()
    try:
        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        fcntl.lockf(fd, fcntl.LOCK_UN)
        if held_since:
            longest = max(longest, now - held_since)
            held_since = 0.0
            report()
    except OSError:
        if not held_since:
            held_since = now
            holds += 1
    time.sleep(0.005)
