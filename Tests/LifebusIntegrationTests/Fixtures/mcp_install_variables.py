"""The MCP `install` tool sends the server's variables a manifest names: usage python3 mcp_install_variables.py
LIFEBUS SOCKET FOLDER. Writes FOLDER/tool.json (`${MCP_TEST_TOOL:-true}` as its executable, `${MCP_TEST_ARG}` as an
argument), then through `lifebus mcp --socket SOCKET` installs it with MCP_TEST_ARG unset (a tool error naming the
file, the member and the variable) and set (installed, the bare `true` found on the server's PATH). Prints "all
checks passed" and exits 0, or raises.
"""

import json
import os
import subprocess
import sys


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok:", message, flush=True)


def install(lifebus, socket, manifest, environment):
    server = subprocess.Popen([lifebus, "mcp", "--socket", socket], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, bufsize=1, env=environment)
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw"}}},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "install", "arguments": {"path": manifest}}},
    ]
    for message in messages:
        server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()
    while True:
        line = server.stdout.readline()
        if not line:
            raise AssertionError("the server ended before answering the install")
        answer = json.loads(line)
        if answer.get("id") == 2:
            server.stdin.close()
            server.wait(timeout=10)
            return answer["result"]


def main(lifebus, socket, folder):
    manifest = os.path.join(folder, "tool.json")
    with open(manifest, "w") as file:
        file.write('{"id": "com.test.McpTool", "executable": "${MCP_TEST_TOOL:-true}", "arguments": ["${MCP_TEST_ARG}"]}')
    base = {key: value for key, value in os.environ.items() if not key.startswith("MCP_TEST_")}
    base["PATH"] = "/usr/bin:/bin"

    refused = install(lifebus, socket, manifest, base)
    text = refused["content"][0]["text"]
    check(refused.get("isError") and f'{manifest}: member "arguments": variable "MCP_TEST_ARG" is not set' in text,
          f"an unset variable is refused naming the file, member and variable: {text}")

    installed = install(lifebus, socket, manifest, dict(base, MCP_TEST_ARG="x"))
    check(not installed.get("isError") and installed["structuredContent"]["executable"] == "/usr/bin/true",
          f"installed with the server's variable, the bare executable from its PATH: {installed}")
    print("all checks passed")


if __name__ == "__main__":
    main(*sys.argv[1:])
