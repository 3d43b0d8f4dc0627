"""The capability context: everything lazy and built at most once, an index given from
elsewhere taken as is, and `refresh` re-reading the layer only when it changed, keeping the
last good index (and saying `stale`) when the new one cannot be read."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from majordomus.capabilities.workspace import Workspace
from majordomus.errors import ContractUnmet
from majordomus.layer.index import build
from tests.conftest import make_git_repo

PLANNED = Path(__file__).resolve().parents[2] / "fixtures" / "layers" / "planned"
RULE = ".ai/repo/rules/project/alpha.v1.md"


@pytest.fixture
def layer(tmp_path: Path) -> Path:
    root = tmp_path / "planned"
    shutil.copytree(PLANNED, root)
    return root


def built(ctx: Workspace) -> set[str]:
    """Which of the context's lazy parts were built."""
    return {"index", "registry", "executor", "sqlite"} & set(ctx.__dict__)


def test_nothing_is_built_until_asked_for(layer: Path) -> None:
    ctx = Workspace(layer, discovery="filesystem")
    assert ctx.root == layer
    assert built(ctx) == set()
    assert ctx.index.root == layer
    assert built(ctx) == {"index"}


def test_each_part_is_built_once(layer: Path) -> None:
    ctx = Workspace(layer, discovery="filesystem")
    assert ctx.index is ctx.index
    assert ctx.registry is ctx.registry
    assert ctx.executor is ctx.executor


def test_a_context_over_a_given_index_never_reads_the_layer_again(layer: Path) -> None:
    index = build(layer, "filesystem").index
    ctx = Workspace.from_index(index)
    assert ctx.index is index and ctx.root == layer and ctx.discovery == "filesystem"
    assert ctx.registry.get("objects.search") is not None
    assert ctx.refresh() is False


def test_the_environment_is_a_copy_taken_at_creation(layer: Path) -> None:
    given = {"MAJORDOMUS_LOG": "debug"}
    ctx = Workspace(layer, discovery="filesystem", environ=given)
    given["MAJORDOMUS_LOG"] = "info"
    assert ctx.environ == {"MAJORDOMUS_LOG": "debug"}


def test_strict_refuses_an_index_with_errors(layer: Path) -> None:
    (layer / RULE).write_text("---\nid: [unclosed\n---\n", encoding="utf-8")
    assert Workspace(layer, discovery="filesystem").index.error_count > 0
    with pytest.raises(ContractUnmet, match="refusing to serve under --strict"):
        _ = Workspace(layer, discovery="filesystem", strict=True).index


def test_refresh_before_the_index_is_read_does_nothing(layer: Path) -> None:
    ctx = Workspace(layer, discovery="filesystem")
    assert ctx.refresh() is False
    assert built(ctx) == set()


def test_refresh_with_an_unchanged_layer_keeps_everything(layer: Path) -> None:
    ctx = Workspace(layer, discovery="filesystem")
    index, registry = ctx.index, ctx.registry
    assert ctx.refresh() is False
    assert ctx.index is index and ctx.registry is registry and ctx.generation == 0


def test_refresh_after_a_change_reads_the_layer_again(layer: Path) -> None:
    ctx = Workspace(layer, discovery="filesystem")
    before = ctx.index
    ctx.executor.call("objects.search", {"query": "alpha"})
    assert ctx.executor.cache
    with (layer / RULE).open("a", encoding="utf-8") as rule:
        rule.write("\nOne more line that changes the rule's size.\n")
    assert ctx.refresh() is True
    assert ctx.index is not before and ctx.index.fingerprint != before.fingerprint
    assert ctx.generation == 1 and not ctx.stale
    assert not ctx.executor.cache
    assert ctx.refresh() is False


def test_a_change_that_cannot_be_read_keeps_the_last_index_and_says_stale(layer: Path) -> None:
    ctx = Workspace(layer, discovery="filesystem", strict=True)
    before = ctx.index
    (layer / RULE).write_text("---\nid: [unclosed\n---\n", encoding="utf-8")
    assert ctx.refresh() is False
    assert ctx.stale and ctx.index is before and ctx.generation == 0
    (layer / RULE).write_text((PLANNED / RULE).read_text(encoding="utf-8"), encoding="utf-8")
    assert ctx.refresh() is True
    assert not ctx.stale and ctx.generation == 1


@pytest.mark.parametrize("dirty", [False, True])
def test_an_index_built_without_status_still_answers_the_working_tree(
    tmp_path: Path, dirty: bool
) -> None:
    root = make_git_repo(tmp_path / "repo", PLANNED)
    if dirty:
        (root / RULE).write_text((root / RULE).read_text() + "\nmore\n")
    ctx = Workspace(root)
    index = ctx.index_without_status()
    assert index is ctx.index
    assert index.git.working_tree == ("dirty" if dirty else "clean")
    assert Workspace(root).index.git.to_json() == index.git.to_json()


def test_a_one_shot_workspace_is_not_watched(layer: Path) -> None:
    """Only a workspace that refreshes states the layer after reading it: a one-shot
    command's index has no watch, and `refresh` has nothing to compare."""
    ctx = Workspace(layer, discovery="filesystem", watch=False)
    assert ctx.index.objects
    assert ctx.watch is None
    (layer / RULE).write_text((layer / RULE).read_text() + "\nmore\n")
    assert ctx.refresh() is False
    watched = Workspace(layer, discovery="filesystem")
    assert watched.index.objects and watched.watch is not None


def test_the_command_line_watches_only_its_servers() -> None:
    from majordomus.cli.settings import Settings

    chosen = Settings()
    assert not chosen.context().watching
    assert chosen.context(serving=True).watching
