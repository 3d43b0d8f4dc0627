"""How a request becomes a capability's input."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

from majordomus.bounded_json import JsonLimitError, loads, refusal
from majordomus.capabilities.schemas import json_types
from majordomus.http.errors import HttpError
from majordomus.limits import MAX_INT_DIGITS

_INTEGER = re.compile(rf"[+-]?[0-9]{{1,{MAX_INT_DIGITS}}}\Z")
_I64 = (-(2**63), 2**63 - 1)


def declared_types(schema: dict[str, Any], name: str) -> set[str]:
    """The JSON types property `name` admits; empty for an unknown or untyped property."""
    return json_types(schema.get("properties", {}).get(name), schema.get("$defs", {}))


def _fail(name: str, reason: str) -> HttpError:
    return HttpError(400, "invalid_input", f"parameter '{name}': {reason}")


def _as_structured(name: str, raw: str, types: set[str]) -> Any:
    """An array or object value (or null, where declared) given as JSON text."""
    try:
        value = loads(raw)
    except JsonLimitError as exc:
        raise _fail(name, f"the value {refusal(exc)}") from None
    except ValueError as exc:
        raise _fail(name, f"{raw!r} is not JSON: {exc}") from None
    if isinstance(value, list) and "array" in types:
        return value
    if isinstance(value, dict) and "object" in types:
        return value
    if value is None and "null" in types:
        return None
    wanted = [t for t in ("array", "object") if t in types]
    raise _fail(name, f"{raw!r} is not a JSON {' or '.join(wanted)}")


def _as_integer(raw: str) -> int | None:
    if _INTEGER.match(raw) and _I64[0] <= int(raw) <= _I64[1]:
        return int(raw)
    return None


def _as_number(raw: str) -> float | None:
    try:
        number = float(raw) if "_" not in raw else math.nan
    except ValueError:
        return None
    return number if math.isfinite(number) else None


def _as_boolean(raw: str) -> bool | None:
    return raw == "true" if raw in ("true", "false") else None


# Each scalar type in the order it is tried: its reader (None when the text is not one), the
# refusal, and the declared types that let a value it does not read fall through instead.
_SCALARS: tuple[tuple[str, Callable[[str], Any], str, frozenset[str]], ...] = (
    ("integer", _as_integer, "is not a signed 64-bit integer", frozenset({"number", "string"})),
    ("number", _as_number, "is not a finite number", frozenset({"string"})),
    ("boolean", _as_boolean, "is not true or false", frozenset({"string"})),
)


def coerce_value(name: str, raw: str, types: set[str]) -> Any:
    """One query value as the JSON value its declared types call for."""
    if types & {"array", "object"} and not ("string" in types and raw[:1] not in ("[", "{")):
        return _as_structured(name, raw, types)
    for kind, read, refusal_text, fall_through in _SCALARS:
        if kind not in types:
            continue
        value = read(raw)
        if value is not None:
            return value
        if not types & fall_through:
            raise _fail(name, f"{raw!r} {refusal_text}")
    return raw


def query_input(pairs: list[tuple[str, str]], schema: dict[str, Any]) -> dict[str, Any]:
    """The input object of a GET request; a parameter given twice is refused."""
    out: dict[str, Any] = {}
    for name, raw in pairs:
        if name in out:
            raise _fail(name, "given more than once")
        out[name] = coerce_value(name, raw, declared_types(schema, name))
    return out


def body_input(body: bytes) -> dict[str, Any]:
    """The input object of a POST request: empty is `{}`, anything else one JSON object."""
    if not body.strip():
        return {}
    try:
        value = loads(body)
    except ValueError as exc:
        raise HttpError(400, "invalid_input", f"the body {refusal(exc)}") from None
    if not isinstance(value, dict):
        raise HttpError(400, "invalid_input", "the body must be a JSON object")
    return value
