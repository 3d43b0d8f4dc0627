"""The MCP answers given without pydantic (`majordomus.mcp.plain`): the same JSON as the
executor's, to the byte, for every object, many searches and many compiles of several
layers; every call it cannot prove valid, and every refusal, left to the executor."""

from __future__ import annotations

import datetime
import json
import math
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majordomus.capabilities import objects_json
from majordomus.capabilities.workspace import Workspace
from majordomus.mcp import plain
from majordomus.mcp.server import Server
from majordomus.synthetic import Shape, SyntheticRepository
from majordomus.wire import dumps_compact
from tests.conftest import FIXTURES, make_git_repo

#: An object whose text the answers must carry alike: non-ASCII, a bidi override, terminal
#: escapes, a secret (the front matter's keys are the rule kind's own).
ODD_RULE = """---
id: project.gamma
version: 1
kind: rule
title: "Gämma → rule \u202e"
description: "Odd values, in one sentence."
statement: "Non-ASCII survives."
status: active
class: advisory
tags: [claims, odd]
---

# Gämma

A line naming the RULE in capitals.
A line with an escape \x1b]52;c;Zm9v\x07 in it, and a key AKIAABCDEFGHIJKLMNOP.
"""

#: Searches compared on every layer: (query, kind, limit).
SEARCHES: list[tuple[str, str | None, int | None]] = [
    ("rule", None, None),
    ("RULE", None, None),
    ("e", None, 200),
    ("e", None, 1000),
    ("e", None, 0),
    ("e", None, 3),
    ("claims", "rule", None),
    ("the", "document", 5),
    ("gämma", None, None),
    ("→", None, None),
    ("no such text anywhere", None, None),
    ("alpha", None, None),
    ("project.", "rule", 2),
]


def _layers(tmp_path: Path) -> Iterator[Path]:
    for name in ("healthy", "planned", "ledgerly"):
        yield make_git_repo(tmp_path / name, FIXTURES / "layers" / name)
    odd = tmp_path / "odd"
    shutil.copytree(FIXTURES / "layers" / "healthy", odd)
    (odd / ".ai/repo/rules/project/gamma.v1.md").write_text(ODD_RULE, encoding="utf-8")
    yield make_git_repo(odd)
    synthetic = SyntheticRepository.new(Shape(rules=40, prompts=3, documents=12, body_lines=6))
    yield make_git_repo(tmp_path / "synthetic", synthetic.root)


@pytest.fixture(scope="module")
def layers(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    return list(_layers(tmp_path_factory.mktemp("plain")))


def _same(plain_value: Any, full: Any) -> None:
    assert plain_value == full
    assert dumps_compact(plain_value) == dumps_compact(full)


def test_every_object_gets_the_executors_answer(layers: list[Path]) -> None:
    for root in layers:
        ctx = Workspace(root)
        assert ctx.index.objects
        for obj in ctx.index.objects:
            names = {obj.uri, obj.identity, f"{obj.kind}/{obj.identity}"}
            for name in sorted(names):
                got = objects_json.get_json(ctx, name)
                try:
                    full = ctx.executor.call("objects.get", {"uri": name}, observe=True)
                except Exception:
                    assert got is None, name  # ambiguous short ids are refused, never answered
                    continue
                _same(got, full)


def test_every_search_gets_the_executors_answer(layers: list[Path]) -> None:
    for root in layers:
        ctx = Workspace(root)
        kinds = [None, *ctx.index.kinds]
        cases = [
            *SEARCHES,
            *((obj.identity[:4], k, None) for obj in ctx.index.objects[:20] for k in kinds),
        ]
        for query, kind, limit in cases:
            if kind is not None and kind not in ctx.index.kinds:
                continue
            got = objects_json.search_json(ctx, query, kind, limit, narrow=len(query) % 2 == 0)
            arguments: dict[str, Any] = {"query": query, "kind": kind, "limit": limit}
            full = ctx.executor.call("objects.search", arguments, observe=True)
            _same(got, full)


#: Compiles compared on every layer (with the layer's issues, milestones and some objects).
COMPILES: list[dict[str, Any]] = [
    {},
    {"intent": "the context a session is given and the budget it costs"},
    {"intent": "rule secrets budget tokens", "budget_tokens": 300},
    {"intent": "rule", "bundle": True},
    {"intent": "gämma → rule", "bundle": True, "budget_tokens": 2000},
    {"intent": "claims odd", "floor": 0, "max_depth": 1},
    {"intent": "adr decision", "floor": 1.0, "max_depth": 0},
    {"paths": [".ai/repo/rules", "./docs/"], "intent": "tests"},
    {"all_blocking_rules": True, "budget_tokens": 10, "bundle": True},
    {"budget_tokens": 1, "bundle": False},
    {"uris": ["adr-0001"]},
    {"budget_tokens": 0},
    {"floor": 1.5},
    {"issue": "  "},
    {"milestone": "no-such"},
    {"paths": ["../outside"]},
    {"uris": ["majordomus://rule/nothing-like-this@1"]},
]


def _compiles(ctx: Workspace) -> list[dict[str, Any]]:
    named = [
        {obj.kind: name}
        for obj in ctx.index.objects
        if obj.kind in ("issue", "milestone")
        for name in (obj.identity, obj.uri)
    ]
    seeded = [{"uris": [obj.uri], "bundle": True} for obj in ctx.index.objects[::9]]
    return [*COMPILES, *named, *seeded]


def test_every_compile_gets_the_executors_answer(layers: list[Path]) -> None:
    """The executor narrows the intent with the SQLite copy, the plain compile does not;
    each request the executor refuses is left to it."""
    from majordomus.errors import CapabilityError

    answered = 0
    for root in layers:
        alone, full = Workspace(root), Workspace(root)
        for arguments in _compiles(full):
            assert plain.proved("majordomus_devcontext", arguments), arguments
            got = plain.answer(alone, "devcontext.compile", "majordomus_devcontext", arguments)
            try:
                expected = full.executor.call("devcontext.compile", arguments, observe=True)
            except CapabilityError:
                assert got is None, arguments
                continue
            _same(got, expected)
            answered += 1
        assert "executor" not in vars(alone)
    assert answered > 80


def _answer(server: Server, message: dict[str, Any]) -> str:
    lines = server.answer_lines(json.dumps(message).encode())
    assert len(lines) == 1
    return lines[0]


def _call(id_: int, tool: str, arguments: Any) -> dict[str, Any]:
    params = {"name": tool, "arguments": arguments}
    return {"jsonrpc": "2.0", "id": id_, "method": "tools/call", "params": params}


#: Calls whose arguments the plain path must not prove (each is the executor's to refuse or
#: to answer).
UNPROVED = [
    ("majordomus_get", {}),
    ("majordomus_get", {"uri": 5}),
    ("majordomus_get", {"uri": None}),
    ("majordomus_get", {"uri": "adr-0001", "extra": 1}),
    ("majordomus_get", {"uri": "\ud800"}),
    ("majordomus_get", {"uri": ["adr-0001"]}),
    ("majordomus_search", {"query": "rule", "limit": True}),
    ("majordomus_search", {"query": "rule", "limit": 1.0}),
    ("majordomus_search", {"query": "rule", "limit": 2**60}),
    ("majordomus_search", {"query": "rule", "kind": None}),
    ("majordomus_search", {"kind": "rule"}),
    ("majordomus_devcontext", {"intent": None}),
    ("majordomus_devcontext", {"budget_tokens": -1}),
    ("majordomus_devcontext", {"budget_tokens": 1.0}),
    ("majordomus_devcontext", {"max_depth": True}),
    ("majordomus_devcontext", {"floor": "0.5"}),
    ("majordomus_devcontext", {"floor": math.nan}),
    ("majordomus_devcontext", {"floor": 2**60}),
    ("majordomus_devcontext", {"paths": "src"}),
    ("majordomus_devcontext", {"paths": ["src", 1]}),
    ("majordomus_devcontext", {"uris": ("adr-0001",)}),
    ("majordomus_devcontext", {"bundle": 1}),
    ("majordomus_devcontext", {"intent": "x", "uri": "adr-0001"}),
]
#: Calls proved valid: the first five answered without the executor, the others (a query
#: resource, what is not found or refused) left to it.
PROVED = [
    ("majordomus_get", {"uri": "majordomus://adr/adr-0001"}),
    ("majordomus_get", {"uri": "adr-0001"}),
    ("majordomus_search", {"query": "rule"}),
    ("majordomus_search", {"query": "rule", "kind": "rule", "limit": 1}),
    ("majordomus_devcontext", {"intent": "rule", "floor": 1, "paths": [], "bundle": True}),
    ("majordomus_get", {"uri": "majordomus://repository"}),
    ("majordomus_get", {"uri": "majordomus://adr/no-such"}),
    ("majordomus_get", {"uri": "no-such"}),
    ("majordomus_search", {"query": "   "}),
    ("majordomus_search", {"query": "rule", "limit": -1}),
    ("majordomus_search", {"query": "rule", "kind": "no-such-kind"}),
    ("majordomus_devcontext", {"budget_tokens": 0}),
    ("majordomus_devcontext", {"issue": "no-such"}),
    ("majordomus_devcontext", {"intent": "rule"}),
]


@pytest.mark.parametrize(("tool", "arguments"), UNPROVED)
def test_what_it_cannot_prove_it_does_not_take(tool: str, arguments: dict[str, Any]) -> None:
    assert not plain.proved(tool, arguments)


@pytest.mark.parametrize(("tool", "arguments"), PROVED)
def test_what_it_proves(tool: str, arguments: dict[str, Any]) -> None:
    assert plain.proved(tool, arguments)


def test_the_session_answers_alike_with_and_without_it(
    layers: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole answer lines, refusals included, from a server with the plain path and from
    one whose every call the executor answers."""
    root = layers[0]
    calls = [_call(i, tool, arguments) for i, (tool, arguments) in enumerate(PROVED + UNPROVED)]
    with_plain = Server(Workspace(root), read_only=False)
    plain_lines = [_answer(with_plain, call) for call in calls[:5]]
    assert "executor" not in vars(with_plain.ctx)
    plain_lines += [_answer(with_plain, call) for call in calls[5:]]
    monkeypatch.setattr(plain, "ANSWERS", {})
    without = Server(Workspace(root), read_only=False)
    assert plain_lines == [_answer(without, call) for call in calls]


def test_the_inputs_it_proves_for_have_no_validator_the_schema_misses() -> None:
    """The schema proves only types: the input models must hold no validator of their own."""
    from majordomus.capabilities.core import GetInput, SearchInput
    from majordomus.devcontext.model import DevContextInput

    for model in (GetInput, SearchInput, DevContextInput):
        decorators = model.__pydantic_decorators__
        assert not decorators.field_validators and not decorators.model_validators
        assert not hasattr(model, "from_json_value")


@pytest.mark.parametrize(
    "value",
    [
        datetime.date(2024, 1, 2),
        (1, 2),
        math.nan,
        math.inf,
        2**70,
        {1: "x"},
        {"a": {1, 2}},
        "\udc80",
        type("Text", (str,), {})("x"),
        b"x",
    ],
)
def test_values_a_model_would_convert_are_not_plain(value: Any) -> None:
    assert not objects_json.plain(value)
    assert not objects_json.plain({"k": [value]})


def test_deep_values_are_left_to_the_models() -> None:
    deep: Any = "x"
    for _ in range(100):
        deep = [deep]
    assert not objects_json.plain(deep)
    assert objects_json.plain({"a": [1, 2.5, None, True, "é", {"b": []}]})


def test_an_answer_shares_nothing_with_the_index(layers: list[Path]) -> None:
    ctx = Workspace(layers[0])
    obj = next(o for o in ctx.index.objects if o.metadata)
    got = objects_json.get_json(ctx, obj.uri)
    assert got is not None and got["metadata"] == obj.metadata
    assert got["metadata"] is not obj.metadata
