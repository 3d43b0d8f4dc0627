"""The canonical JSON Schemas of capability inputs and outputs, which every surface reads."""

from __future__ import annotations

import functools
from typing import Any, Literal

from pydantic import BaseModel


def json_types(node: Any, defs: dict[str, Any], seen: frozenset[str] = frozenset()) -> set[str]:
    """The JSON types the values of `node` have, following references and unions; empty
    when some alternative says nothing about its type."""
    if not isinstance(node, dict):
        return set()
    declared = node.get("type")
    if isinstance(declared, str):
        return {declared}
    if isinstance(declared, list):
        return {t for t in declared if isinstance(t, str)}
    ref = node.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        name = ref.removeprefix("#/$defs/")
        return set() if name in seen else json_types(defs.get(name), defs, seen | {name})
    choices = node.get("oneOf") or node.get("anyOf")
    if not choices:
        return set()
    found: set[str] = set()
    for choice in choices:
        types = json_types(choice, defs, seen)
        if not types:
            return set()
        found |= types
    return found


def _type_objects(node: Any, defs: dict[str, Any]) -> None:
    """State `type: object` on every object-valued property, however deep (a reference or a
    tagged union says it only behind a `$ref`), and `[object, null]` on a nullable one."""
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict):
            for name, prop in properties.items():
                if not isinstance(prop, dict) or "type" in prop:
                    continue
                types = json_types(prop, defs)
                if types == {"object"}:
                    properties[name] = {"type": "object", **prop}
                elif types == {"object", "null"}:
                    properties[name] = {"type": ["object", "null"], **prop}
        for value in node.values():
            _type_objects(value, defs)
    elif isinstance(node, list):
        for value in node:
            _type_objects(value, defs)


def _fillable(prop: dict[str, Any], defs: dict[str, Any]) -> dict[str, Any]:
    """One input property as a type a generic client fills: `anyOf [T, null]` becomes `T` and a
    `None` default is not stated."""
    choices = prop.get("anyOf")
    if isinstance(choices, list) and {"type": "null"} in choices:
        rest = [c for c in choices if c != {"type": "null"}]
        merged = {k: v for k, v in prop.items() if k != "anyOf"}
        prop = {**rest[0], **merged} if len(rest) == 1 else {**merged, "anyOf": rest}
    if "default" in prop and prop["default"] is None:
        prop = {k: v for k, v in prop.items() if k != "default"}
    if "type" not in prop:
        types = json_types(prop, defs)
        if len(types) == 1:
            prop = {"type": types.pop(), **prop}
    return prop


@functools.cache
def canonical_schema(
    model: type[BaseModel], mode: Literal["validation", "serialization"]
) -> dict[str, Any]:
    """The model's JSON Schema (draft 2020-12, nested types under `$defs`, root an object)."""
    schema = model.model_json_schema(mode=mode)
    schema.pop("$schema", None)
    if mode == "validation":
        # A request in the form generic clients (the MCP Inspector) fill; `$defs` keep the
        # form they share with the answers.
        properties = schema.get("properties")
        if isinstance(properties, dict):
            defs = schema.get("$defs", {})
            schema["properties"] = {k: _fillable(v, defs) for k, v in properties.items()}
        schema.setdefault("type", "object")
    _type_objects(schema, schema.get("$defs", {}))
    return schema


def schema_ref(
    model: type[BaseModel], mode: Literal["validation", "serialization"]
) -> dict[str, Any]:
    """`{name?, schema}` of a descriptor; `name` is the schema title (the component name)."""
    schema = canonical_schema(model, mode)
    named = {"name": schema["title"]} if "title" in schema else {}
    return {**named, "schema": schema}
