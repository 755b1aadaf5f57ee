"""One asyncio connection to the broker: requests matched to their answers by id, and the broker's own requests
(an app's callbacks) and notifications handed to the owner. Bound to the event loop it was opened on."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
from collections.abc import Awaitable, Callable
from typing import Any

from . import relay, socket_path, wire
from .errors import ConnectionClosed, LifebusError

#: Called for each request the broker sends: its method, params and id; answer with ``respond``.
RequestHandler = Callable[[str, Any, Any], Awaitable[None]]
#: Called for each notification the broker sends: its method and params.
NotificationHandler = Callable[[str, Any], Awaitable[None]]


async def _ignore_request(method: str, params: Any, ident: Any) -> None:
    return None


async def _ignore_notification(method: str, params: Any) -> None:
    return None


class AsyncConnection:
    """Owns the stream, the reading task, the pending requests and the relay process it goes through, if any.
    Invariant: once ``closed`` is set every pending request has failed with ``ConnectionClosed`` (or the
    ``lifebus.error`` the broker sent before closing)."""

    def __init__(
        self,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        path: str,
        on_request: RequestHandler,
        on_notification: NotificationHandler,
    ) -> None:
        self.path = path
        self._reader = reader
        self._writer = writer
        self._on_request = on_request
        self._on_notification = on_notification
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._next_id = 0
        self._farewell: LifebusError | None = None
        self._handlers: set[asyncio.Task[None]] = set()
        self._relay: subprocess.Popen[bytes] | None = None
        self.closed = asyncio.Event()
        self._reading = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(
        cls,
        path: str,
        on_request: RequestHandler = _ignore_request,
        on_notification: NotificationHandler = _ignore_notification,
        *,
        through_relay: bool = False,
    ) -> AsyncConnection:
        """Connects to ``path`` after the trust checks (``socket_path.connect``), or through a relay process of its
        own (``lifebus.relay``) that makes them."""
        relay_process = None
        if through_relay:
            sock, relay_process = relay.start(path)
        else:
            sock = socket_path.connect(path, timeout=5.0)
        sock.setblocking(False)
        reader, writer = await asyncio.open_unix_connection(sock=sock, limit=wire.MAX_LINE + 1)
        connection = cls(reader, writer, path, on_request, on_notification)
        connection._relay = relay_process
        return connection

    async def call(self, method: str, params: dict[str, Any] | None = None) -> Any:
        """Sends a request and returns its result, or raises its error."""
        if self.closed.is_set():
            raise self._closed_error(method)
        self._next_id += 1
        ident = self._next_id
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[ident] = answer
        try:
            self._writer.write(wire.request(ident, method, params))
            await self._writer.drain()
            return await answer
        finally:
            self._pending.pop(ident, None)

    async def respond(self, ident: Any, value: Any) -> None:
        """Answers one of the broker's requests (nothing happens once the connection is closed)."""
        await self._send(wire.result(ident, value))

    async def respond_error(self, ident: Any, code: int, message: str) -> None:
        await self._send(wire.error(ident, code, message))

    async def close(self) -> None:
        """Closes the stream, waits for the reading task to end, and reaps the relay process, if any."""
        self._writer.close()
        with contextlib.suppress(OSError):
            await self._writer.wait_closed()
        await self._reading
        if self._relay is not None:
            await asyncio.to_thread(relay.reap, self._relay)
            self._relay = None

    async def _send(self, line: bytes) -> None:
        if self.closed.is_set():
            return
        try:
            self._writer.write(line)
            await self._writer.drain()
        except OSError:
            self._writer.close()

    async def _read(self) -> None:
        try:
            while True:
                try:
                    line = await self._reader.readline()
                except (OSError, ValueError):
                    break
                if not line:
                    break
                for message in wire.decode(line):
                    self._dispatch(message)
        finally:
            self.closed.set()
            for ident, answer in self._pending.items():
                if not answer.done():
                    answer.set_exception(self._closed_error(f"request {ident}"))

    def _dispatch(self, message: wire.Incoming) -> None:
        if message.is_response:
            answer = self._pending.get(message.id) if isinstance(message.id, int) else None
            if answer is not None and not answer.done():
                if message.error is not None:
                    answer.set_exception(LifebusError.from_error(message.error))
                else:
                    answer.set_result(message.result)
            return
        method = message.method or ""
        if method == "lifebus.error":
            self._farewell = LifebusError.from_error(message.params)
        if message.id is None:
            self._spawn(self._on_notification(method, message.params))
        else:
            self._spawn(self._on_request(method, message.params, message.id))

    def _spawn(self, work: Awaitable[None]) -> None:
        async def run() -> None:
            await work

        task = asyncio.get_running_loop().create_task(run())
        self._handlers.add(task)
        task.add_done_callback(self._handlers.discard)

    def _closed_error(self, what: str) -> LifebusError:
        if self._farewell is not None:
            return self._farewell
        return ConnectionClosed(-32011, f"the connection to {self.path} ended before {what} was answered")
