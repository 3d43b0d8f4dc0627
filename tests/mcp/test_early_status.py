"""The working tree a session's first compile shows. A session's index is built without `git
status`; the compile asks for it and collects it however the compile ends: the answer shows
the tree as it is at the call, and no git process (running or a zombie) outlives the call."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.mcp.server import Server

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _git_children() -> set[int]:
    """The `git` processes whose parent is this process, running or zombies (a test run
    may hold some of other tests' until their objects are collected)."""
    mine = os.getpid()
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue  # ended meanwhile
        command = stat[stat.index("(") + 1 : stat.rindex(")")]
        parent = stat[stat.rindex(")") + 2 :].split()[1]
        if command == "git" and int(parent) == mine:
            found.add(int(entry.name))
    return found


def _compile(server: Server, arguments: dict[str, Any]) -> dict[str, Any]:
    call = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {"name": "majordomus_devcontext", "arguments": arguments},
    }
    (line,) = server.answer_lines(json.dumps(call).encode())
    result: dict[str, Any] = json.loads(line)["result"]
    return result


def test_the_first_compile_shows_the_tree_as_it_is_at_the_call(layer_repo: Path) -> None:
    before = _git_children()
    server = Server(Workspace(layer_repo), read_only=False)
    assert _git_children() <= before  # the build asked git nothing it did not collect
    (layer_repo / "untracked.txt").write_text("after the build\n", encoding="utf-8")
    result = _compile(server, {"intent": "rule"})
    assert result["isError"] is False
    assert result["structuredContent"]["git"]["working_tree"] == "dirty"
    assert _git_children() <= before


def test_a_refused_compile_leaves_no_git_process(layer_repo: Path) -> None:
    server = Server(Workspace(layer_repo), read_only=False)
    before = _git_children()
    result = _compile(server, {"issue": "no-such-issue"})
    assert result["isError"] is True
    assert _git_children() <= before
