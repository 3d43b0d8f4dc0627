"""The freshness check with inotify events standing in for `stat` calls (README "Live
re-indexing"): each change made between two answers is seen by the second, with the events
and with the `stat` check they fall back to; nothing changed costs no `stat` call; the watch
is handed from one index to the next, not opened again."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from majordomus.capabilities.builtin import TOOLS
from majordomus.capabilities.workspace import Workspace
from majordomus.layer import freshness, inotify
from majordomus.layer.index import build_index
from majordomus.layer.inotify import Notifier
from majordomus.layer.model import Discovery
from majordomus.synthetic import Shape, SyntheticRepository, rule_path
from tests.conftest import git
from tests.layer.test_reindex import RULE_DIR, answer, rule

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify is Linux's")


def _replace(root: Path, rel: str, text: str) -> None:
    (root / (rel + ".tmp")).write_text(text, encoding="utf-8")
    os.replace(root / (rel + ".tmp"), root / rel)


def _append(root: Path, rel: str) -> None:
    with (root / rel).open("a", encoding="utf-8") as out:
        out.write("\nOne more line.\n")


def _new_folder(folder: Path) -> None:
    folder.mkdir()
    (folder / "deep.v1.md").write_text(rule("deep"))


def _commit(root: Path) -> None:
    git(root, "add", "-A")
    git(root, "commit", "-qm", "change")


def _comment(root: Path, rel: str) -> None:
    with (root / rel).open("a", encoding="utf-8") as out:
        out.write("\n# a comment\n")


def _remove_tree(folder: Path) -> None:
    for child in folder.iterdir():
        child.unlink()
    folder.rmdir()


Step = Callable[[Path], None]

#: (name, change, whether `vcs` discovery stages it); the last rule is far from the slice
#: the `stat` check starts with, so an edit in place there is seen only by an event.
STEPS: list[tuple[str, Step, bool]] = [
    ("edit in place, unstaged", lambda root: _append(root, rule_path(99)), False),
    ("the edit is staged", lambda root: None, True),
    (
        "save by rename",
        lambda root: _replace(root, rule_path(98), rule("rule-98", body="N.")),
        True,
    ),
    ("a new file", lambda root: (root / f"{RULE_DIR}/extra.v1.md").write_text(rule("extra")), True),
    (
        "a rename",
        lambda root: os.replace(root / f"{RULE_DIR}/extra.v1.md", root / f"{RULE_DIR}/m.v1.md"),
        True,
    ),
    ("a delete", lambda root: (root / rule_path(97)).unlink(), True),
    (
        "a commit",
        lambda root: _commit(root),
        False,
    ),
    ("a branch switch", lambda root: git(root, "checkout", "-q", "-b", "other"), False),
    (
        "a new directory with a file",
        lambda root: _new_folder(root / f"{RULE_DIR}/sub"),
        True,
    ),
    (
        "an edit in the new directory",
        lambda root: _append(root, f"{RULE_DIR}/sub/deep.v1.md"),
        True,
    ),
    ("the configuration", lambda root: _comment(root, ".ai/repo/knowledge/sources.yaml"), False),
    ("the new directory goes", lambda root: _remove_tree(root / f"{RULE_DIR}/sub"), True),
]


#: Steps that change only what git says, which the `filesystem` discovery does not watch.
GIT_ONLY = ("the edit is staged", "a commit", "a branch switch")


@pytest.fixture(params=["inotify", "stat"])
def events(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """With inotify where there is one, and with the `stat` check alone."""
    if request.param == "inotify" and not sys.platform.startswith("linux"):
        pytest.skip("inotify is Linux's")
    if request.param == "stat":
        monkeypatch.setattr(Notifier, "open", classmethod(lambda cls: None))
    yield request.param


@pytest.mark.parametrize("discovery", ["vcs", "filesystem"])
def test_each_change_between_two_answers_is_seen_by_the_second(
    events: str, discovery: Discovery
) -> None:
    with SyntheticRepository.new(Shape(rules=100, prompts=1, documents=1)) as repo:
        root = repo.root
        repo.commit()
        ctx = Workspace(root, discovery=discovery)
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        assert ctx.watch is not None and ctx.watch.notified == (events == "inotify")
        for name, step, staged in STEPS:
            step(root)
            if staged and discovery == "vcs":
                git(root, "add", "-A")
            if discovery == "filesystem" and name in GIT_ONLY:
                continue  # nothing the filesystem discovery reads changed
            assert ctx.refresh(), name
            fresh = build_index(root, discovery, mcp_tools=TOOLS)
            assert answer(ctx.index) == answer(fresh), name
            assert not ctx.refresh(), name


@linux_only
def test_nothing_changed_costs_no_stat_call(monkeypatch: pytest.MonkeyPatch) -> None:
    with SyntheticRepository.new(Shape(rules=100, prompts=1, documents=1)) as repo:
        repo.commit()
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        calls: list[str] = []
        real = freshness._key

        def counting(path: str) -> freshness.Key:
            calls.append(path)
            return real(path)

        monkeypatch.setattr(freshness, "_key", counting)
        assert [ctx.refresh() for _ in range(50)] == [False] * 50
        assert calls == []
        _append(repo.root, rule_path(50))
        assert ctx.watch is not None and ctx.watch.changed()
        assert sorted(calls) == sorted({str(repo.root / rule_path(50)), str(repo.root / RULE_DIR)})


def _inotify_instances() -> int:
    """The inotify instances this process holds open."""
    links = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            links.append(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return links.count("anon_inode:inotify")


@linux_only
def test_the_watch_is_handed_to_the_next_index_not_opened_again() -> None:
    with SyntheticRepository.new(Shape(rules=10, prompts=0, documents=0)) as repo:
        repo.commit()
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        instances = _inotify_instances()
        for i in range(10):
            repo.touch_rule(i, f"change {i}")
            assert ctx.refresh()
        assert ctx.watch is not None and ctx.watch.notified
        assert _inotify_instances() == instances


@linux_only
def test_a_lost_queue_is_checked_whole_and_watched_again(monkeypatch: pytest.MonkeyPatch) -> None:
    with SyntheticRepository.new(Shape(rules=10, prompts=0, documents=0)) as repo:
        repo.commit()
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        watch = ctx.watch
        assert watch is not None
        notifier = watch._notifier
        assert notifier is not None
        monkeypatch.setattr(notifier, "drain", lambda: None)  # the events are gone
        notifier.lost = True
        repo.touch_rule(3, "unseen by events")
        assert ctx.refresh()
        assert ctx.index.by_path[rule_path(3)].content.endswith("unseen by events\n")
        assert ctx.watch is not None and ctx.watch.notified and not ctx.refresh()


@linux_only
def test_a_folder_that_cannot_be_watched_is_stated_at_every_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with SyntheticRepository.new(Shape(rules=10, prompts=0, documents=0)) as repo:
        repo.commit()
        folder = str(repo.root / RULE_DIR)
        real = Notifier.watch

        def failing(self: Notifier, folders: list[str]) -> list[str]:
            return [*real(self, [f for f in folders if f != folder]), folder]

        monkeypatch.setattr(Notifier, "watch", failing)
        ctx = Workspace(repo.root, discovery="filesystem")
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        assert not ctx.refresh()
        (repo.root / f"{RULE_DIR}/extra.v1.md").write_text(rule("extra"))
        assert ctx.refresh()
        assert "majordomus://rule/project.extra@1" in ctx.index.by_uri


@linux_only
def test_the_first_commit_is_seen_though_the_reflog_folder_did_not_exist() -> None:
    with SyntheticRepository.new(Shape(rules=3, prompts=0, documents=0)) as repo:
        repo.git_init()
        git(repo.root, "add", "-A")
        assert not (repo.root / ".git/logs").exists()
        ctx = Workspace(repo.root)
        assert ctx.index.git.head is None
        assert not ctx.refresh()
        assert ctx.watch is not None and ctx.watch.notified
        assert [ctx.refresh() for _ in range(3)] == [False] * 3
        git(repo.root, "commit", "-qm", "first")
        assert ctx.refresh()
        assert ctx.index.git.head is not None


@linux_only
def test_a_layer_on_a_file_system_inotify_cannot_vouch_for_keeps_the_stat_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(inotify, "_local", lambda libc, path: False)
    with SyntheticRepository.new(Shape(rules=10, prompts=0, documents=0)) as repo:
        repo.commit()
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        repo.touch_rule(4, "edited in place")
        assert ctx.refresh()
        assert ctx.index.by_path[rule_path(4)].content.endswith("edited in place\n")
        _new_folder(repo.root / f"{RULE_DIR}/sub")
        git(repo.root, "add", "-A")
        assert ctx.refresh() and not ctx.refresh()


@linux_only
def test_a_fixed_path_in_a_folder_that_cannot_be_watched_is_stated_at_every_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with SyntheticRepository.new(Shape(rules=3, prompts=0, documents=0)) as repo:
        repo.commit()
        logs = str(repo.root / ".git/logs")
        real = Notifier.watch

        def failing(self: Notifier, folders: list[str]) -> list[str]:
            return [*real(self, [f for f in folders if f != logs]), logs]

        monkeypatch.setattr(Notifier, "watch", failing)
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        index_key = os.stat(repo.root / ".git/index").st_mtime_ns
        git(repo.root, "commit", "-q", "--allow-empty", "-m", "HEAD moves, the index stays")
        assert os.stat(repo.root / ".git/index").st_mtime_ns == index_key
        assert ctx.refresh()
        assert ctx.index.git.head == git(repo.root, "rev-parse", "HEAD").strip()


@linux_only
def test_a_head_move_before_its_folder_is_watched_is_seen(monkeypatch: pytest.MonkeyPatch) -> None:
    with SyntheticRepository.new(Shape(rules=3, prompts=0, documents=0)) as repo:
        repo.git_init()
        git(repo.root, "add", "-A")
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert not ctx.refresh()
        logs = str(repo.root / ".git/logs")
        real = Notifier.watch

        def moving(self: Notifier, folders: list[str]) -> list[str]:
            if logs in folders and logs not in self.watched:
                git(repo.root, "commit", "-q", "--allow-empty", "-m", "while not watched")
            return real(self, folders)

        monkeypatch.setattr(Notifier, "watch", moving)
        git(repo.root, "commit", "-qm", "first")
        assert ctx.refresh()
        assert ctx.refresh()  # the commit made before the reflog's folder was watched
        assert ctx.index.git.head == git(repo.root, "rev-parse", "HEAD").strip()
        assert not ctx.refresh()
