"""Sections no source class reads: the `section_not_indexed` finding.

A manifest section names a place in the layer; only the classes of `sources.yaml` decide what
is read. A section that holds files but whose path no class pathspec reaches is therefore
silently not indexed; this module turns that silence into a warning naming the section and
where classes are documented. A section that is absent, empty or holds only its `README.md`
loses nothing and is not reported; nor is the `knowledge` section, which holds `sources.yaml`
itself (never an object). Lists at most one directory per section; opens no file.
"""

from __future__ import annotations

from majordomus.layer.model import Diagnostic, Manifest, SourceClass
from majordomus.layer.sources import GLOB_MAGIC
from majordomus.safefs import Tree, Unsafe

REFERENCE_PAGE = "docs/generated/layer.md"
BOOTSTRAP_SECTION = "knowledge"


def _reach(pathspec: str) -> tuple[str, bool]:
    """The literal directories of a `:(glob)` pathspec before its first wildcard segment, and
    whether it can go deeper than one level below them (a `**` or a wildcard directory)."""
    segments = pathspec.removeprefix(GLOB_MAGIC).split("/")
    for at, segment in enumerate(segments):
        if "*" in segment or "?" in segment:
            deep = segment == "**" or at < len(segments) - 1
            return "/".join(segments[:at]), deep
    return "/".join(segments), False


def _reaches(pathspec: str, section: str) -> bool:
    """Whether `pathspec` can match the section's path or a path inside it."""
    prefix, deep = _reach(pathspec)
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


def uncovered_sections(
    manifest: Manifest, sources: list[SourceClass], tree: Tree
) -> list[Diagnostic]:
    """One `section_not_indexed` warning per section (name order) that holds files no class
    reaches."""
    findings: list[Diagnostic] = []
    for name in sorted(manifest.sections):
        if name == BOOTSTRAP_SECTION:
            continue
        path = manifest.section_path(name)
        if any(_reaches(source.pathspec, path) for source in sources):
            continue
        if not _holds_files(tree, path):
            continue
        findings.append(
            Diagnostic(
                "warning",
                "section_not_indexed",
                f"section '{name}' ({path}) has no source class in sources.yaml, so none of "
                f"its files is indexed; declare a class for it (see {REFERENCE_PAGE})",
                path,
            )
        )
    return findings
