"""What every test that drives `lifebus mcp` with PyPI's `mcp` client shares: the checks' printing, a tool call that
must succeed, and a session opened on a server process over stdio.

Imported by mcp_client.py, mcp_restoration.py, mcp_background.py, mcp_scenes.py, mcp_conditions.py and
mcp_arguments.py (run as scripts, so this file's folder is on sys.path).
"""

import contextlib

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def check(condition, message):
    if not condition:
        raise AssertionError(message)
    print("ok:", message, flush=True)


def text_of(result):
    return "\n".join(item.text for item in result.content if getattr(item, "type", "") == "text")


async def call(session, tool, arguments):
    result = await session.call_tool(tool, arguments)
    check(not result.is_error, f"{tool} {arguments} succeeds: {text_of(result)[:300]}")
    return result


@contextlib.asynccontextmanager
async def mcp_session(command, args, env=None, cwd=None):
    """An initialised session with the server `command args` (its stdio), and initialize's result; the server ends
    when the block does."""
    server = StdioServerParameters(command=command, args=args, env=env, cwd=cwd)
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            initialized = await session.initialize()
            yield session, initialized
