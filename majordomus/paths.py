"""Repository-relative paths (`/`-separated, as git lists them): which leave the tree, which
lie under which. One rule for discovery, the manifest and the context compiler."""

from __future__ import annotations


def escapes(rel: str) -> bool:
    """Absolute, or with a `..` segment: the path names something outside the tree (split into
    segments only when `..` occurs at all, as a listing of thousands of paths is asked)."""
    return rel.startswith("/") or (".." in rel and ".." in rel.split("/"))


def is_under(under: str, rel: str) -> bool:
    """Segment containment: `lib` holds `lib/x.sh`, not `library/x.sh`."""
    return rel == under or rel.startswith(under + "/")
