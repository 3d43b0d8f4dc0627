"""The synthetic repository (`majordomus/synthetic.py`): shapes, exact sizes, lifetime and git."""

from __future__ import annotations

import gc
import subprocess
from pathlib import Path

import pytest

from majordomus.devcontext import CompileInput, compile_context, tokens_for
from majordomus.layer.index import build
from majordomus.synthetic import Shape, SyntheticRepository, files_of

SMALL_URIS = [
    *(f"majordomus://document/docs/DOC_{i}.md" for i in range(5)),
    "majordomus://policy/.ai/repo/policy.yaml",
    "majordomus://profile/implementation",
    "majordomus://prompt/prompt-0",
    "majordomus://prompt/prompt-1",
    *(f"majordomus://rule/project.rule-{i}@1" for i in range(10)),
]


def test_small_has_the_nineteen_objects_of_the_spec() -> None:
    with SyntheticRepository.small() as repo:
        index = repo.index()
        assert [o.uri for o in index.objects] == SMALL_URIS
        assert index.diagnostics == [] and index.state == "ok"
        assert index.git.reason == "synthetic repository" and not index.git.available
        assert index.discovery == "filesystem"
        sizes = {o.uri: o.provenance.bytes for o in index.objects}
        assert sizes["majordomus://policy/.ai/repo/policy.yaml"] == 54
        assert tokens_for(54) == 14
        assert sizes["majordomus://profile/implementation"] == 142
        assert {sizes[f"majordomus://rule/project.rule-{i}@1"] for i in range(10)} == {732}
        assert tokens_for(732) == 183
        assert {sizes[f"majordomus://prompt/prompt-{i}"] for i in range(2)} == {78}
        assert {sizes[f"majordomus://document/docs/DOC_{i}.md"] for i in range(5)} == {526}
        assert not index.edges and not index.unresolved
        assert not any(o.kind in ("scope", "session", "issue") for o in index.objects)


def test_the_generator_is_a_pure_function_of_the_shape() -> None:
    with SyntheticRepository.small() as one, SyntheticRepository.new() as two:
        assert one.root != two.root
        assert one.index().fingerprint == two.index().fingerprint
    assert files_of(Shape()) == files_of(Shape(rules=10, prompts=2, documents=5, body_lines=8))


def test_touching_a_rule_moves_the_fingerprint() -> None:
    with SyntheticRepository.small() as repo:
        before = repo.index()
        repo.touch_rule(3, "one more line")
        after = repo.index()
        assert after.fingerprint != before.fingerprint
        rule = after.by_uri["majordomus://rule/project.rule-3@1"]
        assert rule.provenance.bytes == 732 + len("\none more line\n")
        assert compile_context(after, CompileInput()).fingerprint == after.fingerprint


@pytest.mark.parametrize("rules", [1, 3, 40])
def test_unit_shapes(rules: int) -> None:
    with SyntheticRepository.new(Shape(rules=rules)) as repo:
        assert len(repo.index().objects) == rules + 2 + 5 + 2


def test_scaling_shapes() -> None:
    assert len(files_of(Shape.scaling(10))) == 15 + 2
    with SyntheticRepository.new(Shape.scaling(100)) as repo:
        assert len(repo.index().objects) == 114
    assert len(files_of(Shape.scaling(10000))) == 11004 + 2


def test_body_lines_shape_the_sizes() -> None:
    with SyntheticRepository.new(Shape(rules=1, prompts=0, documents=1, body_lines=0)) as repo:
        sizes = {o.kind: o.provenance.bytes for o in repo.index().objects}
        assert sizes["rule"] == 732 - 8 * 64 and sizes["document"] == 526 - 8 * 64


def test_close_context_manager_and_collection_remove_the_directory() -> None:
    repo = SyntheticRepository.small()
    root = repo.root
    assert (root / ".ai/manifest.yaml").is_file()
    repo.close()
    assert not root.exists()
    repo.close()

    with SyntheticRepository.small() as repo:
        root = repo.root
    assert not root.exists()

    repo = SyntheticRepository.small()
    root = repo.root
    del repo
    gc.collect()
    assert not root.exists()


def test_a_given_directory_is_kept(tmp_path: Path) -> None:
    with SyntheticRepository.new(Shape(rules=1), at=tmp_path) as repo:
        assert repo.root == tmp_path.resolve()
    assert (tmp_path / ".ai/manifest.yaml").is_file()
    with pytest.raises(FileExistsError, match="already exists"):
        SyntheticRepository.new(at=tmp_path)


def test_commit_makes_a_git_repository_the_vcs_reader_agrees_with(tmp_path: Path) -> None:
    repo = SyntheticRepository.new(at=tmp_path / "a")
    head = repo.commit()
    assert len(head) == 40
    assert (repo.root / ".gitignore").read_text() == ".ai/local/\n"
    status = subprocess.run(
        ["git", "-C", str(repo.root), "status", "--porcelain"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert status.stdout == ""
    vcs = build(repo.root, "vcs").index
    assert vcs.git.available and vcs.git.head == head and vcs.git.branch == "master"
    assert vcs.fingerprint == repo.index().fingerprint
    again = SyntheticRepository.new(at=tmp_path / "b")
    assert again.commit() == head, "fixed identity and date: the same tree, the same commit"
    repo.touch_rule(0, "x")
    assert repo.commit("touch rule 0") != head
