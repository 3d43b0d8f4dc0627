"""Building the `Index` of a layer (docs/layer.md up to the index).

Owns the start-up sequence up to a built index: root, manifest, sources, kind schema, git
state, enumeration, reading (`majordomus.layer.reading`: the files, `unnamable_object`,
`duplicate_identity` and the URI order), relations, and the log lines (each diagnostic at
debug, one summary line with the counts); and what a re-index reuses of the build before
it (`Snapshot`: each file's read, the vcs listing, the objects, the relations).
Fatal problems raise `majordomus.errors.Fatal` subclasses; everything else becomes a
diagnostic. Reads the layer and asks git; never writes. Logs through the `majordomus`
logger only; handlers are the CLI's business.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from majordomus.layer.coverage import uncovered_sections
from majordomus.layer.discovery import (
    Listed,
    Listings,
    discover,
    discover_again,
    discover_listed,
    listing_again,
)
from majordomus.layer.freshness import git_dir
from majordomus.layer.git import GitError, Listing, PendingGitState
from majordomus.layer.kinds import load_kinds
from majordomus.layer.manifest import read_manifest
from majordomus.layer.model import (
    Diagnostic,
    Discovery,
    Index,
    LayerObject,
    Manifest,
    SourceClass,
)
from majordomus.layer.reader import LayerReader, Stamp
from majordomus.layer.reading import Kept, Same, forerunner, read_files, sorted_unique
from majordomus.layer.relations import ExcludedObject, Relations, derive_relations
from majordomus.layer.root import LayerIOError, find_root
from majordomus.layer.sources import read_sources
from majordomus.logger import log
from majordomus.safefs import Tree, Unsafe


class Layer(NamedTuple):
    """A located layer: its root, typed manifest and declared source classes."""

    root: Path
    manifest: Manifest
    sources: list[SourceClass]


def open_layer(start: Path | None = None) -> Layer:
    """Find the root from `start` (default: cwd) and read its manifest and sources."""
    root = find_root(start)
    log.info("repository found root=%s", root, extra={"root": str(root)})
    manifest = read_manifest(root)
    return Layer(root=root, manifest=manifest, sources=read_sources(root, manifest))


def _tree(root: Path) -> Tree:
    """The root's open directories for one build; a root that cannot be opened is an I/O
    error."""
    try:
        return Tree(root)
    except Unsafe as exc:
        raise LayerIOError(f"cannot read the repository: {exc.message}") from None


def _log_diagnostic(diagnostic: Diagnostic) -> None:
    """One diagnostic, at debug: by default only the summary line of the build is shown."""
    where = diagnostic.path or "-"
    log.debug(
        "%s %s %s %s",
        diagnostic.severity,
        diagnostic.code,
        where,
        diagnostic.message,
        extra={"code": diagnostic.code, "source_path": where},
    )


def _log_summary(index: Index) -> None:
    """One line with the counts: a warning when there is any diagnostic, naming the command
    that lists them, else an info line."""
    diagnostics = index.diagnostics
    errors = index.error_count
    warnings = sum(1 for d in diagnostics if d.severity == "warning")
    hint = "; `majordomus lint` lists them" if diagnostics else ""
    log.log(
        logging.WARNING if diagnostics else logging.INFO,
        "index built objects=%d diagnostics=%d errors=%d warnings=%d state=%s%s",
        len(index.objects),
        len(diagnostics),
        errors,
        warnings,
        index.state,
        hint,
        extra={
            "objects": len(index.objects),
            "diagnostics": len(diagnostics),
            "state": index.state,
        },
    )


class Snapshot:
    """What a build keeps so that the next one re-reads only what changed.

    `files` holds every file read, by path; `relations` the derivation over the objects,
    which holds as long as no object changes what relations read (`_relational`).
    `listed`: the `vcs` discovery and the stamp of the git index it was listed from (the
    same git index lists the same files: git replaces the file on every write); `objects`:
    the index's objects (URI order), and `unique`: whether no URI was claimed twice;
    `noted`: the places in `files` of the files that are not plain (`Reading.noted`).
    A plain slotted class, as `Built` is: only read, never compared, and a dataclass costs
    every process's start the compile of the methods it writes.
    """

    __slots__ = (
        "files",
        "layer",
        "listed",
        "mcp_tools",
        "noted",
        "objects",
        "relations",
        "unique",
    )

    def __init__(
        self,
        layer: Layer,
        mcp_tools: dict[str, str] | None,
        files: dict[str, Kept],
        relations: Relations,
        listed: tuple[Stamp, Listed] | None = None,
        objects: list[LayerObject] | None = None,
        unique: bool = False,
        noted: list[int] | None = None,
    ) -> None:
        self.layer = layer
        self.mcp_tools = mcp_tools
        self.files = files
        self.relations = relations
        self.listed = listed
        self.objects: list[LayerObject] = [] if objects is None else objects
        self.unique = unique
        self.noted: list[int] = [] if noted is None else noted


class Built:
    """An index and what the next build may reuse of it; `read_now`: the paths this build
    read, new or again (None: it kept nothing, every file was read), which are all a
    re-index's watch must look at again (`majordomus.layer.freshness.Watch`)."""

    __slots__ = ("index", "read_now", "snapshot")

    def __init__(self, index: Index, snapshot: Snapshot, read_now: list[str] | None = None) -> None:
        self.index = index
        self.snapshot = snapshot
        self.read_now = read_now


def build_index(
    root: Path | None = None,
    discovery: Discovery = "vcs",
    *,
    mcp_tools: Mapping[str, str] | None = None,
) -> Index:
    """The index of the layer found from `root` (docs/layer.md up to the index).

    `mcp_tools` maps MCP tool names to capability ids for the use-case `mcp_tools` edge;
    None means none is known. With `vcs` discovery an unusable git is fatal (exit 13).
    """
    return build(root, discovery, mcp_tools=mcp_tools).index


def build(
    root: Path | None = None,
    discovery: Discovery = "vcs",
    *,
    mcp_tools: Mapping[str, str] | None = None,
    reuse: Snapshot | None = None,
    moved: Collection[str] = (),
    status_now: bool = True,
) -> Built:
    """`build_index`, and its snapshot; given the snapshot of an earlier build, a file is
    read again only when it is new, its class or git index entry changed, its path is in
    `moved` or it was excluded, else its earlier read is kept. With `moved` naming every
    file changed on disk since that build (`majordomus.layer.freshness.Watch.moved`), the
    index is the one a build from scratch answers.

    A build from scratch starts `git status` beside the reading, unless `status_now` is
    false: then, as in a re-index, it runs only when the working tree is first asked for.
    """
    return _build(root, discovery, mcp_tools, reuse, moved, status_now)


def _build(
    root: Path | None,
    discovery: Discovery,
    mcp_tools: Mapping[str, str] | None,
    reuse: Snapshot | None,
    moved: Collection[str],
    status_now: bool,
) -> Built:
    layer = open_layer(root)
    tools = None if mcp_tools is None else dict(mcp_tools)
    if reuse is not None and (reuse.layer != layer or reuse.mcp_tools != tools):
        reuse = None
    kept = {} if reuse is None else reuse.files
    kinds = load_kinds()
    # `git status` works while the files are read; a re-index reads few: asked when read
    pending = PendingGitState(layer.root, status_now=status_now and reuse is None)
    # the listings run while git's quick answers are awaited
    started = _start_listing(layer, discovery, None if reuse is None else reuse.listed)
    # a large layer's reading worker starts while the files are listed
    early = None if started is None or reuse is not None else forerunner(layer.root, started.index)
    try:
        if discovery == "vcs" and not pending.available:
            if started is not None:
                started.close()
            raise GitError(
                f"git is not usable at {layer.root}: {pending.reason}; "
                "use --discovery filesystem to read the work tree instead"
            )
        with _tree(layer.root) as tree:
            listing = None if started is None else started.listing(layer, tree)
            same_files = None
            if listing is None:
                found, diagnostics = discover(
                    layer.root, layer.manifest, layer.sources, discovery, tree
                )
            else:
                listed = listing[1]
                found, diagnostics = listed.files, list(listed.findings)
                if reuse is not None and listed.since is not None:
                    same_files = Same(listed.since, listed.at(), reuse.noted)
            diagnostics.extend(uncovered_sections(layer.manifest, layer.sources, tree))
            reader = LayerReader(root=layer.root, manifest=layer.manifest, kinds=kinds, tree=tree)
            done = read_files(found, kept, moved, reader, diagnostics, early, same_files)
    finally:
        if early is not None:
            early.stop()
    same = reuse is not None and done.same and len(done.files) == len(kept)
    git = pending.result()
    diagnostics.extend(done.unnamed)
    excluded = done.excluded
    objects, duplicates = sorted_unique(done, reuse)
    diagnostics.extend(duplicates)
    if duplicates:
        kept_ids = {id(obj) for obj in objects}
        excluded.extend(
            ExcludedObject(obj.kind, obj.identity, obj.provenance.path, "duplicate_identity")
            for obj in done.objects()
            if id(obj) not in kept_ids
        )
    if same and reuse is not None:
        relations = reuse.relations
    else:
        relations = derive_relations(objects, mcp_tools, excluded)
    diagnostics.extend(relations.diagnostics)
    index = Index(
        root=layer.root,
        manifest=layer.manifest,
        sources=layer.sources,
        discovery=discovery,
        git=git,
        objects=objects,
        diagnostics=diagnostics,
        edges=relations.edges,
        external=relations.external,
        unresolved=relations.unresolved,
    )
    for diagnostic in diagnostics:
        _log_diagnostic(diagnostic)
    _log_summary(index)
    snapshot = Snapshot(
        layer, tools, done.files, relations, listing, objects, not duplicates, done.noted
    )
    return Built(index, snapshot, done.read_now)


class _Started:
    """The `vcs` discovery of a build, started before git's other answers are awaited.

    `index`: the git index's path; `stamp`: its stamp before anything was listed;
    `before`: the discovery of the build before, which stands while the git index is the
    same file (`running` None), else is listed again (`running`, a `discover_again`
    listing); without one, `running` holds a first discovery's listings.
    """

    __slots__ = ("before", "index", "running", "stamp")

    def __init__(
        self,
        index: Path,
        stamp: Stamp,
        before: Listed | None,
        running: Listings | Listing | None,
    ):
        self.index = index
        self.stamp = stamp
        self.before = before
        self.running = running

    def listing(self, layer: Layer, tree: Tree) -> tuple[Stamp, Listed]:
        """The discovery and the stamp of the git index it was listed from."""
        running = self.running
        if isinstance(running, Listings):
            listed = discover_listed(
                layer.root, layer.manifest, layer.sources, "vcs", tree, listings=running
            )
        else:
            assert self.before is not None
            listed = self.before
            if running is None:
                listed = listed._replace(places=listed.at(), since=[])
            else:
                listed = discover_again(layer.root, layer.manifest, layer.sources, listed, running)
        return self.stamp, listed

    def close(self) -> None:
        """End the listings when the build stops before reading them."""
        if self.running is not None:
            self.running.close()


def _start_listing(
    layer: Layer, discovery: Discovery, before: tuple[Stamp, Listed] | None
) -> _Started | None:
    """The `vcs` discovery started (None in `filesystem` mode, or without a git index): the
    one before while the git index is the same file, else listed again (`discover_again`
    reuses what still holds)."""
    if discovery != "vcs":
        return None
    folder = git_dir(layer.root)
    if folder is None:
        return None
    index = folder / "index"
    stamp = _stamp_of(index)
    if stamp is None:
        return None
    if before is None:
        return _Started(index, stamp, None, Listings(layer.root, layer.sources))
    if before[0] == stamp:
        return _Started(index, stamp, before[1], None)
    return _Started(index, stamp, before[1], listing_again(layer.root, layer.sources))


def _stamp_of(index: Path) -> Stamp | None:
    """The stamp of the git index at `index`, None when there is none."""
    try:
        info = os.stat(index)
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_ctime_ns, info.st_size, info.st_ino)


def repository_json(index: Index) -> dict[str, Any]:
    """The `repository` member of docs/layer.md (sections by name, classes in declared order)."""
    manifest = index.manifest
    return {
        "root": str(index.root),
        "layer_schema": manifest.schema,
        "sections": {name: ".ai/" + manifest.sections[name] for name in sorted(manifest.sections)},
        "git": index.git.to_json(),
        "discovery": index.discovery,
        "source_classes": [[source.id, source.kind] for source in index.sources],
    }
