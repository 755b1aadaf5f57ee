"""Errors: the broker's JSON-RPC errors as typed exceptions, and the client's own (unreachable, untrusted, closed)."""

from __future__ import annotations

from typing import Any


class LifebusError(Exception):
    """An error from the broker, or raised by the client in the broker's terms.

    Carries the JSON-RPC error object as the broker sent it: ``code``, ``message`` and ``data`` (whose ``name``,
    e.g. ``lifebus.EventRejected``, is what a program matches on; ``message`` is for people). The class is chosen
    by ``data.name`` (``from_error``), so ``except lifebus.EventRejected`` catches exactly that refusal.
    """

    #: The ``data.name`` this class stands for (the base class: any name).
    error_name = ""

    def __init__(self, code: int, message: str, data: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data: dict[str, Any] = data or {}

    @property
    def name(self) -> str:
        """The error's reverse-domain name (``data.name``), e.g. ``lifebus.TimedOut``."""
        return str(self.data.get("name", self.error_name))

    def __str__(self) -> str:
        return f"{self.message} ({self.name or self.code})"

    @staticmethod
    def from_error(error: Any) -> LifebusError:
        """The exception for a JSON-RPC error object (a malformed one still gives a ``LifebusError``)."""
        if not isinstance(error, dict):
            return ProtocolViolation(-32603, f"the broker sent a malformed error: {error!r}")
        data = error.get("data")
        data = data if isinstance(data, dict) else {}
        code = error.get("code")
        code = code if isinstance(code, int) else -32603
        kind = _BY_NAME.get(str(data.get("name", "")), LifebusError)
        return kind(code, str(error.get("message", "")), data)


class InvalidParams(LifebusError):
    """-32602: params of the wrong shape; ``field`` names the member at fault."""

    error_name = "jsonrpc.InvalidParams"

    @property
    def field(self) -> str | None:
        value = self.data.get("field")
        return value if isinstance(value, str) else None


class MethodNotFound(LifebusError):
    error_name = "jsonrpc.MethodNotFound"


class NotAllowedForRole(LifebusError):
    error_name = "lifebus.NotAllowedForRole"


class AppIDInUse(LifebusError):
    error_name = "lifebus.AppIDInUse"


class AppNotFound(LifebusError):
    error_name = "lifebus.AppNotFound"


class EventRejected(LifebusError):
    """The device refused an event in its current state; ``reason`` says why (``appNotRunning``…)."""

    error_name = "lifebus.EventRejected"

    @property
    def reason(self) -> str | None:
        value = self.data.get("reason")
        return value if isinstance(value, str) else None


class BrokerShuttingDown(LifebusError):
    error_name = "lifebus.BrokerShuttingDown"


class TimedOut(LifebusError):
    """A ``wait`` or a launch missed its deadline: a timeout, not a refusal (``data`` says what was seen)."""

    error_name = "lifebus.TimedOut"


class ConnectionClosed(LifebusError):
    """The connection ended before an answer came (raised by the client, never sent)."""

    error_name = "lifebus.ConnectionClosed"


class LimitExceeded(LifebusError):
    error_name = "lifebus.LimitExceeded"


class JournalUnavailable(LifebusError):
    error_name = "lifebus.JournalUnavailable"


class ClockNotManual(LifebusError):
    """``advance`` on a broker whose lifecycle runs on the real clock (start it with ``--clock manual``)."""

    error_name = "lifebus.ClockNotManual"


class LaunchFailed(LifebusError):
    error_name = "lifebus.LaunchFailed"


class ScenesUnsupported(LifebusError):
    """An app that adopts scenes said ``hello`` to a broker whose profile has none (ios3, ios4, ios7, Protocol §7.1);
    ``Application`` answers it by falling back to the app-delegate life cycle."""

    error_name = "lifebus.ScenesUnsupported"


class BrokerUnreachable(LifebusError):
    """No broker answered at the socket (raised by the client, as the CLI's exit 3)."""

    error_name = "lifebus.BrokerUnreachable"

    def __init__(self, message: str) -> None:
        super().__init__(-32011, message, {"name": self.error_name})


class UntrustedSocket(LifebusError):
    """The socket's folder or listener is not this user's own (Protocol §1): nothing was sent."""

    error_name = "lifebus.UntrustedSocket"

    def __init__(self, message: str) -> None:
        super().__init__(-32011, message, {"name": self.error_name})


class ProtocolViolation(LifebusError):
    """The broker sent something this client cannot read (never expected of a real broker)."""

    error_name = "jsonrpc.InternalError"


_BY_NAME: dict[str, type[LifebusError]] = {
    kind.error_name: kind
    for kind in (
        InvalidParams,
        MethodNotFound,
        NotAllowedForRole,
        AppIDInUse,
        AppNotFound,
        EventRejected,
        BrokerShuttingDown,
        TimedOut,
        ConnectionClosed,
        LimitExceeded,
        JournalUnavailable,
        ClockNotManual,
        LaunchFailed,
        ScenesUnsupported,
    )
}
