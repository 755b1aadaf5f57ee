"""The asyncio controller: the synchronous ``Controller``'s requests, awaited (and several may be in flight)."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping, Sequence
from types import TracebackType
from typing import Any, cast

from . import requests, socket_path, wire
from .aio_connection import AsyncConnection
from .errors import BrokerUnreachable, LifebusError
from .expectation import Attempt, Cursor, Expectation, timeline
from .records import ClockReading, FireResult, JournalEntry, Status, WaitResult, scene_state_in, state_in
from .requests import AppRef, Manifest


class AsyncController:
    """A ``controller`` connection for asyncio code: the same methods as ``Controller``, as coroutines. Bound to the
    event loop it connected on; requests may overlap (a ``fire(wait=False)`` and a ``wait`` at once).
    ``expect`` looks, per app, at what was recorded since the previous ``expect`` of it, its ``launch``, or the
    connection."""

    def __init__(self, connection: AsyncConnection, hello: dict[str, Any], connected_seq: int) -> None:
        self._connection = connection
        self.hello = hello
        self._connected_seq = connected_seq
        self._cursors: dict[str, Cursor] = {}

    @classmethod
    async def connect(cls, socket: str | os.PathLike[str] | None = None, *, retry_for: float = 0.0) -> AsyncController:
        """Connects and says ``hello`` (retrying for up to ``retry_for`` seconds while no broker answers)."""
        path = socket_path.resolve(socket)
        deadline = time.monotonic() + retry_for
        pause = 0.01
        while True:
            try:
                connection = await AsyncConnection.open(path)
                break
            except BrokerUnreachable:
                if time.monotonic() + pause > deadline:
                    raise
                await asyncio.sleep(pause)
                pause = min(pause * 2, 0.1)
        hello = await connection.call("hello", wire.hello("controller"))
        entries = (await connection.call("history", {"limit": 1}))["entries"]
        return cls(connection, hello, int(entries[-1]["seq"]) if entries else 0)

    @property
    def socket_path(self) -> str:
        return self._connection.path

    @property
    def profile(self) -> str:
        return str(self.hello.get("profile"))

    async def close(self) -> None:
        await self._connection.close()

    async def __aenter__(self) -> AsyncController:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        await self.close()

    async def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        return await self._connection.call(method, params)

    async def ping(self) -> dict[str, Any]:
        return cast(dict[str, Any], await self.call("ping"))

    async def fire(
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
        """``Controller.fire``, awaited."""
        members = requests.SceneMembers(scene, session, url, activity, push)
        params = requests.fire(event, action, app, level, by_user, wait, members)
        return cast(FireResult, await self.call("fire", params))

    async def launch(self, app: AppRef, *, url: str | None = None, push: Mapping[str, Any] | None = None) -> FireResult:
        """``Controller.launch``, awaited."""
        before = await self._latest_seq()
        result = await self.fire("launch", app=app, url=url, push=push)
        self._cursors[requests.app_id(app)] = Cursor(await self._latest_seq(), before)
        return result

    async def open_scene(
        self, app: AppRef, *, url: str | None = None, activity: Mapping[str, Any] | None = None
    ) -> FireResult:
        """``scene open``: a new window (its session new), with ``url`` and ``activity`` for ``will_connect_to``."""
        return await self.fire("scene", "open", app=app, url=url, activity=activity)

    async def close_scene(self, app: AppRef, scene: int | None = None) -> FireResult:
        """``scene close``: the switcher swipe of one scene, or of the whole app when ``scene`` is ``None``."""
        return await self.fire("scene", "close", app=app, scene=scene)

    async def reclaim_scene(self, app: AppRef, scene: int) -> FireResult:
        """``scene reclaim``: the system disconnects a background scene; its session (and payload) survives."""
        return await self.fire("scene", "reclaim", app=app, scene=scene)

    async def reconnect_scene(self, app: AppRef, session: int) -> FireResult:
        """``scene reconnect``: the user reopens a session without a scene: a new scene, the payload handed back."""
        return await self.fire("scene", "reconnect", app=app, session=session)

    async def focus_scene(self, app: AppRef, scene: int) -> FireResult:
        """``scene focus``: which visible scene is active (iPad)."""
        return await self.fire("scene", "focus", app=app, scene=scene)

    async def reset(self) -> FireResult:
        return cast(FireResult, await self.call("reset"))

    async def status(self, app: AppRef | None = None) -> Status:
        return cast(Status, await self.call("status", requests.status(app)))

    async def state(self, app: AppRef) -> str:
        try:
            return state_in(await self.status(app))
        except LifebusError as error:
            if error.name == "lifebus.AppNotFound":
                return "notRunning"
            raise

    async def wait(
        self, app: AppRef, state: str | Sequence[str], timeout: float = 30.0, *, scene: int | None = None
    ) -> WaitResult:
        """``Controller.wait``, awaited."""
        return cast(WaitResult, await self.call("wait", requests.wait(app, state, timeout, scene)))

    async def history(
        self, app: AppRef | None = None, *, limit: int | None = None, before_seq: int | None = None
    ) -> list[JournalEntry]:
        page = await self.call("history", requests.history(app, limit, before_seq))
        return cast(list[JournalEntry], page["entries"])

    async def entries_since(self, seq: int, app: AppRef | None = None) -> list[JournalEntry]:
        entries: list[JournalEntry] = []
        before: int | None = None
        while True:
            page = await self.call("history", requests.history(app, None, before))
            items = cast(list[JournalEntry], page["entries"])
            entries = [entry for entry in items if entry["seq"] > seq] + entries
            if not page.get("more") or not items or items[0]["seq"] <= seq:
                return entries
            before = items[0]["seq"]

    async def timeline(self, app: AppRef | None = None) -> str:
        return timeline(await self.entries_since(self._connected_seq, app))

    async def clock(self) -> ClockReading:
        return cast(ClockReading, await self.call("clock"))

    async def advance(self, seconds: float) -> ClockReading:
        return cast(ClockReading, await self.call("advance", requests.advance(seconds)))

    async def install(self, manifest: Manifest) -> dict[str, Any]:
        return cast(dict[str, Any], await self.call("install", requests.install(manifest)))

    async def uninstall(self, app: AppRef) -> None:
        await self.call("uninstall", {"id": requests.app_id(app)})

    async def apps(self) -> list[dict[str, Any]]:
        return cast(list[dict[str, Any]], (await self.call("apps"))["apps"])

    async def expect(
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
        """``Controller.expect``, awaited."""
        __tracebackhide__ = True
        ident = requests.app_id(app)
        expectation = Expectation.of(callbacks, state, outcome, mark, data, scene)
        key = ident if scene is None else f"{ident}/{scene}"
        cursor = Cursor.latest(self._cursors.get(key), self._cursors.get(ident), Cursor.at(self._connected_seq))
        attempt = Attempt(ident, expectation, cursor, within, time.monotonic())
        while not attempt.judge(
            await self.entries_since(attempt.after_seq, ident), await self._state_for(ident, scene), time.monotonic()
        ):
            await asyncio.sleep(0.02)
        self._cursors[key] = attempt.conclude()

    async def expect_from_now(self, app: AppRef) -> None:
        self._cursors[requests.app_id(app)] = Cursor.at(await self._latest_seq())

    async def _state_for(self, app: str, scene: int | None) -> str:
        if scene is None:
            return await self.state(app)
        try:
            return scene_state_in(await self.status(app), scene)
        except LifebusError as error:
            if error.name == "lifebus.AppNotFound":
                return "unattached"
            raise

    async def _latest_seq(self) -> int:
        entries = await self.history(limit=1)
        return int(entries[-1]["seq"]) if entries else 0
