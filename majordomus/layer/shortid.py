"""Short identifiers: `adr-0001`, `I0102`, `rule/project.no-secrets` wherever a URI is taken.

A text that is already a `majordomus://` URI is left alone. Otherwise it names the one object
whose identity, identity before `@`, or `<kind>/<identity>` it is; none leaves the text as
given (the caller's "not found" names it), more than one is refused listing every candidate.
Pure: looks at the index's objects only.
"""

from __future__ import annotations

from majordomus.errors import InvalidInput
from majordomus.layer.model import LayerObject

SCHEME = "majordomus://"


class AmbiguousId(InvalidInput):
    """A short id that more than one object answers to."""


def candidates(objects: list[LayerObject], text: str) -> list[str]:
    """URIs of the objects `text` names, in URI order; exact identities win over stems."""
    exact = [o.uri for o in objects if text in (o.identity, f"{o.kind}/{o.identity}")]
    if exact:
        return exact
    return [
        o.uri
        for o in objects
        if "@" in o.identity
        and text in (o.identity.partition("@")[0], f"{o.kind}/{o.identity.partition('@')[0]}")
    ]


def expand(objects: list[LayerObject], text: str) -> str:
    """The URI `text` stands for (see the module docstring)."""
    if text.startswith(SCHEME):
        return text
    found = candidates(objects, text)
    if len(found) > 1:
        raise AmbiguousId(f"'{text}' names more than one object: {', '.join(found)}")
    return found[0] if found else text
