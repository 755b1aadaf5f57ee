"""JSON-RPC 2.0 over lines (Protocol/README.md §2-4): the texts a peer writes and the reading of what it receives.

Pure functions, no I/O. A message is one compact JSON text and a newline; ids are the writer's integers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .errors import LifebusError, ProtocolViolation

PROTOCOL_VERSION = 1
CLIENT_NAME = "lifebus-python/0.1.0"

#: Longest line the broker accepts after ``hello`` (1 MiB), so a caller learns of an oversized request here.
MAX_LINE = 1 << 20


def request(id_: int, method: str, params: dict[str, Any] | None) -> bytes:
    """The line of a request (``params`` left out when ``None``)."""
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return _line(message)


def result(id_: Any, value: Any) -> bytes:
    """The line answering request ``id_`` with ``value``."""
    return _line({"jsonrpc": "2.0", "id": id_, "result": value})


def error(id_: Any, code: int, message: str) -> bytes:
    """The line answering request ``id_`` with an error."""
    return _line({"jsonrpc": "2.0", "id": id_, "error": {"code": code, "message": message}})


def hello(role: str, app: dict[str, Any] | None = None) -> dict[str, Any]:
    """``hello``'s params for ``role`` (``app`` the app's id and flags, for role ``app``)."""
    params: dict[str, Any] = {"role": role, "protocolVersion": PROTOCOL_VERSION, "client": CLIENT_NAME}
    if app is not None:
        params["app"] = app
    return params


@dataclass(frozen=True)
class Incoming:
    """One message read from the broker: a response (``id`` and ``result`` or ``error``), or a request or
    notification (``method``, ``params``, and ``id`` for a request)."""

    id: Any
    method: str | None
    params: Any
    result: Any
    error: Any

    @property
    def is_response(self) -> bool:
        return self.method is None

    def value(self) -> Any:
        """A response's result, or its error raised as the matching ``LifebusError``."""
        if self.error is not None:
            raise LifebusError.from_error(self.error)
        return self.result


def decode(line: bytes) -> list[Incoming]:
    """The messages of one line (a batch gives several). Raises ``ProtocolViolation`` for what no broker sends."""
    try:
        value = json.loads(line)
    except ValueError as problem:
        raise ProtocolViolation(-32700, f"the broker sent a line that is not JSON: {problem}") from problem
    items = value if isinstance(value, list) else [value]
    messages = []
    for item in items:
        if not isinstance(item, dict) or item.get("jsonrpc") != "2.0":
            raise ProtocolViolation(-32600, f"the broker sent a message that is not JSON-RPC 2.0: {item!r}")
        method = item.get("method")
        messages.append(
            Incoming(
                id=item.get("id"),
                method=method if isinstance(method, str) else None,
                params=item.get("params"),
                result=item.get("result"),
                error=item.get("error"),
            )
        )
    return messages


def _line(message: dict[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode() + b"\n"
