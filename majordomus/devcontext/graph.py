"""The view of the composed graph the compiler walks, arranged once per compile (`Graph.of`),
and how the walk treats each edge kind: data, one row per kind (`data/edges.json`,
docs/devcontext.md). The index derives the relations; this module only arranges them."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache, cached_property

from majordomus.layer.model import Edge, Index, LayerObject
from majordomus.shipped import shipped_text

HUB_KIND = "kind"


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


@dataclass(frozen=True, slots=True)
class Node:
    """One node: an object, a kind hub or an external name."""

    id: str
    kind: str
    label: str
    source: str | None = None
    status: str | None = None
    obj: LayerObject | None = None


class Graph:
    """Nodes by id, the sorted edge list, and adjacency over the edge kinds the walk follows."""

    def __init__(self, nodes: dict[str, Node], edges: list[Edge]) -> None:
        self.nodes = nodes
        self.edges = edges
        self.out: dict[str, list[tuple[str, str]]] = {}
        self.into: dict[str, list[tuple[str, str]]] = {}

    @classmethod
    def of(cls, index: Index) -> Graph:
        """The graph of `index`: its objects, kind hubs and external names, and their edges."""
        nodes: dict[str, Node] = {}
        for obj in index.objects:
            status = obj.metadata.get("status")
            nodes[obj.uri] = Node(
                obj.uri,
                obj.kind,
                obj.identity,
                obj.provenance.path,
                status if isinstance(status, str) else None,
                obj,
            )
        for kind in index.kinds:
            hub = f"{HUB_KIND}:{kind}"
            nodes.setdefault(hub, Node(hub, HUB_KIND, kind))
        for ext in index.external.values():
            nodes.setdefault(ext.id, Node(ext.id, ext.kind, ext.label, ext.source))
        edges = sorted(e for e in index.edges if e.source in nodes and e.target in nodes)
        graph = cls(nodes, edges)
        for edge in edges:
            if followed(edge.kind) is not None:
                graph.out.setdefault(edge.source, []).append((edge.target, edge.kind))
                graph.into.setdefault(edge.target, []).append((edge.source, edge.kind))
        return graph

    @cached_property
    def supersedes(self) -> dict[str, list[str]]:
        """Later decision → the earlier ones it stands in for, in edge order."""
        out: dict[str, list[str]] = {}
        for edge in self.edges:
            if edge.kind == "supersedes":
                out.setdefault(edge.source, []).append(edge.target)
        return out
