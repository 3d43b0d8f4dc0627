"""Keeping many frozen pydantic instances small: one shared set of set-field names per shape.

pydantic keeps a `__pydantic_fields_set__` per instance (216 bytes for up to four names,
728 beyond), a large part of a replayed ledger's memory. Instances of one type whose sets
are equal can share one set object as long as nothing adds a name to it, and pydantic adds
one only when a field is assigned: sharing is therefore allowed for frozen models alone
(pydantic refuses the assignment), and `adopt` refuses any other type. `model_copy` copies
the set first. The store's loader is the one user (`majordomus.ledger.store`), on records
and bodies as they are read; adopting each as soon as it is built lets the next one reuse
the memory of the set it dropped. No I/O.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel

#: The slot holding an instance's fields set, read and written below pydantic's own
#: `__setattr__` (which a frozen model refuses), as `object.__setattr__` would.
_FIELDS_SET = BaseModel.__dict__["__pydantic_fields_set__"]
_set_fields = _FIELDS_SET.__set__


class SharedFieldsSets:
    """Per frozen type, the last set seen; an equal set of a later instance is replaced by it."""

    __slots__ = ("_kept",)

    def __init__(self) -> None:
        self._kept: dict[type, set[str]] = {}

    def adopt(self, model: BaseModel) -> None:
        """Share `model`'s fields set with an equal one already seen; a model that is not
        frozen is refused (`TypeError`), since an assignment to it would change every
        instance sharing the set."""
        self.adopt_all((model,))

    def adopt_all(self, models: Iterable[BaseModel]) -> None:
        """`adopt` of each model in turn, in one call: a replay adopts a record, its body
        and their nested values together (a call per instance costs milliseconds at 10k
        records)."""
        known = self._kept
        for model in models:
            fields = model.__pydantic_fields_set__
            shape = model.__class__
            kept = known.get(shape)
            if kept is None:
                if not shape.model_config.get("frozen"):
                    raise TypeError(f"{shape.__name__} is not frozen: its fields set is its own")
                known[shape] = fields
            elif kept != fields:
                known[shape] = fields
            elif kept is not fields:
                _set_fields(model, kept)
