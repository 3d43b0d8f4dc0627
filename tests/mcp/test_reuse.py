"""A get asked again of the same index: the line is the one a fresh server writes, to the
byte, under every kind of id and for objects whose text is hostile; a changed layer is
answered anew."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.egress import json_safe
from majordomus.mcp.framing import Encoded, dump, encode, success
from majordomus.mcp.server import Server
from tests.conftest import FIXTURES, make_git_repo

#: A rule whose text every part of the line must escape or redact alike: a bidi override,
#: C1 and DEL controls, a line separator, a terminal escape, secrets.
HOSTILE_RULE = (
    """---
id: project.gamma
version: 1
kind: rule
title: "Gämma \u202e rule"
description: "Odd values\u2028in one sentence."
statement: "Non-ASCII survives."
status: active
class: advisory
tags: [odd]
---

# Gämma \x85 \x7f

An escape \x1b]52;c;Zm9v\x07, a key AKIAABCDEFGHIJKLMNOP and ghp_"""
    + "a" * 36
    + "\n"
)

#: Ids a client may send, each echoed by the answer as it came.
IDS: list[Any] = [0, 7, -3, 2**53, "s", "é\u202e\u2028", "", 1.5, -0.0, 1e300, True, [1], {"a": 1}]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    shutil.copytree(FIXTURES / "layers" / "healthy", root)
    (root / ".ai/repo/rules/project/gamma.v1.md").write_text(HOSTILE_RULE, encoding="utf-8")
    return make_git_repo(root)


def _get(id_: Any, uri: str) -> str:
    params = {"name": "majordomus_get", "arguments": {"uri": uri}}
    return json.dumps({"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": params})


def _lines(server: Server, line: str) -> list[str]:
    return server.answer_lines(line.encode())


def test_a_repeated_get_writes_the_line_a_fresh_server_writes(repo: Path) -> None:
    kept = Server(Workspace(repo), read_only=False)
    names = [n for o in kept.ctx.index.objects for n in (o.uri, o.identity)]
    lines = [_get(id_, name) for name in names for id_ in IDS]
    batch = json.dumps([json.loads(_get(i, name)) for i, name in enumerate(names)])
    first = [_lines(kept, line) for line in [*lines, batch]]
    again = [_lines(kept, line) for line in [*lines, batch]]
    computed = Server(Workspace(repo), read_only=False)
    assert first == again == [_lines(computed, line) for line in [*lines, batch]]
    assert any("[redacted:" in line[0] and "\\u202e" in line[0] for line in first)


def test_a_changed_layer_is_answered_anew(repo: Path) -> None:
    server = Server(Workspace(repo), read_only=False)
    rule = repo / ".ai/repo/rules/project/gamma.v1.md"
    uri = next(o.uri for o in server.ctx.index.objects if o.title and "Gämma" in o.title)
    before = _lines(server, _get(1, uri))
    assert before == _lines(server, _get(1, uri))
    rule.write_text(HOSTILE_RULE + "A line added during the session.\n", encoding="utf-8")
    after = _lines(server, _get(1, uri))
    assert after != before and "added during the session" in after[-1]
    assert after[-1:] == _lines(Server(Workspace(repo), read_only=False), _get(1, uri))
    rule.unlink()
    gone = _lines(server, _get(1, uri))
    assert '"isError":true' in gone[-1]


@pytest.mark.parametrize("id_", IDS)
def test_an_encoded_result_is_written_as_its_value(id_: Any) -> None:
    value = {"text": "é \u202e \x85 \x7f \u2028 \ud800", "n": [1, 2.5, None, True], "o": {}}
    line = encode(success(id_, Encoded(value)))
    assert line == encode(success(id_, value)) == json_safe(dump(success(id_, value)))
    assert encode([success(id_, Encoded(value))]) == encode([success(id_, value)])
