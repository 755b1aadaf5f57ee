"""Apps a test puts on the bus: a program under ``lifebus subscribe``, an installed manifest, or an in-process
``Application`` — each launched and in front when returned, and gone again at ``close``."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .application import Application, ApplicationDelegate, SceneDelegate
from .broker import program
from .controller import Controller
from .errors import LaunchFailed, LifebusError
from .requests import Manifest


@dataclass(frozen=True)
class LaunchedApp:
    """An app a test launched: its id (what ``expect`` and ``fire`` take) and, when in process, its ``Application``."""

    id: str
    application: Application | None = None


class AppLauncher:
    """Launches apps on the broker ``controller`` talks to, and ends them at ``close`` (so a broker shared by several
    tests starts each test without them). Owns the in-process apps' threads. Used from one thread."""

    def __init__(self, controller: Controller) -> None:
        self.controller = controller
        self._installed: list[str] = []
        self._hosted: list[tuple[Application, threading.Thread]] = []

    def subscribe(
        self,
        id: str,
        command: Sequence[str],
        *,
        on: Mapping[str, str] | None = None,
        delay: Mapping[str, str] | None = None,
    ) -> LaunchedApp:
        """Runs ``command`` as the app's process under ``lifebus subscribe --id ID`` (each ``on`` callback answered when
        its shell hook exits, each ``delay`` one after the duration, e.g. ``"2s"``), installed as a manifest, so the
        broker starts it, kills it with everything it started, and never leaves it behind."""
        arguments = ["subscribe", "--id", id]
        for callback, hook in (on or {}).items():
            arguments += ["--on", f"{callback}={hook}"]
        for callback, duration in (delay or {}).items():
            arguments += ["--delay", f"{callback}={duration}"]
        manifest = {"id": id, "executable": program("lifebus"), "arguments": [*arguments, "--", *command]}
        return self.install(manifest)

    def install(self, manifest: Manifest) -> LaunchedApp:
        """Installs a manifest (a file or its members) and launches the app."""
        installed = self.controller.install(manifest)
        ident = str(installed["id"])
        self._installed.append(ident)
        self.controller.launch(ident)
        return LaunchedApp(ident)

    def run(
        self, id: str, delegate: ApplicationDelegate, scene_delegate: SceneDelegate | None = None, **options: Any
    ) -> LaunchedApp:
        """Runs an ``Application`` with ``delegate`` (and ``scene_delegate``: a scene app) in this process (on a thread
        of its own, with its own event loop; its connection through a relay process, so the broker's kills end the
        relay, not the test run); returns once the broker launched it and journaled the launch (in front — its app
        or its first scene active —, or in the background when it asks to launch there); raises ``LaunchFailed``
        (``data.reason`` the kill's) when the broker killed it while it launched, e.g. under ios27 an app that does
        not adopt scenes."""
        app = Application(id, socket=self.controller.socket_path, own_process=True, **options)
        failures: list[BaseException] = []

        def serve() -> None:
            try:
                asyncio.run(app.run(delegate, scene_delegate))
            except BaseException as failure:  # handed to the test, which raises it
                failures.append(failure)

        thread = threading.Thread(target=serve, name=f"lifebus app {id}", daemon=True)
        thread.start()
        self._hosted.append((app, thread))
        in_front = {"didBecomeActive", "sceneDidBecomeActive"}
        last = {"didFinishLaunching"} if options.get("launch_in_background") else in_front
        deadline = time.monotonic() + 20.0
        while True:
            entries = self.controller.entries_since(0, id)
            if any(entry.get("callback") in last for entry in entries):
                break
            killed = next((e for e in entries if e.get("type") == "process" and e.get("event") == "killed"), None)
            if killed is not None:  # e.g. under ios27 an app that does not adopt scenes (sceneLifecycleRequired)
                reason = str(killed.get("reason"))
                raise LaunchFailed(
                    -32031,
                    f"{id} was killed while launching (reason {reason})",
                    {"name": LaunchFailed.error_name, "app": id, "reason": reason},
                )
            if failures:
                raise failures[0]
            if time.monotonic() > deadline:
                raise TimeoutError(f"{id} was not launched within 20 s")
            time.sleep(0.01)
        self.controller.expect_from_now(id)
        return LaunchedApp(id, app)

    def close(self) -> None:
        """Ends every app launched here: in-process apps disconnect, installed ones are terminated and uninstalled."""
        for app, thread in self._hosted:
            app.stop()
            thread.join(10.0)
        for ident in self._installed:
            with contextlib.suppress(LifebusError, OSError):
                if self.controller.state(ident) != "notRunning":
                    self.controller.fire("terminate", app=ident)
            with contextlib.suppress(LifebusError, OSError):
                self.controller.uninstall(ident)
        self._hosted.clear()
        self._installed.clear()
