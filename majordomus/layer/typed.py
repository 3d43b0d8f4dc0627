"""Strict typed reads of the layer's control files without pydantic, whose first use costs
more than indexing a small layer (docs/layer-internals.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

#: A check takes (value, field path, problems) and returns the value, or None after noting why.
Check = Callable[[Any, str, list[str]], Any]


def _at(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _refuse(path: str, problems: list[str], message: str) -> None:
    problems.append(f"{path or 'input'}: {message}")


def _valid(test: Callable[[Any], bool], what: str) -> Check:
    """A value `test` accepts, else the problem "Input should be a valid `what`"."""

    def check(value: Any, path: str, problems: list[str]) -> Any:
        if test(value):
            return value
        _refuse(path, problems, f"Input should be a valid {what}")
        return None

    return check


def _is_integer(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


string = _valid(lambda value: isinstance(value, str), "string")
boolean = _valid(lambda value: isinstance(value, bool), "boolean")
integer = _valid(_is_integer, "integer")
integer_or_string = _valid(
    lambda value: isinstance(value, str) or _is_integer(value), "integer or string"
)


def literal(*words: str) -> Check:
    """One of `words`, exactly."""
    expected = " or ".join(f"'{w}'" for w in words)

    def check(value: Any, path: str, problems: list[str]) -> str | None:
        if isinstance(value, str) and value in words:
            return value
        _refuse(path, problems, f"Input should be {expected}")
        return None

    return check


def list_of(item: Check) -> Check:
    def check(value: Any, path: str, problems: list[str]) -> list[Any] | None:
        if not isinstance(value, list):
            _refuse(path, problems, "Input should be a valid list")
            return None
        return [item(v, _at(path, i), problems) for i, v in enumerate(value)]

    return check


def dict_of(item: Check) -> Check:
    def check(value: Any, path: str, problems: list[str]) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            _refuse(path, problems, "Input should be a valid dictionary")
            return None
        return {k: item(v, _at(path, k), problems) for k, v in value.items()}

    return check


def record(required: dict[str, Check], optional: dict[str, Check] | None = None) -> Check:
    """A mapping with exactly these members; absent optional members are left out."""
    optional = optional or {}
    known = required.keys() | optional.keys()

    def check(value: Any, path: str, problems: list[str]) -> dict[str, Any] | None:
        if not isinstance(value, dict):
            _refuse(path, problems, "Input should be a valid dictionary")
            return None
        out: dict[str, Any] = {}
        for key, field_check in required.items():
            if key in value:
                out[key] = field_check(value[key], _at(path, key), problems)
            else:
                _refuse(_at(path, key), problems, "Field required")
        for key, field_check in optional.items():
            if key in value:
                out[key] = field_check(value[key], _at(path, key), problems)
        for key in value:
            if key not in known:
                _refuse(_at(path, key), problems, "Extra inputs are not permitted")
        return out

    return check


def read(check: Check, value: Any) -> tuple[Any, str | None]:
    """(the checked value, None) or (None, every problem joined by `; `)."""
    problems: list[str] = []
    out = check(value, "", problems)
    return (None, "; ".join(problems)) if problems else (out, None)
