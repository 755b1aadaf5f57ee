"""The process an in-process app's connection goes through (``Application(own_process=True)``): it connects to the
broker and copies bytes both ways between the broker and its parent's end of a socket pair, until either closes.

The broker knows an app by the pid of its connection and kills that pid (watchdog, jetsam, a terminate): through
this relay it kills the relay, whose end closes, and the app in the test's process sees its connection end as a
killed app's would; the test's process itself is never signalled. The relay runs ``main`` (``python -c``), in a
session of its own (so a kill of its group reaches nothing else), and ends when its parent's end closes.
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
import subprocess
import sys

from . import socket_path


def start(path: str) -> tuple[socket.socket, subprocess.Popen[bytes]]:
    """Starts a relay to the broker at ``path``; returns this process's end of the pair (its peer is the relay) and
    the relay, for its owner to reap once that end is closed (``reap``)."""
    mine, theirs = socket.socketpair()
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join([package_parent, os.environ.get("PYTHONPATH", "")]))
    process = subprocess.Popen(
        [sys.executable, "-c", "from lifebus.relay import main; main()", str(theirs.fileno()), path],
        pass_fds=[theirs.fileno()],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        env=environment,
    )
    theirs.close()
    return mine, process


def reap(process: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """Waits for a relay whose parent end is closed (it ends at once), killing it after ``grace`` seconds."""
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def copy_both_ways(inner: socket.socket, outer: socket.socket) -> None:
    """Copies what either socket receives to the other until one of them ends."""
    other = {inner: outer, outer: inner}
    with selectors.DefaultSelector() as selector:
        for end in other:
            selector.register(end, selectors.EVENT_READ)
        while True:
            for key, _ in selector.select():
                source: socket.socket = key.fileobj  # type: ignore[assignment]
                data = source.recv(1 << 16)
                if not data:
                    return
                other[source].sendall(data)


def main() -> None:
    inner = socket.socket(fileno=int(sys.argv[1]))
    try:
        outer = socket_path.connect(sys.argv[2])
    except OSError as error:  # the parent sees its end close before hello is answered
        print(f"lifebus relay: {error}", file=sys.stderr)
        return
    with contextlib.suppress(OSError):  # either side ended abruptly: so does the relay
        copy_both_ways(inner, outer)
