"""Sections no source class reads: the `section_not_indexed` finding (docs/layer-internals.md)."""

from __future__ import annotations

import dataclasses
import functools

from majordomus.layer.init import SKELETON
from majordomus.layer.manifest import parse_manifest
from majordomus.layer.model import Index, LayerDiagnostic, Manifest, SourceClass
from majordomus.layer.sources import GLOB_MAGIC, parse_sources
from majordomus.safefs import Tree, Unsafe
from majordomus.shipped import shipped_text

REFERENCE_PAGE = "docs/generated/layer.md"
BOOTSTRAP_SECTION = "knowledge"


def _reaches(pathspec: str, section: str) -> bool:
    """Whether `pathspec` can match the section's path or a path inside it: from the literal
    directories before its first wildcard segment, one level deeper, or any with a `**` or a
    wildcard directory."""
    segments = pathspec.removeprefix(GLOB_MAGIC).split("/")
    at = next((n for n, part in enumerate(segments) if "*" in part or "?" in part), len(segments))
    prefix = "/".join(segments[:at])
    deep = at < len(segments) and (segments[at] == "**" or at < len(segments) - 1)
    if prefix == section or prefix.startswith(section + "/"):
        return True
    inside = section.startswith(prefix + "/") if prefix else True
    if not inside:
        return False
    rest = section[len(prefix) + 1 :] if prefix else section
    return deep or "/" not in rest


def _holds_files(tree: Tree, path: str) -> bool:
    """Whether the section's path is a file, or a directory with more than a `README.md`."""
    kind = tree.kind(path)
    if kind == "file":
        return True
    if kind != "directory":
        return False
    try:
        return any(name != "README.md" for name, _mode in tree.entries(path))
    except Unsafe:
        return False


def uncovered(manifest: Manifest, sources: list[SourceClass], tree: Tree) -> list[str]:
    """The sections (name order) that hold files no class reaches."""
    return [
        name
        for name in sorted(manifest.sections)
        if name != BOOTSTRAP_SECTION
        and not any(_reaches(s.pathspec, manifest.section_path(name)) for s in sources)
        and _holds_files(tree, manifest.section_path(name))
    ]


@functools.cache
def _skeleton() -> tuple[Manifest, tuple[SourceClass, ...]]:
    """The manifest and classes `init` writes."""
    manifest = parse_manifest(shipped_text(*SKELETON, "manifest.yaml"), "skeleton manifest")
    text = shipped_text(*SKELETON, "repo", "knowledge", "sources.yaml")
    return manifest, tuple(parse_sources(text, "skeleton sources.yaml"))


def proposed(
    manifest: Manifest, sources: list[SourceClass], names: list[str], kind: str | None = None
) -> list[SourceClass]:
    """The classes `init` declares for the sections `names` (only those of `kind`, given
    one), at this manifest's paths, each id made unique among `sources`."""
    skeleton, classes = _skeleton()
    taken = {source.id for source in sources}
    out: list[SourceClass] = []
    for name in names:
        if name not in skeleton.sections or name not in manifest.sections:
            continue
        old = GLOB_MAGIC + skeleton.section_path(name)
        new = GLOB_MAGIC + manifest.section_path(name)
        for source in classes:
            inside = source.pathspec == old or source.pathspec.startswith(old + "/")
            if not inside or kind not in (None, source.kind):
                continue
            ident, n = source.id, 1
            while ident in taken:
                n += 1
                ident = f"{source.id}-{n}"
            taken.add(ident)
            pathspec = new + source.pathspec[len(old) :]
            out.append(dataclasses.replace(source, id=ident, pathspec=pathspec))
    return out


def proposed_for(manifest: Manifest, sources: list[SourceClass], kind: str) -> list[SourceClass]:
    """The class `init` declares for `kind`, at this manifest's path for its section."""
    return proposed(manifest, sources, sorted(_skeleton()[0].sections), kind)[:1]


def render_classes(classes: list[SourceClass]) -> str:
    """The lines that declare `classes` as items of `sources:` in sources.yaml."""
    return "".join(
        f"  - id: {c.id}\n    kind: {c.kind}\n    discovery: {c.discovery}\n"
        f"    pathspec: '{c.pathspec}'\n    required: {str(c.required).lower()}\n"
        for c in classes
    )


def uncovered_sections(
    manifest: Manifest, sources: list[SourceClass], tree: Tree
) -> list[LayerDiagnostic]:
    """One `section_not_indexed` warning per section (name order) that holds files no class
    reaches, naming the class that would read it."""
    findings: list[LayerDiagnostic] = []
    for name in uncovered(manifest, sources, tree):
        path = manifest.section_path(name)
        fix = "; ".join(
            f"class `{c.id}` ({c.pathspec})" for c in proposed(manifest, sources, [name])
        )
        how = f"declare a class for it (see {REFERENCE_PAGE})"
        if fix:
            how = f"`majordomus init --sources` declares {fix}"
        message = (
            f"section '{name}' ({path}) has no source class in sources.yaml, so none of its "
            f"files is indexed; {how}"
        )
        findings.append(LayerDiagnostic("warning", "section_not_indexed", message, path))
    return findings


def lines_to_add(index: Index) -> str:
    """What `lint` and `mcp --inspect` print for the sections no class reads: where to add
    which lines (empty when there is nothing to add)."""
    paths = {d.path for d in index.diagnostics if d.code == "section_not_indexed"}
    manifest = index.manifest
    names = [name for name in sorted(manifest.sections) if manifest.section_path(name) in paths]
    missing = proposed(manifest, index.sources, names)
    if not missing:
        return ""
    where = f"{manifest.section_path(BOOTSTRAP_SECTION)}/sources.yaml"
    return (
        f"add to {where} under `sources:` (`majordomus init --sources` does):\n"
        + render_classes(missing)
    )
