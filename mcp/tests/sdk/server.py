"""A small MCP server written with the official MCP Python SDK (FastMCP), run over stdio.

The gateway tests start it behind `warrant mcp`. Its tools:
echo (readOnlyHint), peek (readOnlyHint), write_note (no annotations),
wipe (destructiveHint) and crash (exits with status 3 while a call is pending).
"""

import os
import sys

from mcp.server.fastmcp import FastMCP
from mcp.types import ToolAnnotations

server = FastMCP("gateway-test-server")


@server.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def echo(text: str) -> str:
    """Echoes the text back."""
    return f"echo: {text}"


@server.tool(annotations=ToolAnnotations(readOnlyHint=True, openWorldHint=False))
def peek() -> str:
    """Reads nothing of importance."""
    return "peeked"


@server.tool()
def write_note(text: str) -> str:
    """Pretends to write a note."""
    return f"noted: {text}"


@server.tool(annotations=ToolAnnotations(readOnlyHint=False, destructiveHint=True))
def wipe() -> str:
    """Pretends to wipe everything."""
    return "wiped"


@server.tool()
def crash() -> str:
    """Dies before answering."""
    sys.stdout.flush()
    os._exit(3)


if __name__ == "__main__":
    server.run()
