"""Which decisions, knowledge and rules lie over a declared scope (docs/devcontext.md).

Read from each object's own front matter. Pure: no I/O."""

from __future__ import annotations

from majordomus.devcontext.inputs import escapes, is_under
from majordomus.layer.model import LayerObject
from majordomus.layer.relations import strings_in

#: Kinds matched against a scope through the paths they refer to.
REFERRING_KINDS = ("adr", "knowledge")
#: Front-matter fields of a rule that name the paths it governs.
RULE_PATH_FIELDS = ("applies_to", "scope")
_PATH_PREFIXES = ("file:", "test:")


def _clean(path: str) -> str | None:
    """A repository-relative path without a trailing glob or slash; None when it is not one."""
    path = path.strip()
    for tail in ("/**", "/*"):
        if path.endswith(tail):
            path = path[: -len(tail)]
    path = path.rstrip("/")
    while path.startswith("./"):
        path = path[2:]
    if not path or escapes(path) or "*" in path:
        return None
    return path


def referenced_paths(obj: LayerObject) -> list[str]:
    """The `file:`/`test:` references and `tracks` of an object, in byte order, once each."""
    found: set[str] = set()
    for text in strings_in(obj.metadata):
        for prefix in _PATH_PREFIXES:
            if text.startswith(prefix) and (path := _clean(text[len(prefix) :])) is not None:
                found.add(path)
    for text in strings_in(obj.metadata.get("tracks")):
        if (path := _clean(text)) is not None:
            found.add(path)
    return sorted(found)


def governed_paths(obj: LayerObject) -> list[str]:
    """The paths a rule declares it applies to (`applies_to`, or `scope` as a list)."""
    found: set[str] = set()
    for key in RULE_PATH_FIELDS:
        value = obj.metadata.get(key)
        if key == "scope" and not isinstance(value, list):
            continue
        for text in strings_in(value):
            if (path := _clean(text)) is not None:
                found.add(path)
    return sorted(found)


def overlapping(paths: list[str], scope: str) -> list[str]:
    """The paths that lie under `scope` or contain it."""
    return [p for p in paths if is_under(scope, p) or is_under(p, scope)]
