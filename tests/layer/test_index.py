"""build end to end: order, modes, logging, read-only."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from majordomus.errors import EXIT_REFUSED
from majordomus.layer.git import GitError
from majordomus.layer.index import build, open_layer, repository_json
from tests.conftest import FIXTURES, git, make_git_repo, witness

HEALTHY = FIXTURES / "layers" / "healthy"


def _snapshot(index) -> tuple[list, list, list]:
    return (
        [o.to_json() for o in index.objects],
        [d.to_json() for d in index.diagnostics],
        [(e.source, e.target, e.kind) for e in index.edges],
    )


def test_open_layer(git_repo) -> None:
    root = git_repo("layers/healthy")
    layer = open_layer(root / "docs")
    assert layer.root == root.resolve()
    assert layer.manifest.sections["skills"] == "repo/skills"
    assert layer.sources[0].id == "context"


def test_vcs_and_filesystem_agree_on_a_committed_layer(git_repo) -> None:
    root = git_repo("layers/healthy")
    vcs = build(root).index
    fs = build(root, "filesystem").index
    assert _snapshot(vcs) == _snapshot(fs)
    assert vcs.discovery == "vcs" and fs.discovery == "filesystem"


def test_the_index_is_deterministic(git_repo) -> None:
    root = git_repo("layers/healthy")
    assert _snapshot(build(root).index) == _snapshot(build(root).index)
    assert build(root).index.fingerprint == build(root).index.fingerprint


def test_vcs_without_git_is_fatal_filesystem_is_not(tmp_path: Path) -> None:
    root = tmp_path / "plain"
    shutil.copytree(HEALTHY, root)
    with pytest.raises(GitError) as caught:
        build(root)
    assert caught.value.exit_code == EXIT_REFUSED
    assert "--discovery filesystem" in caught.value.message
    index = build(root, "filesystem").index
    assert index.state == "ok"
    assert index.git.state == "unavailable"


def test_reading_writes_nothing(git_repo) -> None:
    root = git_repo("layers/healthy")
    (root / "docs" / "GUIDE.md").write_text("# Changed\n")
    before = witness(root)
    build(root)
    build(root, "filesystem")
    assert witness(root) == before
    assert not (root / ".ai" / "local").exists()


def test_diagnostics_come_in_production_order(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r", HEALTHY, commit=False)
    sources = root / ".ai" / "repo" / "knowledge" / "sources.yaml"
    sources.write_text(
        sources.read_text() + "  - id: again\n    kind: document\n    discovery: vcs\n"
        "    pathspec: ':(glob)docs/*.md'\n    required: false\n"
        "  - id: nothing\n    kind: document\n    discovery: vcs\n"
        "    pathspec: ':(glob)nothing/*.md'\n    required: true\n"
    )
    rules = root / ".ai" / "repo" / "rules" / "project"
    (rules / "broken.v1.md").write_text("---\nid: x\n")
    shutil.copy(rules / "alpha.v1.md", rules / "copy.v1.md")
    (root / "docs" / "bad.md").write_bytes(b"\xff\n")
    git(root, "add", "-A")
    index = build(root).index
    assert [(d.code, d.path) for d in index.diagnostics] == [
        ("claimed_twice", "docs/GUIDE.md"),
        ("claimed_twice", "docs/bad.md"),
        ("required_source_empty", None),
        ("malformed_front_matter", ".ai/repo/rules/project/broken.v1.md"),
        ("invalid_utf8", "docs/bad.md"),
        ("duplicate_identity", ".ai/repo/rules/project/alpha.v1.md"),
        ("duplicate_identity", ".ai/repo/rules/project/copy.v1.md"),
        ("unresolved_reference", ".ai/repo/adrs/0001-one-reader.md"),
        ("unresolved_reference", ".ai/repo/rules/project/beta.v1.md"),
    ]
    assert index.state == "degraded"
    assert "majordomus://rule/project.alpha@1" not in index.by_uri


def test_mcp_tools_resolve_use_case_references(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r", HEALTHY, commit=False)
    uc = root / ".ai" / "repo" / "use-cases" / "read-the-layer.md"
    uc.write_text(uc.read_text().replace("commands: [mcp]", "commands: [mcp]\nmcp_tools: [t1]"))
    git(root, "add", "-A")
    unknown = build(root).index
    assert [d.code for d in unknown.diagnostics] == ["unresolved_reference"]
    assert unknown.state == "ok"
    known = build(root, mcp_tools={"t1": "objects.list"}).index
    assert known.diagnostics == []
    assert "capability:objects.list" in known.external


def test_logging(git_repo, caplog) -> None:
    root = git_repo("layers/broken/malformed_front_matter")
    caplog.set_level(logging.DEBUG, logger="majordomus")
    build(root)
    records = [r for r in caplog.records if r.name.startswith("majordomus")]
    messages = [(r.levelno, r.getMessage()) for r in records]
    assert messages[0] == (logging.INFO, f"repository found root={root.resolve()}")
    assert (logging.DEBUG, "class rule (kind rule): 1 file(s)") in messages
    failing = [r for r in caplog.records if getattr(r, "code", None) == "malformed_front_matter"]
    assert len(failing) == 1
    assert failing[0].levelno == logging.DEBUG
    assert failing[0].source_path == ".ai/repo/rules/project/broken.v1.md"
    assert messages[-1] == (
        logging.WARNING,
        "index built objects=0 diagnostics=1 errors=1 warnings=0 state=degraded; "
        "`majordomus lint` lists them",
    )
    built = caplog.records[-1]
    assert (built.objects, built.diagnostics, built.state) == (0, 1, "degraded")


def test_repository_json(git_repo) -> None:
    root = git_repo("layers/healthy")
    index = build(root).index
    info = repository_json(index)
    assert list(info) == ["root", "layer_schema", "sections", "git", "discovery", "source_classes"]
    assert info["root"] == str(root.resolve())
    assert info["layer_schema"] == "ai-repository/v1"
    assert list(info["sections"]) == sorted(info["sections"])
    assert info["sections"]["knowledge"] == ".ai/repo/knowledge"
    assert info["git"]["state"] == "available"
    assert info["git"]["branch"] == "master"
    assert info["git"]["working_tree"] == "clean"
    assert info["discovery"] == "vcs"
    assert info["source_classes"][:3] == [
        ["context", "context"],
        ["policy", "policy"],
        ["scope", "scope"],
    ]
