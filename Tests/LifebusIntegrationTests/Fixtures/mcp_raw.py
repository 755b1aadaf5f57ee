"""Speaks raw newline-delimited JSON-RPC to `lifebus mcp --socket SOCKET`: the protocol edges a library client
hides. Usage: python3 mcp_raw.py LIFEBUS SOCKET. Prints "all checks passed" and exits 0, or raises.

Checks: tools before initialize are refused; initialize negotiates the version (an unknown one gets the newest);
a line that is not JSON gets a parse error and the server goes on; a batch is refused; arguments that are not an
object are a JSON-RPC error; an unknown tool's name is echoed cut to 64 bytes; a cancelled call is never answered
(a later, longer call is answered first and the cancelled id never); the server exits when its input ends;
`--start-broker` runs a private broker that SIGTERM stops together with the server, its temporary folder removed.
"""

import json
import os
import signal
import subprocess
import sys


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok:", message, flush=True)


class Server:
    def __init__(self, lifebus, *arguments):
        self.process = subprocess.Popen([lifebus, "mcp", *arguments], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.seen = []

    def send(self, message):
        self.process.stdin.write((message if isinstance(message, str) else json.dumps(message)) + "\n")
        self.process.stdin.flush()

    def answer(self, request_id):
        """Reads messages until the response to request_id; keeps every message read."""
        while True:
            line = self.process.stdout.readline()
            if not line:
                raise AssertionError(f"the server ended before answering {request_id}")
            message = json.loads(line)
            self.seen.append(message)
            if message.get("id") == request_id and "method" not in message:
                return message


def call(request_id, name, arguments, meta=None):
    params = {"name": name, "arguments": arguments}
    if meta:
        params["_meta"] = meta
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def main(lifebus, socket):
    server = Server(lifebus, "--socket", socket)
    server.send({"jsonrpc": "2.0", "id": 1, "method": "tools/list"})
    early = server.answer(1)
    check("error" in early, f"tools/list before initialize is refused: {early}")

    server.send({"jsonrpc": "2.0", "id": 2, "method": "initialize",
                 "params": {"protocolVersion": "1999-01-01", "capabilities": {}, "clientInfo": {"name": "raw"}}})
    init = server.answer(2)
    check(init["result"]["protocolVersion"] == "2025-11-25", f"an unknown version gets the newest: {init['result']}")
    check(init["result"]["capabilities"]["tools"] == {"listChanged": False}, "the server offers tools")
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    server.send("{not json")
    server.send({"jsonrpc": "2.0", "id": 3, "method": "ping"})
    pong = server.answer(3)
    check(pong["result"] == {}, "ping answers {} after a line that is not JSON")
    parse_errors = [m for m in server.seen if m.get("error", {}).get("code") == -32700]
    check(len(parse_errors) == 1 and parse_errors[0]["id"] is None, "the bad line got a parse error, id null")

    server.send([{"jsonrpc": "2.0", "id": 4, "method": "ping"}])
    server.send({"jsonrpc": "2.0", "id": 5, "method": "ping"})
    server.answer(5)
    check(any(m.get("error", {}).get("code") == -32600 for m in server.seen), "a batch is refused with -32600")

    server.send({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "fire", "arguments": [1]}})
    bad = server.answer(6)
    check(bad["error"]["code"] == -32602, f"arguments that are not an object are -32602: {bad['error']}")

    server.send({"jsonrpc": "2.0", "id": 7, "method": "resources/list"})
    check(server.answer(7)["error"]["code"] == -32601, "an unknown method is -32601")

    server.send(call(10, "t" * 300, {}))
    unknown = server.answer(10)["error"]
    check(unknown["data"]["tool"] == "t" * 64 + "\u2026" and "t" * 65 not in unknown["message"],
          "an unknown tool's name is echoed cut to 64 bytes and an ellipsis, as the broker echoes (§5)")

    server.send(call(8, "wait_for_state", {"app": "com.example.Never", "state": "active", "timeoutMs": 300},
                     meta={"progressToken": "w8"}))
    server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 8, "reason": "test"}})
    server.send(call(9, "wait_for_state", {"app": "com.example.Never", "state": "active", "timeoutMs": 900}))
    later = server.answer(9)
    check(later["result"]["isError"] and "lifebus.TimedOut" in later["result"]["content"][0]["text"],
          "a wait that times out is a tool error named lifebus.TimedOut")
    check(not any(m.get("id") == 8 and "method" not in m for m in server.seen),
          "the cancelled call was never answered, though its 300 ms ran out before the 900 ms call's")

    server.process.stdin.close()
    check(server.process.wait(timeout=10) == 0, "the server exits 0 when its input ends")

    private = Server(lifebus, "--start-broker")
    private.send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                  "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw"}}})
    check(private.answer(1)["result"]["protocolVersion"] == "2025-06-18", "a version the server speaks is kept")
    private.send(call(2, "status", {}))
    own_socket = private.answer(2)["result"]["structuredContent"]["socket"]
    check(os.path.exists(own_socket), f"--start-broker listens on {own_socket}")
    private.process.send_signal(signal.SIGTERM)
    check(private.process.wait(timeout=10) == 0, "SIGTERM stops the server, exit 0")
    check(not os.path.exists(os.path.dirname(own_socket)), "and its private broker's folder is gone")
    print("all checks passed", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
