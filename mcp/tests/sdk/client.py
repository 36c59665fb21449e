"""Drives `warrant mcp` with the official MCP Python SDK's client and prints what it saw as
one JSON object on stdout.

usage: client.py --warrant BIN --cwd DIR [--http URL] SCENARIO -- GATEWAY_ARGS…

GATEWAY_ARGS are the arguments after `warrant` (`mcp --data-dir … -- python3 server.py`).
Scenarios: list, standalone, hints, server, elicit.
"""

import argparse
import asyncio
import json
import os
import sys
import urllib.request

import anyio
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import McpError
import mcp.types as types


def text_of(result):
    return "\n".join(c.text for c in result.content if getattr(c, "type", "") == "text")


async def call(session, name, arguments=None):
    try:
        result = await session.call_tool(name, arguments or {})
        return {"isError": bool(result.isError), "text": text_of(result)}
    except McpError as e:
        return {"error": {"code": e.error.code, "message": e.error.message}}


def http(method, url, token, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Authorization", f"Bearer {token}")
    if data is not None:
        request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
        return json.loads(text) if text else None


async def approve_over_http(base, token, tool, action):
    """Waits for the pending request of `tool`, then resolves it with `action`."""
    for _ in range(200):
        pending = await asyncio.to_thread(http, "GET", f"{base}/v1/approvals", token)
        for request in pending:
            if request.get("toolName") == tool:
                return await asyncio.to_thread(
                    http,
                    "POST",
                    f"{base}/v1/approvals/{request['toolCallId']}",
                    token,
                    {"actionId": action},
                )
        await asyncio.sleep(0.1)
    raise RuntimeError(f"no approval request for {tool} appeared")


async def scenario(args, session, report):
    init = await session.initialize()
    report["serverName"] = init.serverInfo.name
    report["protocolVersion"] = init.protocolVersion
    tools = await session.list_tools()
    report["tools"] = {
        t.name: (t.annotations.model_dump(exclude_none=True) if t.annotations else None)
        for t in tools.tools
    }
    if args.scenario == "standalone":
        report["echo"] = await call(session, "echo", {"text": "hi"})
        report["wipe"] = await call(session, "wipe")
        report["peek"] = await call(session, "peek")
        report["ping"] = str(await session.send_ping())
        report["crash"] = await call(session, "crash")
    elif args.scenario == "hints":
        report["echo"] = await call(session, "echo", {"text": "hi"})
        report["write_note"] = await call(session, "write_note", {"text": "n"})
        report["wipe"] = await call(session, "wipe")
    elif args.scenario == "server":
        token = os.environ["WARRANT_TOKEN"]
        approved, report["allowed"] = await asyncio.gather(
            approve_over_http(args.http, token, "write_note", "allow_once"),
            call(session, "write_note", {"text": "approved"}),
        )
        report["approval"] = approved
        denied, report["denied"] = await asyncio.gather(
            approve_over_http(args.http, token, "peek", "deny"),
            call(session, "peek"),
        )
        report["denial"] = denied
        report["timedOut"] = await call(session, "echo", {"text": "late"})
        await asyncio.sleep(0.5)
        report["catalog"] = await asyncio.to_thread(http, "GET", f"{args.http}/v1/tools", token)
        report["messages"] = await asyncio.to_thread(
            http, "GET", f"{args.http}/v1/sessions/{args.session}/messages", token
        )
    elif args.scenario == "elicit":
        report["accepted"] = await call(session, "write_note", {"text": "yes"})
        report["declined"] = await call(session, "write_note", {"text": "no"})


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("scenario")
    parser.add_argument("--warrant", required=True)
    parser.add_argument("--cwd", required=True)
    parser.add_argument("--http")
    parser.add_argument("--session", default="mcp-gateway-test")
    parser.add_argument("gateway", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    gateway = args.gateway[1:] if args.gateway[:1] == ["--"] else args.gateway

    report = {"elicitations": []}
    answers = iter(["allow_once", "decline"])

    async def on_elicit(context, params):
        report["elicitations"].append(params.message)
        answer = next(answers, "decline")
        if answer == "decline":
            return types.ElicitResult(action="decline")
        return types.ElicitResult(action="accept", content={"decision": answer})

    params = StdioServerParameters(
        command=args.warrant, args=gateway, env=dict(os.environ), cwd=args.cwd
    )
    callback = on_elicit if args.scenario == "elicit" else None
    try:
        with anyio.fail_after(90):
            async with stdio_client(params) as (read, write):
                async with ClientSession(read, write, elicitation_callback=callback) as session:
                    await scenario(args, session, report)
    except BaseException as e:  # the server's exit may surface when the transport closes
        if "crash" not in report:
            report["failure"] = repr(e)
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
