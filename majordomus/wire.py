"""What crosses a surface as JSON: the base classes of its pydantic models and the writers
of its text.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, ConfigDict, Field
from pydantic_core import PydanticSerializationError, to_json


def _empty(value: Any) -> bool:
    """None, or an empty list, tuple, set or mapping: what an OMIT field leaves out."""
    return value is None or (isinstance(value, list | tuple | set | frozenset | dict) and not value)


#: Marker: drop this field from JSON when it is None or empty. A field setting, so pydantic
#: itself leaves the key out (no Python call for a model without such a field).
OMIT = Field(exclude_if=_empty)


class Wire(BaseModel):
    model_config = ConfigDict(
        populate_by_name=True, defer_build=True, extra="ignore", use_enum_values=False
    )

    def wire(self) -> Any:
        """The JSON-ready value (aliases applied, omitted fields dropped)."""
        return self.model_dump(mode="json", by_alias=True)


class StrictInput(Wire):
    model_config = ConfigDict(extra="forbid")


class Empty(StrictInput):
    """No input: the capability answers about the repository as it is."""


def _spelled_apart(data: bytes) -> bool:
    """Whether pydantic-core may have spelled a float differently from `json` (below 1e-4)."""
    if b"0.0000" in data:
        return True
    at = data.find(b"e-")
    while at > 0:
        if 48 <= data[at - 1] <= 57:
            return True
        at = data.find(b"e-", at + 2)
    return False


def _fast(serialise: Callable[[], bytes]) -> bytes | None:
    """pydantic-core's indented bytes, or None where they might differ from `json`'s (small
    floats) or the fast encoder refuses the value (a lone surrogate)."""
    try:
        fast = serialise()
    except (TypeError, ValueError, PydanticSerializationError):
        return None
    return None if _spelled_apart(fast) else fast


def _indented(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, indent=2)


def dumps_pretty(value: Any) -> str:
    """`json.dumps(indent=2)`'s bytes, from pydantic-core when it cannot differ."""
    fast = _fast(lambda: to_json(value, indent=2))
    return fast.decode("utf-8") if fast is not None else _indented(value)


def dumps_compact(value: Any) -> str:
    """One compact JSON line, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dumps_canonical(value: Any) -> str:
    """Sorted keys, no whitespace: the cache key form."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def dumps_model_pretty_bytes(model: BaseModel) -> bytes:
    """`dumps_pretty(model.wire())` as UTF-8, serialised straight from the model."""
    fast = _fast(lambda: model.__pydantic_serializer__.to_json(model, indent=2, by_alias=True))
    if fast is not None:
        return fast
    return _indented(model.model_dump(mode="json", by_alias=True)).encode("utf-8")
