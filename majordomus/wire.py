"""What crosses a surface as JSON: the base classes of its pydantic models and the writers
of its text."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field


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


def dumps_pretty(value: Any) -> str:
    """Two-space indented JSON, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, indent=2)


def dumps_compact(value: Any) -> str:
    """One compact JSON line, non-ASCII kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def dumps_canonical(value: Any) -> str:
    """Sorted keys, no whitespace: the cache key form."""
    return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
