"""The freshness check a long-lived server makes before each answer (README "Live
re-indexing"): an edit in place at the next check on a layer of up to `SLICE` files and within
one turn of the rotating slice beyond; each kind of change, and nothing changed, is
tests/layer/test_live_watch.py's."""

from __future__ import annotations

import math
import os
import time

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.layer import freshness
from majordomus.layer.freshness import SLICE
from majordomus.synthetic import Shape, SyntheticRepository, rule_path


def committed(shape: Shape) -> SyntheticRepository:
    repo = SyntheticRepository.new(shape)
    repo.commit()
    return repo


@pytest.mark.parametrize("rule", [0, 75, 149])
def test_an_unstaged_edit_in_place_is_seen_at_the_next_check_under_the_bound(rule: int) -> None:
    with committed(Shape(rules=150, prompts=0, documents=0)) as repo:
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert ctx.watch is not None and 64 < ctx.watch.files <= SLICE
        repo.touch_rule(rule, "edited in place")
        assert [ctx.refresh() for _ in range(3)] == [True, False, False]
        assert ctx.index.by_path[rule_path(rule)].content.endswith("edited in place\n")


def test_beyond_the_bound_an_edit_in_place_is_seen_within_one_turn_of_the_slice(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(freshness, "SLICE", 16)
    rules = 16 * 3
    with committed(Shape(rules=rules, prompts=0, documents=0)) as repo:
        ctx = Workspace(repo.root)
        ctx.index  # noqa: B018
        assert ctx.watch is not None
        turns = math.ceil(ctx.watch.files / 16)
        assert turns > 1
        repo.touch_rule(rules - 1, "edited in place")
        seen = [ctx.refresh() for _ in range(turns)]
        assert seen.count(True) == 1
        obj = ctx.index.by_path[rule_path(rules - 1)]
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
        monkeypatch.undo()
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
