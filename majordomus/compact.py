"""Keeping many pydantic instances small: one shared set of set-field names per shape.

pydantic keeps a `__pydantic_fields_set__` per instance (216 bytes for up to four names,
728 beyond), which is a third of a replayed ledger's memory and of the state derived from
it. Instances of one type whose sets are equal can share one set object: the product only
reads it (`model_fields_set`; `model_copy` copies it first) and never assigns to a record,
a body or a derived view after building it. Adopting each instance as soon as it is built
lets the next one reuse the memory of the set it dropped. No I/O.
"""

from __future__ import annotations

from pydantic import BaseModel


class SharedFieldsSets:
    """Per type, the last set seen; an equal set of a later instance is replaced by it."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[type, set[str]] = {}

    def adopt(self, model: BaseModel) -> None:
        fields = model.__pydantic_fields_set__
        kept = self._kept.get(type(model))
        if kept is None or kept != fields:
            self._kept[type(model)] = fields
        elif kept is not fields:
            object.__setattr__(model, "__pydantic_fields_set__", kept)
