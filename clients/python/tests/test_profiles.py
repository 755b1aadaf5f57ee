"""One test run under every profile the broker plays (``lifebus_profile``, from ``lifebusd --help``): the home
button sends an app to the background from iOS 4 on, and terminates it under iOS 3, which had no multitasking;
under iOS 27 an app that does not adopt scenes cannot launch at all (killed, reason ``sceneLifecycleRequired``)."""

from __future__ import annotations

import pytest

from lifebus import AppLauncher, ApplicationDelegate, Controller, profiles
from lifebus.errors import LaunchFailed


def test_home_leaves_the_app_as_each_profile_does(
    lifebus: Controller, lifebus_app: AppLauncher, lifebus_profile: str
) -> None:
    assert lifebus.profile == lifebus_profile
    if lifebus_profile == "ios27":
        with pytest.raises(LaunchFailed, match="reason sceneLifecycleRequired"):
            lifebus_app.run("com.example.Home", ApplicationDelegate())
        kills = [entry for entry in lifebus.history() if entry.get("event") == "killed"]
        assert [(kill["app"], kill["reason"]) for kill in kills] == [("com.example.Home", "sceneLifecycleRequired")]
        return
    app = lifebus_app.run("com.example.Home", ApplicationDelegate())
    lifebus.fire("home")
    if lifebus_profile == "ios3":
        lifebus.expect(app, callbacks=["willResignActive", "willTerminate"], state="notRunning", outcome="ok")
    else:
        lifebus.expect(app, callbacks=["willResignActive", "didEnterBackground"], state="suspended", outcome="ok")


def test_the_parametrization_covers_every_profile_lifebusd_lists(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_profile(lifebus, lifebus_profile):\n    assert lifebus.profile == lifebus_profile\n")
    result = pytester.runpytest("-v", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=len(profiles()))
    result.stdout.fnmatch_lines([f"*test_profile[[]{profile}[]] PASSED*" for profile in profiles()])
    assert len(profiles()) >= 3
