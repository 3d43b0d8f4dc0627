"""A large answer written while it is serialised: `dumps_model_pretty_bytes(model)` in parts.

Written whole, the `--format json` of a large answer (`reasoning status` over 100k records
is 33 MB) holds the text, pydantic-core's growing buffer and the egress filter's decoded
copies at once, more than the replayed records themselves. `pretty_parts` serialises the
model with each long list replaced by a marker (the skeleton), then every long list in
batches. Each whole JSON value (the skeleton, a batch as an array) passes `clean` (the
egress filter) before it is cut and indented into place, so the filter still sees JSON it
can parse and re-write. Joined, the parts are byte for byte the cleaned whole text:
docs/RELIABILITY.md says why no secret shape can span two items of a list, which is the one
place where cleaning in parts could differ from cleaning the whole.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import Any

from pydantic import BaseModel, TypeAdapter

from majordomus.json_parts import BATCH, LONG, MARKER, indent_at, spliced_items
from majordomus.wire import _fast, _indented, dumps_model_pretty_bytes

__all__ = ["BATCH", "LONG", "pretty_parts"]


_ADAPTERS: dict[Any, TypeAdapter[Any]] = {}


def _serializer(annotation: Any) -> TypeAdapter[Any]:
    """The serializer of a list field's declared type: what the model's own serializer uses
    for it (enums and omitted fields handled in Rust, not guessed value by value)."""
    found = _ADAPTERS.get(annotation)
    if found is None:
        found = _ADAPTERS[annotation] = TypeAdapter(annotation)
    return found


def _hollow(model: BaseModel, long: list[tuple[list[Any], TypeAdapter[Any]]]) -> BaseModel:
    """`model` with every long list (its own, and its nested models') replaced by a marker
    naming its place in `long`; the model itself is left as it is. A list whose field or
    model has a serializer of its own (or constraints) stays: its items might not be written
    as their type alone writes them."""
    update: dict[str, Any] = {}
    decorators = type(model).__pydantic_decorators__
    if decorators.model_serializers:
        return model
    for name, info in type(model).model_fields.items():
        value = getattr(model, name)
        if (
            isinstance(value, list)
            and len(value) > LONG
            and not info.metadata
            and not info.exclude
            and not any(name in d.info.fields for d in decorators.field_serializers.values())
        ):
            update[name] = [MARKER.format(len(long))]
            long.append((value, _serializer(info.annotation)))
        elif isinstance(value, BaseModel):
            hollow = _hollow(value, long)
            if hollow is not value:
                update[name] = hollow
    return model.model_copy(update=update) if update else model


def _pretty_items(items: list[Any], adapter: TypeAdapter[Any]) -> bytes:
    """`json.dumps(items, indent=2)`'s bytes, by pydantic-core where they agree."""
    fast = _fast(lambda: adapter.dump_json(items, indent=2, by_alias=True))
    if fast is not None:
        return fast
    return _indented(adapter.dump_python(items, mode="json", by_alias=True)).encode("utf-8")


def _pretty_hollow(hollow: BaseModel) -> bytes:
    """`dumps_model_pretty_bytes` of a hollowed model: its markers are not of their lists'
    item type, which is what the serializer's warnings would say."""
    serializer = type(hollow).__pydantic_serializer__
    fast = _fast(lambda: serializer.to_json(hollow, indent=2, by_alias=True, warnings=False))
    if fast is not None:
        return fast
    value = hollow.model_dump(mode="json", by_alias=True, warnings=False)
    return _indented(value).encode("utf-8")


def pretty_parts(model: BaseModel, clean: Callable[[bytes], bytes]) -> Iterator[bytes]:
    """`clean(dumps_model_pretty_bytes(model))` in parts (see the module's docstring)."""
    long: list[tuple[list[Any], TypeAdapter[Any]]] = []
    hollow = _hollow(model, long)
    if not long:
        yield clean(dumps_model_pretty_bytes(model))
        return
    text = clean(_pretty_hollow(hollow))
    quoted = [json.dumps(MARKER.format(i)).encode("ascii") for i in range(len(long))]
    if any(text.count(marker) != 1 for marker in quoted):
        # some value spells a marker: the whole text at once instead
        yield clean(dumps_model_pretty_bytes(model))
        return
    at = 0
    for (items, adapter), marker in zip(long, quoted, strict=True):
        where = text.index(marker, at)
        yield text[at:where]
        batches = (
            _pretty_items(items[start : start + BATCH], adapter)
            for start in range(0, len(items), BATCH)
        )
        yield from spliced_items(batches, indent_at(text, where), clean)
        at = where + len(marker)
    yield text[at:]
