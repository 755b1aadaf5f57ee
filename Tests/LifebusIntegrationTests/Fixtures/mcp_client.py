"""Drives `lifebus mcp --start-broker` with PyPI's `mcp` client (a client nobody here wrote), over stdio.

Usage: python3 mcp_client.py BIN_DIR. Lists the tools; starts the DeepThoughts example app on the socket the
status tool reports and waits for it to be active; starts a player app (audio background mode) in front of it;
fires a call, answers it and waits for the player to reach the background; reads the history (DeepThoughts saved
its state when it left); checks that a malformed call gets an MCP error and the server keeps serving; that
advance_clock says the broker runs on the real clock; that a long wait reports progress and stops when cancelled;
and renders the timeline. Prints "all checks passed" and exits 0, or raises.
"""

import os
import shutil
import subprocess
import sys
import tempfile

import anyio
from mcp_session import check, mcp_session, text_of

try:
    from mcp import McpError as MCPError
except ImportError:  # mcp >= 2 renamed it
    from mcp.shared.exceptions import MCPError

APP = "com.example.DeepThoughts"
PLAYER = "com.example.Player"
EXPECTED_TOOLS = {"fire", "launch", "status", "wait_for_state", "history", "advance_clock", "timeline"}


async def main(bin_dir):
    apps = []
    state_dir = tempfile.mkdtemp(prefix="lifebus-mcp-test.")
    try:
        async with mcp_session(
                command=os.path.join(bin_dir, "lifebus"),
                args=["mcp", "--start-broker"]) as (session, init):
            check(init.server_info.name == "lifebus",
                  f"initialize: {init.server_info.name} {init.protocol_version}")

            tools = await session.list_tools()
            names = {tool.name for tool in tools.tools}
            check(EXPECTED_TOOLS <= names, f"tools/list names {sorted(names)}")
            fire = next(tool for tool in tools.tools if tool.name == "fire")
            check("call" in fire.input_schema["properties"]["event"]["enum"], "fire's schema lists call")

            status = await session.call_tool("status", {})
            check(not status.is_error, "status succeeds")
            socket = status.structured_content["socket"]
            check(os.path.exists(socket), f"status gives the private broker's socket {socket}")

            apps.append(subprocess.Popen(
                [os.path.join(bin_dir, "DeepThoughts"), "--socket", socket,
                 "--state-file", os.path.join(state_dir, "state")],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            active = await session.call_tool("wait_for_state", {"app": APP, "state": "active", "timeoutMs": 10000})
            check(not active.is_error, f"wait_for_state active: {text_of(active)}")

            # A second app with an audio background mode comes to the front; DeepThoughts (no background
            # mode) saves its state and is suspended.
            apps.append(subprocess.Popen(
                [os.path.join(bin_dir, "lifebus"), "subscribe", "--socket", socket, "--id", PLAYER,
                 "--background-mode", "audio"],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            front = await session.call_tool(
                "wait_for_state", {"app": PLAYER, "state": "active", "timeoutMs": 10000})
            check(not front.is_error, f"the player is in front: {text_of(front)}")
            away = await session.call_tool("wait_for_state", {"app": APP, "state": "suspended", "timeoutMs": 10000})
            check(not away.is_error, f"DeepThoughts is suspended: {text_of(away)}")

            ring = await session.call_tool("fire", {"event": "call"})
            check(not ring.is_error, f"fire call: {text_of(ring)}")
            answer = await session.call_tool("fire", {"event": "call", "action": "answer"})
            check(not answer.is_error, f"fire call --answer: {text_of(answer)}")
            callbacks = [t["callback"] for t in answer.structured_content["transitions"]]
            check("didEnterBackground" in callbacks, f"answering the call sent the player away: {callbacks}")
            background = await session.call_tool(
                "wait_for_state", {"app": PLAYER, "state": "background", "timeoutMs": 10000})
            check(not background.is_error, f"the player reached the background: {text_of(background)}")

            history = await session.call_tool("history", {"app": APP})
            entries = history.structured_content["entries"]
            seen = [e.get("callback") for e in entries if e["type"] == "transition"]
            check(seen[:2] == ["didFinishLaunching", "didBecomeActive"], f"history starts with the launch {seen}")
            check("didEnterBackground" in seen, "history holds DeepThoughts' didEnterBackground")
            check(any(e["type"] == "mark" and e["name"] == "state-saved" for e in entries),
                  "history holds DeepThoughts' state-saved mark")
            player = await session.call_tool("history", {"app": PLAYER, "limit": 1})
            last = player.structured_content["entries"]
            check(len(last) == 1 and last[0]["callback"] == "didEnterBackground" and last[0]["to"] == "background",
                  f"the player's last transition is didEnterBackground into the background: {last}")

            bad = await session.call_tool("fire", {"event": "explode"})
            check(bad.is_error and "jsonrpc.InvalidParams" in text_of(bad),
                  f"a bad event is a tool error: {text_of(bad)}")
            rejected = await session.call_tool("fire", {"event": "terminate", "app": "com.example.Nobody"})
            check(rejected.is_error, f"the broker's refusal is a tool error: {text_of(rejected)}")
            name = rejected.structured_content["error"]["name"]
            check(name.startswith("lifebus."), f"it carries the broker's data.name {name}")
            try:
                await session.call_tool("no_such_tool", {})
                raise AssertionError("an unknown tool was not refused")
            except MCPError as error:
                check(True, f"an unknown tool is an MCP error: {error}")
            await session.send_ping()
            again = await session.call_tool("status", {"app": APP})
            check(not again.is_error, "the server keeps serving after malformed calls")

            clock = await session.call_tool("advance_clock", {"by": "5s"})
            check(clock.is_error and "real clock" in text_of(clock), "advance_clock says the clock is real")

            progress = []

            async def on_progress(value, total, message):
                progress.append((value, total, message))

            with anyio.move_on_after(1.6):
                await session.call_tool(
                    "wait_for_state", {"app": "com.example.Never", "state": "active", "timeoutMs": 60000},
                    progress_callback=on_progress)
                raise AssertionError("a wait for an app that never comes returned")
            check(len(progress) >= 2, f"a long wait reports progress: {progress[:3]}")
            check(progress[0][1] == 60000, "progress gives the wait's timeout as its total")
            after = await session.call_tool("status", {})
            check(not after.is_error, "the server serves after a cancelled call")

            picture = await session.call_tool("timeline", {"format": "svg"})
            check(text_of(picture).startswith("<?xml") and APP in text_of(picture), "timeline draws an SVG")
            table = await session.call_tool("timeline", {"apps": [APP]})
            check("didEnterBackground" in text_of(table), "timeline as text")
    finally:
        for process in apps:
            process.kill()
            process.wait()
        shutil.rmtree(state_dir, ignore_errors=True)
    print("all checks passed", flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
