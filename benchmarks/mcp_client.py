"""MCP servers driven by the official client (`mcp.client.stdio` + `ClientSession`).

One session per call of these functions: the server is spawned, initialised, asked, and
closed. Our server (`majordomus mcp`) and the SDK peer (`benchmarks/probes.py sdk-server`,
a minimal server of the official SDK serving one tool) go through the same client code, so
what the client itself costs is on both sides. A session's CPU is the server child's own
(user + system, read from the resource usage of reaped children around the session).
"""

from __future__ import annotations

import asyncio
import os
import resource
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from benchmarks.processes import MAJORDOMUS, Sample

PROBES = str(Path(__file__).resolve().parent / "probes.py")


@dataclass(frozen=True)
class Server:
    """How to spawn one server and the call that is its first answer."""

    command: str
    args: tuple[str, ...]
    tool: str
    arguments: dict[str, Any]


def ours(tool: str, arguments: dict[str, Any]) -> Server:
    return Server(MAJORDOMUS, ("mcp",), tool, arguments)


def peer(uri: str) -> Server:
    """The SDK peer's one tool, `get(uri)`."""
    return Server(sys.executable, (PROBES, "sdk-server"), "get", {"uri": uri})


def _children_cpu_ns() -> int:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return round((usage.ru_utime + usage.ru_stime) * 1e9)


async def _session(server: Server, cwd: Path, calls: int) -> tuple[int, int, list[int]]:
    """(spawn → initialize result, spawn → first call result, latencies of `calls` more
    after five more not counted)."""
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, get_default_environment, stdio_client

    env = get_default_environment() | {"MAJORDOMUS_LOG": "warn"}
    params = StdioServerParameters(
        command=server.command, args=list(server.args), cwd=str(cwd), env=env
    )
    with open(os.devnull, "w") as quiet:
        start = time.perf_counter_ns()
        async with (
            stdio_client(params, errlog=quiet) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            handshake = time.perf_counter_ns() - start
            latencies = []
            warm = 5 if calls else 0
            for i in range(1 + warm + calls):
                began = time.perf_counter_ns()
                result = await session.call_tool(server.tool, server.arguments)
                if i == 0:
                    first = time.perf_counter_ns() - start
                elif i > warm:
                    latencies.append(time.perf_counter_ns() - began)
                if result.is_error:
                    raise SystemExit(f"scale: {server.tool} answered an error: {result}")
    return handshake, first, latencies


def session(server: Server, cwd: Path, calls: int = 0) -> tuple[Sample, Sample, list[int]]:
    """One whole session: (handshake, first answer) as samples, then the steady latencies.

    Both samples carry the CPU of the whole session (the child's, from spawn to exit)."""
    before = _children_cpu_ns()
    handshake, first, latencies = asyncio.run(_session(server, cwd, calls))
    cpu = _children_cpu_ns() - before
    return Sample(handshake, cpu), Sample(first, cpu), latencies
