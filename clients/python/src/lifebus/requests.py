"""The params of a controller's requests (Protocol/README.md §11, §16.5): one builder per method, shared by the
synchronous and the asyncio controller, so both send the same thing. Pure."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any, Protocol


class HasAppID(Protocol):
    """Anything naming an app: a launched app's handle, an ``Application``."""

    @property
    def id(self) -> str: ...


#: An app as the controllers take it: its id, or something that has one.
AppRef = str | HasAppID

#: A manifest as ``install`` takes it: a file's path, or the manifest itself.
Manifest = str | os.PathLike[str] | Mapping[str, Any]


def app_id(app: AppRef) -> str:
    return app if isinstance(app, str) else app.id


def fire(
    event: str,
    action: str | None,
    app: AppRef | None,
    level: str | None,
    by_user: bool,
    wait: bool,
    scene: SceneMembers | None = None,
) -> dict[str, Any]:
    """``fire``'s params; the writer emits every member, ``null`` for the absent ones (§11.1), but for the scene
    members (``scene``, ``session``, ``url``, ``activity``, ``push``), written only when given."""
    params: dict[str, Any] = {
        "event": event,
        "action": action,
        "app": app_id(app) if app is not None else None,
        "level": level,
        "byUser": by_user,
        "wait": wait,
    }
    if scene is not None:
        params.update(scene.members())
    return params


class SceneMembers:
    """The scene members of ``fire`` (§11.1): which scene or session a ``scene`` event names, and the connection
    options a new window or a cold start carries. Each is written only when given. A plain value."""

    def __init__(
        self,
        scene: int | None = None,
        session: int | None = None,
        url: str | None = None,
        activity: Mapping[str, Any] | None = None,
        push: Mapping[str, Any] | None = None,
    ) -> None:
        self.scene = scene
        self.session = session
        self.url = url
        self.activity = activity
        self.push = push

    def members(self) -> dict[str, Any]:
        given = {"scene": self.scene, "session": self.session, "url": self.url}
        members: dict[str, Any] = {key: value for key, value in given.items() if value is not None}
        if self.activity is not None:
            members["activity"] = dict(self.activity)
        if self.push is not None:
            members["push"] = dict(self.push)
        return members


def wait(app: AppRef, state: str | Sequence[str], timeout: float, scene: int | None = None) -> dict[str, Any]:
    """``wait``'s params: ``state`` one state or several (any will do); ``timeout`` in seconds; with ``scene``, a
    scene's wait (§11.3: scene states, a scene not connected is ``unattached``)."""
    states: str | list[str] = state if isinstance(state, str) else list(state)
    params: dict[str, Any] = {"app": app_id(app), "state": states, "timeoutMs": timeout * 1000}
    if scene is not None:
        params["scene"] = scene
    return params


def history(app: AppRef | None, limit: int | None, before_seq: int | None) -> dict[str, Any]:
    params: dict[str, Any] = {}
    if app is not None:
        params["app"] = app_id(app)
    if limit is not None:
        params["limit"] = limit
    if before_seq is not None:
        params["beforeSeq"] = before_seq
    return params


def status(app: AppRef | None) -> dict[str, Any]:
    return {} if app is None else {"app": app_id(app)}


def advance(seconds: float) -> dict[str, Any]:
    return {"byMs": seconds * 1000}


def install(manifest: Manifest) -> dict[str, Any]:
    """``install``'s params: a path (made absolute: the broker reads it from its own folder) or a manifest."""
    if isinstance(manifest, Mapping):
        return {"manifest": dict(manifest)}
    return {"path": os.path.abspath(os.fspath(manifest))}
