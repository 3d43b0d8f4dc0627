"""Live re-indexing reads again only what changed, and answers what a build from scratch
answers (README "Live re-indexing"): edits, new, deleted and renamed files, metadata that
moves relations, files that break and heal, a file turned into a symlink or a FIFO,
duplicates, conflicts and paths that are not UTF-8."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.builtin import TOOLS
from majordomus.capabilities.workspace import Workspace
from majordomus.layer import git as git_module
from majordomus.layer import reading as reading_module
from majordomus.layer.index import build
from majordomus.layer.model import Discovery, Index
from majordomus.layer.reader import SIZE_LIMIT
from majordomus.synthetic import Shape, SyntheticRepository, rule_path
from tests.conftest import GIT_ENV, git

RULE_DIR = ".ai/repo/rules/project"


def answer(index: Index) -> dict[str, Any]:
    """Everything an index answers with, as JSON."""
    return {
        "objects": [obj.to_json() for obj in index.objects],
        "diagnostics": [d.to_json() for d in index.diagnostics],
        "edges": [(e.source, e.target, e.kind) for e in index.edges],
        "external": {k: (v.kind, v.label, v.source) for k, v in index.external.items()},
        "unresolved": [(u.declared_in, u.key, u.reference, u.correction) for u in index.unresolved],
        "git": index.git.to_json(),
    }


def rule(name: str, depends: str = "[]", body: str = "Body.") -> str:
    return (
        f"---\nid: project.{name}\nversion: 1\nkind: rule\ntitle: Rule {name}\n"
        f"depends_on: {depends}\n---\n\n# {name}\n\n{body}\n"
    )


def _write(root: Path, rel: str, text: str) -> None:
    (root / rel).write_text(text, encoding="utf-8")


def _replace(root: Path, rel: str, text: str) -> None:
    """A save by rename, as most editors save."""
    temporary = root / (rel + ".tmp")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, root / rel)


def _append(root: Path, rel: str, text: str) -> None:
    with (root / rel).open("a", encoding="utf-8") as out:
        out.write(text)


def _symlink(root: Path, rel: str) -> None:
    (root / rel).unlink()
    (root / rel).symlink_to(root / rule_path(0))


def _fifo(root: Path, rel: str) -> None:
    (root / rel).unlink()
    os.mkfifo(root / rel)


def _rename(root: Path, old: str, new: str) -> None:
    os.replace(root / old, root / new)


Step = Callable[[Path], None]

STEPS: list[tuple[str, Step]] = [
    ("edit in place", lambda root: _append(root, rule_path(1), "\nOne more line.\n")),
    ("save by rename", lambda root: _replace(root, rule_path(2), rule("rule-2", body="New."))),
    (
        "metadata moves a relation",
        lambda root: _replace(root, rule_path(3), rule("rule-3", "[project.rule-4]")),
    ),
    (
        "a reference that resolves to nothing",
        lambda root: _replace(root, rule_path(3), rule("rule-3", "[project.gone]")),
    ),
    ("a new file", lambda root: _write(root, f"{RULE_DIR}/extra.v1.md", rule("extra"))),
    ("a duplicate identity", lambda root: _write(root, f"{RULE_DIR}/twin.v1.md", rule("extra"))),
    ("the duplicate goes", lambda root: (root / f"{RULE_DIR}/twin.v1.md").unlink()),
    ("a file breaks", lambda root: _replace(root, rule_path(4), "---\nid: [\n---\n")),
    ("it heals", lambda root: _replace(root, rule_path(4), rule("rule-4"))),
    (
        "a rename",
        lambda root: _rename(root, f"{RULE_DIR}/extra.v1.md", f"{RULE_DIR}/moved.v1.md"),
    ),
    ("a delete", lambda root: (root / rule_path(5)).unlink()),
    ("a symlink", lambda root: _symlink(root, rule_path(6))),
    ("a file that is not UTF-8", lambda root: (root / rule_path(8)).write_bytes(b"\xff\xfe")),
    ("a FIFO, last: git cannot stage it", lambda root: _fifo(root, rule_path(7))),
]


@pytest.mark.parametrize(
    ("discovery", "stage"), [("vcs", True), ("vcs", False), ("filesystem", False)]
)
def test_each_re_index_answers_what_a_build_from_scratch_answers(
    discovery: Discovery, stage: bool
) -> None:
    with SyntheticRepository.new(Shape(rules=10, prompts=1, documents=2)) as repo:
        root = repo.root
        repo.commit()
        ctx = Workspace(root, discovery=discovery)
        assert answer(ctx.index) == answer(build(root, discovery, mcp_tools=TOOLS).index)
        for name, step in STEPS:
            step(root)
            if stage and "FIFO" not in name:
                git(root, "add", "-A")
            assert ctx.refresh(), name
            fresh = build(root, discovery, mcp_tools=TOOLS).index
            assert answer(ctx.index) == answer(fresh), name
            assert not ctx.refresh(), name


def _stage(root: Path) -> None:
    git(root, "add", "-A")


def _staged(step: Step) -> Step:
    return lambda root: (step(root), _stage(root))[-1]


def _add_one(root: Path, rel: str) -> None:
    """An edit to `rel`, staged alone (`add -A` would resolve a conflict too)."""
    _append(root, rel, "more\n")
    git(root, "add", "--", rel)


def _index_info(root: Path, *records: str) -> None:
    """Write entries into the git index (`<mode> <blob> <stage>\t<path>`; mode 0 removes)."""
    subprocess.run(
        ["git", "-C", str(root), "update-index", "--index-info"],
        input="".join(record + "\n" for record in records).encode(),
        env={**os.environ, **GIT_ENV},
        check=True,
        capture_output=True,
    )


def _conflict(root: Path, rel: str, theirs: str) -> None:
    """`rel` in conflict: stages 1 and 2 its own blob, stage 3 the blob of `theirs`."""
    ours = git(root, "hash-object", "-w", rel).strip()
    other = git(root, "hash-object", "-w", theirs).strip()
    _index_info(root, f"0 {'0' * 40}\t{rel}", *(f"100644 {ours} {n}\t{rel}" for n in (1, 2)))
    _index_info(root, f"100644 {other} 3\t{rel}")


def _not_utf8(root: Path, rel: str) -> bytes:
    """`rel` under a name of the same length that is not UTF-8."""
    return os.fsencode(root / rel)[:-6] + b"\xff.v1.md"


def _too_large(root: Path, rel: str) -> None:
    with (root / rel).open("a", encoding="utf-8") as out:
        out.write("x" * SIZE_LIMIT)


RULES = 130
STAGED: list[tuple[str, Step]] = [
    ("a staged edit", _staged(lambda root: _append(root, rule_path(1), "more\n"))),
    (
        "two edits far apart",
        _staged(lambda root: [_append(root, rule_path(n), "more\n") for n in (3, RULES - 1)]),
    ),
    (
        "an edit and a new file",
        _staged(
            lambda root: (
                _append(root, rule_path(4), "more\n"),
                _write(root, f"{RULE_DIR}/extra.v1.md", rule("extra")),
            )
        ),
    ),
    ("a removed file", _staged(lambda root: (root / rule_path(5)).unlink())),
    (
        "a rename to a name of the same length",
        _staged(lambda root: _rename(root, rule_path(6), f"{RULE_DIR}/rule-x.v1.md")),
    ),
    (
        "files that report before and after the one changed",
        _staged(lambda root: [_replace(root, rule_path(n), "---\nid: [\n---\n") for n in (0, 120)]),
    ),
    ("an edit between them", _staged(lambda root: _append(root, rule_path(50), "more\n"))),
    (
        "a file excluded",
        _staged(lambda root: (root / rule_path(7)).write_bytes(b"\xff\xfe")),
    ),
    ("a file too large", _staged(lambda root: _too_large(root, rule_path(8)))),
    ("an edit after them", _staged(lambda root: _append(root, rule_path(60), "more\n"))),
    (
        "a duplicate identity",
        _staged(lambda root: _write(root, f"{RULE_DIR}/twin.v1.md", rule("rule-10"))),
    ),
    (
        "the claimed file edited",
        _staged(lambda root: _append(root, rule_path(10), "more\n")),
    ),
    ("a file a symlink", _staged(lambda root: _symlink(root, rule_path(11)))),
    ("an edit unstaged", lambda root: _append(root, rule_path(12), "more\n")),
    ("a conflict", lambda root: _conflict(root, rule_path(13), rule_path(14))),
    ("a stage of it changes", lambda root: _conflict(root, rule_path(13), rule_path(15))),
    ("an edit beside it", lambda root: _add_one(root, rule_path(16))),
    ("the conflict resolved", _staged(lambda root: None)),
    (
        "a path that is not UTF-8, at the same length",
        _staged(lambda root: os.replace(root / rule_path(17), _not_utf8(root, rule_path(17)))),
    ),
    ("it goes", _staged(lambda root: os.unlink(_not_utf8(root, rule_path(17))))),
]


def test_each_staged_re_index_is_a_build_from_scratch() -> None:
    with SyntheticRepository.new(Shape(rules=RULES, prompts=1, documents=2)) as repo:
        root = repo.root
        repo.commit()
        ctx = Workspace(root)
        assert answer(ctx.index) == answer(build(root, mcp_tools=TOOLS).index)
        for name, step in STAGED:
            step(root)
            fresh = build(root, mcp_tools=TOOLS).index
            assert ctx.refresh(), name
            assert answer(ctx.index) == answer(fresh), name
            assert not ctx.refresh(), name


def test_a_re_index_reads_only_the_changed_file(monkeypatch: pytest.MonkeyPatch) -> None:
    with SyntheticRepository.new(Shape(rules=20, prompts=0, documents=0)) as repo:
        repo.commit()
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        read: list[str] = []
        real = reading_module.read_entry

        def counting(rel: str, *args: Any) -> Any:
            read.append(rel)
            return real(rel, *args)

        monkeypatch.setattr(reading_module, "read_entry", counting)
        repo.touch_rule(3, "changed")
        git(repo.root, "add", "-A")
        assert ctx.refresh()
        assert read == [rule_path(3)]
        assert ctx.index.by_path[rule_path(3)].content.endswith("changed\n")


def test_a_re_index_asks_git_status_only_when_the_working_tree_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with SyntheticRepository.new(Shape(rules=5, prompts=0, documents=0)) as repo:
        repo.commit()
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        started: list[Path] = []
        real = git_module._start_status

        def counting(root: Path) -> Any:
            started.append(root)
            return real(root)

        monkeypatch.setattr(git_module, "_start_status", counting)
        repo.touch_rule(1, "changed")
        assert ctx.refresh()
        assert started == []
        assert ctx.index.git.working_tree == "dirty"
        assert len(started) == 1
        fresh = build(repo.root, mcp_tools=TOOLS).index
        assert fresh.git.to_json() == ctx.index.git.to_json()
