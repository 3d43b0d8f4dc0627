"""The key paths an allow-list admits, spelled for people: `tags[]`, `evidence[].covers`
(docs/layer-internals.md)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import product

from majordomus.layer.allow import AllowList

LIST_SUFFIX = r"(\.[0-9]+)?"
_INDEX = r"\.[0-9]+"
_NAME = r"[A-Za-z_][A-Za-z0-9_-]*"
_GROUP = re.compile(r"\(([^()?]+)\)")


@dataclass(frozen=True, slots=True)
class Key:
    """One admitted key: its dotted path with `[]` for list items, and whether the key holds
    a list of scalars (`tags[]`)."""

    path: str
    is_list: bool

    @property
    def display(self) -> str:
        return self.path + "[]" if self.is_list else self.path

    @property
    def parts(self) -> list[str]:
        """Path segments; `[]` marks a list of mappings (`evidence[].covers`)."""
        return self.path.replace("[].", ".[].").split(".")


def _expand(pattern: str) -> list[Key]:
    body = pattern.removeprefix("^").removesuffix("$")
    is_list = body.endswith(LIST_SUFFIX)
    body = body.removesuffix(LIST_SUFFIX)
    body = body.replace(_INDEX, "[]").replace(_NAME, "<name>").replace("\\.", ".")
    groups = _GROUP.findall(body)
    template = _GROUP.sub("{}", body)
    if any(ch in template for ch in "()|\\?*+^$") or "[" in template.replace("[]", ""):
        raise ValueError(f"allow-list pattern {pattern!r} has a shape the reference cannot read")
    return [
        Key(template.format(*choice).replace(".[]", "[]"), is_list)
        for choice in product(*(group.split("|") for group in groups))
    ]


def admitted_keys(allow: AllowList) -> list[Key]:
    """Every key the list admits, in list order; a key that is both a scalar list and the
    parent of mapping items (`evidence[]`, `evidence[].covers`) is kept once, as a list."""
    seen: dict[str, Key] = {}
    for pattern in allow.patterns:
        for key in _expand(pattern):
            seen.setdefault(key.path, key)
    return list(seen.values())
