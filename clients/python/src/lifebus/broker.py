"""A private ``lifebusd`` on a temporary socket, and where the Lifebus programs are: for tests and scripts that
need a broker of their own (the pytest plugin's ``lifebus_broker``)."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Sequence
from types import TracebackType


class BrokerStartFailed(RuntimeError):
    """``lifebusd`` did not say it was listening (its status and stderr are in the message)."""


def program(name: str) -> str:
    """The absolute path of ``lifebus`` or ``lifebusd``: in ``$LIFEBUS_BIN_DIR`` when set, else on ``PATH``."""
    folder = os.environ.get("LIFEBUS_BIN_DIR")
    found = shutil.which(name, path=folder) if folder else shutil.which(name)
    if found is None:
        where = f"LIFEBUS_BIN_DIR={folder}" if folder else "PATH"
        raise FileNotFoundError(f"{name} is not in {where} (build Lifebus, or set LIFEBUS_BIN_DIR)")
    return os.path.abspath(found)


def profiles() -> list[str]:
    """Every device profile the broker plays, as ``lifebusd --help`` lists them (``ios3, ios4, ios7``)."""
    text = subprocess.run([program("lifebusd"), "--help"], capture_output=True, text=True, timeout=30).stdout
    line = re.search(r"--profile <profile>\s+The device model: ([^(]+)\(", text)
    if line is None:
        raise RuntimeError("lifebusd --help does not list the profiles")
    return [word.strip() for word in line.group(1).split(",") if word.strip()]


class BrokerProcess:
    """A ``lifebusd`` this process started, on a socket in a fresh private folder, with its journal beside it and
    its apps' state folder (``LIFEBUS_STATE_DIR``, fresh and empty, as after a fresh install: what one test's apps
    save never reaches another's).

    It runs with ``--exit-with-parent`` and this process's pid: it stops cleanly when this process exits, however
    (``SIGKILL`` included), so no broker outlives the test run. ``stop`` sends SIGTERM (SIGKILL after ``grace``),
    reaps it and removes the folder; calling it twice does nothing. The broker kills the apps it spawned when it
    stops. Owns the process and the folder.
    """

    def __init__(
        self,
        *,
        profile: str | None = None,
        clock: str | None = None,
        arguments: Sequence[str] = (),
        start_timeout: float = 20.0,
    ) -> None:
        broker_program = program("lifebusd")  # before the folder: a missing program leaves nothing behind
        bin_folder = os.path.dirname(program("lifebus"))
        self.folder = tempfile.mkdtemp(prefix="lifebus-pytest-")
        self.socket_path = os.path.join(self.folder, "bus.sock")
        self.journal_path = os.path.join(self.folder, "journal.jsonl")
        self.profile = profile
        self.clock = clock or "real"
        command = [
            broker_program,
            "--socket", self.socket_path,
            "--journal", self.journal_path,
            "--log-level", "error",
            "--exit-with-parent", str(os.getpid()),
        ]  # fmt: skip
        if profile:
            command += ["--profile", profile]
        if clock:
            command += ["--clock", clock]
        command += list(arguments)
        environment = dict(os.environ, PATH=bin_folder + os.pathsep + os.environ.get("PATH", ""))
        environment.pop("LIFEBUS_SOCKET", None)
        self.state_folder = os.path.join(self.folder, "state")
        os.mkdir(self.state_folder, 0o700)
        environment["LIFEBUS_STATE_DIR"] = self.state_folder
        # Its output goes to files, never to pipes nobody reads (a full pipe would stall the broker).
        self.output_path = os.path.join(self.folder, "lifebusd.out")
        with open(self.output_path, "wb") as output:
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, env=environment
            )
        try:
            self._await_listening(start_timeout)
        except BaseException:
            self.stop()
            raise

    @property
    def pid(self) -> int:
        return self.process.pid

    def output(self) -> str:
        """What the broker printed so far (its log at level error)."""
        try:
            with open(self.output_path, "rb") as output:
                return output.read().decode(errors="replace")
        except FileNotFoundError:
            return ""

    def _await_listening(self, timeout: float) -> None:
        """Waits for the line ``listening on PATH`` (the broker's "ready"), polling its output file."""
        ready = f"listening on {self.socket_path}\n"
        deadline = time.monotonic() + timeout
        pause = 0.002
        while ready not in self.output():
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.process.kill()
                self.process.wait()
                raise BrokerStartFailed(
                    f"lifebusd did not start (status {self.process.returncode}): {self.output().strip() or 'nothing'}"
                )
            time.sleep(pause)
            pause = min(pause * 2, 0.05)

    def stop(self, grace: float = 10.0) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(grace)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> BrokerProcess:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()
