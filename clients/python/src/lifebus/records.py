"""The broker's answers and records as typed dictionaries (Protocol/README.md §11, §13; ``Protocol/schemas/``).

They are the JSON objects the broker sends, unchanged: member names are the wire's (``sentMs``, ``eventID``).
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

State = Literal["notRunning", "inactive", "active", "background", "suspended"]


class EventCause(TypedDict):
    eventID: int
    event: str


#: A completed transition (``transition.record``): ``callback`` ``None`` when the app moved without one (a kill, a
#: suspension). Written in the functional form because one member is named ``from``.
TransitionRecord = TypedDict(
    "TransitionRecord",
    {
        "type": Literal["transition"],
        "seq": int,
        "app": str,
        "pid": int | None,
        "callback": str | None,
        "cause": EventCause | None,
        "from": str,
        "to": str,
        "firedMs": float | None,
        "sentMs": float,
        "answeredMs": float | None,
        "handlerMs": float | None,
        "budgetMs": float,
        "outcome": str,
        "handlerFailed": bool,
        "wallMs": int,
    },
)


class MarkRecord(TypedDict):
    """A fact an app reported (``mark.record``)."""

    type: Literal["mark"]
    seq: int
    app: str
    pid: int | None
    name: str
    data: dict[str, Any] | None
    atMs: float
    wallMs: int


#: Any journal entry: a transition, a mark, a run or a process record, told apart by ``type``.
JournalEntry = dict[str, Any]


class FireResult(TypedDict):
    eventID: int
    event: str
    completed: bool
    transitions: list[TransitionRecord]
    noApp: bool


class SceneSessionStatus(TypedDict, total=False):
    """A scene app's session in ``status`` (Protocol §11.2): ``scene`` and ``state`` (a scene state) only while a
    scene is connected to it; ``restoration`` whether a payload is kept for it."""

    session: int
    scene: int
    state: str
    restoration: bool


class AppStatus(TypedDict, total=False):
    id: str
    pid: int | None
    state: str
    sinceMs: float
    connected: bool
    launchBudgetMs: float
    residentBytes: int
    frozen: bool
    scenes: list[SceneSessionStatus]


class Status(TypedDict, total=False):
    profile: str
    locked: bool
    call: str
    alert: str | None
    foreground: str | None
    apps: list[AppStatus]
    pressure: str


class WaitResult(TypedDict, total=False):
    """``wait``'s answer: the app's state (or, for a scene's wait, the scene's, with ``scene`` and its ``session``,
    absent when it is not connected) since ``sinceMs`` (absent when the broker did not see a scene enter it)."""

    app: str
    state: str
    sinceMs: float
    scene: int
    session: int


class Outstanding(TypedDict):
    app: str
    callback: str
    callbackID: int


class ClockReading(TypedDict, total=False):
    clock: str
    nowMs: float
    outstanding: list[Outstanding]


def state_in(status: Status | None) -> str:
    """The state of the one app a ``status`` about it lists (``notRunning`` when the broker knows no such app)."""
    apps = status.get("apps", []) if status else []
    return str(apps[0].get("state", "notRunning")) if apps else "notRunning"


def scene_state_in(status: Status | None, scene: int) -> str:
    """The state of scene ``scene`` of the one app a ``status`` about it lists: ``unattached`` when it is not
    connected (not yet, or any more), as ``expect --scene`` and the broker's scene ``wait`` read it."""
    apps = status.get("apps", []) if status else []
    for session in apps[0].get("scenes", []) if apps else []:
        if session.get("scene") == scene and "state" in session:
            return str(session["state"])
    return "unattached"
