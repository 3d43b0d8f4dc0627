"""What a compile reads: the index, and two injected readers of what the index does not hold
(for a checkout: its local records and on-disk sizes, docs/devcontext.md, "Local records").

The readers read only, through `majordomus.safefs`: never writes, never follows a symlink,
reads each record under a size cap."""

from __future__ import annotations

import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any

from majordomus.devcontext.candidates import scalar_facts
from majordomus.devcontext.graph import Graph
from majordomus.layer.frontmatter import split
from majordomus.layer.model import Index
from majordomus.layer.yaml import parse
from majordomus.paths import escapes
from majordomus.safefs import CONFIG_LIMIT, Tree, Unsafe

if TYPE_CHECKING:
    from majordomus.layer.ranking import Ranking

ContinuityProvider = Callable[[], Mapping[str, Any] | None]
SizeOf = Callable[[str], int | None]

RECORD_FIELDS = (
    "created_at",
    "branch",
    "head",
    "task_id",
    "matched",
    "divergence",
    "next_action",
    "working_tree",
)
FOLDERS = (("handover", "handovers"), ("checkpoint", "checkpoints"))


def disk_size(root: Path) -> Callable[[str], int | None]:
    """A size function over `root`: bytes of a repo-relative path, None when unreadable."""

    def size_of(path: str) -> int | None:
        if not path or escapes(path):
            return None
        try:
            with Tree(root) as tree:
                return tree.lstat(path).st_size
        except Unsafe:
            return None

    return size_of


def _record(tree: Tree, rel: str) -> dict[str, Any]:
    try:
        text = tree.read(rel, CONFIG_LIMIT).decode("utf-8")
    except Unsafe as exc:
        raise ValueError(exc.message) from None
    front, _body = split(text)
    metadata = parse(front) if front is not None else {}
    return {"path": rel, **scalar_facts(metadata, RECORD_FIELDS)}


def newest_record(tree: Tree, folder: str) -> dict[str, Any] | None:
    """The newest regular `*.md` record of one root-relative folder, or None when it holds none."""
    try:
        entries = sorted(tree.entries(folder))
    except Unsafe as exc:
        if exc.code == "missing":
            return None
        raise ValueError(exc.message) from None
    records = [
        _record(tree, f"{folder}/{name}")
        for name, mode in entries
        if name.endswith(".md") and stat.S_ISREG(mode)
    ]
    if not records:
        return None
    return max(records, key=lambda r: (r.get("created_at", ""), r["path"]))


def local_state(root: Path, local_path: str = "local") -> Callable[[], dict[str, Any]]:
    """The continuity provider of the checkout at `root` (reads on every call)."""

    def read() -> dict[str, Any]:
        state = f".ai/{local_path}/state"
        with Tree(root) as tree:
            return {key: newest_record(tree, f"{state}/{folder}") for key, folder in FOLDERS}

    return read


@dataclass(frozen=True)
class CompileSources:
    """The index, its checkout's readers, and its objects' ranking when the caller keeps one."""

    index: Index
    continuity: ContinuityProvider | None = None
    size_of: SizeOf = lambda _path: None
    ranking: Ranking | None = None

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
        return CompileSources(
            index,
            local_state(index.root, index.manifest.local_path),
            disk_size(index.root),
            getattr(ctx, "ranking", None),
        )
    raise TypeError(f"compile needs an Index or a context holding one, not {type(ctx).__name__}")
