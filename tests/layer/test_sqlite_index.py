"""The in-memory SQLite copy narrows search candidates and changes no answer (issue 8).

Every `objects.search` request runs twice, on a context with the copy and on one with
`MAJORDOMUS_SQLITE=0`, and the JSON must be equal, over the planned fixture, the healthy
fixture and a synthetic layer. The copy must also really be in use, and find exactly what
`in` finds.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities.core import search_text
from majordomus.capabilities.workspace import Workspace
from majordomus.errors import CapabilityError
from majordomus.layer.git import GitState
from majordomus.layer.index import build_index
from majordomus.layer.sqlite_index import SWITCH, SqliteIndex, enabled
from majordomus.synthetic import Shape, SyntheticRepository
from tests.conftest import FIXTURES

GIT = GitState(state="available", toplevel=None, head="0" * 40, branch="master")
OFF = {SWITCH: "0"}

QUERIES = [
    "rule",
    "Rule 1",
    "ru",
    "x",
    "document 7",
    "quick brown",
    "é",
    "nothing-like-this",
    'say "x"',
    "line one\nline two",
    "alpha",
    "requires",
    "%_*",
]


@pytest.fixture(scope="module", params=["planned", "healthy", "synthetic"])
def layer(request: pytest.FixtureRequest) -> Iterator[tuple[Workspace, Workspace]]:
    """(with the copy, without it) over one layer, read from the work tree."""
    if request.param == "synthetic":
        with SyntheticRepository.new(Shape.scaling(40)) as repo:
            index = repo.index()
            yield Workspace.from_index(index, environ={}), Workspace.from_index(index, environ=OFF)
        return
    root = FIXTURES / "layers" / request.param
    index = build_index(root, "filesystem").replace(git=GIT)
    yield Workspace.from_index(index, environ={}), Workspace.from_index(index, environ=OFF)


def answer(ctx: Workspace, capability: str, value: dict[str, Any]) -> Any:
    try:
        return ctx.executor.call(capability, value, fresh=True)
    except CapabilityError as exc:
        return ("refused", exc.code, exc.display)


def test_the_copy_is_in_use_and_off_when_switched_off(layer: tuple[Workspace, Workspace]) -> None:
    on, off = layer
    assert on.sqlite is not None and off.sqlite is None
    assert on.sqlite.matching("rule") is not None
    assert enabled({}) and not enabled({SWITCH: "0"}) and not enabled({SWITCH: "off"})


def test_search_is_the_same_with_and_without_the_copy(layer: tuple[Workspace, Workspace]) -> None:
    on, off = layer
    kinds = [None, *list(on.index.kinds)[:2]]
    for query in QUERIES:
        for kind in kinds:
            for limit in (None, 1, 200):
                request: dict[str, Any] = {"query": query}
                if kind is not None:
                    request["kind"] = kind
                if limit is not None:
                    request["limit"] = limit
                assert answer(on, "objects.search", request) == answer(
                    off, "objects.search", request
                ), request


def test_matching_finds_exactly_the_objects_holding_a_needle(
    layer: tuple[Workspace, Workspace],
) -> None:
    on, _ = layer
    objects = on.index.objects
    copy = SqliteIndex(on.index, search_text)
    needles = {"rule", "the", "ion", "e n", "\n# ", "alpha", "zzz", "ódy"}
    for obj in objects[:5]:
        text = search_text(obj)
        needles.update(text[i : i + 4] for i in range(0, min(len(text), 60), 7))
    for needle in sorted(n for n in needles if len(n) >= 3):
        found = copy.matching(needle)
        assert found == {o.uri for o in objects if needle in search_text(o)}, needle


def test_short_or_unsafe_needles_are_not_narrowed(layer: tuple[Workspace, Workspace]) -> None:
    on, _ = layer
    copy = SqliteIndex(on.index, search_text)
    assert copy.matching("ru") is None
    assert copy.matching("ru\x00le") is None


def test_nothing_is_written_next_to_the_repository(tmp_path: Path) -> None:
    with SyntheticRepository.new(Shape.scaling(10), at=tmp_path / "repo") as repo:
        before = sorted(p.relative_to(repo.root) for p in repo.root.rglob("*"))
        ctx = Workspace.from_index(repo.index(), environ={})
        assert ctx.executor.call("objects.search", {"query": "rule"})["count"] > 0
        after = sorted(p.relative_to(repo.root) for p in repo.root.rglob("*"))
    assert before == after
