"""`Value`: equality, hash and repr by named fields, for the plain slotted classes that
stand where dataclasses stood (a dataclass compiles its generated methods when its module is
imported, which every process's start pays).

A subclass names the fields that make it equal in `COMPARED`; the hash and the repr follow
them. A mutable one sets `__hash__ = None`, as a dataclass that is not frozen has no hash.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar


def _no_fields(_: object) -> tuple[()]:
    return ()


class Value:
    """Equal to an instance of its own class with equal `COMPARED` fields."""

    __slots__ = ()
    COMPARED: ClassVar[tuple[str, ...]] = ()
    #: The compared fields read in one call (`operator.attrgetter`), set per subclass.
    _compared: ClassVar[Callable[[Any], Any]] = _no_fields

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if cls.COMPARED:
            cls._compared = attrgetter(*cls.COMPARED)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = type(self)._compared
        return bool(compared(self) == compared(other))

    def __hash__(self) -> int:
        return hash(type(self)._compared(self))

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.COMPARED)
        return f"{type(self).__name__}({shown})"
