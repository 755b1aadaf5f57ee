"""Drives the scene tools of `lifebus mcp --socket SOCKET` with PyPI's `mcp` client, against a broker (profile ios17)
where com.example.Notes runs as `lifebus subscribe --scenes --multiple-scenes`.

Usage: python3 mcp_scenes.py LIFEBUS SOCKET NOTESSCENES_MANIFEST. Checks: tools/list offers `scene` with its actions;
wait_for_state with scene waits for scene 1 to be foregroundActive; `scene` open makes scene 2 (session 2);
wait_for_state with scene 2 answers at once; a scene state that is not reached times out as lifebus.TimedOut naming
the state it is in; home, then `scene` reclaim of scene 2 reports stateRestorationActivity and sceneDidDisconnect with
their scene; expect with scene 2 passes on those callbacks and its state unattached, and fails (a result, not an
error) on scene 1's state; status names each session with its scene; reconnect of session 2 makes scene 3; a reclaim
of a foreground scene is refused (sceneInForeground); `launch` takes a url (a running app's focused scene gets
openURLContexts) and `fire` launch a push (its label names it), not both at once; push on another event is refused;
NotesScenes installed from its manifest and launched cold with a url consumes it in willConnectTo (mark url-consumed).
Prints "all checks passed" and exits 0, or raises.
"""

import sys

import anyio
from mcp_session import check, mcp_session, text_of

APP = "com.example.Notes"
NOTES = "com.example.NotesScenes"


async def main(lifebus, socket, notes_manifest):
    async with mcp_session(command=lifebus, args=["mcp", "--socket", socket]) as (session, _):
        tools = {tool.name: tool for tool in (await session.list_tools()).tools}
        check("scene" in tools, f"tools/list offers scene: {sorted(tools)}")
        actions = tools["scene"].input_schema["properties"]["action"]["enum"]
        check(actions == ["open", "close", "reclaim", "reconnect", "focus"], f"its actions: {actions}")

        first = await session.call_tool(
            "wait_for_state", {"app": APP, "scene": 1, "state": "foregroundActive", "timeoutMs": 10000})
        check(not first.is_error and first.structured_content["session"] == 1,
              f"scene 1 is foregroundActive: {text_of(first)}")

        opened = await session.call_tool("scene", {"action": "open", "app": APP})
        check(not opened.is_error, f"scene open: {text_of(opened)}")
        connects = [t for t in opened.structured_content["transitions"] if t["callback"] == "willConnectTo"]
        check(len(connects) == 1 and connects[0]["scene"] == 2 and connects[0]["session"] == 2,
              f"it connected scene 2 of session 2: {connects}")
        second = await session.call_tool(
            "wait_for_state", {"app": APP, "scene": 2, "state": "foregroundActive", "timeoutMs": 5000})
        check(not second.is_error and second.structured_content["scene"] == 2, f"scene 2: {text_of(second)}")

        late = await session.call_tool(
            "wait_for_state", {"app": APP, "scene": 1, "state": "unattached", "timeoutMs": 300})
        error = (late.structured_content or {}).get("error", {})
        check(late.is_error and error.get("name") == "lifebus.TimedOut"
              and error.get("data", {}).get("sceneState") == "foregroundInactive",
              f"an unreached scene state times out naming the one it is in: {text_of(late)}")

        await session.call_tool("fire", {"event": "home"})
        reclaimed = await session.call_tool("scene", {"action": "reclaim", "app": APP, "scene": 2})
        callbacks = [(t["callback"], t.get("scene")) for t in reclaimed.structured_content["transitions"]
                     if t["callback"]]
        check(callbacks == [("stateRestorationActivity", 2), ("sceneDidDisconnect", 2)],
              f"reclaim: {callbacks}")

        passed = await session.call_tool("expect", {
            "app": APP, "scene": 2, "callbacks": ["stateRestorationActivity", "sceneDidDisconnect"],
            "state": "unattached"})
        check(not passed.is_error and passed.structured_content["passed"], f"expect scene 2: {text_of(passed)}")
        failed = await session.call_tool("expect", {"app": APP, "scene": 1, "state": "foregroundActive"})
        check(not failed.is_error and not failed.structured_content["passed"]
              and "recorded background" in text_of(failed), f"expect scene 1 active fails: {text_of(failed)}")

        status = await session.call_tool("status", {"app": APP})
        check("session 1: scene 1 background, session 2: no scene" in text_of(status),
              f"status names each session and its scene: {text_of(status)}")

        back = await session.call_tool("scene", {"action": "reconnect", "app": APP, "session": 2})
        scenes = {t.get("scene") for t in back.structured_content["transitions"] if t["callback"] == "willConnectTo"}
        check(not back.is_error and scenes == {3}, f"reconnect makes scene 3: {text_of(back)}")
        refused = await session.call_tool("scene", {"action": "reclaim", "app": APP, "scene": 3})
        check(refused.is_error and "sceneInForeground" in text_of(refused),
              f"a foreground scene is not reclaimed: {text_of(refused)}")

        opened_url = await session.call_tool("launch", {"app": APP, "url": "notes://note/7"})
        callbacks = [t["callback"] for t in opened_url.structured_content["transitions"] if t["callback"]]
        check(not opened_url.is_error and callbacks == ["openURLContexts"],
              f"launch with url opens it in the focused scene: {text_of(opened_url)}")
        pushed = await session.call_tool("fire", {"event": "launch", "app": APP, "push": {"aps": {"alert": "hi"}}})
        check(not pushed.is_error and "--push" in pushed.structured_content["event"],
              f"fire launch takes a push payload: {text_of(pushed)}")
        both = await session.call_tool(
            "launch", {"app": APP, "url": "notes://note/8", "push": {"aps": {"alert": "hi"}}})
        check(both.is_error and "InvalidParams" in text_of(both), f"not url and push at once: {text_of(both)}")
        wrong = await session.call_tool("fire", {"event": "home", "push": {"aps": {}}})
        check(wrong.is_error and "push" in text_of(wrong), f"push is launch's only: {text_of(wrong)}")

        installed = await session.call_tool("install", {"path": notes_manifest})
        check(not installed.is_error, f"NotesScenes installed: {text_of(installed)}")
        cold = await session.call_tool("launch", {"app": NOTES, "url": "notes://42"})
        connects = [t for t in cold.structured_content["transitions"] if t["callback"] == "willConnectTo"]
        check(not cold.is_error and len(connects) == 1, f"a cold start with a url: {text_of(cold)}")
        history = await session.call_tool("history", {"app": NOTES})
        consumed = [e for e in history.structured_content["entries"]
                    if e.get("type") == "mark" and e.get("name") == "url-consumed"]
        check([m["data"].get("url") for m in consumed] == ["notes://42"],
              f"its willConnectTo got the url in its connection options: {consumed}")
    print("all checks passed")


if __name__ == "__main__":
    anyio.run(main, sys.argv[1], sys.argv[2], sys.argv[3])
