"""The app side in the test's process: delegate methods plain or async, answered when they return; a handler that
raises or reports a failure is journaled failed; a watchdog kill ends the app's relay, not the test run."""

from __future__ import annotations

import asyncio

import pytest

from lifebus import AppLauncher, Application, ApplicationDelegate, Controller, LaunchOptions

from .support import wait_until


class Recorder(ApplicationDelegate):
    """Records every callback it is given and marks the ones it has an opinion on."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.options: LaunchOptions | None = None

    def did_finish_launching(self, app: Application, options: LaunchOptions) -> None:
        self.seen.append("didFinishLaunching")
        self.options = options

    def did_become_active(self, app: Application) -> None:
        self.seen.append("didBecomeActive")

    async def will_resign_active(self, app: Application) -> None:
        self.seen.append("willResignActive")
        assert app.current_callback is not None
        await app.mark("resigning", {"state": app.state, "callback": app.current_callback.name})

    def did_enter_background(self, app: Application) -> None:
        self.seen.append("didEnterBackground")
        raise RuntimeError("the disk is full")

    def did_receive_memory_warning(self, app: Application) -> None:
        self.seen.append("didReceiveMemoryWarning")
        app.report_handler_failure()


def test_callbacks_reach_the_delegate_and_failures_are_journaled(lifebus: Controller, lifebus_app: AppLauncher) -> None:
    delegate = Recorder()
    app = lifebus_app.run("com.example.Recorder", delegate)
    assert delegate.seen == ["didFinishLaunching", "didBecomeActive"]
    assert delegate.options == LaunchOptions()
    lifebus.fire("memory-warning")
    lifebus.expect(app, callbacks=["didReceiveMemoryWarning"], state="active", outcome="failed")
    lifebus.fire("home")
    lifebus.expect(app, callbacks=["willResignActive", "didEnterBackground"], mark="resigning",
                   data={"state": "inactive", "callback": "willResignActive"})  # fmt: skip
    entries = lifebus.history(app)
    failed = [entry["callback"] for entry in entries if entry.get("handlerFailed")]
    assert failed == ["didReceiveMemoryWarning", "didEnterBackground"]
    assert delegate.seen[-2:] == ["willResignActive", "didEnterBackground"]


@pytest.mark.lifebus(arguments=["--budget", "didEnterBackground=200ms"])
def test_a_watchdog_kill_ends_the_in_process_app_and_spares_the_test(
    lifebus: Controller, lifebus_app: AppLauncher
) -> None:
    class Slow(ApplicationDelegate):
        async def did_enter_background(self, app: Application) -> None:
            await asyncio.sleep(30)

    launched = lifebus_app.run("com.example.Slow", Slow())
    fired = lifebus.fire("home")
    assert [record["outcome"] for record in fired["transitions"]] == ["ok", "watchdog"]
    lifebus.expect(launched, callbacks=["willResignActive", "didEnterBackground"], state="notRunning")
    application = launched.application
    assert application is not None
    wait_until(lambda: application.state == "notRunning", "the app sees its connection end as its process's")


def test_the_launch_options_url_and_tapped_notification_reach_the_delegate() -> None:
    from lifebus.application import CALLBACKS

    options = LaunchOptions.of({"state": "inactive", "launchOptions": {"url": "notes://7"}})
    assert options.url == "notes://7"
    assert options.remote_notification is None
    assert LaunchOptions.of({"state": "inactive"}).url is None

    class Links(ApplicationDelegate):
        def __init__(self) -> None:
            self.seen: list[object] = []

        def open_url(self, app: Application, url: str) -> None:
            self.seen.append(url)

        def did_receive_notification_response(self, app: Application, payload: object) -> None:
            self.seen.append(payload)

    delegate = Links()
    app = Application("com.example.Links")
    CALLBACKS["openURL"](delegate, app, {"url": "notes://8"})
    CALLBACKS["didReceiveNotificationResponse"](delegate, app, {"payload": {"note": 9}})
    assert delegate.seen == ["notes://8", {"note": 9}]


@pytest.mark.lifebus(arguments=["--profile", "ios17"])
def test_a_notification_in_front_is_presented_as_the_delegate_says(
    lifebus: Controller, lifebus_app: AppLauncher
) -> None:
    from lifebus.application import CALLBACKS

    class Chat(ApplicationDelegate):
        async def will_present_notification(self, app: Application, payload: object) -> list[str]:
            return ["banner", "sound"]

    chatting = lifebus_app.run("com.example.Chat", Chat())
    lifebus.fire("push", "alert", app=chatting)
    pushes = [entry for entry in lifebus.history(chatting) if entry["type"] == "push"]
    assert [(entry["event"], entry.get("presentation")) for entry in pushes] == [
        ("delivered", None),
        ("presented", ["banner", "sound"]),
    ]
    assert CALLBACKS["willPresentNotification"](ApplicationDelegate(), Application("com.example.Quiet"), {}) == []
