"""Short identifiers: `adr-0001`, `I0102`, `rule/project.no-secrets` wherever a URI is taken
(docs/layer-internals.md). Pure."""

from __future__ import annotations

from majordomus.errors import InvalidInput
from majordomus.layer.model import ExcludedObject, Index, LayerObject
from majordomus.layer.uris import SCHEME, candidates, object_uri


class AmbiguousId(InvalidInput):
    """A short id that more than one object answers to."""


def expand(objects: list[LayerObject], text: str) -> str:
    """The URI `text` stands for (see the module docstring); exact identities win over stems."""
    if text.startswith(SCHEME):
        return text
    found = [o.uri for o in objects if text in (o.identity, f"{o.kind}/{o.identity}")] or [
        o.uri
        for o in objects
        if "@" in o.identity
        and text in (o.identity.partition("@")[0], f"{o.kind}/{o.identity.partition('@')[0]}")
    ]
    if len(found) > 1:
        raise AmbiguousId(f"'{text}' names more than one object: {', '.join(found)}")
    return found[0] if found else text


def _names(item: ExcludedObject, text: str) -> bool:
    stem = item.identity.partition("@")[0]
    if text.startswith(SCHEME):
        uris = {object_uri(item.kind, item.identity), object_uri(item.kind, stem)}
        return not uris.isdisjoint(candidates(text))
    return text in (item.identity, stem, f"{item.kind}/{item.identity}", f"{item.kind}/{stem}")


def why_absent(index: Index, text: str, unknown: str, kind: str | None = None) -> str:
    """What a lookup of `text` that names no object answers: the excluded file that holds it,
    or `unknown`, then (for any kind) the manifest sections no class reads."""
    for item in index.excluded:
        if (kind is None or item.kind == kind) and _names(item, text):
            found = next(
                (d for d in index.diagnostics if d.path == item.path and d.severity == "error"),
                None,
            )
            why = f"{item.code} {found.message}" if found else item.code
            return f"{item.path} is in the layer but excluded: {why}; `majordomus lint` lists it"
    unread = [d.path for d in index.diagnostics if d.code == "section_not_indexed" and d.path]
    if unread and kind is None:
        return (
            f"{unknown}; no class of sources.yaml reads {', '.join(unread)}: `majordomus lint` "
            "prints the lines that would"
        )
    return unknown
