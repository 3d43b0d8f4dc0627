"""Nothing the author wrote disappears without a diagnostic naming why (layer reference page)."""

from __future__ import annotations

from pathlib import Path

from majordomus.layer.index import build
from tests.conftest import git, initialised_repo

ADR = """---
schema: adr/v1
id: adr-0001
kind: adr
title: Use one reader
status: accepted
date: 2026-01-01
---
# Context
"""


def _codes(root: Path) -> list[tuple[str, str, str | None]]:
    return [(d.severity, d.code, d.path) for d in build(root).index.diagnostics]


def test_a_section_no_class_reads_is_a_named_warning(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo", {".ai/repo/adrs/0001-one-reader.md": ADR})
    sources = root / ".ai/repo/knowledge/sources.yaml"
    text = sources.read_text(encoding="utf-8")
    sources.write_text(text[: text.index("  - id: adr")], encoding="utf-8")
    git(root, "commit", "-qam", "drop the adr class")
    index = build(root).index
    assert [(d.severity, d.code, d.path) for d in index.diagnostics] == [
        ("warning", "section_not_indexed", ".ai/repo/adrs")
    ]
    message = index.diagnostics[0].message
    assert "section 'adrs'" in message
    assert "`majordomus init --sources` declares class `adr` (:(glob).ai/repo/adrs/????-*.md)" in (
        message
    )
    assert index.state == "ok"


def test_an_empty_section_without_a_class_loses_nothing(tmp_path: Path) -> None:
    root = initialised_repo(tmp_path / "repo")
    sources = root / ".ai/repo/knowledge/sources.yaml"
    text = sources.read_text(encoding="utf-8")
    sources.write_text(text[: text.index("  - id: adr")], encoding="utf-8")
    git(root, "commit", "-qam", "drop the adr class")
    assert _codes(root) == []


def test_a_reference_to_an_excluded_object_names_its_diagnostic(tmp_path: Path) -> None:
    root = initialised_repo(
        tmp_path / "repo",
        {
            ".ai/repo/project/issues/I0001.yaml": "id: I0001\ntitle: One\ndepends_on: [I0824]\n",
            ".ai/repo/project/issues/I0824.yaml": "id: I0824\ntitle: Two\nstatus: open\n",
        },
    )
    index = build(root).index
    by_code = {d.code: d for d in index.diagnostics}
    assert by_code["unknown_key"].path == ".ai/repo/project/issues/I0824.yaml"
    assert "docs/generated/layer.md#issue" in by_code["unknown_key"].message
    assert "share/allow" not in by_code["unknown_key"].message
    unresolved = by_code["unresolved_reference"]
    assert unresolved.path == ".ai/repo/project/issues/I0001.yaml"
    assert ".ai/repo/project/issues/I0824.yaml" in unresolved.message
    assert "`unknown_key`" in unresolved.message
    assert "register it" not in unresolved.message


def test_an_issue_reaches_a_rule_and_a_decision_through_related(tmp_path: Path) -> None:
    root = initialised_repo(
        tmp_path / "repo",
        {
            ".ai/repo/adrs/0001-one-reader.md": ADR,
            ".ai/repo/project/issues/I0001.yaml": (
                "id: I0001\ntitle: One\nrelated: [rule:majordomus.scope-integrity, adr:adr-0001]\n"
            ),
        },
    )
    index = build(root).index
    assert index.diagnostics == []
    edges = {(e.source, e.kind, e.target) for e in index.edges}
    assert {
        (
            "majordomus://issue/I0001",
            "governed_by",
            "majordomus://rule/majordomus.scope-integrity@1",
        ),
        ("majordomus://issue/I0001", "governed_by", "majordomus://adr/adr-0001"),
    } <= edges
