"""The tools refuse arguments they do not take, driven with PyPI's `mcp` client (a tester's false pass, reproduced).

Usage: python3 mcp_arguments.py BIN_DIR REPOSITORY. The server starts its own broker (`--start-broker --clock manual`,
as the README's agent does). DeepThoughts is installed, launched and sent home, so its `state-saved` mark is there.
`expect` with `data` (the member is `markData`) used to pass without checking the data: now it is a tool error naming
`data` and suggesting `markData`, before anything runs, and the check spelt right fails on the wrong data. Likewise
`fire` with `bogus`, `wait_for_state` with `timeout` (it used to wait the default 10 s), `install` with `manifest`,
and a member of the wrong JSON type. Prints "all checks passed" or raises.
"""

import os
import shutil
import sys
import tempfile
import time

import anyio
from mcp_session import call, check, mcp_session, text_of

APP = "com.example.DeepThoughts"


def refused(result, unknown, suggestion=None):
    """Whether `result` is a tool error (isError) of jsonrpc.InvalidParams naming `unknown`, and `suggestion`."""
    text = text_of(result)
    error = (result.structured_content or {}).get("error", {})
    data = error.get("data", {})
    named = f"'{unknown}'" in text and data.get("unknown") == [unknown]
    suggested = suggestion is None or (f"did you mean '{suggestion}'?" in text
                                       and data.get("didYouMean") == {unknown: suggestion})
    return result.is_error and error.get("name") == "jsonrpc.InvalidParams" and named and suggested


async def main(bin_dir, repository):
    state_dir = tempfile.mkdtemp(prefix="lifebus-mcp-arguments.")
    try:
        async with mcp_session(
                command=os.path.join(bin_dir, "lifebus"), args=["mcp", "--start-broker", "--clock", "manual"],
                env={**os.environ, "LIFEBUS_STATE_DIR": state_dir}, cwd=repository) as (session, _):
            await call(session, "install", {"path": "Examples/manifests/deepthoughts.json"})
            await call(session, "launch", {"app": APP})
            await call(session, "fire", {"event": "home"})

            mistyped = await session.call_tool(
                "expect", {"app": APP, "mark": "state-saved", "data": {"reason": "NOT-THIS"}})
            check(refused(mistyped, "data", "markData"),
                  f"expect with data is refused, naming data and suggesting markData: {text_of(mistyped)}")
            check("it takes app," in text_of(mistyped), f"and listing what expect takes: {text_of(mistyped)}")
            meant = await call(
                session, "expect", {"app": APP, "mark": "state-saved", "markData": {"reason": "NOT-THIS"}})
            check(meant.structured_content["passed"] is False,
                  f"spelt markData, the check is made and fails on the wrong data: {text_of(meant)}")

            bogus = await session.call_tool("fire", {"event": "home", "bogus": 1})
            check(refused(bogus, "bogus"), f"fire with bogus is refused: {text_of(bogus)}")

            started = time.monotonic()
            waited = await session.call_tool("wait_for_state", {"app": APP, "state": "notRunning", "timeout": "1s"})
            check(refused(waited, "timeout", "timeoutMs") and time.monotonic() - started < 5,
                  f"wait_for_state with timeout is refused at once, suggesting timeoutMs: {text_of(waited)}")

            manifest = await session.call_tool("install", {"manifest": "Examples/manifests/deepthoughts.json"})
            check(refused(manifest, "manifest") and "it takes path" in text_of(manifest),
                  f"install with manifest is refused naming it and path: {text_of(manifest)}")

            typed = await session.call_tool("wait_for_state", {"app": APP, "state": "notRunning", "timeoutMs": "1s"})
            error = (typed.structured_content or {}).get("error", {})
            check(typed.is_error and error.get("data", {}).get("field") == "timeoutMs"
                  and "must be a number, not a string" in text_of(typed),
                  f"a timeoutMs that is a string is refused naming it: {text_of(typed)}")

            await call(session, "fire", {"event": "terminate", "app": APP, "byUser": True})
    finally:
        shutil.rmtree(state_dir, ignore_errors=True)
    print("all checks passed")


anyio.run(main, sys.argv[1], sys.argv[2])
