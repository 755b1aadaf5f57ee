"""The pytest plugin (entry point ``pytest11``): a private broker, a controller and apps as fixtures, and the
broker's timeline in every report of a test that used them.

Fixtures: ``lifebus_broker`` (a ``BrokerProcess``), ``lifebus`` (a ``Controller`` on it), ``lifebus_app`` (an
``AppLauncher``), ``lifebus_profile`` (parametrizes a test over every profile ``lifebusd --help`` lists). The
broker's settings come from the marker ``@pytest.mark.lifebus(profile=…, clock="manual", arguments=[…])``, then
the options ``--lifebus-profile``, ``--lifebus-clock``; ``--lifebus-broker=session`` shares one broker per settings
across the session (reset before each test) instead of one per test.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .broker import BrokerProcess, profiles
from .controller import Controller
from .errors import LifebusError
from .launcher import AppLauncher

#: The JUnit property that carries a test's timeline, and the heading of the timeline in its captured output.
TIMELINE_PROPERTY = "lifebus-timeline"
TIMELINE_HEADING = "lifebus timeline:"

BrokerSettings = tuple[str | None, str | None, tuple[str, ...]]


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("lifebus", "Lifebus: a private broker per test")
    group.addoption(
        "--lifebus-clock", choices=["real", "manual"], default=None, help="the brokers' clock (default: real)"
    )
    group.addoption("--lifebus-profile", default=None, help="the brokers' device profile (default: lifebusd's)")
    group.addoption(
        "--lifebus-broker",
        choices=["test", "session"],
        default="test",
        help="a broker per test (default), or one per settings shared by the session, reset before each test",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "lifebus(profile=None, clock=None, arguments=()): the settings of this test's private broker "
        "(clock 'manual': virtual time, moved by lifebus.advance)",
    )


_PROFILES = pytest.StashKey[list[str]]()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "lifebus_profile" in metafunc.fixturenames:
        stash = metafunc.config.stash
        if _PROFILES not in stash:
            stash[_PROFILES] = profiles()  # asked of lifebusd once per session
        every: list[str] = stash[_PROFILES]
        metafunc.parametrize("lifebus_profile", every, indirect=True)


@pytest.fixture
def lifebus_profile(request: pytest.FixtureRequest) -> str:
    """The profile this run of a test plays: asking for it runs the test once per profile of the broker."""
    return str(request.param)


class _BrokerPool:
    """The brokers shared by a session under ``--lifebus-broker=session``, one per settings; stopped at its end."""

    def __init__(self) -> None:
        self.brokers: dict[BrokerSettings, BrokerProcess] = {}

    def get(self, settings: BrokerSettings) -> BrokerProcess:
        if settings not in self.brokers:
            profile, clock, arguments = settings
            self.brokers[settings] = BrokerProcess(profile=profile, clock=clock, arguments=arguments)
        return self.brokers[settings]

    def stop(self) -> None:
        for broker in self.brokers.values():
            broker.stop()
        self.brokers.clear()


@pytest.fixture(scope="session")
def _lifebus_broker_pool() -> Iterator[_BrokerPool]:
    pool = _BrokerPool()
    try:
        yield pool
    finally:
        pool.stop()


@pytest.fixture
def lifebus_broker(request: pytest.FixtureRequest, _lifebus_broker_pool: _BrokerPool) -> Iterator[BrokerProcess]:
    """A private ``lifebusd`` on a temporary socket, stopped after the test (pass or fail, or pytest interrupted;
    it also stops by itself should pytest die: ``--exit-with-parent``)."""
    settings = _settings(request)
    if request.config.getoption("lifebus_broker") == "session":
        yield _lifebus_broker_pool.get(settings)
        return
    profile, clock, arguments = settings
    broker = BrokerProcess(profile=profile, clock=clock, arguments=arguments)
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture
def lifebus(request: pytest.FixtureRequest, lifebus_broker: BrokerProcess) -> Iterator[Controller]:
    """A controller connected to ``lifebus_broker``."""
    controller = Controller.connect(lifebus_broker.socket_path, retry_for=5.0)
    if request.config.getoption("lifebus_broker") == "session":
        controller.reset()
    try:
        yield controller
    finally:
        controller.close()


@pytest.fixture
def lifebus_app(lifebus: Controller) -> Iterator[AppLauncher]:
    """Puts apps on the bus (``subscribe`` a program, ``install`` a manifest, ``run`` an in-process ``Application``)
    and ends them after the test."""
    launcher = AppLauncher(lifebus)
    try:
        yield launcher
    finally:
        launcher.close()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> None:
    """Attaches the broker's timeline to the test's report: as the JUnit property ``lifebus-timeline``, and as
    captured output of the test (headed ``lifebus timeline:``), which pytest prints with a failure and JUnit writes
    to ``system-out`` (with ``junit_logging=system-out``)."""
    timeline = _timeline(item) if call.when == "call" else None
    if timeline:
        item.user_properties.append((TIMELINE_PROPERTY, timeline))
        item.add_report_section("call", "stdout", f"{TIMELINE_HEADING}\n{timeline}\n")


def _timeline(item: pytest.Item) -> str | None:
    controller = getattr(item, "funcargs", {}).get("lifebus")
    if not isinstance(controller, Controller):
        return None
    try:
        return controller.timeline() or None
    except (LifebusError, OSError):
        return None


def _settings(request: pytest.FixtureRequest) -> BrokerSettings:
    marker = request.node.get_closest_marker("lifebus")
    options: dict[str, Any] = dict(marker.kwargs) if marker else {}
    unknown = set(options) - {"profile", "clock", "arguments"}
    if unknown:
        raise pytest.UsageError(f"@pytest.mark.lifebus takes profile, clock and arguments, not {sorted(unknown)}")
    profile = options.get("profile") or request.config.getoption("lifebus_profile")
    if "lifebus_profile" in request.fixturenames:
        profile = request.getfixturevalue("lifebus_profile")
    clock = options.get("clock") or request.config.getoption("lifebus_clock")
    return profile, clock, tuple(options.get("arguments", ()))
