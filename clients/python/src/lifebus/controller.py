"""The synchronous controller: drives a broker from a test or a script over one blocking connection."""

from __future__ import annotations

import os
import socket
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, cast

from . import requests, socket_path, wire
from .errors import BrokerUnreachable, ConnectionClosed, LifebusError
from .expectation import Attempt, Cursor, Expectation, timeline
from .records import ClockReading, FireResult, JournalEntry, Status, WaitResult, scene_state_in, state_in
from .requests import AppRef, Manifest


class Controller:
    """A ``controller`` connection to the broker (Protocol/README.md §11): fires events, asks the state, waits,
    reads the history, moves a manual clock, installs and launches apps, and checks expectations.

    One request at a time, each call blocking until its answer (a ``fire`` until the transitions it caused
    completed). Not thread-safe: one thread uses it. Refusals raise the broker's error as a ``LifebusError``
    subclass (``EventRejected``, ``TimedOut``…). ``expect`` looks, per app, at what was recorded since the previous
    ``expect`` of that app, or since ``launch``, or since this controller connected.
    """

    def __init__(self, sock: socket.socket, path: str) -> None:
        self.socket_path = path
        self._socket = sock
        self._reader = sock.makefile("rb")
        self._next_id = 0
        self.hello: dict[str, Any] = self.call("hello", wire.hello("controller"))
        self._connected_seq = self._latest_seq()
        self._cursors: dict[str, Cursor] = {}

    @classmethod
    def connect(cls, socket: str | os.PathLike[str] | None = None, *, retry_for: float = 0.0) -> Controller:
        """Connects (``socket``, else ``$LIFEBUS_SOCKET``… as Protocol/README.md §1 says) and says ``hello``;
        retries for up to ``retry_for`` seconds while no broker answers (one starting)."""
        path = socket_path.resolve(socket)
        deadline = time.monotonic() + retry_for
        pause = 0.01
        while True:
            try:
                return cls(socket_path.connect(path), path)
            except BrokerUnreachable:
                if time.monotonic() + pause > deadline:
                    raise
                time.sleep(pause)
                pause = min(pause * 2, 0.1)

    @property
    def profile(self) -> str:
        """The device model the broker plays (``ios7``…)."""
        return str(self.hello.get("profile"))

    def close(self) -> None:
        self._reader.close()
        self._socket.close()

    def __enter__(self) -> Controller:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Sends one request and returns its result, or raises its error."""
        self._next_id += 1
        ident = self._next_id
        try:
            self._socket.sendall(wire.request(ident, method, params))
        except OSError as error:
            raise ConnectionClosed(-32011, f"the connection to {self.socket_path} ended: {error}") from error
        while True:
            line = self._reader.readline(wire.MAX_LINE + 1)
            if not line:
                raise ConnectionClosed(-32011, f"the broker closed the connection before answering {method}")
            for message in wire.decode(line):
                if message.method == "lifebus.error":
                    raise LifebusError.from_error(message.params)
                if message.is_response and message.id == ident:
                    return message.value()

    # Requests, in the order of Protocol/README.md §11.

    def ping(self) -> dict[str, Any]:
        return cast(dict[str, Any], self.call("ping"))

    def fire(
        self,
        event: str,
        action: str | None = None,
        *,
        app: AppRef | None = None,
        level: str | None = None,
        by_user: bool = False,
        wait: bool = True,
        scene: int | None = None,
        session: int | None = None,
        url: str | None = None,
        activity: Mapping[str, Any] | None = None,
        push: Mapping[str, Any] | None = None,
    ) -> FireResult:
        """Fires an interruption, e.g. ``fire("call", "answer")``, ``fire("home")``,
        ``fire("terminate", app=app, by_user=True)``, ``fire("scene", "reclaim", app=app, scene=2)``; returns once
        its transitions completed (``wait=False``: once accepted). The scene members (§11.1): ``scene`` and
        ``session`` for the ``scene`` event, ``url`` for ``scene open`` and ``launch``, ``activity`` for ``scene
        open``, ``push`` (a tapped notification's payload) for ``launch``."""
        members = requests.SceneMembers(scene, session, url, activity, push)
        return cast(FireResult, self.call("fire", requests.fire(event, action, app, level, by_user, wait, members)))

    def launch(self, app: AppRef, *, url: str | None = None, push: Mapping[str, Any] | None = None) -> FireResult:
        """Launches an app (an installed one is started by the broker) and waits until it is in front; later
        expectations of it look at what follows the launch. ``url`` or ``push`` (a tapped notification's payload):
        a cold start's connection options, which a scene app finds in ``will_connect_to`` (a running one's focused
        scene gets ``open_url_contexts``)."""
        before = self._latest_seq()
        result = self.fire("launch", app=app, url=url, push=push)
        self._cursors[requests.app_id(app)] = Cursor(self._latest_seq(), before)
        return result

    def open_scene(
        self, app: AppRef, *, url: str | None = None, activity: Mapping[str, Any] | None = None
    ) -> FireResult:
        """``scene open``: a new window (its session new), with ``url`` and ``activity`` for ``will_connect_to``."""
        return self.fire("scene", "open", app=app, url=url, activity=activity)

    def close_scene(self, app: AppRef, scene: int | None = None) -> FireResult:
        """``scene close``: the switcher swipe of one scene, or of the whole app when ``scene`` is ``None``."""
        return self.fire("scene", "close", app=app, scene=scene)

    def reclaim_scene(self, app: AppRef, scene: int) -> FireResult:
        """``scene reclaim``: the system disconnects a background scene; its session (and payload) survives."""
        return self.fire("scene", "reclaim", app=app, scene=scene)

    def reconnect_scene(self, app: AppRef, session: int) -> FireResult:
        """``scene reconnect``: the user reopens a session without a scene: a new scene, the payload handed back."""
        return self.fire("scene", "reconnect", app=app, session=session)

    def focus_scene(self, app: AppRef, scene: int) -> FireResult:
        """``scene focus``: which visible scene is active (iPad)."""
        return self.fire("scene", "focus", app=app, scene=scene)

    def reset(self) -> FireResult:
        """Back to a fresh device (Protocol/README.md §11.1a)."""
        return cast(FireResult, self.call("reset"))

    def status(self, app: AppRef | None = None) -> Status:
        return cast(Status, self.call("status", requests.status(app)))

    def state(self, app: AppRef) -> str:
        """The app's lifecycle state now (``notRunning`` for an app the broker does not know)."""
        return state_in(self._status_or_none(app))

    def wait(
        self, app: AppRef, state: str | Sequence[str], timeout: float = 30.0, *, scene: int | None = None
    ) -> WaitResult:
        """Returns once the app is in ``state`` (or any of several); ``TimedOut`` after ``timeout`` seconds. With
        ``scene``, once that scene is in a scene state (``foregroundActive``…; a scene not connected, not yet or any
        more, is ``unattached``): the broker's scene ``wait`` (§11.3)."""
        return cast(WaitResult, self.call("wait", requests.wait(app, state, timeout, scene)))

    def history(
        self, app: AppRef | None = None, *, limit: int | None = None, before_seq: int | None = None
    ) -> list[JournalEntry]:
        """One page of journal entries, oldest first (Protocol/README.md §11.4)."""
        return cast(list[JournalEntry], self.call("history", requests.history(app, limit, before_seq))["entries"])

    def entries_since(self, seq: int, app: AppRef | None = None) -> list[JournalEntry]:
        """Every entry (of ``app``) the broker holds after journal number ``seq``, oldest first, across pages."""
        entries: list[JournalEntry] = []
        before: int | None = None
        while True:
            page = self.call("history", requests.history(app, None, before))
            items = cast(list[JournalEntry], page["entries"])
            entries = [entry for entry in items if entry["seq"] > seq] + entries
            if not page.get("more") or not items or items[0]["seq"] <= seq:
                return entries
            before = items[0]["seq"]

    def timeline(self, app: AppRef | None = None) -> str:
        """What the broker recorded since this controller connected (of ``app``), a line per entry."""
        return timeline(self.entries_since(self._connected_seq, app))

    def clock(self) -> ClockReading:
        return cast(ClockReading, self.call("clock"))

    def advance(self, seconds: float) -> ClockReading:
        """Moves a manual clock (``lifebusd --clock manual``) by ``seconds``, firing what falls due on the way;
        ``ClockNotManual`` on the real clock."""
        return cast(ClockReading, self.call("advance", requests.advance(seconds)))

    def install(self, manifest: Manifest) -> dict[str, Any]:
        """Installs an app from a manifest file or a manifest (Protocol/README.md §16); returns the installed app."""
        return cast(dict[str, Any], self.call("install", requests.install(manifest)))

    def uninstall(self, app: AppRef) -> None:
        self.call("uninstall", {"id": requests.app_id(app)})

    def apps(self) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], self.call("apps")["apps"])

    def expect(
        self,
        app: AppRef,
        *,
        callbacks: Sequence[str] | None = None,
        state: str | Sequence[str] | None = None,
        outcome: str | None = None,
        mark: str | None = None,
        data: Mapping[str, Any] | None = None,
        scene: int | None = None,
        within: float = 5.0,
    ) -> None:
        """Asserts what ``app`` went through since the previous ``expect`` of it (or its ``launch``, or this
        controller's connection): exactly ``callbacks`` in order, ``state`` now (or any of several), ``outcome`` for
        every transition (``ok``, ``late``, ``watchdog``…, ``failed`` for a handler that said it failed), a ``mark``
        (whose data holds ``data``); with ``scene``, of that scene: its callbacks (the app's marks still count) and
        its scene state now (``unattached`` when not connected). Looks again until it holds or ``within`` seconds
        passed; raises
        ``ExpectationFailed`` with the expected beside the recorded, the state, the last marks and the timeline."""
        __tracebackhide__ = True
        ident = requests.app_id(app)
        expectation = Expectation.of(callbacks, state, outcome, mark, data, scene)
        key = ident if scene is None else f"{ident}/{scene}"
        cursor = Cursor.latest(self._cursors.get(key), self._cursors.get(ident), Cursor.at(self._connected_seq))
        attempt = Attempt(ident, expectation, cursor, within, time.monotonic())
        while not attempt.judge(
            self.entries_since(attempt.after_seq, ident), self._state_for(ident, scene), time.monotonic()
        ):
            time.sleep(0.02)
        self._cursors[key] = attempt.conclude()

    def expect_from_now(self, app: AppRef) -> None:
        """Later ``expect`` of ``app`` look only at what is recorded after this call."""
        self._cursors[requests.app_id(app)] = Cursor.at(self._latest_seq())

    def _state_for(self, app: str, scene: int | None) -> str:
        return self.state(app) if scene is None else scene_state_in(self._status_or_none(app), scene)

    def _latest_seq(self) -> int:
        entries = self.history(limit=1)
        return int(entries[-1]["seq"]) if entries else 0

    def _status_or_none(self, app: AppRef) -> Status | None:
        try:
            return self.status(app)
        except LifebusError as error:
            if error.name == "lifebus.AppNotFound":
                return None
            raise
