"""Candidates: one per identifier; later offers merge into it (structural de-duplication). Pure."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any

from majordomus.devcontext.graph import Node
from majordomus.devcontext.model import Route, Tier
from majordomus.devcontext.relevance import number
from majordomus.layer.model import LayerObject


class Band(IntEnum):
    """How close a way in is to the work (docs/devcontext.md, "Bands"); closer is funded first."""

    WORK = 0
    MILESTONE = 1
    REST = 2
    OTHER_WORK = 3


FACT_KEYS = (
    "class",
    "status",
    "priority",
    "milestone",
    "profile",
    "date",
    "version",
    "updated_at",
    "branch",
    "head",
    "task_id",
)
LIST_FACT_KEYS = ("tags", "scope")
VERSION_KEYS = ("updated_at", "version", "date", "created_at")


def scalar_text(value: Any) -> str | None:
    """A scalar metadata value as text (`true`, `1`, `0.5`, the string); None otherwise."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return number(value)
    if isinstance(value, str):
        return value
    return None


def scalar_facts(metadata: Mapping[str, Any], keys: Iterable[str]) -> dict[str, str]:
    """The scalar values of `keys` as text; the others are left out."""
    return {key: text for key in keys if (text := scalar_text(metadata.get(key))) is not None}


def facts_of(obj: LayerObject) -> dict[str, str]:
    """The few scalar facts worth carrying (class, status, milestone, …); never prose."""
    facts = scalar_facts(obj.metadata, FACT_KEYS)
    for key in LIST_FACT_KEYS:
        value = obj.metadata.get(key)
        if isinstance(value, list):
            items = [t for t in (scalar_text(v) for v in value) if t is not None]
            facts[key] = ", ".join(items)
    return facts


def version_of(obj: LayerObject) -> str | None:
    """The version or date the object states about itself, first of the usual fields."""
    texts = (scalar_text(obj.metadata.get(key)) for key in VERSION_KEYS)
    return next((text for text in texts if text is not None), None)


@dataclass(slots=True)
class Candidate:
    """One identifier some selector reached, with every way it was reached."""

    uri: str
    kind: str
    title: str | None
    tier: Tier
    relevance: float
    depth: int
    discovered_by: list[Route]
    obj: LayerObject | None = None
    path: str | None = None
    status: str | None = None
    facts: dict[str, str] = field(default_factory=dict)
    band: Band = Band.REST
    binding: bool = False

    @classmethod
    def of(
        cls, node: Node, tier: Tier, relevance: float, way: Route, band: Band, binding: bool
    ) -> Candidate:
        """The candidate of a node of the graph, first reached by `way`."""
        obj = node.obj
        if obj is None:
            found = cls(node.id, node.kind, node.label, tier, relevance, way.depth, [way])
            found.path, found.status = node.source, node.status
        else:
            found = cls(obj.uri, obj.kind, obj.title, tier, relevance, way.depth, [way], obj)
            found.path, found.facts = obj.provenance.path, facts_of(obj)
            found.status = scalar_text(obj.metadata.get("status"))
        found.band, found.binding = band, binding
        return found

    def merge(self, relevance: float, tier: Tier, way: Route, band: Band, binding: bool) -> None:
        """Another way in: the best of each measure is kept, and each distinct way once."""
        self.relevance = max(self.relevance, relevance)
        self.depth = min(self.depth, way.depth)
        self.tier = min(self.tier, tier)
        self.band = min(self.band, band)
        self.binding = self.binding or binding
        for i, known in enumerate(self.discovered_by):
            if (known.selector, known.edge, known.reason) == (way.selector, way.edge, way.reason):
                if (way.depth, -way.weight) < (known.depth, -known.weight):
                    self.discovered_by[i] = way  # shallower, or as deep and heavier
                return
        self.discovered_by.append(way)
