"""`lifebus mcp --start-broker --power battery --network offline` passes the device's start conditions on to the
broker it starts, with PyPI's `mcp` client: the broker's run record, which `history` lists, says battery and offline;
a server started without them starts a broker plugged in and online (its run record has neither).

Usage: python3 mcp_conditions.py BIN_DIR. Prints "all checks passed" or raises.
"""

import os
import sys

import anyio
from mcp_session import call, check, mcp_session


async def run_record(lifebus, extra):
    async with mcp_session(lifebus, ["mcp", "--start-broker", "--clock", "manual", *extra]) as (session, _):
        result = await call(session, "history", {"limit": 1000})
        runs = [entry for entry in result.structured_content["entries"] if entry.get("type") == "run"]
        check(len(runs) == 1, f"history lists the broker's one run record: {runs}")
        return runs[0]


async def main(bin_dir):
    lifebus = os.path.join(bin_dir, "lifebus")
    started = await run_record(lifebus, ["--power", "battery", "--network", "offline"])
    check(started.get("power") == "battery" and started.get("network") == "offline",
          f"--power battery --network offline reach the broker: {started}")
    plain = await run_record(lifebus, [])
    check("power" not in plain and "network" not in plain, f"without them, plugged in and online: {plain}")
    print("all checks passed", flush=True)


if __name__ == "__main__":
    anyio.run(main, sys.argv[1])
