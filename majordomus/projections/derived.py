"""The shape of the many small values a replay derives (a timeline step per record, a view
per assessment, consultation, disagreement or conclusion).

They are pydantic dataclasses, slotted and frozen: serialised and described (JSON schema)
exactly as a `Wire` model with the same fields and docstring, but without a `__dict__` and
a fields set per instance (a step takes 72 bytes instead of ~490, which at 100k records is
the difference between the state fitting beside the records or not). Frozen, so a derived
value shared between answers cannot be changed by one of them.

A replay builds them with `assembled`, not with their validating constructor: every value
is a record's, validated when the record was read, or the derivation's own, of the field's
type already, so a second validation per value (a fifth of the derivation's work) would
change nothing.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import ConfigDict, TypeAdapter

#: `Wire`'s settings: lenient on input, aliases usable by name, validator built on first use.
#: A derived shape subclasses `Derived` and is declared with `pydantic.dataclasses.dataclass`
#: as `@dataclass(slots=True, frozen=True, kw_only=True, config=DERIVED)`, spelt out so type
#: checkers read the constructor; defaults that are lists use `dataclasses.field`, which
#: keeps the fields in their written order (pydantic's `Field` would move them last).
DERIVED = ConfigDict(populate_by_name=True, defer_build=True, extra="ignore")


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

_FIELD_COUNTS: dict[type, int] = {}
_new = object.__new__
_set = object.__setattr__


def assembled(shape: type[D], /, **values: Any) -> D:
    """An instance of the derived `shape` holding `values` as they are, every field given.

    For values that already have their fields' types (see the module's docstring). A field
    missing is refused here (`TypeError`), an unknown one by the slots (`AttributeError`).
    """
    count = _FIELD_COUNTS.get(shape)
    if count is None:
        count = _FIELD_COUNTS[shape] = len(shape.__dataclass_fields__)  # type: ignore[attr-defined]
    if len(values) != count:
        raise TypeError(f"{shape.__name__} takes every one of its {count} fields")
    made = _new(shape)
    for name, value in values.items():
        _set(made, name, value)
    return made
