"""Building the `Index` of a layer, and what the next build reuses of it
(docs/layer.md up to the index; docs/layer-internals.md)."""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from majordomus.layer.coverage import uncovered_sections
from majordomus.layer.discovery import Claimed, GitListings, discover
from majordomus.layer.freshness import stat_key
from majordomus.layer.git import GitError, PendingGitState, git_dir
from majordomus.layer.kinds import load_kinds
from majordomus.layer.manifest import read_manifest
from majordomus.layer.model import Discovery, Index, LayerDiagnostic, Manifest, SourceClass
from majordomus.layer.reader import LayerReader, Stamp
from majordomus.layer.reading import Kept, drop_duplicates, read_files
from majordomus.layer.relations import Relations, derive_relations
from majordomus.layer.root import LayerIOError, find_root
from majordomus.layer.sources import read_sources
from majordomus.safefs import Tree, Unsafe

log = logging.getLogger(__name__)


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


#: A `vcs` discovery (its files and findings) and the stamp of the git index it listed.
IndexedDiscovery = tuple[Stamp, list[Claimed], list[LayerDiagnostic]]


@dataclass(frozen=True, slots=True)
class Snapshot:
    """What a build keeps so the next re-reads only what changed (docs/layer-internals.md)."""

    layer: Layer
    mcp_tools: dict[str, str] | None
    files: dict[str, Kept]
    relations: Relations
    discovered: IndexedDiscovery | None


@dataclass(frozen=True, slots=True)
class Built:
    """An index and what the next build may reuse of it."""

    index: Index
    snapshot: Snapshot


def build(
    root: Path | None = None,
    discovery: Discovery = "vcs",
    *,
    mcp_tools: Mapping[str, str] | None = None,
    previous: Snapshot | None = None,
    moved: Collection[str] = (),
    status_now: bool = True,
) -> Built:
    """The index of the layer found from `root`, and its snapshot; `mcp_tools` maps MCP tool
    names to capability ids (None: none known). With `vcs` discovery an unusable git is fatal
    (exit 13). Given an earlier snapshot and `moved`, the index a build from scratch answers,
    re-reading only what changed (docs/layer-internals.md)."""
    layer = open_layer(root)
    tools = None if mcp_tools is None else dict(mcp_tools)
    if previous is not None and (previous.layer != layer or previous.mcp_tools != tools):
        previous = None
    kinds = load_kinds()
    # `git status` works while the files are read; a re-index reads few: asked when read
    pending = PendingGitState(layer.root, status_now=status_now and previous is None)
    # the listings run while git's quick answers are awaited
    stamp, discovered, listings = _start_discovery(layer, discovery, previous)
    if discovery == "vcs" and not pending.result().available:
        if listings is not None:
            listings.close()
        raise GitError(
            f"git is not usable at {layer.root}: {pending.result().reason}; "
            "use --discovery filesystem to read the work tree instead"
        )
    try:  # the root's open directories for this build
        tree = Tree(layer.root)
    except Unsafe as exc:
        raise LayerIOError(f"cannot read the repository: {exc.message}") from None
    with tree:
        if discovered is None:
            found, findings = discover(layer.manifest, layer.sources, tree, listings)
            discovered = None if stamp is None else (stamp, found, findings)
        else:
            _, found, findings = discovered
        diagnostics = [*findings, *uncovered_sections(layer.manifest, layer.sources, tree)]
        reader = LayerReader(tree, layer.manifest, kinds)
        earlier = {} if previous is None else previous.files
        done = read_files(found, earlier, moved, reader, diagnostics)
    git = pending.result()
    diagnostics.extend(done.unnamed)
    objects, duplicates = drop_duplicates(done.objects, done.excluded)
    diagnostics.extend(duplicates)
    if previous is not None and done.same:
        relations = previous.relations
    else:
        relations = derive_relations(objects, mcp_tools, done.excluded)
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
        excluded=done.excluded,
    )
    for one in diagnostics:  # at debug: by default only the summary line is shown
        where = one.path or "-"
        extra = {"code": one.code, "source_path": where}
        log.debug("%s %s %s %s", one.severity, one.code, where, one.message, extra=extra)
    # one line with the counts: a warning naming the command that lists them, if any
    warnings = sum(1 for d in diagnostics if d.severity == "warning")
    hint = "; `majordomus lint` lists them" if diagnostics else ""
    log.log(
        logging.WARNING if diagnostics else logging.INFO,
        "index built objects=%d diagnostics=%d errors=%d warnings=%d state=%s%s",
        len(objects),
        len(diagnostics),
        index.error_count,
        warnings,
        index.state,
        hint,
        extra={"objects": len(objects), "diagnostics": len(diagnostics), "state": index.state},
    )
    return Built(index, Snapshot(layer, tools, done.files, relations, discovered))


def _start_discovery(
    layer: Layer, discovery: Discovery, previous: Snapshot | None
) -> tuple[Stamp | None, IndexedDiscovery | None, GitListings | None]:
    """The git index's stamp (`vcs`), the earlier discovery while it holds, else the listings."""
    if discovery != "vcs":
        return None, None, None
    # the git index is stated before anything is listed, so a write after it is seen next time
    folder = git_dir(layer.root)
    stamp = None if folder is None else stat_key(str(folder / "index"))
    discovered = None if previous is None else previous.discovered
    if discovered is not None and discovered[0] == stamp:
        return stamp, discovered, None
    return stamp, None, GitListings(layer.root, layer.sources)


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
