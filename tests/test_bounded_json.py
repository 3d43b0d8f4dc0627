"""The bounded JSON reader: our limits, the same refusal on every Python version."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.bounded_json import (
    IntegerTooLarge,
    LargeInt,
    NestingTooDeep,
    NotANumber,
    depth_exceeds,
    loads,
)
from majordomus.limits import MAX_INT_DIGITS, MAX_JSON_DEPTH


def nested(depth: int, *, objects: bool = False) -> str:
    if objects:
        return '{"a":' * (depth - 1) + "{}" + "}" * (depth - 1)
    return "[" * depth + "]" * depth


def true_depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max(map(true_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(true_depth, value), default=0)
    return 0


@pytest.mark.parametrize("objects", [False, True])
def test_nesting_up_to_the_limit_is_read(objects: bool) -> None:
    text = nested(MAX_JSON_DEPTH, objects=objects)
    assert loads(text) == json.loads(text)
    assert loads(text.encode()) == json.loads(text)


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 1_000, 5_000, 200_000])
@pytest.mark.parametrize("objects", [False, True])
def test_nesting_past_the_limit_is_refused_before_parsing(depth: int, objects: bool) -> None:
    with pytest.raises(NestingTooDeep, match=r"^nesting too deep$"):
        loads(nested(depth, objects=objects))


def test_an_unclosed_deep_text_is_too_deep_not_a_recursion() -> None:
    with pytest.raises(NestingTooDeep):
        loads(b"[" * 200_000)
    with pytest.raises(NestingTooDeep):
        loads(b'{"a":' * 200_000)


def test_brackets_inside_strings_are_not_structure() -> None:
    text = json.dumps({"a": "[" * 1000, "b": ["]" * 1000, '\\"[[[', "{{{{"]})
    assert loads(text) == json.loads(text)


def test_strings_cannot_hide_depth() -> None:
    """Brackets in strings that would balance the real ones must not shorten the count."""
    half = MAX_JSON_DEPTH
    text = "[" * half + '"' + "]" * half + '",' + "[" * half + "0" + "]" * half + "]" * half
    assert true_depth(json.loads(text)) == 2 * half
    with pytest.raises(NestingTooDeep):
        loads(text)


def test_escaped_quotes_and_backslashes_do_not_end_a_string() -> None:
    inner = '\\\\\\"' + "[" * 100
    text = '["' + inner + '"]'
    assert loads(text) == json.loads(text)
    text = '["\\\\"' + ",[" * 100 + "]" * 101
    with pytest.raises(NestingTooDeep):
        loads(text)


def test_malformed_text_gets_the_json_error() -> None:
    with pytest.raises(json.JSONDecodeError):
        loads("[" * 10 + "}" * 100)
    with pytest.raises(json.JSONDecodeError):
        loads("]" * 1000)
    for unterminated in ('"unterminated', '"' + "[" * 1000):
        with pytest.raises(json.JSONDecodeError):
            loads(unterminated)


@pytest.mark.parametrize("sign", ["", "-"])
def test_integers_up_to_the_digit_limit_are_read(sign: str) -> None:
    digits = "9" * MAX_INT_DIGITS
    assert loads(f'{{"n":{sign}{digits}}}') == {"n": int(sign + digits)}


@pytest.mark.parametrize("digits", [MAX_INT_DIGITS + 1, 4300, 5000, 100_000])
def test_longer_integers_are_refused(digits: int) -> None:
    with pytest.raises(IntegerTooLarge, match=f"more than {MAX_INT_DIGITS} digits"):
        loads('{"n":' + "1" * digits + "}")


def test_long_integers_may_be_kept_to_answer_for_them() -> None:
    value = loads('{"id":1,"n":[-' + "1" * 30 + "]}", keep_large_ints=True)
    assert value == {"id": 1, "n": ["-" + "1" * 30]}
    assert isinstance(value["n"][0], LargeInt)


@pytest.mark.parametrize(
    "text", ["NaN", "[Infinity]", '{"a":-Infinity}', "1e400", "[-1e999]", "1" + "0" * 400 + ".0"]
)
def test_nan_infinity_and_overflowing_numbers_are_refused(text: str) -> None:
    with pytest.raises(NotANumber):
        loads(text)


def test_floats_are_read_as_json_reads_them() -> None:
    text = "[1.5, -0.0, 1e300, 2E-300, 12345678901234567890.5]"
    assert loads(text) == json.loads(text)


def test_bytes_must_be_utf8() -> None:
    with pytest.raises(UnicodeDecodeError):
        loads(b'["\xff"]')


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**19), 10**19)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(alphabet=st.sampled_from('ab[]{}"\\ \n'), max_size=8),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.text(alphabet=st.sampled_from('k[]{}"\\'), max_size=3), children, max_size=3
        )
    ),
    max_leaves=40,
)


@settings(max_examples=300, deadline=None)
@given(json_values, st.integers(1, 8))
def test_the_measured_depth_is_the_true_depth(value: Any, limit: int) -> None:
    text = json.dumps(value)
    assert depth_exceeds(text.encode(), limit) == (true_depth(value) > limit)
    if true_depth(value) <= MAX_JSON_DEPTH:
        assert loads(text) == json.loads(text)
