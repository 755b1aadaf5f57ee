"""A whole state-restoration test driven through `lifebus mcp` tools alone, with PyPI's `mcp` client.

Usage: python3 mcp_restoration.py BIN_DIR REPOSITORY. The server starts its own broker with the manual clock under
ios7 (`--start-broker --clock manual --profile ios7`). Through tools only: install the DeepThoughts manifest, launch
it, expect its launch callbacks; home, expect the save mark; a critical memory warning jetsams it (expect the
jetsam); launch again, expect the restored mark with found=true — and a failing variant (found=false) whose result
says passed false with expected beside recorded; coverage names rows reached; run_scenario runs a file and inline
YAML (one passing, one failing) on the same broker; reset and uninstall. Prints "all checks passed" or raises.
"""

import os
import shutil
import sys
import tempfile

import anyio
from mcp_session import call, check, mcp_session, text_of

APP = "com.example.DeepThoughts"
TOOLS = {"install", "uninstall", "reset", "expect", "coverage", "run_scenario", "launch", "fire", "advance_clock"}


async def expect(session, arguments, passed=True):
    result = await call(session, "expect", {"app": APP, **arguments})
    content = result.structured_content
    check(content["passed"] is passed, f"expect {arguments} passed={passed}: {text_of(result)}")
    return result


async def main(bin_dir, repository):
    state_dir = tempfile.mkdtemp(prefix="lifebus-mcp-restoration.")
    try:
        async with mcp_session(
                command=os.path.join(bin_dir, "lifebus"),
                args=["mcp", "--start-broker", "--clock", "manual", "--profile", "ios7"],
                env={**os.environ, "LIFEBUS_STATE_DIR": state_dir},
                cwd=repository) as (session, _):
            names = {tool.name for tool in (await session.list_tools()).tools}
            check(TOOLS <= names, f"tools/list has the test tools: {sorted(names)}")

            installed = await call(session, "install", {"path": "Examples/manifests/deepthoughts.json"})
            check(installed.structured_content["id"] == APP, "install answers the app")
            await call(session, "launch", {"app": APP})
            await expect(session, {"callbacks": ["didFinishLaunching", "didBecomeActive"], "state": "active"})

            await call(session, "fire", {"event": "home"})
            await expect(session, {"callbacks": ["willResignActive", "didEnterBackground"],
                                   "state": ["background", "suspended"], "mark": "state-saved"})

            await call(session, "fire", {"event": "memory-warning", "level": "critical"})
            await expect(session, {"state": "notRunning", "outcome": "jetsam"})

            await call(session, "launch", {"app": APP})
            await expect(session, {"mark": "state-restored", "markData": {"found": True}, "state": "active"})
            failed = await expect(session, {"mark": "state-restored", "markData": {"found": False}}, passed=False)
            text = text_of(failed)
            check(text.startswith("FAIL expect com.example.DeepThoughts") and "expected" in text
                  and "recorded" in text, f"the failed expect says what differed: {text}")
            check(any(not c["passed"] for c in failed.structured_content["checks"]), "a check is marked failed")

            bad = await session.call_tool("expect", {"app": APP, "state": "asleep"})
            check(bad.is_error, f"a state that does not exist is refused: {text_of(bad)}")

            coverage = await call(session, "coverage", {"app": APP})
            check("rows reached" in text_of(coverage), f"coverage: {text_of(coverage)[:200]}")

            await call(session, "fire", {"event": "terminate", "app": APP, "byUser": True})
            scenario = await call(session, "run_scenario", {"path": "scenarios/memory-warning.yaml"})
            check(scenario.structured_content["passed"] is True, f"a scenario file passes: {text_of(scenario)}")
            inline = await call(session, "run_scenario", {"yaml": (
                "name: inline\n"
                "apps:\n  - manifest: Examples/manifests/deepthoughts.json\n"
                "steps:\n  - launch: com.example.DeepThoughts\n"
                "  - expect: {state: background}\n")})
            check(inline.structured_content["passed"] is False and "FAIL" in text_of(inline),
                  f"an inline scenario that fails says so: {text_of(inline)[:300]}")

            await call(session, "reset", {})
            await call(session, "uninstall", {"app": APP})
    finally:
        shutil.rmtree(state_dir, ignore_errors=True)
    print("all checks passed")


anyio.run(main, sys.argv[1], sys.argv[2])
