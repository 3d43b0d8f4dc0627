"""The freshness check a long-lived server makes before each answer (README "Live
re-indexing"): nothing changed is nothing to do; each kind of change is seen at the next
check, by inotify events on Linux and by the `stat` of every file where they are not to be
had (both mechanisms are run here, the `stat` one wherever the events are)."""

from __future__ import annotations

import os
import sys
import time

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.layer import freshness
from majordomus.synthetic import Shape, SyntheticRepository, rule_path
from tests.conftest import git


@pytest.fixture(autouse=True, params=["inotify", "stat"])
def mechanism(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Each test once with the platform's events and once with the `stat` of every file."""
    if request.param == "inotify" and not sys.platform.startswith("linux"):
        pytest.skip("inotify is Linux's")
    if request.param == "stat":
        monkeypatch.setattr(freshness, "_notifier", lambda folders: None)
    return str(request.param)


def committed(shape: Shape) -> SyntheticRepository:
    repo = SyntheticRepository.new(shape)
    repo.commit()
    return repo


def test_nothing_changed_is_not_a_change() -> None:
    with committed(Shape()) as repo:
        ctx = Workspace(repo.root)
        before = ctx.index
        assert [ctx.refresh() for _ in range(5)] == [False] * 5
        assert ctx.index is before and ctx.generation == 0 and not ctx.stale


def test_a_staged_change_is_seen_at_the_next_check() -> None:
    with committed(Shape()) as repo:
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        new = repo.root / ".ai/repo/rules/project/new.v1.md"
        new.write_text("---\nid: project.new\nversion: 1\ntitle: New\n---\n\nNew.\n")
        git(repo.root, "add", "-A")
        assert ctx.refresh()
        assert "majordomus://rule/project.new@1" in ctx.index.by_uri
        assert ctx.generation == 1 and not ctx.refresh()


@pytest.mark.parametrize("rule", [0, 99, 199])
def test_an_unstaged_edit_in_place_is_seen_at_the_next_check(mechanism: str, rule: int) -> None:
    with committed(Shape(rules=200, prompts=0, documents=0)) as repo:
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert ctx.watch is not None and ctx.watch.notified is (mechanism == "inotify")
        assert ctx.watch.files > 64
        repo.touch_rule(rule, "edited in place")
        assert [ctx.refresh() for _ in range(3)] == [True, False, False]
        obj = ctx.index.by_path[rule_path(rule)]
        assert obj.content.endswith("edited in place\n")


def test_a_file_changed_while_the_index_was_read_is_read_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with committed(Shape()) as repo:
        started = freshness.Baseline.__init__

        def earlier(self: freshness.Baseline, *args: object) -> None:
            started(self, *args)  # type: ignore[arg-type]
            self.started_ns -= 60 * 10**9  # every file of the new repository changed since

        monkeypatch.setattr(freshness.Baseline, "__init__", earlier)
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        monkeypatch.setattr(freshness.Baseline, "__init__", started)
        assert [ctx.refresh() for _ in range(3)] == [True, False, False]


def test_a_file_dated_in_the_future_is_read_again_once_not_at_every_check() -> None:
    with committed(Shape()) as repo:
        path = repo.root / rule_path(0)
        ahead = time.time() + 86_400
        os.utime(path, (ahead, ahead))  # before the build: not a change during its read
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert [ctx.refresh() for _ in range(3)] == [False] * 3
        os.utime(path, (ahead + 1, ahead + 1))  # after it: one change, seen once
        assert [ctx.refresh() for _ in range(3)] == [True, False, False]
        assert ctx.generation == 1


def test_filesystem_discovery_sees_a_new_file_in_a_watched_directory() -> None:
    with SyntheticRepository.new(Shape()) as repo:
        ctx = Workspace(repo.root, discovery="filesystem")
        count = len(ctx.index.objects)
        (repo.root / ".ai/repo/rules/project/fresh.v1.md").write_text(
            "---\nid: project.fresh\nversion: 1\ntitle: Fresh\n---\n\nFresh.\n"
        )
        assert ctx.refresh()
        assert len(ctx.index.objects) == count + 1


def test_a_layer_that_cannot_be_read_keeps_the_last_index_and_is_stale() -> None:
    with committed(Shape()) as repo:
        ctx = Workspace(repo.root)
        before = ctx.index
        manifest = repo.root / ".ai/manifest.yaml"
        good = manifest.read_text()
        manifest.write_text("schema: nope\n")
        assert not ctx.refresh()
        assert ctx.stale and ctx.index is before
        assert not ctx.refresh() and ctx.stale  # not tried again until the next change
        manifest.write_text(good)
        assert ctx.refresh() and not ctx.stale
