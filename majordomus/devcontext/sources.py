"""What a compile reads: the index, and two injected readers of what the index does not hold."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any

from majordomus.devcontext.continuity import disk_size, local_state
from majordomus.devcontext.graph import Graph
from majordomus.layer.model import Index

if TYPE_CHECKING:
    from majordomus.layer.ranking import Ranking

ContinuityProvider = Callable[[], Mapping[str, Any] | None]
SizeOf = Callable[[str], int | None]


@dataclass(frozen=True)
class CompileSources:
    """The index, its checkout's local records and on-disk sizes, and the ranking of its
    objects when the caller keeps one (otherwise it is built from the index when asked for)."""

    index: Index
    continuity: ContinuityProvider | None = None
    size_of: SizeOf = lambda _path: None
    ranking: Ranking | None = None

    @classmethod
    def for_checkout(cls, index: Index, ranking: Ranking | None = None) -> CompileSources:
        """The index with the readers of the checkout it was built from."""
        return cls(
            index,
            local_state(index.root, index.manifest.local_path),
            disk_size(index.root),
            ranking,
        )

    @cached_property
    def graph(self) -> Graph:
        """The graph of the index, arranged on first use by this compile."""
        return Graph.of(self.index)


def sources_of(ctx: Any) -> CompileSources:
    """`ctx` as compile reads it: a bare `Index` with no readers, a holder of one with its own."""
    if isinstance(ctx, CompileSources):
        return ctx
    if isinstance(ctx, Index):
        return CompileSources(ctx)
    index = getattr(ctx, "index", None)
    if isinstance(index, Index):
        return CompileSources.for_checkout(index, getattr(ctx, "ranking", None))
    raise TypeError(f"compile needs an Index or a context holding one, not {type(ctx).__name__}")
