"""A re-index lists every class at once and keeps the attribution while the listed paths are
the same; any other change lists each class again, so the discovery is always the one a
first discovery answers (claims, findings and git index entries included)."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.layer.discovery import discover_again, discover_listed
from majordomus.layer.model import SourceClass
from tests.conftest import git, make_git_repo
from tests.layer.support import listing_calls, manifest

MANIFEST = manifest(knowledge="repo/knowledge")

CLASSES = [
    SourceClass(
        id="docs", kind="document", discovery="vcs", pathspec=":(glob)docs/**/*.md", required=False
    ),
    SourceClass(
        id="top", kind="document", discovery="vcs", pathspec=":(glob)docs/*.md", required=False
    ),
    SourceClass(
        id="empty", kind="document", discovery="vcs", pathspec=":(glob)none/*.md", required=True
    ),
]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    root = make_git_repo(tmp_path / "repo", commit=False)
    for rel in ("docs/a.md", "docs/sub/b.md", "other.md", ".ai/local/docs.md"):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(rel + "\n")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "start")
    return root


def _edit(root: Path) -> None:
    (root / "docs/a.md").write_text("changed\n")


def _new(root: Path) -> None:
    (root / "docs/c.md").write_text("new\n")


def _delete(root: Path) -> None:
    (root / "docs/sub/b.md").unlink()


#: A class `shared` leaves to its own listing (`?` is one byte to git, one character to `Glob`).
ALONE = SourceClass(
    id="alone", kind="document", discovery="vcs", pathspec=":(glob)docs/?.md", required=False
)


@pytest.mark.parametrize("classes", [CLASSES, [*CLASSES, ALONE]], ids=["shared", "one-alone"])
@pytest.mark.parametrize("change", [_edit, _new, _delete])
def test_discovery_again_is_a_first_discovery(
    repo: Path, monkeypatch: pytest.MonkeyPatch, change: object, classes: list[SourceClass]
) -> None:
    """The listing of every class is asked once; when the paths moved it is shared out again
    among the classes (a class it cannot be shared with is listed alone)."""
    before = discover_listed(repo, MANIFEST, classes, "vcs")
    assert callable(change)
    change(repo)
    git(repo, "add", "-A")
    calls = listing_calls(monkeypatch)
    again = discover_again(repo, MANIFEST, classes, before)
    alone = [(ALONE.pathspec,)] if classes[-1] is ALONE and change is not _edit else []
    assert calls == [tuple(c.pathspec for c in classes), *alone]
    monkeypatch.undo()
    first = discover_listed(repo, MANIFEST, classes, "vcs")
    assert again[:3] == first[:3]
    assert {d.code for d in again.findings} == {"claimed_twice", "required_source_empty"}


def test_an_unchanged_git_index_keeps_the_same_discovery(repo: Path) -> None:
    before = discover_listed(repo, MANIFEST, CLASSES, "vcs")
    again = discover_again(repo, MANIFEST, CLASSES, before)
    assert again.files is before.files and again[:3] == before[:3]


def test_a_staged_edit_moves_only_its_entry(repo: Path) -> None:
    before = discover_listed(repo, MANIFEST, CLASSES, "vcs")
    _edit(repo)
    git(repo, "add", "-A")
    again = discover_again(repo, MANIFEST, CLASSES, before)
    moved = [new.path for old, new in zip(before.files, again.files, strict=True) if old != new]
    assert moved == ["docs/a.md"]
