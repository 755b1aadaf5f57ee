"""The background life (issue 28) driven through `lifebus mcp` tools alone, with PyPI's `mcp` client.

Usage: python3 mcp_background.py BIN_DIR. The server starts its own broker with the manual clock under ios17
(`--start-broker --clock manual --profile ios17`). An agent submits nothing itself, so it installs FeedReader
(Examples/FeedReader) from a manifest written here, with --forgets-completion: the app registers and submits its
refresh task at launch, to begin 15 minutes later, and its handler never calls setTaskCompleted. Through tools
only: launch, home; the fire schema names bgtask and push with their members; history shows the submission;
advance_clock 15m runs the task, 25s expires it, 5s kills the app (backgroundTaskExpired), which expect's task check
and history show; a bgtask for the ended task is refused; a silent push relaunches the app into the background and
its fetch result reaches expect; protected_data follows sleep, the lock delay and wake; the timeline takes a width.
Prints "all checks passed" or raises.
"""

import json
import os
import shutil
import sys
import tempfile

import anyio
from mcp_session import call, check, mcp_session, text_of

APP = "com.example.FeedReader"
REFRESH = "com.example.FeedReader.refresh"


async def expect(session, arguments):
    result = await call(session, "expect", {"app": APP, **arguments})
    check(result.structured_content["passed"] is True, f"expect {arguments}: {text_of(result)}")


async def history(session, record_type):
    result = await call(session, "history", {"limit": 1000})
    return [entry for entry in result.structured_content["entries"] if entry.get("type") == record_type]


async def protected(session, available):
    result = await call(session, "protected_data", {})
    check(result.structured_content == {"available": available},
          f"protected_data says available={available}: {text_of(result)}")


async def main(bin_dir):
    folder = tempfile.mkdtemp(prefix="lifebus-mcp-background.")
    manifest = os.path.join(folder, "feedreader.json")
    with open(manifest, "w") as file:
        json.dump({"id": APP, "executable": os.path.join(bin_dir, "FeedReader"),
                   "arguments": ["--state-file", os.path.join(folder, "feed"), "--forgets-completion"],
                   "backgroundTaskIdentifiers": [REFRESH]}, file)
    try:
        async with mcp_session(
                command=os.path.join(bin_dir, "lifebus"),
                args=["mcp", "--start-broker", "--clock", "manual", "--profile", "ios17"],
                env={**os.environ, "LIFEBUS_STATE_DIR": folder},
                cwd=folder) as (session, _):
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            check("protected_data" in tools, f"tools/list has protected_data: {sorted(tools)}")
            fire = tools["fire"]
            events = fire.input_schema["properties"]["event"]["enum"]
            actions = fire.input_schema["properties"]["action"]["enum"]
            check({"bgtask", "push"} <= set(events), f"fire's events include bgtask and push: {events}")
            check({"run", "cancel", "silent", "alert"} <= set(actions), f"and their actions: {actions}")
            check({"identifier", "payload"} <= set(fire.input_schema["properties"]),
                  "fire takes a task's identifier and a push's payload")
            check("bgtask (run, cancel; needs app; identifier required" in fire.description,
                  f"fire's description says what bgtask takes: {fire.description}")

            await call(session, "install", {"path": manifest})
            await call(session, "launch", {"app": APP})
            await expect(session, {"callbacks": ["didFinishLaunching", "didBecomeActive"], "state": "active"})
            await call(session, "fire", {"event": "home"})
            await expect(session, {"state": ["background", "suspended"]})
            status = await call(session, "status", {"app": APP})
            tasks = status.structured_content["apps"][0].get("tasks", [])
            check([(t["identifier"], t["state"]) for t in tasks] == [(REFRESH, "pending")]
                  and "tasks: " + REFRESH + " appRefresh pending" in text_of(status),
                  f"status shows the refresh pending: {text_of(status)}")
            submitted = await history(session, "task")
            check([(t["identifier"], t["event"]) for t in submitted] == [(REFRESH, "submitted")],
                  f"history shows the submitted refresh: {submitted}")

            await call(session, "advance_clock", {"by": "15m"})
            await expect(session, {"task": REFRESH, "taskEvent": "launched"})
            await call(session, "advance_clock", {"by": "25s"})
            await expect(session, {"task": REFRESH, "taskEvent": "expiring"})
            await call(session, "advance_clock", {"by": "5s"})
            await expect(session, {"task": REFRESH, "taskEvent": "expired", "state": "notRunning"})
            steps = [t["event"] for t in await history(session, "task")]
            check(steps == ["submitted", "launched", "expiring", "expired"], f"the task's steps: {steps}")
            kills = [p for p in await history(session, "process") if p.get("event") == "killed"]
            check(kills and kills[-1].get("reason") == "backgroundTaskExpired",
                  f"the app was killed backgroundTaskExpired: {kills}")
            completed = await session.call_tool(
                "expect", {"app": APP, "task": REFRESH, "taskEvent": "completed", "since": "all"})
            check(completed.structured_content["passed"] is False and "recorded expired" in text_of(completed),
                  f"a completion the app never made fails, saying what was recorded: {text_of(completed)}")

            refused = await session.call_tool(
                "fire", {"event": "bgtask", "app": APP, "identifier": REFRESH})
            error = (refused.structured_content or {}).get("error", {})
            check(refused.is_error and error.get("data", {}).get("reason") == "unknownTask",
                  f"a bgtask for a task no longer submitted is refused unknownTask: {text_of(refused)}")

            await call(session, "fire", {"event": "push", "app": APP, "action": "silent",
                                         "payload": {"feed": 7}})
            await expect(session, {"callbacks": ["didFinishLaunching", "didEnterBackground",
                                                 "didReceiveRemoteNotification"],
                                   "pushResult": "newData"})
            pushes = await history(session, "push")
            check(pushes[-1]["event"] == "answered" and pushes[-1]["payload"] == {"feed": 7},
                  f"history shows the push answered with its payload: {pushes}")

            await protected(session, True)
            await call(session, "fire", {"event": "sleep"})
            await call(session, "advance_clock", {"by": "10s"})
            await protected(session, False)
            locked = await call(session, "status", {})
            check(locked.structured_content.get("protectedDataAvailable") is False
                  and "protected data unavailable" in text_of(locked), f"status says so too: {text_of(locked)}")
            await call(session, "fire", {"event": "wake"})
            await protected(session, True)
            changes = [r["available"] for r in await history(session, "protectedData")]
            check(changes == [False, True], f"history shows protected data going and coming back: {changes}")

            picture = await call(session, "timeline", {"format": "svg", "width": 900})
            check('width="900"' in text_of(picture), "the timeline's svg is 900 pixels wide")
            narrow = await session.call_tool("timeline", {"format": "svg", "width": 10})
            check(narrow.is_error, f"a width the picture cannot fit is refused: {text_of(narrow)}")

            await call(session, "fire", {"event": "terminate", "app": APP, "byUser": True})
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    print("all checks passed")


anyio.run(main, sys.argv[1])
