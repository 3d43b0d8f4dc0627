"""Query-string coercion and body parsing (docs/http.md#calling-a-capability)."""

from __future__ import annotations

from typing import Any

import pytest

from majordomus.http.binding import body_input, coerce_value, declared_types, query_input
from majordomus.http.errors import HttpError

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "text": {"type": "string"},
        "count": {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        "ratio": {"type": "number"},
        "flag": {"type": "boolean"},
        "items": {"anyOf": [{"type": "array", "items": {"type": "string"}}, {"type": "null"}]},
        "mapping": {"oneOf": [{"type": "object"}]},
        "standing": {"$ref": "#/$defs/Standing"},
        "either": {"type": ["integer", "string"]},
    },
    "$defs": {"Standing": {"type": "string", "enum": ["selected", "excluded"]}},
}


def test_declared_types_look_one_level_into_anyof_oneof_and_refs() -> None:
    assert declared_types(SCHEMA, "count") == {"integer", "null"}
    assert declared_types(SCHEMA, "items") == {"array", "null"}
    assert declared_types(SCHEMA, "mapping") == {"object"}
    assert declared_types(SCHEMA, "standing") == {"string"}
    assert declared_types(SCHEMA, "either") == {"integer", "string"}
    assert declared_types(SCHEMA, "unknown") == set()


@pytest.mark.parametrize(
    ("name", "raw", "expected"),
    [
        ("text", "5", "5"),
        ("count", "-42", -42),
        ("count", "+7", 7),
        ("count", "9223372036854775807", 2**63 - 1),
        ("ratio", "0.25", 0.25),
        ("ratio", "3", 3.0),
        ("flag", "true", True),
        ("flag", "false", False),
        ("items", '["a","b"]', ["a", "b"]),
        ("items", "null", None),
        ("mapping", '{"a":1}', {"a": 1}),
        ("standing", "selected", "selected"),
        ("either", "12", 12),
        ("either", "twelve", "twelve"),
        ("unknown", "[1]", "[1]"),
    ],
)
def test_values_coerce_by_declared_type(name: str, raw: str, expected: Any) -> None:
    value = coerce_value(name, raw, declared_types(SCHEMA, name))
    assert value == expected
    assert type(value) is type(expected)


@pytest.mark.parametrize(
    ("name", "raw", "reason"),
    [
        ("count", "abc", "'abc' is not a signed 64-bit integer"),
        ("count", "1.5", "is not a signed 64-bit integer"),
        ("count", "9223372036854775808", "is not a signed 64-bit integer"),
        ("count", " 5", "is not a signed 64-bit integer"),
        ("count", "null", "is not a signed 64-bit integer"),
        ("ratio", "nan", "is not a finite number"),
        ("ratio", "1_000", "is not a finite number"),
        ("flag", "True", "'True' is not true or false"),
        ("flag", "1", "is not true or false"),
        ("items", "a,b", "is not JSON"),
        ("items", '{"a":1}', "is not a JSON array"),
        ("mapping", "[1]", "is not a JSON object"),
    ],
)
def test_coercion_failures_name_the_parameter(name: str, raw: str, reason: str) -> None:
    with pytest.raises(HttpError) as caught:
        coerce_value(name, raw, declared_types(SCHEMA, name))
    assert caught.value.status == 400
    assert caught.value.code == "invalid_input"
    assert caught.value.message.startswith(f"parameter '{name}': ")
    assert reason in caught.value.message


def test_query_input_builds_the_object_and_refuses_repeats() -> None:
    assert query_input([("text", "a b"), ("count", "3")], SCHEMA) == {"text": "a b", "count": 3}
    with pytest.raises(HttpError, match="parameter 'text': given more than once"):
        query_input([("text", "a"), ("text", "b")], SCHEMA)


@pytest.mark.parametrize(("body", "expected"), [(b"", {}), (b"  \n", {}), (b'{"a": 1}', {"a": 1})])
def test_bodies_that_are_objects(body: bytes, expected: dict[str, Any]) -> None:
    assert body_input(body) == expected


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (b"{", "the body is not JSON: "),
        (b"\xff\xfe", "the body is not JSON: not UTF-8"),
        (b"[1, 2]", "the body must be a JSON object"),
        (b'"text"', "the body must be a JSON object"),
        (b"null", "the body must be a JSON object"),
    ],
)
def test_bodies_that_are_refused(body: bytes, message: str) -> None:
    with pytest.raises(HttpError) as caught:
        body_input(body)
    assert (caught.value.status, caught.value.code) == (400, "invalid_input")
    assert caught.value.message.startswith(message)
