"""Drives the advance_clock tool of `lifebus mcp --socket SOCKET` against a broker started with --clock manual.
Usage: python3 mcp_clock.py LIFEBUS SOCKET. Prints "all checks passed" and exits 0, or raises.

Checks: advance_clock moves the virtual clock (5s twice makes 10000 ms) and answers with the new time, structured
as the broker's advance result; a duration that does not parse is a tool-argument error.
"""

import sys

from mcp_raw import Server, call, check


def main(lifebus, socket):
    server = Server(lifebus, "--socket", socket)
    server.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                 "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "clock"}}})
    server.answer(1)
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    server.send(call(2, "advance_clock", {"by": "5s"}))
    first = server.answer(2)["result"]
    check(not first.get("isError") and first["structuredContent"]["nowMs"] == 5000, f"advance 5s: {first}")
    server.send(call(3, "advance_clock", {"by": "5s"}))
    second = server.answer(3)["result"]
    check(second["structuredContent"] == {"clock": "manual", "nowMs": 10000, "outstanding": []},
          f"advance 5s again reaches 10000 ms: {second['structuredContent']}")
    check("now 10000 ms" in second["content"][0]["text"], f"the text says the new time: {second['content']}")

    server.send(call(4, "advance_clock", {"by": "soon"}))
    bad = server.answer(4)
    check("error" in bad or bad["result"].get("isError"), f"a duration that does not parse is refused: {bad}")

    server.process.stdin.close()
    server.process.wait(timeout=10)
    print("all checks passed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
