"""The plugin seen from pytest: settings by marker and option, a broker per test or per session, the timeline in
the report and the JUnit file, and no broker or app left behind — after a failure, an interrupt, or pytest killed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from .support import process_gone, wait_until

PIDS = """
import os

def record(path, *pids):
    with open(path, "a") as file:
        file.write(" ".join(map(str, pids)) + "\\n")
"""


def recorded_pids(pytester: pytest.Pytester) -> list[int]:
    return [int(word) for word in (pytester.path / "pids.txt").read_text().split()]


def test_the_marker_and_the_options_set_the_brokers_clock_and_profile(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.lifebus(clock="manual", profile="ios4")
        def test_marked(lifebus):
            assert lifebus.clock()["clock"] == "manual"
            assert lifebus.profile == "ios4"

        def test_by_option(lifebus):
            assert lifebus.clock()["clock"] == "manual"
            assert lifebus.advance(2.5)["nowMs"] == 2500
        """
    )
    pytester.runpytest("-p", "no:cacheprovider", "--lifebus-clock", "manual").assert_outcomes(passed=2)
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=1, failed=1)


def test_a_broker_per_test_by_default_and_one_per_session_on_request(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PIDS)
    pytester.makepyfile(
        """
        from conftest import record

        def test_one(lifebus_broker):
            record("pids.txt", lifebus_broker.pid)

        def test_two(lifebus_broker, lifebus):
            record("pids.txt", lifebus_broker.pid)
        """
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(passed=2)
    first, second = recorded_pids(pytester)
    assert first != second
    (pytester.path / "pids.txt").unlink()
    pytester.runpytest("-p", "no:cacheprovider", "--lifebus-broker=session").assert_outcomes(passed=2)
    first, second = recorded_pids(pytester)
    assert first == second
    assert process_gone(first)


def test_a_shared_broker_starts_each_test_without_the_previous_tests_apps(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import pytest

        @pytest.mark.parametrize("run", [1, 2])
        def test_sleeper(lifebus, lifebus_app, run):
            assert lifebus.status()["apps"] == []
            app = lifebus_app.subscribe("com.example.Sleeper", ["sleep", "600"])
            lifebus.fire("home")
            lifebus.expect(app, callbacks=["willResignActive", "didEnterBackground"], state="suspended")
        """
    )
    pytester.runpytest("-p", "no:cacheprovider", "--lifebus-broker=session").assert_outcomes(passed=2)


def test_a_failed_test_leaves_no_broker_and_no_app(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PIDS)
    pytester.makepyfile(
        """
        from conftest import record

        def test_fails(lifebus, lifebus_broker, lifebus_app):
            app = lifebus_app.subscribe("com.example.Sleeper", ["sleep", "600"])
            record("pids.txt", lifebus_broker.pid, lifebus.status(app)["apps"][0]["pid"])
            assert False, "on purpose"
        """
    )
    pytester.runpytest("-p", "no:cacheprovider").assert_outcomes(failed=1)
    broker, app = recorded_pids(pytester)
    assert process_gone(broker)
    wait_until(lambda: process_gone(app), "the app's process ends with its broker")


def test_an_interrupted_run_tears_its_broker_down(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PIDS)
    pytester.makepyfile(
        """
        from conftest import record

        def test_interrupted(lifebus_broker):
            record("pids.txt", lifebus_broker.pid)
            raise KeyboardInterrupt
        """
    )
    recorder = pytester.inline_run("-p", "no:cacheprovider", no_reraise_ctrlc=True)
    assert recorder.ret == pytest.ExitCode.INTERRUPTED
    (broker,) = recorded_pids(pytester)
    assert process_gone(broker)


def test_a_killed_pytest_leaves_no_broker_and_no_app(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(PIDS)
    pytester.makepyfile(
        """
        import time
        from conftest import record

        def test_killed(lifebus, lifebus_broker, lifebus_app):
            app = lifebus_app.subscribe("com.example.Sleeper", ["sleep", "600"])
            with open("folder.txt", "w") as file:
                file.write(lifebus_broker.folder)
            record("pids.txt", lifebus_broker.pid, lifebus.status(app)["apps"][0]["pid"])
            time.sleep(600)
        """
    )
    run = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q"],
        cwd=pytester.path,
        env=dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path)),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    pids = pytester.path / "pids.txt"
    wait_until(lambda: pids.exists() and pids.read_text().endswith("\n"), "the inner test starts", timeout=30)
    os.kill(run.pid, signal.SIGKILL)
    run.wait()
    broker, app = recorded_pids(pytester)
    try:
        wait_until(lambda: process_gone(broker), "the broker stops once its parent is gone (--exit-with-parent)")
        wait_until(lambda: process_gone(app), "the app's process ends with its broker")
    finally:
        # The killed pytest could not remove its broker's folder (BrokerProcess.stop never ran): the test does.
        shutil.rmtree((pytester.path / "folder.txt").read_text(), ignore_errors=True)


def test_the_timeline_is_in_the_junit_report(pytester: pytest.Pytester, tmp_path: Path) -> None:
    pytester.makepyfile(
        """
        from lifebus import ApplicationDelegate

        def test_home(lifebus, lifebus_app):
            lifebus_app.run("com.example.Junit", ApplicationDelegate())
            lifebus.fire("home")
        """
    )
    report = tmp_path / "report.xml"
    pytester.runpytest(
        "-p", "no:cacheprovider", f"--junitxml={report}", "-o", "junit_logging=system-out"
    ).assert_outcomes(passed=1)
    case = ElementTree.parse(report).getroot().find(".//testcase")
    assert case is not None
    properties = {item.get("name"): item.get("value") for item in case.iterfind("properties/property")}
    timeline = properties["lifebus-timeline"] or ""
    assert "com.example.Junit willResignActive active -> inactive (ok, home)" in timeline
    system_out = case.findtext("system-out") or ""
    assert "com.example.Junit didEnterBackground inactive -> background (ok, home)" in system_out
