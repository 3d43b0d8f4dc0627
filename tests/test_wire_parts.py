"""`pretty_parts` joined is exactly the cleaned whole text, however the answer is cut."""

from __future__ import annotations

from typing import Annotated

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import Field, field_serializer

from majordomus.egress import clean_json_bytes
from majordomus.projections.timeline import ReasoningPhase, ReasoningStep
from majordomus.wire import OMIT, Wire, dumps_model_pretty_bytes, dumps_pretty
from majordomus.wire_parts import BATCH, LONG, pretty_parts


def clean(data: bytes) -> bytes:
    return clean_json_bytes(data, dumps_pretty)


class Item(Wire):
    name: str
    score: float = 0.0
    notes: Annotated[list[str], OMIT] = Field(default_factory=list)


class Inner(Wire):
    items: list[Item] = Field(default_factory=list)
    steps: list[ReasoningStep] = Field(default_factory=list)
    words: Annotated[list[str], OMIT] = Field(default_factory=list)


class Outer(Wire):
    title: str
    inner: Inner
    tail: list[str] = Field(default_factory=list)


def whole(model: Outer) -> bytes:
    return clean(dumps_model_pretty_bytes(model))


def parts(model: Outer) -> bytes:
    return b"".join(pretty_parts(model, clean))


def step(i: int, summary: str) -> ReasoningStep:
    return ReasoningStep(at=f"t{i}", id=f"s-{i}", phase=ReasoningPhase.LOCAL, summary=summary)


def test_long_lists_at_every_depth_are_written_in_parts_identically() -> None:
    count = 2 * BATCH + 7
    model = Outer(
        title="t",
        inner=Inner(
            items=[Item(name=f"n{i}", notes=["x"] if i % 3 else []) for i in range(count)],
            steps=[step(i, f"ran → {i}") for i in range(LONG + 1)],
            words=["w"] * LONG,
        ),
        tail=[f"tail {i}" for i in range(count)],
    )
    assert len(list(pretty_parts(model, clean))) > 3
    assert parts(model) == whole(model)


def test_short_lists_and_empty_ones_stay_in_one_text() -> None:
    model = Outer(title="t", inner=Inner(words=["a"]))
    assert list(pretty_parts(model, clean)) == [whole(model)]


def test_a_value_that_spells_a_marker_falls_back_to_the_whole_text() -> None:
    model = Outer(title="@@part-0@@", inner=Inner(), tail=["@@part-0@@"] * (LONG + 1))
    assert parts(model) == whole(model)


def test_small_floats_take_the_json_path_in_a_batch() -> None:
    items = [Item(name=f"n{i}", score=1e-7 if i == 5 else 0.5) for i in range(LONG + 1)]
    model = Outer(title="t", inner=Inner(items=items))
    assert parts(model) == whole(model)


SECRETY = st.sampled_from(
    [
        "sk-ant-abcdefghijklmnopqrstu",
        "password: hunter2hunter2hunter2",
        "curl -u user:pass",
        "-----BEGIN RSA PRIVATE KEY-----",
        "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7",
        "api_key=",
        "AKIAABCDEFGHIJKLMNOP",
        "https://user:secret@host",
        "\x7f\u202e",
        "",
    ]
)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(SECRETY, st.text(max_size=8), SECRETY), min_size=LONG + 1, max_size=LONG + 40
    )
)
def test_secrets_at_the_edges_of_items_are_cleaned_as_in_the_whole_text(
    texts: list[tuple[str, str, str]],
) -> None:
    model = Outer(
        title="t",
        inner=Inner(steps=[step(i, a + b + c) for i, (a, b, c) in enumerate(texts)]),
        tail=[a + b + c for a, b, c in texts],
    )
    assert parts(model) == whole(model)


def test_a_list_with_a_serializer_of_its_own_stays_whole() -> None:
    class Shouted(Wire):
        words: list[str] = Field(default_factory=list)

        @field_serializer("words")
        def _upper(self, words: list[str]) -> list[str]:
            return [w.upper() for w in words]

    model = Shouted(words=[f"w{i}" for i in range(LONG + 1)])
    assert list(pretty_parts(model, clean)) == [clean(dumps_model_pretty_bytes(model))]
    assert b'"W0"' in b"".join(pretty_parts(model, clean))
