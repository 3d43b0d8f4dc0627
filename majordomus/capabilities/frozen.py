"""`Frozen`: the base of the registry's value objects (a capability, its route, its cache
policy, its module, a declaration problem): set once, equal and hashed by their compared
fields, copied with changes by `replace`.

Written out rather than made by `dataclasses`: creating a dataclass at import runs its
generated methods through `exec`, and the registry is imported by every start, the MCP
handshake among them.
"""

from __future__ import annotations

from typing import Any, ClassVar, Self

from majordomus.values import Value

#: How an `__init__` sets each field once (assigning raises): `set_field(self, "name", value)`,
#: one call a field, as fast as a frozen dataclass's own `__init__`.
set_field = object.__setattr__


class Frozen(Value):
    """A value object whose fields are its `__slots__`, in `FIELDS` order; `COMPARED` are
    those equality and the hash look at (all but a back-reference such as `source`)."""

    __slots__ = ()
    FIELDS: ClassVar[tuple[str, ...]] = ()
    COMPARED: ClassVar[tuple[str, ...]] = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot assign {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable: cannot delete {name}")

    def replace(self, **changes: Any) -> Self:
        """A copy with `changes` (field name → new value)."""
        values = {name: getattr(self, name) for name in self.FIELDS}
        values.update(changes)
        return type(self)(**values)
