"""Measurements that must run in a fresh interpreter, one per process (issues 8 and 18).

    python benchmarks/probes.py index ROOT      a new Workspace(ROOT)'s index, after the imports
    python benchmarks/probes.py floor ROOT      `git ls-files` plus reading every listed file
    python benchmarks/probes.py ledger ROOT     json.load every record file, then sort them
    python benchmarks/probes.py sdk-server      a minimal MCP server of the official SDK

`index` and `floor` print the wall and CPU nanoseconds of their work alone (the floor
imports nothing, so neither counts imports); timed from outside, `floor` is also the
whole-process floor of `objects list`. `ledger` is the plain script the status command
is held against and is timed from outside like the command; `sdk-server` serves one tool
over stdio.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import subprocess
import sys
import time


def _cpu_ns() -> int:
    """CPU (user + system) of this process and its reaped children so far."""
    own, children = (
        resource.getrusage(w) for w in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
    )
    seconds = own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime
    return round(seconds * 1e9)


def floor(root: str) -> tuple[int, int]:
    cpu = _cpu_ns()
    start = time.perf_counter_ns()
    listed = subprocess.run(
        ["git", "-C", root, "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    for name in listed.split(b"\0"):
        if name:
            with open(os.path.join(root.encode(), name), "rb") as handle:
                handle.read()
    return time.perf_counter_ns() - start, _cpu_ns() - cpu


def index(root: str) -> tuple[int, int]:
    """A full index build through the stable entry point, a new `Workspace`'s index.

    The modules the build imports on first use are imported before the clock starts when
    they are where they are today (the floor imports nothing either); if they moved, their
    import is timed too."""
    import importlib
    from pathlib import Path

    from majordomus.capabilities.workspace import Workspace

    for module in ("majordomus.capabilities.builtin", "majordomus.layer.index"):
        with contextlib.suppress(ImportError):
            importlib.import_module(module)
    cpu = _cpu_ns()
    start = time.perf_counter_ns()
    built = Workspace(Path(root)).index
    elapsed = time.perf_counter_ns() - start, _cpu_ns() - cpu
    assert built.objects, "the layer has no object"
    return elapsed


def ledger(root: str) -> None:
    """The floor of `reasoning status`: every record file json.load-ed, sorted by stamp and id."""
    store = os.path.join(root, ".ai", "local", "state", "reasoning")
    records = []
    for task in os.listdir(store):
        folder = os.path.join(store, task)
        for name in os.listdir(folder):
            if name.endswith(".json"):
                with open(os.path.join(folder, name), "rb") as handle:
                    records.append(json.load(handle))
    records.sort(key=lambda r: (r["recorded_at"], r["id"]))
    sys.stdout.write(f"{len(records)}\n")


def sdk_server() -> None:
    """One tool, `get(uri)`, served by the SDK's own high-level server over stdio."""
    from mcp.server.mcpserver import MCPServer

    server = MCPServer("minimal")

    @server.tool()
    def get(uri: str) -> str:
        """Answer with the URI asked for."""
        return uri

    server.run()


def main(argv: list[str]) -> int:
    what = argv[0]
    if what == "sdk-server":
        sdk_server()
        return 0
    if what == "ledger":
        ledger(argv[1])
        return 0
    wall, cpu = {"index": index, "floor": floor}[what](argv[1])
    sys.stdout.write(f"{wall} {cpu}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
