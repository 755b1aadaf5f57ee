"""The timeline an ``ExpectationFailed`` shows: every journal record kind on a line that says what happened."""

from __future__ import annotations

from lifebus.expectation import timeline


def test_background_records_show_their_time_app_and_step() -> None:
    text = timeline(
        [
            {"type": "run", "seq": 1, "reason": "start"},
            {
                "type": "task",
                "seq": 14,
                "app": "com.example.Feed",
                "identifier": "com.example.Feed.refresh",
                "kind": "appRefresh",
                "event": "completed",
                "success": True,
                "atMs": 920500,
            },
            {
                "type": "push",
                "seq": 15,
                "app": "com.example.Feed",
                "event": "answered",
                "result": "newData",
                "atMs": 15012,
            },
            {"type": "protectedData", "seq": 16, "available": False, "atMs": 10010},
        ]
    )
    lines = text.splitlines()
    assert len(lines) == 3
    assert lines[0].split() == [
        "#14", "920500.0", "ms", "com.example.Feed", "task", "com.example.Feed.refresh", "(appRefresh)", "completed",
        "success=true",
    ]  # fmt: skip
    assert lines[1].split() == ["#15", "15012.0", "ms", "com.example.Feed", "push", "answered", "newData"]
    assert lines[2].split() == ["#16", "10010.0", "ms", "protected", "data", "unavailable"]
