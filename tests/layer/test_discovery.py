"""Enumeration: the glob, the filesystem walk, vcs listing and the findings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from majordomus.layer.discovery import Claimed, Glob, walk
from majordomus.layer.model import SourceClass
from majordomus.safefs import Tree
from tests.conftest import git, make_git_repo
from tests.layer.support import discovered, manifest, write

MANIFEST = manifest(knowledge="repo/knowledge")


def _class(cid: str, pattern: str, *, kind: str = "document", required: bool = False):
    return SourceClass(id=cid, kind=kind, discovery="vcs", pathspec=pattern, required=required)


@pytest.mark.parametrize(
    ("pattern", "path", "expected"),
    [
        ("docs/*.md", "docs/a.md", True),
        ("docs/*.md", "docs/sub/a.md", False),
        ("*.md", "README.md", True),
        ("*.md", "docs/a.md", False),
        (".ai/repo/rules/**/*.md", ".ai/repo/rules/a.md", True),
        (".ai/repo/rules/**/*.md", ".ai/repo/rules/x/y/a.md", True),
        (".ai/**/README.md", ".ai/README.md", True),
        (".ai/**/README.md", ".ai/repo/x/README.md", True),
        (".ai/**/README.md", ".ai/repo/x/README.mdx", False),
        (".ai/repo/adrs/????-*.md", ".ai/repo/adrs/0001-a.md", True),
        (".ai/repo/adrs/????-*.md", ".ai/repo/adrs/001-a.md", False),
        ("lib/**", "lib/a/b.sh", True),
        ("a//b/*.md", "a/b/c.md", True),
        ("docs/[ab].md", "docs/[ab].md", True),
        ("docs/[ab].md", "docs/a.md", False),
        ("bin/*", "bin/tool", True),
        ("docs/*.md", "docs/.hidden.md", True),
    ],
)
def test_glob_semantics(pattern: str, path: str, expected: bool) -> None:
    assert Glob(pattern).matches(path) is expected


def _tree(root: Path) -> Path:
    for rel in [
        "docs/a.md",
        "docs/sub/b.md",
        "README.md",
        ".ai/repo/rules/x.md",
        ".ai/repo/rules/deep/y.md",
        ".ai/local/state/z.md",
        ".git/x.md",
        "other/README.md",
    ]:
        write(root, rel, "# x\n")
    os.symlink("a.md", root / "docs" / "link.md")
    os.symlink(root / ".ai" / "repo" / "rules", root / "docs" / "dirlink")
    return root


def test_walk_skips_symlinks_git_and_the_local_half(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    local = lambda rel: rel == ".ai/local" or rel.startswith(".ai/local/")  # noqa: E731
    with Tree(root) as tree:
        assert sorted(walk(tree, Glob("docs/*.md"), local)) == ["docs/a.md"]
        assert sorted(walk(tree, Glob("**/*.md"), local)) == [
            ".ai/repo/rules/deep/y.md",
            ".ai/repo/rules/x.md",
            "README.md",
            "docs/a.md",
            "docs/sub/b.md",
            "other/README.md",
        ]


def test_walk_prunes_branches_that_cannot_match(tmp_path: Path, monkeypatch) -> None:
    root = _tree(tmp_path)
    listed: list[str] = []
    real = Tree.entries

    def spy(self: Tree, rel: str):
        listed.append(rel)
        return real(self, rel)

    monkeypatch.setattr(Tree, "entries", spy)
    with Tree(root) as tree:
        assert walk(tree, Glob(".ai/repo/rules/*.md"), lambda rel: False) == [".ai/repo/rules/x.md"]
    assert listed == ["", ".ai", ".ai/repo", ".ai/repo/rules"]


def _paths(files: list[Claimed]) -> list[str]:
    return [path for claimed in files for path in claimed.paths]


def test_filesystem_and_vcs_agree_on_a_committed_tree(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    _tree(root)
    (root / ".git" / "x.md").unlink()
    git(root, "add", "-A")
    classes = [_class("docs", ":(glob)docs/**/*.md"), _class("rules", ":(glob).ai/**/*.md")]
    vcs = _paths(discovered(root, MANIFEST, classes, "vcs")[0])
    fs = _paths(discovered(root, MANIFEST, classes, "filesystem")[0])
    # git tracks the symlink itself; the walk skips it (the reader reports it under vcs)
    assert [path for path in vcs if path != "docs/link.md"] == fs
    assert ".ai/local/state/z.md" not in vcs


def test_vcs_sees_staged_but_not_untracked_files(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r")
    (root / "docs").mkdir()
    (root / "docs" / "staged.md").write_text("# s\n")
    (root / "docs" / "untracked.md").write_text("# u\n")
    git(root, "add", "docs/staged.md")
    files, _ = discovered(root, MANIFEST, [_class("docs", ":(glob)docs/*.md")], "vcs")
    assert _paths(files) == ["docs/staged.md"]
    files, _ = discovered(root, MANIFEST, [_class("docs", ":(glob)docs/*.md")], "filesystem")
    assert _paths(files) == ["docs/staged.md", "docs/untracked.md"]


def test_a_force_added_local_file_is_still_skipped(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r")
    write(root, ".ai/local/x.md", "# x\n")
    git(root, "add", "-f", ".ai/local/x.md")
    files, _ = discovered(root, MANIFEST, [_class("all", ":(glob).ai/**/*.md")], "vcs")
    assert _paths(files) == []


def test_findings_claimed_twice_and_required_source_empty(tmp_path: Path) -> None:
    root = make_git_repo(tmp_path / "r", commit=False)
    (root / "docs").mkdir()
    (root / "docs" / "a.md").write_text("# a\n")
    (root / "docs" / "b.md").write_text("# b\n")
    git(root, "add", "-A")
    classes = [
        _class("first", ":(glob)docs/a.md"),
        _class("second", ":(glob)docs/*.md", required=True),
        _class("empty", ":(glob)none/*.md", required=True),
        _class("third", ":(glob)docs/a.md", required=True),
    ]
    files, findings = discovered(root, MANIFEST, classes, "vcs")
    assert [(path, claimed.source.id) for claimed in files for path in claimed.paths] == [
        ("docs/a.md", "first"),
        ("docs/b.md", "second"),
    ]
    assert [(f.severity, f.code, f.path, f.message) for f in findings] == [
        (
            "warning",
            "claimed_twice",
            "docs/a.md",
            "matched by class 'second' after class 'first'; kept under 'first'",
        ),
        (
            "error",
            "required_source_empty",
            None,
            "class 'empty' is required but its pathspec ':(glob)none/*.md' matches no file",
        ),
        (
            "warning",
            "claimed_twice",
            "docs/a.md",
            "matched by class 'third' after class 'first'; kept under 'first'",
        ),
    ]


def test_paths_leaving_the_root_are_never_listed(tmp_path: Path) -> None:
    outer = make_git_repo(tmp_path / "r", commit=False)
    (outer / "secret.md").write_text("# s\n")
    (outer / "layer").mkdir()
    (outer / "layer" / "a.md").write_text("# a\n")
    git(outer, "add", "-A")
    files, _ = discovered(outer / "layer", MANIFEST, [_class("up", ":(glob)../*.md")], "vcs")
    assert _paths(files) == []
