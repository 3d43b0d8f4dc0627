"""The shape of the many small values a replay derives (a timeline step per record, a view
per assessment, consultation, disagreement or conclusion).

They are pydantic dataclasses, slotted and frozen: serialised and described (JSON schema)
exactly as a `Wire` model with the same fields and docstring, but without a `__dict__` and
a fields set per instance (a step takes 72 bytes instead of ~490, which at 100k records is
the difference between the state fitting beside the records or not). Frozen, so a derived
value shared between answers cannot be changed by one of them.

A replay builds them with an `assembler`, not with their validating constructor: every value
is a record's, validated when the record was read, or the derivation's own, of the field's
type already, so a second validation per value (a fifth of the derivation's work) would
change nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from functools import partial
from operator import attrgetter, is_, not_
from typing import Any, TypeVar

from pydantic import ConfigDict, Field, TypeAdapter

#: `Wire`'s settings: lenient on input, aliases usable by name, validator built on first use.
#: A derived shape subclasses `Derived` and is declared with `pydantic.dataclasses.dataclass`
#: as `@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)`, spelt out so type
#: checkers read the constructor; defaults that are lists use `dataclasses.field`, which
#: keeps the fields in their written order (pydantic's `Field` would move them last).
DERIVED = ConfigDict(populate_by_name=True, defer_build=True, extra="ignore")


#: `wire.OMIT` for the derived fields, whose values are of their declared type (see the
#: module's docstring): a field that may be None is left out when it is None, a list field
#: when it is empty. The tests are C callables, where `OMIT`'s is a Python function that
#: pydantic calls for every such field of every value written (~11k calls at 10k records).
OMIT_NONE = Field(exclude_if=partial(is_, None))
OMIT_EMPTY = Field(exclude_if=not_)


class DerivedEnum(StrEnum):
    """The base of a derived value's enum (a step's phase, an assessment's standing): `value`
    read by C alone. pydantic-core reads `.value` of every member it writes, which `enum`'s
    own property answers with two Python calls (10k phases in a status at 10k records)."""


# set after the class: in its body, type checkers would read the property as a member
setattr(DerivedEnum, "value", property(attrgetter("_value_")))  # noqa: B010


class Derived:
    """The base of a derived shape: `wire()` as a `Wire` model has it."""

    __slots__ = ()

    def wire(self) -> Any:
        """The JSON-ready value (aliases applied, omitted fields dropped)."""
        return _adapter(type(self)).dump_python(self, mode="json", by_alias=True)


_ADAPTERS: dict[type, TypeAdapter[Any]] = {}


def _adapter(cls: type) -> TypeAdapter[Any]:
    found = _ADAPTERS.get(cls)
    if found is None:
        found = _ADAPTERS[cls] = TypeAdapter(cls)
    return found


D = TypeVar("D", bound=Derived)

_new = object.__new__


def assembler(shape: type[D]) -> Callable[..., D]:
    """A maker of instances of the derived `shape` from every field's value, positionally in
    the order the fields are declared, held as they are (see the module's docstring).

    Each field is set through its slot's own setter, one C call, in a loop over the values:
    a keyword call would build a dictionary per value, which at 10k records costs a replay
    milliseconds. A field missing or one too many is refused (`TypeError`)."""
    setters = tuple(shape.__dict__[name].__set__ for name in shape.__dataclass_fields__)  # type: ignore[attr-defined]
    count = len(setters)

    def make(*values: Any) -> D:
        if len(values) != count:
            raise TypeError(f"{shape.__name__} takes every one of its {count} fields")
        made = _new(shape)
        for setter, value in zip(setters, values):  # noqa: B905  # lengths checked above
            setter(made, value)
        return made

    return make
