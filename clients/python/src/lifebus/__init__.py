"""Lifebus from Python: drive a broker (``Controller``, ``AsyncController``), be an app on it (``Application`` and
``ApplicationDelegate``, and ``SceneDelegate`` for a scene app), start a private one (``BrokerProcess``); the pytest
plugin is ``lifebus.pytest_plugin``.

Speaks Protocol/README.md directly (JSON-RPC 2.0, one message per line, on the broker's Unix socket); standard
library only.
"""

from .aio import AsyncController
from .application import (
    Application,
    ApplicationDelegate,
    Callback,
    LaunchOptions,
    Scene,
    SceneConnectionOptions,
    SceneDelegate,
    SceneSession,
    main,
)
from .broker import BrokerProcess, BrokerStartFailed, profiles, program
from .controller import Controller
from .errors import (
    AppIDInUse,
    AppNotFound,
    BrokerShuttingDown,
    BrokerUnreachable,
    ClockNotManual,
    ConnectionClosed,
    EventRejected,
    InvalidParams,
    JournalUnavailable,
    LaunchFailed,
    LifebusError,
    LimitExceeded,
    MethodNotFound,
    NotAllowedForRole,
    ProtocolViolation,
    ScenesUnsupported,
    TimedOut,
    UntrustedSocket,
)
from .expectation import ExpectationFailed
from .launcher import AppLauncher, LaunchedApp

connect = Controller.connect

__all__ = [
    "AppIDInUse",
    "AppLauncher",
    "AppNotFound",
    "Application",
    "ApplicationDelegate",
    "AsyncController",
    "BrokerProcess",
    "BrokerShuttingDown",
    "BrokerStartFailed",
    "BrokerUnreachable",
    "Callback",
    "ClockNotManual",
    "ConnectionClosed",
    "Controller",
    "EventRejected",
    "ExpectationFailed",
    "InvalidParams",
    "JournalUnavailable",
    "LaunchFailed",
    "LaunchOptions",
    "LaunchedApp",
    "LifebusError",
    "LimitExceeded",
    "MethodNotFound",
    "NotAllowedForRole",
    "ProtocolViolation",
    "Scene",
    "SceneConnectionOptions",
    "SceneDelegate",
    "SceneSession",
    "ScenesUnsupported",
    "TimedOut",
    "UntrustedSocket",
    "connect",
    "main",
    "profiles",
    "program",
]
