"""The controller against a real broker and real app processes: every request, and the broker's refusals as typed
errors."""

from __future__ import annotations

import asyncio
import os
import sys
import textwrap
from pathlib import Path

import pytest

import lifebus as lb
from lifebus import AppLauncher, Controller

from .support import wait_until


def test_fire_status_wait_and_history_follow_a_subscribed_program(
    lifebus: Controller, lifebus_app: AppLauncher
) -> None:
    app = lifebus_app.subscribe(
        "com.example.Sub",
        ["sleep", "600"],
        on={"didEnterBackground": "lifebus mark saved --data '{\"n\":1}'"},
        delay={"willResignActive": "50ms"},
    )
    assert lifebus.state(app) == "active"
    assert lifebus.ping()["pong"] is True

    fired = lifebus.fire("home")
    assert fired["event"] == "home"
    assert fired["completed"] is True
    assert [record["callback"] for record in fired["transitions"]] == ["willResignActive", "didEnterBackground", None]
    resigned = fired["transitions"][0]
    assert (resigned["answeredMs"] or 0) - resigned["sentMs"] >= 50

    assert lifebus.wait(app, ["background", "suspended"], timeout=5)["state"] in ("background", "suspended")
    status = lifebus.status(app)
    assert status["apps"][0]["id"] == "com.example.Sub"
    assert status["apps"][0]["state"] == "suspended"
    marks = [entry for entry in lifebus.history(app) if entry["type"] == "mark"]
    assert [(mark["name"], mark["data"]) for mark in marks] == [("saved", {"n": 1})]
    lifebus.expect(app, callbacks=["willResignActive", "didEnterBackground"], state="suspended", mark="saved")


def test_refusals_raise_the_brokers_error_by_name(lifebus: Controller) -> None:
    with pytest.raises(lb.EventRejected) as rejected:
        lifebus.fire("activate", app="com.example.Nobody")
    assert rejected.value.reason == "unknownApp"
    assert rejected.value.code == -32008

    with pytest.raises(lb.ClockNotManual):
        lifebus.advance(1)
    with pytest.raises(lb.AppNotFound):
        lifebus.status("com.example.Nobody")
    with pytest.raises(lb.TimedOut) as timed_out:
        lifebus.wait("com.example.Nobody", "active", timeout=0.05)
    assert timed_out.value.data["connected"] is False
    with pytest.raises(lb.InvalidParams) as invalid:
        lifebus.fire("call", app="com.example.Nobody")
    assert invalid.value.field == "app"


def test_an_absent_broker_is_unreachable(tmp_path: Path) -> None:
    with pytest.raises(lb.BrokerUnreachable, match="no broker at"):
        lb.connect(tmp_path / "none.sock")


def test_a_default_socket_in_a_folder_others_may_change_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("LIFEBUS_SOCKET", "XDG_RUNTIME_DIR"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    folder = tmp_path / f"lifebus-{os.getuid()}"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    with pytest.raises(lb.UntrustedSocket, match="mode 755"):
        lb.connect()


@pytest.mark.lifebus(clock="manual")
def test_advance_moves_a_manual_clock_through_a_background_tasks_expiry(
    lifebus: Controller, lifebus_app: AppLauncher
) -> None:
    expired: list[int] = []

    class Uploader(lb.ApplicationDelegate):
        async def did_enter_background(self, app: lb.Application) -> None:
            async def expire() -> None:
                expired.append(task)
                await app.end_background_task(task)

            task = await app.begin_background_task("upload", expire)

    app = lifebus_app.run("com.example.Uploader", Uploader())
    lifebus.fire("home")
    assert lifebus.state(app) == "background"
    reading = lifebus.advance(176)  # past the expiration warning, 5 s before the 180 s of background time end
    assert reading["clock"] == "manual"
    assert reading["nowMs"] == lifebus.clock()["nowMs"] == 176_000
    wait_until(lambda: lifebus.state(app) == "suspended", "the app ends its task when warned, and is suspended")
    assert len(expired) == 1
    lifebus.advance(10)  # past the end of the background time: nothing left to kill
    lifebus.expect(app, callbacks=["willResignActive", "didEnterBackground"], state="suspended", outcome="ok")


def test_an_installed_python_program_gets_its_restoration_state_back(
    lifebus: Controller, lifebus_app: AppLauncher, tmp_path: Path
) -> None:
    script = tmp_path / "notes.py"
    script.write_text(
        textwrap.dedent(
            """
            import lifebus

            class Notes(lifebus.ApplicationDelegate):
                async def did_finish_launching(self, app, options):
                    await app.mark("launched", {"reason": options.reason, "restored": options.restoration_state})

                def restoration_state(self, app):
                    return "draft: milk"

            lifebus.main("com.example.PyNotes", Notes())
            """
        )
    )
    environment = {"PYTHONPATH": os.pathsep.join(sys.path)}
    manifest = {"id": "com.example.PyNotes", "executable": sys.executable, "arguments": [str(script)]}
    app = lifebus_app.install({**manifest, "environment": environment})
    assert lifebus.apps()[0]["id"] == app.id
    lifebus.fire("home")
    lifebus.fire("terminate", app=app)
    lifebus.launch(app)
    lifebus.expect(app, state="active", mark="launched", data={"reason": "afterTerminate", "restored": "draft: milk"})


def test_the_asyncio_controller_overlaps_a_wait_with_the_fire_it_waits_for(lifebus_broker: lb.BrokerProcess) -> None:
    async def scenario() -> None:
        async with await lb.AsyncController.connect(lifebus_broker.socket_path) as controller:
            app = lb.Application("com.example.Async", socket=lifebus_broker.socket_path, own_process=True)
            serving = asyncio.create_task(app.run(lb.ApplicationDelegate()))
            await controller.expect(app, callbacks=["didFinishLaunching", "didBecomeActive"], state="active")
            left = asyncio.create_task(controller.wait(app, "suspended", timeout=10))
            await controller.fire("home", wait=False)
            assert (await left)["state"] == "suspended"
            await controller.expect(app, callbacks=["willResignActive", "didEnterBackground"], state="suspended")
            assert "willResignActive" in await controller.timeline(app)
            with pytest.raises(lb.EventRejected):
                await controller.fire("activate", app="com.example.Nobody")
            await controller.fire("terminate", app=app)
            await serving
            assert app.state == "notRunning"

    asyncio.run(scenario())
