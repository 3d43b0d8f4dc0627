"""What several tests build alike: a manifest of the usual shape, a file below a root."""

from __future__ import annotations

from pathlib import Path

from majordomus.layer.model import Manifest


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
