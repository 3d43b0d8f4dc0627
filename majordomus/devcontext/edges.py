"""How the walk treats each edge kind of the composed graph: data, one row per kind.

The index derives the edges; this module only says how to follow them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EdgeKind:
    """How one edge kind is followed; `refusal` set means it never is."""

    means: str
    forward: float | None = None
    reverse: float | None = None
    forward_reason: str = ""
    reverse_reason: str = ""
    refusal: str | None = None

    @property
    def followed(self) -> bool:
        return self.refusal is None


_WHOLE_LAYER = (
    "every object of a kind hangs off one node; following it would select the whole layer"
)
_OWN_WIRING = "this executable's own wiring, not the repository being worked on"
UNRULED = "the graph declares it and the compiler has no rule for it; it is not followed"

EDGES: dict[str, EdgeKind] = {
    "belongs_to": EdgeKind(
        "an issue belongs to its milestone",
        0.95,
        0.45,
        "the milestone this work belongs to",
        "another issue of the same milestone",
    ),
    "composes": EdgeKind(
        "a module of this executable composes one of its capabilities", refusal=_OWN_WIRING
    ),
    "defined_in": EdgeKind(
        "a claim is defined in a file",
        0.8,
        0.8,
        "the claim is defined in this file",
        "a claim defined in it",
    ),
    "depends_on": EdgeKind(
        "a rule, issue or milestone depends on another of its kind",
        0.9,
        0.6,
        "it declares a dependency on this",
        "this declares a dependency on it",
    ),
    "evidences": EdgeKind(
        "a use case or milestone stands as evidence for a claim",
        0.6,
        0.6,
        "it is evidence for this claim",
        "what stands as evidence for it",
    ),
    "exercises": EdgeKind(
        "a use case exercises a rule, a doctrine or a capability",
        0.6,
        0.7,
        "the scenario exercises this",
        "a scenario that exercises it",
    ),
    "governed_by": EdgeKind(
        "an application is governed by a rule or a doctrine",
        0.9,
        0.5,
        "it is governed by this",
        "this is governed by it",
    ),
    "implemented_by": EdgeKind(
        "a claim is implemented by a file",
        0.85,
        0.85,
        "the claim is implemented by this",
        "a claim this implements",
    ),
    "is_a": EdgeKind("an object is one of its kind", refusal=_WHOLE_LAYER),
    "names": EdgeKind(
        "an issue or milestone names another object in its text",
        0.9,
        0.5,
        "it names this in its text",
        "it is named in the text of this",
    ),
    "projects": EdgeKind(
        "a capability of this executable is projected onto a surface", refusal=_OWN_WIRING
    ),
    "put_in_force": EdgeKind(
        "a decision puts a rule, a claim, a file or a test in force",
        0.8,
        0.85,
        "the decision put this in force",
        "the decision that put it in force",
    ),
    "related_to": EdgeKind(
        "a skill names another skill as related",
        0.7,
        0.7,
        "it names this as related",
        "it is named as related by this",
    ),
    "runs": EdgeKind(
        "a use case runs a command",
        0.6,
        0.5,
        "the scenario runs this command",
        "a scenario that runs it",
    ),
    "serves": EdgeKind(
        "a use case serves an application",
        0.5,
        0.4,
        "the scenario serves this application",
        "a scenario that serves it",
    ),
    "supersedes": EdgeKind(
        "a decision stands in for an earlier one",
        0.7,
        0.7,
        "it stands in for this",
        "this stands in for it",
    ),
    "tested_by": EdgeKind(
        "a claim is proved by a test case",
        0.85,
        0.85,
        "the claim is proved by this case",
        "a claim this case proves",
    ),
    "tracks": EdgeKind(
        "a contract or another object tracks a file or a directory",
        0.7,
        0.9,
        "the contract tracks this file",
        "the contract that tracks it",
    ),
}


def followed(kind: str) -> EdgeKind | None:
    """The rule for an edge kind the walk follows, or None when it is refused or unknown."""
    rule = EDGES.get(kind)
    return rule if rule is not None and rule.followed else None
