"""What several tests build alike: a manifest of the usual shape, a file below a root, a
discovery."""

from __future__ import annotations

from pathlib import Path

from majordomus.layer.discovery import Claimed, GitListings, discover
from majordomus.layer.model import Discovery, LayerDiagnostic, Manifest, SourceClass
from majordomus.safefs import Tree


def manifest(**sections: str) -> Manifest:
    """A v1 manifest with the layer's halves where a fresh layer has them, and `sections`."""
    return Manifest(
        schema="ai-repository/v1",
        local_path="local",
        sections=sections,
    )


def write(root: Path, rel: str, data: str | bytes = b"") -> Path:
    """Write `data` (text as UTF-8) at `root/rel`, making the directories on the way."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data.encode() if isinstance(data, str) else data)
    return path


def discovered(
    root: Path, manifest: Manifest, classes: list[SourceClass], mode: Discovery
) -> tuple[list[Claimed], list[LayerDiagnostic]]:
    """`discover` as a build runs it: listed by git (`vcs`), else walked."""
    with Tree(root) as tree:
        return discover(
            manifest, classes, tree, GitListings(root, classes) if mode == "vcs" else None
        )
