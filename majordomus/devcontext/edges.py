"""How the walk treats each edge kind of the composed graph: data, one row per kind
(`data/edges.json`, docs/devcontext.md).

The index derives the edges; this module only says how to follow them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache

from majordomus.shipped import shipped_text


@dataclass(frozen=True, slots=True)
class EdgeKind:
    """How one edge kind is followed: the weight of a step along it (`forward`) and against
    it (`reverse`) and the reason each gives; `refusal` set means it never is."""

    means: str
    forward: float | None = None
    reverse: float | None = None
    forward_reason: str = ""
    reverse_reason: str = ""
    refusal: str | None = None

    @property
    def followed(self) -> bool:
        return self.refusal is None


UNRULED = "the graph declares it and the compiler has no rule for it; it is not followed"


@cache
def edge_kinds() -> dict[str, EdgeKind]:
    """The shipped table of edge kinds, read once per process."""
    text = shipped_text("devcontext", "data", "edges.json")
    return {kind: EdgeKind(**row) for kind, row in json.loads(text).items()}


def followed(kind: str) -> EdgeKind | None:
    """The rule for an edge kind the walk follows, or None when it is refused or unknown."""
    rule = edge_kinds().get(kind)
    return rule if rule is not None and rule.followed else None
