"""Descriptors and canonical schemas: what `capabilities.describe` returns and surfaces read.

The JSON Schemas come from the pydantic models (never hand-written), computed once per model.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import BaseModel

from majordomus.capabilities.registry import Capability


@functools.cache
def canonical_schema(
    model: type[BaseModel], mode: Literal["validation", "serialization"]
) -> dict[str, Any]:
    """The model's JSON Schema (draft 2020-12, nested types under `$defs`, root an object)."""
    schema = model.model_json_schema(mode=mode)
    schema.pop("$schema", None)
    return schema


def schema_ref(
    model: type[BaseModel], mode: Literal["validation", "serialization"]
) -> dict[str, Any]:
    """`{name?, schema}` of §1.1; `name` is the schema title (the component name)."""
    schema = canonical_schema(model, mode)
    out: dict[str, Any] = {}
    if "title" in schema:
        out["name"] = schema["title"]
    out["schema"] = schema
    return out


def descriptor_json(cap: Capability, *, with_schemas: bool = True) -> dict[str, Any]:
    """The descriptor of §1.1 in its serialised field order."""
    out: dict[str, Any] = {
        "id": cap.id,
        "module": cap.module,
        "kind": cap.kind,
        "title": cap.title,
        "description": cap.description,
    }
    if with_schemas:
        out["input"] = schema_ref(cap.input, "validation")
        out["output"] = schema_ref(cap.output, "serialization")
    out["provenance"] = cap.provenance()
    out["exposure"] = cap.exposure()
    if with_schemas:
        out["availability"] = cap.availability()
        out["visibility"] = cap.visibility()
    out["stability"] = cap.stability
    if cap.tags:
        out["tags"] = list(cap.tags)
    out["benchmark"] = cap.benchmark()
    out["cache"] = cap.cache.to_json()
    if with_schemas:
        out["execution"] = cap.execution()
    return out
