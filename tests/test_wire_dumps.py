"""`dumps_pretty` writes exactly the bytes of `json.dumps(indent=2, ensure_ascii=False)`, and
`dumps_model_pretty_bytes` those of a model's JSON value."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field

from majordomus.capabilities.workspace import Workspace
from majordomus.synthetic import Shape, SyntheticRepository, synthetic_ledger
from majordomus.wire import OMIT, Wire, dumps_model_pretty_bytes, dumps_pretty

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text()
    | st.sampled_from([1e-5, 1e-7, 0.0001, 1e16, 1e22, -0.0, 5e-324, "1e-5", "\x7f\x00\u2028"])
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=2000, deadline=None)
@given(VALUES)
def test_the_bytes_are_those_of_json(value: Any) -> None:
    assert dumps_pretty(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_a_lone_surrogate_is_written_as_json_writes_it() -> None:
    value = {"text": "\ud800"}
    assert dumps_pretty(value) == json.dumps(value, ensure_ascii=False, indent=2)


def test_a_model_is_written_as_its_json_value_is(tmp_path: Path) -> None:
    with SyntheticRepository.new(Shape.scaling(20), at=tmp_path / "repo") as repo:
        repo.commit()
        synthetic_ledger(repo.root, 40)
        ctx = Workspace(repo.root, environ={})
        for cap_id, value in (
            ("reasoning.status", {}),
            ("devcontext.compile", {"intent": "rule scope"}),
            ("repository.info", {}),
            ("objects.get", {"uri": "majordomus://repository"}),
        ):
            answer = ctx.executor.answer(ctx.executor.capability(cap_id), value, fresh=True)
            text = dumps_model_pretty_bytes(answer).decode()
            assert text == dumps_pretty(answer.model_dump(mode="json", by_alias=True)), cap_id


def test_small_floats_in_a_model_take_the_json_path() -> None:
    class Scores(Wire):
        low: float
        high: float

    model = Scores(low=1e-7, high=1e16)
    assert dumps_model_pretty_bytes(model).decode() == json.dumps(
        model.wire(), ensure_ascii=False, indent=2
    )


def test_omitted_fields_leave_no_key_and_present_ones_stay() -> None:
    class Sample(Wire):
        kept: str
        maybe: Annotated[str | None, OMIT] = None
        items: Annotated[list[str], OMIT] = Field(default_factory=list)
        pairs: Annotated[tuple[int, ...], OMIT] = ()
        table: Annotated[dict[str, int], OMIT] = Field(default_factory=dict)
        blank: Annotated[str | None, OMIT] = None

    assert Sample(kept="k").wire() == {"kept": "k"}
    full = Sample(kept="k", maybe="m", items=["i"], pairs=(1,), table={"a": 1}, blank="")
    assert full.wire() == {
        "kept": "k",
        "maybe": "m",
        "items": ["i"],
        "pairs": [1],
        "table": {"a": 1},
        "blank": "",
    }
    assert json.loads(full.model_dump_json()) == full.wire()
