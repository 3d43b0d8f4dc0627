"""The bases of the plain slotted classes that stand where dataclasses stood (a dataclass
compiles its generated methods when its module is imported, which every process's start pays):
`Value` (equality, hash and repr by named fields), `Ordered` (sorting by them) and `Frozen`
(set once, copied with changes by `replace`).

A subclass names the fields that make it equal in `COMPARED`; the hash, the repr and the order
follow them. A mutable one sets `__hash__ = None`, as a dataclass that is not frozen has no
hash.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, Self


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


def _ordering(compare: Callable[[Any, Any], bool]) -> Callable[[Value, object], bool]:
    """One of `Ordered`'s comparisons: `compare` over both sides' compared fields."""

    def method(self: Value, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        compared = type(self)._compared
        return bool(compare(compared(self), compared(other)))

    return method


class Ordered(Value):
    """Ordered as the tuples of its `COMPARED` fields are, against its own class only (what
    `order=True` gave a dataclass)."""

    __slots__ = ()
    __lt__ = _ordering(operator.lt)
    __le__ = _ordering(operator.le)
    __gt__ = _ordering(operator.gt)
    __ge__ = _ordering(operator.ge)


#: How an `__init__` sets each field once (assigning raises): `set_field(self, "name", value)`,
#: one call a field, as fast as a frozen dataclass's own `__init__`.
set_field = object.__setattr__


class Frozen(Value):
    """A value object set once by its `__init__`, whose parameters are `FIELDS` (slots; a
    slot derived from them, such as a layer object's `uri`, is not one); `COMPARED` are
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

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled and copied as its class and fields, made again by its `__init__` (the
        default would set the slots one by one, which `__setattr__` refuses)."""
        return _made_again, (type(self), tuple(getattr(self, name) for name in self.FIELDS))


def _made_again(cls: type[Frozen], values: tuple[Any, ...]) -> Frozen:
    return cls(**dict(zip(cls.FIELDS, values, strict=True)))
