"""Strict reads of the layer's own control files (manifest, `sources.yaml`, `kinds.yaml`): each
file's shape is a `TypedDict` read by pydantic (docs/layer-internals.md)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from pydantic import ConfigDict, TypeAdapter, ValidationError

from majordomus.layer.yaml import YamlError, parse

#: What every record of a control file is: no member beyond those it declares.
STRICT = ConfigDict(extra="forbid")

T = TypeVar("T")


def read(adapter: TypeAdapter[T], value: Any, shown: str, error: Callable[[str], Exception]) -> T:
    """The checked value (strict: `true` is not an integer and `"1"` is not one either); else
    `error` naming `shown` and every problem as `field.path: message`, joined by `; `."""
    try:
        return adapter.validate_python(value, strict=True)
    except ValidationError as exc:
        problems = "; ".join(
            f"{'.'.join(str(part) for part in problem['loc']) or 'input'}: {problem['msg']}"
            for problem in exc.errors()
        )
        raise error(f"{shown}: {problems}") from None


def parse_yaml(text: str, shown: str, error: Callable[[str], Exception]) -> dict[str, Any]:
    """`text` read as the YAML subset; else `error` naming `shown` and the YAML refusal."""
    try:
        return parse(text)
    except YamlError as exc:
        raise error(f"{shown}: {exc}") from exc
