"""Layer prompts filled from what majordomus knows, the placeholders nothing fills named at
the end, `lint` reporting those, and the built-in devcontext prompt asked nothing
(docs/mcp.md#prompts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from freezegun import freeze_time

from majordomus.capabilities.workspace import Workspace
from majordomus.devcontext.bundle import LEFT_OUT
from majordomus.layer.prompts import FACTS
from majordomus.mcp import prompts
from majordomus.mcp.devcontext import MCP_LEFT_OUT
from majordomus.mcp.jsonrpc import encode
from majordomus.mcp.server import Server
from tests.conftest import git, run_majordomus

PROMPT = """---
name: facts
description: every fact at once
arguments:
  - name: scope
    description: what the work may touch
---

Task {{TASK}} ({{task_id}}) on {{BRANCH}} at {{HEAD}}, {{WORKING_TREE}}, in {{REPOSITORY}},
as of {{NOW}}. Scope: {{SCOPE}}. Decisions: {{DECISIONS}}.

Latest checkpoint:
{{CHECKPOINT}}
"""
CHECKPOINT = "---\ncreated_at: 2026-09-01T10:00:00Z\n---\n\nHalfway through the reader.\n"


def _get(root: Path, name: str, arguments: dict[str, str] | None = None) -> Any:
    srv = Server(Workspace(root), read_only=True)
    params: dict[str, Any] = {"name": name}
    if arguments is not None:
        params["arguments"] = arguments
    message = {"jsonrpc": "2.0", "id": 1, "method": "prompts/get", "params": params}
    found = srv.answer(json.dumps(message).encode())
    assert found is not None
    return json.loads(encode(found))


def _with_prompt(root: Path) -> Path:
    (root / ".ai/repo/prompts/facts.md").write_text(PROMPT, encoding="utf-8")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "a prompt of facts")
    return root


def test_placeholders_are_filled_from_what_majordomus_knows(layer_repo: Path) -> None:
    root = _with_prompt(layer_repo)
    state = root / ".ai/local/state"
    (state / "checkpoints").mkdir(parents=True, exist_ok=True)
    (state / "checkpoints/20260901T100000Z.md").write_text(CHECKPOINT, encoding="utf-8")
    (state / "current.yaml").write_text("id: port-the-reader\n", encoding="utf-8")
    head = git(root, "rev-parse", "HEAD").strip()
    with freeze_time("2026-09-02T08:30:00Z"):
        answer = _get(root, "facts", {"scope": "lib/"})
    [message] = answer["result"]["messages"]
    text = message["content"]["text"]
    assert "Task port-the-reader (port-the-reader) on master at " + head in text
    assert f"in {root}" in text and "as of 2026-09-02T08:30:00Z" in text
    assert "Scope: lib/." in text, "a given argument fills its placeholder"
    assert ".ai/local/state/checkpoints/20260901T100000Z.md\n\nHalfway through the reader." in text
    assert "{{DECISIONS}}" in text
    last = text.splitlines()[-1]
    assert last == ("Not filled (no argument gave it and majordomus knows no value): {{DECISIONS}}")


def test_a_fact_majordomus_does_not_have_is_named_at_the_end(layer_repo: Path) -> None:
    root = _with_prompt(layer_repo)
    text = _get(root, "facts")["result"]["messages"][0]["content"]["text"]
    last = text.splitlines()[-1]
    for name in ("{{TASK}}", "{{TASK_ID}}", "{{SCOPE}}", "{{DECISIONS}}", "{{CHECKPOINT}}"):
        assert name in last
    assert "{{BRANCH}}" not in last and "{{NOW}}" not in last


def test_the_devcontext_prompt_asked_nothing_compiles_the_default(layer_repo: Path) -> None:
    answer = _get(layer_repo, "devcontext")
    [message] = answer["result"]["messages"]
    text = message["content"]["text"]
    assert text.startswith("# Development context\n\nFor no seed: the repository's governance")
    compiled = run_majordomus(["devcontext", "compile", "--bundle"], cwd=layer_repo)
    assert compiled.stdout.replace(LEFT_OUT, MCP_LEFT_OUT) == text, "the command line's compile"


def test_lint_names_a_placeholder_nothing_fills(layer_repo: Path) -> None:
    root = _with_prompt(layer_repo)
    done = run_majordomus(["lint"], cwd=root)
    assert done.code == 0, "a warning"
    [line] = [line for line in done.stdout.splitlines() if "undeclared_placeholder" in line]
    assert line.startswith("WARN undeclared_placeholder")
    assert ".ai/repo/prompts/facts.md" in line and "{{DECISIONS}}" in line
    assert "{{SCOPE}}" not in line and "{{TASK}}" not in line
    assert run_majordomus(["lint", "--strict"], cwd=root).code == 10


def test_every_fact_the_layer_names_is_read() -> None:
    assert set(prompts._FACTS) == FACTS
