"""Replay is total: whatever schema-valid records land in the store (generated from the model's
JSON schema, ids drawn from one small pool so they collide and cite one another), every
reasoning capability answers; what cannot be replayed is listed."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from majordomus.capabilities.workspace import Workspace
from majordomus.errors import Refused
from majordomus.ledger.record import ReasoningRecord
from majordomus.ledger.store import STATE_DIR, Store
from tests.conftest import REVIEWER_CATALOGUE, initialised_repo, run_majordomus, serve
from tests.layer.support import write
from tests.ledger.records import envelope
from tests.mcp.conftest import Pipes

POOL = ["a1", "a2", "p1", "c1", "c2", "d1", "k1", "k2", "reviewer", "primary", "all", "t"]
STAMPS = [
    "2026-10-01T09:30:00.000Z",
    "2026-10-01T09:30:01.000Z",
    "9999-12-31T23:59:59.999Z",
    "1970-01-01T00:00:00.000Z",
    "not a time",
    "",
]
SCHEMA = ReasoningRecord.model_json_schema()
DEFS = SCHEMA["$defs"]

text = st.one_of(st.sampled_from(POOL), st.text(max_size=12))


def _integers(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Integers within the bounds (unbounded above means huge), and the bounds themselves."""
    low, high = schema.get("minimum"), schema.get("maximum")
    return st.integers(
        min_value=low, max_value=high if high is not None else 10**30
    ) | st.sampled_from([v for v in (low, high) if v is not None] or [0])


def _object(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """The required properties (and those fixed by `const`) always, the others sometimes."""
    properties = schema.get("properties", {})
    required = set(schema.get("required", ())) | {
        name for name, sub in properties.items() if "const" in sub
    }
    optional = [name for name in properties if name not in required]
    return st.fixed_dictionaries(
        {name: _from(properties[name]) for name in required},
        optional={name: _from(properties[name]) for name in optional},
    )


#: A strategy per JSON schema `type`; any other node yields None.
_BY_TYPE: dict[str, Callable[[dict[str, Any]], st.SearchStrategy[Any]]] = {
    "string": lambda schema: text,
    "integer": _integers,
    "boolean": lambda schema: st.booleans(),
    "null": lambda schema: st.none(),
    "array": lambda schema: st.lists(_from(schema.get("items", {})), max_size=3),
    "object": _object,
}


def _from(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values valid against one (pydantic-generated) JSON schema node."""
    if "$ref" in schema:
        return st.deferred(lambda: _from(DEFS[schema["$ref"].rsplit("/", 1)[1]]))
    if "const" in schema:
        return st.just(schema["const"])
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return st.one_of([_from(option) for option in schema[key]])
    kind = schema.get("type")
    make = _BY_TYPE.get(kind) if isinstance(kind, str) else None
    return make(schema) if make is not None else st.none()


body = _from(SCHEMA["properties"]["body"])


@st.composite
def planted(draw: st.DrawFn) -> tuple[str, str, dict[str, Any]]:
    """(task directory, file name, record) as a hand might place it."""
    ident = draw(st.sampled_from(POOL[:8]))
    task = draw(st.sampled_from(["t", "u"]))
    record = envelope(ident, draw(body), task=task, stamp=draw(st.sampled_from(STAMPS)))
    folder = draw(st.sampled_from([task, task, "other"]))
    name = draw(st.sampled_from([ident, ident, ident + "-copy"]))
    return folder, f"{name}.json", record


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return initialised_repo(
        tmp_path_factory.mktemp("replay") / "repo", {".ai/repo/advisors.yaml": REVIEWER_CATALOGUE}
    )


@pytest.fixture(scope="module")
def advisor_path(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A PATH on which the catalogue's advisor is installed, so its circuit is evaluated."""
    directory = tmp_path_factory.mktemp("bin")
    write(directory, "fake-reviewer", "#!/bin/sh\n").chmod(0o755)
    return f"{directory}{os.pathsep}{os.environ.get('PATH', '')}"


@pytest.fixture(scope="module")
def ctx(root: Path, advisor_path: str) -> Workspace:
    return Workspace(root, environ={"PATH": advisor_path, "HOME": str(root)})


def plant(root: Path, files: list[tuple[str, str, dict[str, Any]]]) -> None:
    store = root / STATE_DIR
    shutil.rmtree(store, ignore_errors=True)
    for folder, name, record in files:
        write(store / folder, name, json.dumps(record))


def replay_everything(ctx: Workspace, ids: list[str]) -> None:
    """Every reasoning capability answers; a record is admitted or refused in one sentence."""
    call = ctx.executor.call
    for task in ("all", "t"):
        call("reasoning.status", {"task": task})
    call("reasoning.status", {"task": "all", "as_of": "2026-10-01T09:30:00Z"})
    call("reasoning.advisors", {})
    call("reasoning.plan", {})
    check = call("reasoning.check", {})
    assert check["ok"] is (not check["findings"])
    for ident in ids:
        call("reasoning.explain", {"id": ident})
    call("reasoning.record", {"record": {"kind": "assessment", "subject": "s"}, "task": "t"})
    for ident in ids[:2]:
        for data in (
            {"kind": "plan", "assessment": ident},
            {"kind": "validation", "conclusion": ident, "check": "c", "outcome": "pass"},
            {"kind": "conclusion", "assessment": ident, "decision": "d", "rationale": "r"},
        ):
            try:
                call("reasoning.record", {"record": data, "task": "t"})
            except Refused as refused:
                assert "\n" not in refused.message


@settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(st.lists(planted(), max_size=8))
def test_no_schema_valid_store_breaks_a_reasoning_capability(
    root: Path, ctx: Workspace, files: list[tuple[str, str, dict[str, Any]]]
) -> None:
    plant(root, files)
    replay_everything(ctx, sorted({record.id for record in Store(root).load().records}))


HOSTILE = [
    ("t", "c1.json", {"retry_after_seconds": 300000000000}),
    ("t", "c2.json", {"retry_after_seconds": "1e20"}),
    ("t", "c3.json", {"duration_ms": 10**40}),
]


def _consultation(ident: str, extra: dict[str, Any]) -> str:
    body = {"kind": "consultation", "plan": "p1", "advisor": "reviewer", "status": "rate_limited"}
    record = envelope(ident, {**body, **extra}, stamp="2026-10-01T09:30:00.000Z")
    return json.dumps(record).replace('"1e20"', "1e20")


def test_hand_placed_out_of_bound_records_are_listed_and_every_command_answers(
    root: Path, advisor_path: str
) -> None:
    env = {"PATH": advisor_path}
    plant(root, [])
    folder = root / STATE_DIR / "t"
    folder.mkdir(parents=True)
    for _, name, extra in HOSTILE:
        (folder / name).write_text(_consultation(name[:-5], extra), encoding="utf-8")
    last = _consultation("c4", {"retry_after_seconds": 604800})
    last = last.replace("2026-10-01T09:30:00.000Z", "9999-12-31T23:59:59.999Z")
    (folder / "c4.json").write_text(last, encoding="utf-8")
    write(folder, "x.json", json.dumps(envelope("x", {"kind": "hunch"}, stamp="")))
    for args, code in (
        (["reasoning", "status", "--task", "all"], 0),
        (["reasoning", "advisors"], 0),
        (["reasoning", "check"], 10),
        (["reasoning", "explain", "c1"], 12),
        (["reasoning", "explain", "c4"], 0),
    ):
        done = run_majordomus(args, cwd=root, env=env)
        assert done.code == code, (args, done.stderr)
    status = run_majordomus(
        ["reasoning", "status", "--task", "all", "--format", "json"], cwd=root, env=env
    )
    assert json.loads(status.stdout)["state"]["unreadable"] == [
        "t/c1.json",
        "t/c2.json",
        "t/c3.json",
        "t/x.json",
    ]
    advisors = run_majordomus(["reasoning", "advisors", "--format", "json"], cwd=root, env=env)
    state = json.loads(advisors.stdout)["advisors"][0]
    assert (state["status"], state["circuit"]["until"]) == ("rate_limited", "9999-12-31T23:59:59Z")
    session = Pipes().run(
        root,
        [
            Pipes.request(0, "initialize", {}),
            *(
                Pipes.call(n, tool, {})
                for n, tool in enumerate(
                    [
                        "majordomus_reasoning",
                        "majordomus_reasoning_check",
                        "majordomus_reasoning_advisors",
                    ],
                    start=1,
                )
            ),
        ],
        env=env,
    )
    answers = {a["id"]: a for a in session.responses}
    for n in (1, 2, 3):
        assert answers[n]["result"]["isError"] is False, answers[n]
    served = serve(root, env=env)
    try:
        with served.client() as client:
            for route in ("reasoning", "reasoning/check", "reasoning/advisors"):
                assert client.get(f"/api/v1/{route}").status_code == 200, route
    finally:
        served.stop()
    recorded = run_majordomus(
        ["reasoning", "record", "--task", "t"],
        cwd=root,
        input='{"kind":"assessment","subject":"s"}',
    )
    assert recorded.code == 0, recorded.stderr
