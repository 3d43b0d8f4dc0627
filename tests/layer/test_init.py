"""`majordomus init`: the skeleton and its guarantees."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from majordomus.errors import EXIT_REFUSED
from majordomus.layer.index import build
from majordomus.layer.init import InitRefused, init_layer, skeleton_files
from majordomus.layer.yaml import parse
from tests.conftest import git, make_git_repo, witness
from tests.layer.support import write


@pytest.fixture
def fresh(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "r")
    init_layer(root)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "init")
    return root


def test_a_fresh_committed_layer_indexes_ok_with_zero_diagnostics(fresh: Path) -> None:
    before = witness(fresh)
    index = build(fresh).index
    assert index.state == "ok"
    assert index.diagnostics == []
    uris = set(index.by_uri)
    assert {
        "majordomus://policy/.ai/repo/policy.yaml",
        "majordomus://profile/routine",
        "majordomus://profile/implementation",
        "majordomus://profile/debugging",
        "majordomus://profile/deep-work",
        "majordomus://prompt/continue",
        "majordomus://rule/majordomus.scope-integrity@1",
        "majordomus://document/.ai/repo/workflows/task-lifecycle.md",
        "majordomus://document/.ai/repo/workflows/plan.md",
    } <= uris
    assert not any(".ai/local/" in uri for uri in uris)
    assert index.by_uri["majordomus://prompt/continue"].metadata["name"] == "continue"
    rule = index.by_uri["majordomus://rule/majordomus.scope-integrity@1"]
    assert rule.provenance.path == ".ai/repo/rules/vendor/majordomus/rules/scope-integrity.v1.md"
    assert rule.provenance.section == "rules"
    assert build(fresh, "filesystem").index.diagnostics == []
    assert witness(fresh) == before


def test_what_init_writes(tmp_path: Path) -> None:
    created = init_layer(tmp_path)
    for rel in [
        ".ai/README.md",
        ".ai/manifest.yaml",
        ".ai/repo/README.md",
        ".ai/repo/policy.yaml",
        ".ai/repo/knowledge/sources.yaml",
        ".ai/repo/prompts/continue.md",
        ".ai/repo/rules/vendor/majordomus/manifest.yaml",
        ".ai/repo/rules/vendor/majordomus/rules/scope-integrity.v1.md",
        ".ai/repo/rules/project/README.md",
        ".ai/repo/workflows/task-lifecycle.md",
        ".ai/repo/workflows/plan.md",
        ".ai/local/state/decisions.md",
        ".ai/local/state/open-questions.md",
        ".ai/local/state/handovers/",
        ".ai/local/state/checkpoints/",
        ".ai/repo/skills/README.md",
        ".ai/repo/adrs/README.md",
        ".ai/repo/project/README.md",
        ".gitignore",
    ]:
        assert rel in created
        assert (tmp_path / rel).exists()
    profiles = sorted(p.stem for p in (tmp_path / ".ai/repo/profiles").iterdir())
    assert profiles == ["debugging", "deep-work", "implementation", "routine"]
    manifest = parse((tmp_path / ".ai/manifest.yaml").read_text())
    assert list(manifest["sections"]) == [
        "policy", "profiles", "rules", "prompts", "skills", "workflows", "knowledge", "adrs",
        "project",
    ]  # fmt: skip
    sources = parse((tmp_path / ".ai/repo/knowledge/sources.yaml").read_text())["sources"]
    assert [c["id"] for c in sources][:9] == [
        "policy", "profile", "rule", "prompt", "workflow", "milestone", "issue", "document",
        "readme",
    ]  # fmt: skip
    assert (tmp_path / ".gitignore").read_text() == ".ai/local/\n"


def test_the_vendored_package_pins_its_rules_by_hash() -> None:
    files = dict(skeleton_files())
    package = parse(files[".ai/repo/rules/vendor/majordomus/manifest.yaml"].decode())
    for rule in package["rules"]:
        data = files[f".ai/repo/rules/vendor/majordomus/{rule['file']}"]
        assert hashlib.sha256(data).hexdigest() == rule["sha256"]
    assert package["rules"][0]["id"] == "majordomus.scope-integrity"


@pytest.mark.parametrize(
    ("existing", "expected"),
    [
        ("node_modules/\n", "node_modules/\n.ai/local/\n"),
        ("node_modules/", "node_modules/\n.ai/local/\n"),
        ("x\n.ai/local/\n", "x\n.ai/local/\n"),
        ("/.ai/local\n", "/.ai/local\n"),
    ],
)
def test_gitignore_gets_the_line_once(tmp_path: Path, existing: str, expected: str) -> None:
    (tmp_path / ".gitignore").write_text(existing)
    created = init_layer(tmp_path)
    assert (tmp_path / ".gitignore").read_text() == expected
    assert (".gitignore" in created) is (existing != expected)


def test_an_existing_layer_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    (tmp_path / ".ai").mkdir()
    with pytest.raises(InitRefused) as caught:
        init_layer(tmp_path)
    assert caught.value.exit_code == EXIT_REFUSED
    assert "already exists" in caught.value.message
    assert list(tmp_path.iterdir()) == [tmp_path / ".ai"]
    assert list((tmp_path / ".ai").iterdir()) == []


def test_legacy_and_missing_targets_are_refused(tmp_path: Path) -> None:
    (tmp_path / "old" / ".majordomus").mkdir(parents=True)
    with pytest.raises(InitRefused, match="majordomus migrate"):
        init_layer(tmp_path / "old")
    with pytest.raises(InitRefused, match="not a directory"):
        init_layer(tmp_path / "missing")
    assert not (tmp_path / "old" / ".ai").exists()


def test_a_checkout_of_the_tool_itself_is_not_the_legacy_layout(tmp_path: Path) -> None:
    """Only a pre-`.ai` data directory is refused, not `.majordomus/bin`."""
    write(tmp_path, ".majordomus/bin/majordomus", "#!/bin/sh\n")
    assert ".ai/manifest.yaml" in init_layer(tmp_path)
