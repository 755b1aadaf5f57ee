"""Drives the advance_clock tool of `lifebus mcp --socket SOCKET` against a broker started with --clock manual.
Usage: python3 mcp_clock.py LIFEBUS SOCKET. Prints "all checks passed" and exits 0, or raises.

Checks: advance_clock moves the virtual clock (5s twice makes 10000 ms) and answers with the new time, structured
as the broker's advance result; a duration that does not parse is a tool-argument error; a launch whose app never
connects, once the clock passes its launch budget, is a tool error lifebus.TimedOut (reason launchTimedOut) that
says it is a timeout, not a refusal.
"""

import sys

from mcp_raw import Server, call, check


def response(server, request_id):
    """The response to request_id, whether it was read already (while waiting for another) or not yet."""
    for message in server.seen:
        if message.get("id") == request_id and "method" not in message:
            return message
    return server.answer(request_id)


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

    server.send(call(5, "launch", {"app": "com.example.Absent"}))
    waiting = False
    for request_id in range(100, 400):  # until the broker shows the launch waiting for the app's process
        server.send(call(request_id, "status", {}))
        apps = server.answer(request_id)["result"].get("structuredContent", {}).get("apps", [])
        if any(app["id"] == "com.example.Absent" and "launchBudgetMs" in app for app in apps):
            waiting = True
            break
    check(waiting, "the launch waits for com.example.Absent to connect")
    server.send(call(6, "advance_clock", {"by": "21s"}))
    server.answer(6)
    launch = response(server, 5)["result"]
    error = launch.get("structuredContent", {}).get("error", {})
    check(launch.get("isError") and error.get("name") == "lifebus.TimedOut"
          and error.get("data", {}).get("reason") == "launchTimedOut", f"the launch timed out: {launch}")
    check("A timeout, not a refusal" in launch["content"][0]["text"], f"the text says so: {launch['content']}")

    server.process.stdin.close()
    server.process.wait(timeout=10)
    print("all checks passed")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
