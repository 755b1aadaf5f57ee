"""Scenes from Python against a real broker: an in-process app with a ``SceneDelegate`` answered when its methods
return (its ``state_restoration_activity`` the payload the broker keeps and hands back), the controller's scene
events, launch with a URL or a push, the broker's scene ``wait``, ``status`` scenes and ``expect(..., scene=N)``; and
one test run under every profile, where the same app falls back to the app-delegate life cycle under ios3, ios4 and
ios7 (its hello refused with ``ScenesUnsupported``) as iOS 12 runs an app with a scene manifest."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import lifebus as lb
from lifebus import (
    AppLauncher,
    Application,
    ApplicationDelegate,
    Controller,
    Scene,
    SceneConnectionOptions,
    SceneDelegate,
    SceneSession,
)

APP = "com.example.PyNotes"
SCENE_PROFILES = ("ios13", "ios15", "ios17", "ios26", "ios27")


class Notes(ApplicationDelegate, SceneDelegate):
    """Both delegates: records every callback, saves in both life cycles, keeps each scene's note as its payload."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.connected: list[tuple[int, int, SceneConnectionOptions, Any]] = []
        self.urls: list[str] = []

    def did_become_active(self, app: Application) -> None:
        self.seen.append("didBecomeActive")

    async def did_enter_background(self, app: Application) -> None:
        self.seen.append("didEnterBackground")
        await app.mark("state-saved", {"by": "didEnterBackground"})

    def configuration_for_connecting(self, app: Application) -> None:
        self.seen.append("configurationForConnecting")

    def will_connect_to(
        self, app: Application, scene: Scene, session: SceneSession, options: SceneConnectionOptions
    ) -> None:
        self.seen.append("willConnectTo")
        self.connected.append((scene.id, session.persistent_identifier, options, session.state_restoration_activity))

    def scene_did_become_active(self, app: Application, scene: Scene) -> None:
        self.seen.append("sceneDidBecomeActive")

    async def scene_did_enter_background(self, app: Application, scene: Scene) -> None:
        self.seen.append("sceneDidEnterBackground")
        await app.mark("state-saved", {"by": "sceneDidEnterBackground", "scene": scene.id})

    async def state_restoration_activity(self, app: Application, scene: Scene) -> Any:
        self.seen.append("stateRestorationActivity")
        return {"note": scene.session.persistent_identifier * 10}

    def open_url_contexts(self, app: Application, scene: Scene, urls: tuple[str, ...]) -> None:
        self.urls.extend(urls)


@pytest.mark.lifebus(profile="ios17")
def test_a_scene_app_lives_the_scene_life_cycle_driven_and_watched_from_python(
    lifebus: Controller, lifebus_app: AppLauncher
) -> None:
    notes = Notes()
    launched = lifebus_app.run(APP, notes, notes, supports_multiple_scenes=True, implements=["sceneDidEnterBackground"])
    app = launched.application
    assert app is not None
    assert not app.fell_back_from_scenes
    assert notes.seen == ["configurationForConnecting", "willConnectTo", "sceneDidBecomeActive"]
    assert lifebus.wait(APP, "foregroundActive", timeout=5, scene=1)["session"] == 1

    opened = lifebus.open_scene(APP, url="notes://note/7", activity={"type": "edit"})
    assert [(t["callback"], t.get("scene")) for t in opened["transitions"] if t["callback"] == "willConnectTo"] == [
        ("willConnectTo", 2)
    ]
    scene, session, options, restored = notes.connected[-1]
    assert (scene, session, restored) == (2, 2, None)
    assert options == SceneConnectionOptions(("notes://note/7",), None, {"type": "edit"})
    reached = lifebus.wait(APP, ["foregroundActive"], timeout=5, scene=2)
    assert (reached["scene"], reached["session"], reached["state"]) == (2, 2, "foregroundActive")
    with pytest.raises(lb.TimedOut) as late:
        lifebus.wait(APP, "background", timeout=0.2, scene=2)
    assert late.value.data["sceneState"] == "foregroundActive"

    lifebus.expect_from_now(APP)
    lifebus.fire("home")
    lifebus.expect(APP, scene=2, callbacks=["sceneWillResignActive", "sceneDidEnterBackground"], state="background",
                   mark="state-saved", data={"by": "sceneDidEnterBackground", "scene": 2})  # fmt: skip
    lifebus.reclaim_scene(APP, 2)
    lifebus.expect(APP, scene=2, callbacks=["stateRestorationActivity", "sceneDidDisconnect"], state="unattached")
    assert lifebus.wait(APP, "unattached", timeout=1, scene=2)["state"] == "unattached"
    sessions = lifebus.status(APP)["apps"][0]["scenes"]
    assert [(s["session"], s.get("scene"), s["restoration"]) for s in sessions] == [(1, 1, False), (2, None, True)]
    assert 2 not in app.scenes
    assert app.sessions[2].persistent_identifier == 2

    lifebus.reconnect_scene(APP, 2)
    scene, session, _, restored = notes.connected[-1]
    assert (scene, session, restored) == (3, 2, {"note": 20}), "the reconnected session's payload comes back"
    lifebus.wait(APP, "foregroundActive", timeout=5, scene=3)
    lifebus.launch(APP, url="notes://note/9")
    assert notes.urls == ["notes://note/9"]
    with pytest.raises(lb.ExpectationFailed, match="scene 3 state  expected: background"):
        lifebus.expect(APP, scene=3, state="background", within=0.1)
    with pytest.raises(lb.InvalidParams):
        lifebus.fire("launch", app=APP, url="notes://x", push={"aps": {}})


def test_one_scene_app_under_every_profile(lifebus: Controller, lifebus_app: AppLauncher, lifebus_profile: str) -> None:
    notes = Notes()
    launched = lifebus_app.run(APP, notes, notes, implements=["didEnterBackground", "sceneDidEnterBackground"])
    app = launched.application
    assert app is not None
    lifebus.fire("home")
    if lifebus_profile not in SCENE_PROFILES:
        assert app.fell_back_from_scenes, "a profile without scenes runs it as an app-delegate app"
        ending = "willTerminate" if lifebus_profile == "ios3" else "didEnterBackground"
        left = ["willResignActive", ending]
        lifebus.expect(APP, callbacks=left, state=["suspended", "notRunning"])
        assert "willConnectTo" not in notes.seen
        return
    assert not app.fell_back_from_scenes
    lifebus.expect(APP, callbacks=["sceneWillResignActive", "sceneDidEnterBackground"], state="suspended",
                   mark="state-saved", data={"by": "sceneDidEnterBackground", "scene": 1})  # fmt: skip
    lifebus.expect(APP, scene=1, state="background")
    assert "didEnterBackground" not in notes.seen


@pytest.mark.lifebus(profile="ios26")
def test_the_asyncio_controller_fires_scene_events_and_waits_for_a_scene(
    lifebus: Controller, lifebus_app: AppLauncher
) -> None:
    notes = Notes()
    lifebus_app.run(APP, notes, notes, supports_multiple_scenes=True)

    async def drive() -> None:
        async with await lb.AsyncController.connect(lifebus.socket_path) as controller:
            waiting = asyncio.create_task(controller.wait(APP, "foregroundActive", timeout=5, scene=2))
            await controller.open_scene(APP)
            assert (await waiting)["session"] == 2
            await controller.focus_scene(APP, 1)
            await controller.expect(APP, scene=1, state="foregroundActive")
            await controller.close_scene(APP, 2)
            assert (await controller.wait(APP, "unattached", timeout=1, scene=2))["state"] == "unattached"
            sessions = (await controller.status(APP))["apps"][0]["scenes"]
            assert [s["session"] for s in sessions] == [1], "closing the window discarded its session (ios17 on)"

    asyncio.run(drive())


@pytest.mark.lifebus(profile="ios27")
def test_a_cold_start_from_a_push_reaches_will_connect_to(lifebus: Controller, lifebus_app: AppLauncher) -> None:
    accepted = lifebus.fire("launch", app=APP, push={"aps": {"alert": "note 7"}}, wait=False)
    assert accepted["event"].startswith(f"launch {APP} --push")
    notes = Notes()
    lifebus_app.run(APP, notes, notes)
    _, _, options, _ = notes.connected[0]
    assert options.notification_response == {"aps": {"alert": "note 7"}}
    assert options.url_contexts == ()
