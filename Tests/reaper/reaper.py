#!/usr/bin/env python3
"""Kills the test process's servers when the test process dies, however it dies.

The test process starts this once, with stdin one end of a socket pair whose other end only the
test process holds (close-on-exec, so no other child inherits it). It writes `+PID` for every child it
starts and `-PID` once it has waited for it. When the test process exits -- SIGKILL, a crash, a
timeout's kill -- the kernel closes its end: stdin reaches EOF and every child still listed is
killed (SIGKILL to its pidfd: a pid reused since cannot be hit). `photosync serve` and
`Fixtures/serve_feed.py` outlived killed test runs before this; the product has no test-only code
for it.
"""
import os
import signal
import sys


def main():
    try:
        os.setsid()  # a Ctrl-C to the test's process group must not end it first
    except OSError:
        pass  # already a group leader: Foundation's Process starts children in a group of their own
    children = {}
    for line in sys.stdin:
        sign, _, number = line.strip().partition(" ")
        if not number.isdigit():
            continue
        pid = int(number)
        if sign == "+" and pid not in children:
            try:
                children[pid] = os.pidfd_open(pid)
            except OSError:
                pass  # already gone
        elif sign == "-" and pid in children:
            os.close(children.pop(pid))
    for descriptor in children.values():
        try:
            signal.pidfd_send_signal(descriptor, signal.SIGKILL)
        except OSError:
            pass


if __name__ == "__main__":
    main()
