"""`compile_context`: a request and an index in, the compiled context out.

Owns the order of the stages (resolve, select, spend) and what compile reads besides the
index: an optional continuity provider and a size function for the few candidates the
index does not hold. Pure given those two: no clock, no randomness, and the same index and
request give an equal answer.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from majordomus.devcontext.budget import spend
from majordomus.devcontext.bundle import frame_reserve, render
from majordomus.devcontext.graph import Graph
from majordomus.devcontext.inputs import resolve
from majordomus.devcontext.select import ContinuityProvider, SizeOf, select
from majordomus.devcontext.shapes import CompiledContext as PlainCompiled
from majordomus.devcontext.shapes import GitContext, Request, wire_json
from majordomus.layer.model import Index

if TYPE_CHECKING:
    from majordomus.devcontext.model import CompiledContext, CompileInput
    from majordomus.layer.sqlite_index import SqliteIndex


def _no_size(_path: str) -> int | None:
    return None


class CompileSources:
    """The sources a compile reads: the index, and two injected readers of what it does not hold.

    A bare `Index` passed to `compile_context` is read as `CompileSources(index)`: no local
    records and no sizes for graph-only names. `for_checkout` wires the readers of a real checkout.
    Never changed once made.
    """

    __slots__ = ("continuity", "index", "size_of", "sqlite")

    def __init__(
        self,
        index: Index,
        continuity: ContinuityProvider | None = None,
        size_of: SizeOf = _no_size,
        sqlite: SqliteIndex | None = None,
    ) -> None:
        self.index = index
        self.continuity = continuity
        self.size_of = size_of
        self.sqlite = sqlite

    @classmethod
    def for_checkout(cls, index: Index, sqlite: SqliteIndex | None = None) -> CompileSources:
        """The index with this checkout's local records and on-disk sizes (and the SQLite
        copy that narrows the intent's candidates, when the caller has one)."""
        from majordomus.devcontext.continuity import disk_size, local_state

        return cls(
            index,
            local_state(index.root, index.manifest.local_path),
            disk_size(index.root),
            sqlite,
        )

    @property
    def graph(self) -> Graph:
        return Graph.of(self.index)


def sources_of(ctx: Any) -> CompileSources:
    """What `ctx` lets compile read.

    A `CompileSources` as is; a bare `Index` with no readers (pure); anything else carrying an
    `index` (the capability `Context`, a checkout) with the readers of that checkout.
    """
    if isinstance(ctx, CompileSources):
        return ctx
    if isinstance(ctx, Index):
        return CompileSources(ctx)
    index = getattr(ctx, "index", None)
    if isinstance(index, Index):
        return CompileSources.for_checkout(index, getattr(ctx, "sqlite", None))
    raise TypeError(f"compile needs an Index or a context holding one, not {type(ctx).__name__}")


def compile_context(ctx: Any, request: CompileInput | None = None) -> CompiledContext:
    """The context a session should be given for `request`, under one token budget: the
    plain answer (`compile_plain`) validated into the wire model."""
    from majordomus.devcontext.model import CompiledContext, CompileInput

    given = request if request is not None else CompileInput()
    return CompiledContext.model_validate(wire_json(compile_plain(ctx, given)))


def compile_plain(ctx: Any, given: CompileInput | Request) -> PlainCompiled:
    """The compiled context as plain data (`majordomus.devcontext.shapes`): what
    `compile_context` answers, without a pydantic model on the way."""
    source = sources_of(ctx)
    index = source.index
    wanted = resolve(index, given)
    selection = select(source, wanted)
    spent = spend(
        selection.candidates.by_uri,
        object_seeds=set(wanted.object_seeds),
        supersedes=source.graph.supersedes,
        limit=wanted.limit,
        floor=wanted.floor,
        unresolved=selection.unresolved,
        unreached=selection.unreached,
        diagnostics=selection.diagnostics,
        size_of=source.size_of,
        frame=frame_reserve(wanted.seeds, wanted.limit) if given.bundle else None,
    )
    git = index.git
    if git.available:
        git_context = GitContext(
            branch=git.branch, head=git.head, working_tree=git.working_tree, commits=spent.commits
        )
    else:
        git_context = GitContext(
            working_tree=f"unavailable: {git.reason or ''}", commits=spent.commits
        )
    compiled = PlainCompiled(
        fingerprint=index.fingerprint,
        git=git_context,
        seeds=wanted.seeds,
        selected=spent.selected,
        excluded=spent.excluded,
        deduplicated=spent.deduplicated,
        conflicts=spent.conflicts,
        budget=spent.budget,
        diagnostics=spent.diagnostics,
    )
    if given.bundle:
        compiled.bundle = render(compiled, index)
    return compiled
