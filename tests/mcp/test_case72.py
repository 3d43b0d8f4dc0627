"""The original's black-box shell case `72_rust_mcp.sh`, as scenarios against the installed
command (step 1 is tests/cli/test_core_cli.py's, step 2 does not apply, 11 is optional).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

from tests.conftest import answered, git, make_git_repo, run_majordomus, witness

SCOPE_RULE = ".ai/repo/rules/vendor/majordomus/rules/scope-integrity.v1.md"
SCOPE_URI = "majordomus://rule/majordomus.scope-integrity@1"

EXAMPLE_RULE = """---
id: project.example
version: 1
kind: rule
title: Example
description: An example project rule.
statement: Examples stay small.
status: active
class: advisory
depends_on: []
tags: [example]
---

# Rationale

An example keeps the data-driven extension honest.
"""


def inspect(root: Path, *args: str) -> tuple[int, str]:
    """`mcp --inspect`, stdout and stderr captured together as the shell harness does."""
    done = run_majordomus(["mcp", "--inspect", *args], cwd=root)
    return done.code, done.stdout + done.stderr


def grep(pattern: str, text: str) -> list[str]:
    return [line for line in text.split("\n") if re.search(pattern, line)]


def test_step4_inspect_serves_what_init_wrote(layer_repo: Path) -> None:
    before = witness(layer_repo)
    code, out = inspect(layer_repo)
    assert code == 0, out
    assert grep(r"^state       ok$", out)
    for pattern in (
        r"^resource    majordomus://policy/\.ai/repo/policy\.yaml$",
        r"^resource    majordomus://profile/implementation$",
        r"^resource    majordomus://prompt/continue$",
        r"^resource    majordomus://rule/majordomus\.scope-integrity@1$",
        r"^resource    majordomus://repository$",
        r"^tool        majordomus_get$",
    ):
        assert grep(pattern, out), pattern
    assert not grep(r"\.ai/local/", out)
    assert witness(layer_repo) == before


def test_step4_inspect_json_has_the_report_shape(layer_repo: Path) -> None:
    done = run_majordomus(["mcp", "--inspect", "--format", "json"], cwd=layer_repo)
    assert done.code == 0, done.stderr
    report = json.loads(done.stdout)
    assert list(report) == ["repository", "resources", "tools"]
    assert report["repository"]["state"] == "ok"
    assert report["repository"]["diagnostics"] == []
    for resource in report["resources"]:
        assert set(resource) <= {"uri", "name", "title", "description", "media_type", "meta"}
        assert {"uri", "name", "media_type", "meta"} <= set(resource)
    for tool in report["tools"]:
        assert list(tool) == ["name", "title", "description", "input_schema"]
        assert tool["input_schema"]["type"] == "object"


def _rule_ids_on_disk(root: Path) -> list[str]:
    ids = []
    for path in sorted((root / ".ai/repo/rules").rglob("*.md")):
        text = path.read_text()
        if not text.startswith("---\n"):
            continue
        front = text.split("\n---\n", 1)[0]
        match = re.search(r"^id: *(\S+)$", front, re.MULTILINE)
        if match:
            ids.append(match.group(1))
    return sorted(ids, key=str.encode)


def test_step5_two_readers_agree(layer_repo: Path) -> None:
    code, out = inspect(layer_repo)
    assert code == 0
    served = [
        m.group(1)
        for line in out.split("\n")
        if (m := re.match(r"^resource    majordomus://rule/(.+)@[0-9]+$", line))
    ]
    assert served
    assert sorted(served, key=str.encode) == _rule_ids_on_disk(layer_repo)


def test_step6_a_real_session_over_pipes(layer_repo: Path, pipes) -> None:
    before = witness(layer_repo)
    messages = [
        pipes.request(
            1,
            "initialize",
            {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "case72", "version": "0"},
            },
        ),
        pipes.notification("notifications/initialized"),
        pipes.request(2, "resources/list"),
        pipes.request(3, "resources/read", {"uri": SCOPE_URI}),
        pipes.call(4, "majordomus_get", {"uri": "majordomus://prompt/continue"}),
        pipes.call(5, "majordomus_repository", {}),
        pipes.call(6, "majordomus_get", {"uri": "majordomus://repository"}),
        pipes.request(7, "resources/read", {"uri": "majordomus://repository"}),
    ]
    session = pipes.run(layer_repo, messages, env={"MAJORDOMUS_LOG": "debug"})
    result = session.result
    assert result.code == 0, result.stderr
    assert len(result.stdout.split("\n")) == 8 and result.stdout.endswith("\n")
    assert [r["id"] for r in session.responses] == [1, 2, 3, 4, 5, 6, 7]
    assert all(isinstance(r, dict) and r["jsonrpc"] == "2.0" for r in session.responses)
    assert "index built" in result.stderr
    assert "index built" not in result.stdout
    line1, line2, line3, line4, line5, line6, line7 = (r["result"] for r in session.responses)

    assert line1["protocolVersion"] == "2025-06-18"
    assert line1["serverInfo"]["name"] == "majordomus"
    assert "resources" in line1["capabilities"] and "tools" in line1["capabilities"]
    assert line1["capabilities"]["prompts"] == {"listChanged": True}

    assert line2["resources"] == pipes.every_resource(layer_repo)[: len(line2["resources"])]
    [scope] = [r for r in pipes.every_resource(layer_repo) if r["uri"] == SCOPE_URI]
    assert scope["_meta"]["majordomus"]["provenance"]["path"] == SCOPE_RULE
    assert scope["_meta"]["majordomus"]["provenance"]["section"] == "rules"

    assert line3["contents"][0]["text"].encode() == (layer_repo / SCOPE_RULE).read_bytes()

    assert line4["isError"] is False
    assert answered(line4)["metadata"]["name"] == "continue"
    assert answered(line4)["provenance"]["source_class"] == "prompt"
    assert answered(line4)["source"] == "declarative"

    report = answered(line5)
    assert report["state"] == "ok"
    assert report["diagnostics"] == []
    assert report["repository"]["git"]["state"] == "available"

    view = answered(line6)
    assert line6["isError"] is False
    assert view["source"] == "builtin"
    assert view["id"] == "repository.info"
    assert view["identity"] == "repository"
    assert view["media_type"] == "application/json"
    assert view["answer"]["state"] == "ok"
    assert json.dumps(view["answer"], sort_keys=True) == json.dumps(report, sort_keys=True)
    assert view["content"] == line7["contents"][0]["text"]

    assert witness(layer_repo) == before


def test_step7_and_8_a_rule_added_then_removed(layer_repo: Path) -> None:
    example = layer_repo / ".ai/repo/rules/project/example.v1.md"
    example.write_text(EXAMPLE_RULE)
    git(layer_repo, "add", "-A")
    code, out = inspect(layer_repo)
    assert code == 0, out
    assert grep(r"^resource    majordomus://rule/project\.example@1$", out)
    assert "project.example" in _rule_ids_on_disk(layer_repo)

    example.unlink()
    git(layer_repo, "add", "-A")
    code, out = inspect(layer_repo)
    assert code == 0, out
    assert not grep(r"project\.example", out)


def test_step9_broken_means_degraded_never_silently_smaller(layer_repo: Path) -> None:
    (layer_repo / ".ai/repo/rules/project/broken.v1.md").write_text(
        "---\nid: project.broken\nversion: 1\n"
    )
    git(layer_repo, "add", "-A")
    code, out = inspect(layer_repo)
    assert code == 10
    assert grep(r"^state       degraded$", out)
    assert grep(r"^FAIL malformed_front_matter +\.ai/repo/rules/project/broken\.v1\.md", out)
    assert grep(r"^resource    majordomus://rule/majordomus\.scope-integrity@1$", out)
    before = witness(layer_repo)
    done = run_majordomus(["mcp", "--strict"], cwd=layer_repo, input=b"")
    assert (done.code, done.stdout) == (10, "")
    assert "refusing to serve under --strict" in done.stderr
    assert "majordomus mcp --inspect" in done.stderr
    assert witness(layer_repo) == before
    done = run_majordomus(["mcp", "--strict", "--inspect"], cwd=layer_repo)
    assert done.code == 10
    assert done.stdout == ""
    assert "refusing to serve under --strict" in done.stderr


def test_step10_duplicate_identity(layer_repo: Path) -> None:
    copy = layer_repo / ".ai/repo/rules/project/copy.v1.md"
    shutil.copyfile(layer_repo / SCOPE_RULE, copy)
    git(layer_repo, "add", "-A")
    code, out = inspect(layer_repo)
    assert code == 10
    duplicates = grep(r"^FAIL duplicate_identity +", out)
    assert any(SCOPE_RULE in line for line in duplicates)
    assert any(".ai/repo/rules/project/copy.v1.md" in line for line in duplicates)
    assert not grep(re.escape(f"resource    {SCOPE_URI}"), out)

    copy.unlink()
    git(layer_repo, "add", "-A")
    code, out = inspect(layer_repo)
    assert code == 0, out
    assert grep(r"^state       ok$", out)


def test_step12_not_a_layer(tmp_path: Path) -> None:
    plain = make_git_repo(tmp_path / "plain", commit=False)
    done = run_majordomus(["mcp", "--repo", str(plain), "--inspect"], cwd=tmp_path)
    assert done.code == 12
    assert "no Majordomus repository found" in done.stdout + done.stderr
