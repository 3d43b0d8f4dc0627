"""The plain twins (`majordomus.devcontext.shapes`) agree with the wire models field by field,
and the compiler's plain answer is what the model dumps, byte for byte; the vocabulary and
the compiler load without pydantic."""

from __future__ import annotations

import inspect
import subprocess
import sys
import types
import typing
from enum import Enum
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from majordomus.devcontext import CompileInput, CompileSources, model, shapes
from majordomus.devcontext.compiler import compile_plain
from majordomus.layer.model import Index
from majordomus.synthetic import Shape, SyntheticRepository
from majordomus.wire import _empty, dumps_compact
from tests.conftest import FIXTURES, make_git_repo

#: Each plain twin and the wire model it stands for.
TWINS = [
    (getattr(shapes, name), getattr(model, name))
    for name in sorted(shapes.WIRE)
    if name != "Request"
]


def _how(annotation: Any) -> str:
    """How the model writes a field of this annotation (`shapes.WIRE`'s words)."""
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        inner = [a for a in typing.get_args(annotation) if a is not type(None)]
        if len(inner) == 1:
            return _how(inner[0])
    if annotation is float:
        return "float"
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return "enum"
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return "nested"
    if typing.get_origin(annotation) is list:
        (item,) = typing.get_args(annotation)
        if isinstance(item, type) and issubclass(item, BaseModel):
            return "list"
    return "as-is"


def _parameters(twin: type) -> dict[str, inspect.Parameter]:
    """A twin's fields as its constructor takes them: by keyword, in the model's order."""
    parameters = dict(inspect.signature(twin).parameters)
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters.values())
    return parameters


def _required(made: Any) -> dict[str, Any]:
    """The required fields of a twin as `made` holds them."""
    return {
        name: getattr(made, name)
        for name, p in _parameters(type(made)).items()
        if p.default is p.empty
    }


def test_every_output_model_has_a_twin() -> None:
    assert {twin.__name__ for twin, _ in TWINS} == {
        "Route",
        "EntryProvenance",
        "ContextEntry",
        "Excluded",
        "Deduplicated",
        "Conflict",
        "TierSpend",
        "Budget",
        "Seed",
        "CommitReference",
        "GitContext",
        "Diagnostic",
        "CompiledContext",
    }


@pytest.mark.parametrize(("twin", "wire_model"), TWINS, ids=lambda t: t.__name__)
def test_a_twin_has_its_models_fields(twin: type, wire_model: type[BaseModel]) -> None:
    """Same names in the same order, same defaults, and written as the model writes them:
    key (alias), omitted when empty exactly where the model omits, float, enum or nested."""
    fields = wire_model.model_fields
    plain_fields = _parameters(twin)
    assert list(plain_fields) == list(fields)
    assert sorted(twin.__slots__) == sorted(fields)
    made = twin(**{name: object() for name, p in plain_fields.items() if p.default is p.empty})
    for name, info in fields.items():
        if info.is_required():
            assert plain_fields[name].default is inspect.Parameter.empty, name
        elif info.default_factory is not None:
            assert getattr(made, name) == info.default_factory(), name  # type: ignore[call-arg]
            assert getattr(made, name) is not getattr(twin(**_required(made)), name), name
        else:
            assert getattr(made, name) == info.default, name
    rows = shapes.WIRE[twin.__name__]
    assert [attr for attr, *_ in rows] == list(fields)
    for attr, key, how, omit in rows:
        info = fields[attr]
        assert key == (info.alias or attr)
        assert omit == (info.exclude_if is _empty), attr
        assert how == _how(info.annotation), attr


def test_the_plain_request_has_the_inputs_fields_and_defaults() -> None:
    fields = model.DevContextInput.model_fields
    assert list(_parameters(shapes.Request)) == list(fields)
    given = shapes.Request()
    for name in fields:
        assert getattr(given, name) == getattr(CompileInput(), name), name


@pytest.fixture(scope="module")
def devcontext_layers(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Three fixture layers and a synthetic one, each a committed checkout."""
    base = tmp_path_factory.mktemp("shapes")
    roots = [
        make_git_repo(base / name, FIXTURES / "layers" / name)
        for name in ("healthy", "planned", "ledgerly")
    ]
    synthetic = SyntheticRepository.new(Shape(rules=40, prompts=3, documents=12, body_lines=6))
    return [*roots, make_git_repo(base / "synthetic", synthetic.root)]


def _requests(index: Index) -> list[dict[str, Any]]:
    requests: list[dict[str, Any]] = [
        {},
        {"intent": "the context a session is given and the budget it costs"},
        {"intent": "rule secrets budget tokens", "budget_tokens": 300},
        {"intent": "rule", "bundle": True},
        {"intent": "release notes", "bundle": True, "budget_tokens": 2000},
        {"paths": ["majordomus"]},
        {"paths": ["src/", "./docs"], "intent": "tests"},
        {"all_blocking_rules": True},
        {"all_blocking_rules": True, "budget_tokens": 10, "bundle": True},
        {"intent": "adr decision", "max_depth": 0},
        {"intent": "adr decision", "max_depth": 1, "floor": 0.0},
        {"intent": "adr decision", "floor": 1.0},
        {"budget_tokens": 1},
    ]
    for obj in index.objects:
        if obj.kind in ("issue", "milestone"):
            requests.append({obj.kind: obj.identity})
            requests.append({obj.kind: obj.uri, "bundle": True, "budget_tokens": 1500})
    requests.extend({"uris": [obj.uri]} for obj in index.objects[::7])
    return requests


def test_the_plain_answer_is_the_models_dump(devcontext_layers: list[Path]) -> None:
    """Over many requests on several layers: the plain answer, validated into the wire
    model and dumped, is the same JSON to the byte."""
    from majordomus.capabilities.workspace import Workspace

    compared = 0
    for root in devcontext_layers:
        index = Workspace(root).index
        source = CompileSources.for_checkout(index)
        for arguments in _requests(index):
            plain = shapes.wire_json(compile_plain(source, shapes.Request(**arguments)))
            dumped = model.CompiledContext.model_validate(plain).model_dump(
                mode="json", by_alias=True
            )
            assert dumps_compact(plain) == dumps_compact(dumped), arguments
            compared += 1
    assert compared > 60


def test_the_vocabulary_and_the_compiler_load_without_pydantic() -> None:
    probe = (
        "import sys\n"
        "import majordomus.devcontext.compiler, majordomus.devcontext.shapes\n"
        "import majordomus.devcontext\n"
        "sys.exit(any(m.split('.')[0] in ('pydantic', 'pydantic_core') for m in sys.modules))\n"
    )
    assert subprocess.run([sys.executable, "-c", probe], check=False).returncode == 0
