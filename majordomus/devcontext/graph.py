"""The view of the composed graph the compiler walks, arranged once per compile (`Graph.of`).

Pure: no I/O; the index derives the relations, this module only arranges them."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from majordomus.devcontext.edges import followed
from majordomus.layer.model import Edge, Index, LayerObject

HUB_KIND = "kind"


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
