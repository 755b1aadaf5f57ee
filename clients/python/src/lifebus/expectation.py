"""What a test expects of one app, checked against what the broker recorded, and the report of a miss.

Pure: journal entries and a state in, results and text out (the controllers fetch, this module judges). The checks
are ``lifebus expect``'s (``Sources/LifebusExpectation``): the callbacks, in order, exactly; the state now (any of
several); every transition ending so (``failed``: the handler said it failed); a mark, with data members. The report
is the Swift kit's: the expected and recorded callbacks side by side, the state, the last marks and the timeline.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .records import JournalEntry


class ExpectationFailed(AssertionError):
    """An expectation that did not hold; its text is the whole report (pytest shows it as the failure)."""

    def __init__(self, report: str, timeline: str) -> None:
        super().__init__(report)
        self.report = report
        self.timeline = timeline


@dataclass(frozen=True)
class Check:
    """One assertion's result: what was expected and what was recorded, side by side."""

    name: str
    expected: str
    recorded: str
    passed: bool


@dataclass(frozen=True)
class Expectation:
    """The assertions of one ``expect`` (``None``: not asserted). ``states`` holds when the app is in any of them.
    With ``scene`` they are about that scene (``lifebus expect --scene``): its transitions only (the app's marks still
    count), and ``states`` are scene states the scene's state now is checked against (``unattached`` when it is not
    connected)."""

    callbacks: Sequence[str] | None = None
    states: Sequence[str] | None = None
    outcome: str | None = None
    mark: str | None = None
    data: dict[str, Any] = field(default_factory=dict)
    scene: int | None = None

    @staticmethod
    def of(
        callbacks: Sequence[str] | None,
        state: str | Sequence[str] | None,
        outcome: str | None,
        mark: str | None,
        data: Mapping[str, Any] | None,
        scene: int | None = None,
    ) -> Expectation:
        """The expectation of ``expect``'s arguments (``state`` one state or several; ``data`` only with ``mark``)."""
        if data and mark is None:
            raise ValueError("data= needs mark=NAME")
        states = [state] if isinstance(state, str) else list(state) if state is not None else None
        return Expectation(
            callbacks=list(callbacks) if callbacks is not None else None,
            states=states,
            outcome=outcome,
            mark=mark,
            data=dict(data or {}),
            scene=scene,
        )

    def is_empty(self) -> bool:
        return self.callbacks is None and self.states is None and self.outcome is None and self.mark is None

    def scoped(self, entries: Sequence[JournalEntry]) -> list[JournalEntry]:
        """The entries the expectation is about: with ``scene``, that scene's transitions and every mark."""
        if self.scene is None:
            return list(entries)
        return [entry for entry in entries if entry.get("type") != "transition" or entry.get("scene") == self.scene]

    def check(self, entries: Sequence[JournalEntry], state: str) -> list[Check]:
        """One result per assertion, for the app's entries in scope (oldest first) and its state now (with
        ``scene``: the scene's state now)."""
        entries = self.scoped(entries)
        transitions = [entry for entry in entries if entry.get("type") == "transition"]
        results = []
        if self.callbacks is not None:
            recorded = callbacks_of(entries)
            results.append(Check("callbacks", _list(self.callbacks), _list(recorded), recorded == list(self.callbacks)))
        if self.states is not None:
            name = "state" if self.scene is None else f"scene {self.scene} state"
            results.append(Check(name, "|".join(self.states), state, state in self.states))
        if self.outcome is not None:
            outcome = self.outcome
            results.append(
                Check(
                    "outcome",
                    f"every transition {outcome}",
                    _list([verdict(record) for record in transitions]),
                    bool(transitions) and all(_ended_so(record, outcome) for record in transitions),
                )
            )
        if self.mark is not None:
            results.append(self._check_mark(self.mark, entries))
        return results

    def cannot_hold_later(self, entries: Sequence[JournalEntry]) -> bool:
        """Whether waiting longer is pointless: the callbacks recorded already differ from the expected ones."""
        if self.callbacks is None:
            return False
        recorded = callbacks_of(self.scoped(entries))
        return recorded[: len(self.callbacks)] != list(self.callbacks)[: len(recorded)] or len(recorded) > len(
            self.callbacks
        )

    def _check_mark(self, name: str, entries: Sequence[JournalEntry]) -> Check:
        marks = [entry for entry in entries if entry.get("type") == "mark"]
        found = next((entry for entry in reversed(marks) if entry.get("name") == name), None)
        expected = ", ".join(f"{key}={_shown(value)}" for key, value in self.data.items()) or "present"
        if found is None:
            names = [str(entry.get("name")) for entry in marks]
            recorded = "absent (" + ("marks " + ", ".join(names) if names else "no mark") + ")"
            return Check(f"mark {name}", expected, recorded, False)
        data = found.get("data") or {}
        passed = all(key in data and data[key] == value for key, value in self.data.items())
        recorded = (
            ", ".join(f"{key}={_shown(data[key])}" if key in data else f"{key} absent" for key in self.data)
            or "present"
        )
        return Check(f"mark {name}", expected, recorded, passed)


def callbacks_of(entries: Sequence[JournalEntry]) -> list[str]:
    """The callbacks of the transitions among ``entries``, in order."""
    return [str(entry["callback"]) for entry in entries if entry.get("type") == "transition" and entry.get("callback")]


def verdict(record: JournalEntry) -> str:
    """How a transition ended, as one word: its outcome, ``failed`` when its handler failed (``ok`` + failed)."""
    outcome = str(record.get("outcome"))
    if not record.get("handlerFailed"):
        return outcome
    return "failed" if outcome == "ok" else f"{outcome}+failed"


def report(app: str, scope: str, results: Sequence[Check], state: str, entries: Sequence[JournalEntry]) -> str:
    """The text of a failed expectation: each check (expected beside recorded), the callbacks side by side, the
    state, the last marks and the app's timeline."""
    failing = [result.name for result in results if not result.passed]
    lines = [f"{app} did not meet the expectation ({', '.join(failing)}), {scope}"]
    width = max(len(result.name) for result in results)
    for result in results:
        status = "ok  " if result.passed else "FAIL"
        lines.append(f"  {status} {result.name.ljust(width)}  expected: {result.expected}")
        lines.append(f"  {' ' * (width + 5)}  recorded: {result.recorded}")
    for result in results:
        if result.name == "callbacks":
            lines.append("callbacks:")
            lines.extend("  " + row for row in comparison(_items(result.expected), _items(result.recorded)))
    lines.append(f"state: {state}")
    marks = [str(entry.get("name")) for entry in entries if entry.get("type") == "mark"][-5:]
    lines.append("last marks: " + (", ".join(marks) if marks else "none"))
    lines.append("timeline:" + ("\n" + timeline(entries) if entries else " empty"))
    return "\n".join(lines)


def comparison(expected: Sequence[str], recorded: Sequence[str]) -> list[str]:
    """The two lists side by side, a row per position: `` `` the same, ``~`` different, ``-`` only expected, ``+``
    only recorded."""
    width = max([len("expected"), *map(len, expected)])
    rows = ["  " + "expected".ljust(width) + "  recorded"]
    for index in range(max(len(expected), len(recorded))):
        left = expected[index] if index < len(expected) else None
        right = recorded[index] if index < len(recorded) else None
        if left is not None and right is not None:
            marker = " " if left == right else "~"
        else:
            marker = "-" if right is None else "+"
        rows.append(f"{marker} {(left or '').ljust(width)}  {right or ''}".rstrip())
    return rows


def timeline(entries: Sequence[JournalEntry]) -> str:
    """Entries as lines a person reads: journal number, time on the broker's clock, app, what happened."""
    return "\n".join(f"  {_entry_line(entry)}" for entry in entries if entry.get("type") != "run")


def _entry_line(entry: JournalEntry) -> str:
    kind = entry.get("type")
    head = f"#{entry.get('seq')}"
    if kind == "transition":
        cause = entry.get("cause")
        because = f", {cause['event']}" if isinstance(cause, dict) and "event" in cause else ""
        who = f"{entry.get('app')}/{entry['scene']}" if entry.get("scene") else entry.get("app")
        return (
            f"{head} {_ms(entry.get('sentMs'))} {who} {entry.get('callback') or '-'} "
            f"{entry.get('from')} -> {entry.get('to')} ({verdict(entry)}{because})"
        )
    if kind == "mark":
        data = entry.get("data")
        shown = " " + json.dumps(data, separators=(",", ":")) if data else ""
        return f"{head} {_ms(entry.get('atMs'))} {entry.get('app')} mark {entry.get('name')}{shown}"
    if kind == "process":
        reason = f" ({entry['reason']})" if entry.get("reason") else ""
        return f"{head} {_ms(entry.get('atMs'))} {entry.get('app')} process {entry.get('event')}{reason}"
    if kind == "task":
        success = "" if entry.get("success") is None else f" success={str(entry['success']).lower()}"
        return (
            f"{head} {_ms(entry.get('atMs'))} {entry.get('app')} task {entry.get('identifier')} "
            f"({entry.get('kind')}) {entry.get('event')}{success}"
        )
    if kind == "push":
        result = f" {entry['result']}" if entry.get("result") else ""
        return f"{head} {_ms(entry.get('atMs'))} {entry.get('app')} push {entry.get('event')}{result}"
    if kind == "protectedData":
        available = "available" if entry.get("available") else "unavailable"
        return f"{head} {_ms(entry.get('atMs'))} protected data {available}"
    return f"{head} {_ms(entry.get('atMs'))} {kind}"


def _ended_so(record: JournalEntry, outcome: str) -> bool:
    if outcome == "failed":
        return bool(record.get("handlerFailed"))
    return record.get("outcome") == outcome and not record.get("handlerFailed")


def _ms(value: Any) -> str:
    return f"{value:>10.1f} ms" if isinstance(value, int | float) else f"{'-':>10} ms"


def _shown(value: Any) -> str:
    return value if isinstance(value, str) and value else json.dumps(value)


def _list(items: Sequence[str]) -> str:
    return ", ".join(items) if items else "(none)"


def _items(text: str) -> list[str]:
    return [] if text == "(none)" else text.split(", ")


@dataclass(frozen=True)
class Cursor:
    """Where an app's next ``expect`` starts: after journal number ``transitions`` for its callbacks and outcomes,
    after ``marks`` for its marks (a launch skips its own callbacks but keeps the marks made while launching)."""

    transitions: int
    marks: int

    @staticmethod
    def at(seq: int) -> Cursor:
        return Cursor(seq, seq)

    @staticmethod
    def latest(*cursors: Cursor | None) -> Cursor:
        """The cursor furthest on among those given (a scene's own, its app's, the connection's)."""
        return max((cursor for cursor in cursors if cursor is not None), key=lambda cursor: cursor.transitions)

    def admits(self, entry: JournalEntry) -> bool:
        return int(entry["seq"]) > (self.marks if entry.get("type") == "mark" else self.transitions)


class Attempt:
    """One ``expect`` as the controllers run it: judged against fresh recordings until it holds, cannot hold any
    more, or ``within`` seconds have passed; then concluded. Holds no I/O; the controller fetches for it."""

    def __init__(self, app: str, expectation: Expectation, cursor: Cursor, within: float, now: float) -> None:
        if expectation.is_empty():
            raise ValueError("say what to expect: callbacks, state, outcome or mark")
        self.app = app
        self.expectation = expectation
        self.cursor = cursor
        self.deadline = now + within
        self.entries: list[JournalEntry] = []
        self.state = "notRunning"
        self.results: list[Check] = []

    @property
    def after_seq(self) -> int:
        """The journal number the entries to fetch come after."""
        return min(self.cursor.transitions, self.cursor.marks)

    def judge(self, entries: list[JournalEntry], state: str, now: float) -> bool:
        """Checks the app's entries in scope and its state; ``True`` when it is time to conclude."""
        self.entries, self.state = [entry for entry in entries if self.cursor.admits(entry)], state
        self.results = self.expectation.check(self.entries, state)
        passed = all(result.passed for result in self.results)
        return passed or self.expectation.cannot_hold_later(self.entries) or now >= self.deadline

    def conclude(self) -> Cursor:
        """Where later expectations of the app start; raises ``ExpectationFailed`` on a miss."""
        __tracebackhide__ = True  # pytest shows the test's line, not this one
        seen = Cursor.at(max([self.cursor.transitions, self.cursor.marks, *(int(e["seq"]) for e in self.entries)]))
        if all(result.passed for result in self.results):
            return seen
        scope = f"entries after #{self.after_seq}" if self.after_seq else "all entries"
        raise ExpectationFailed(report(self.app, scope, self.results, self.state, self.entries), timeline(self.entries))
