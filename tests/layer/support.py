"""What several tests build alike: a manifest of the usual shape."""

from __future__ import annotations

from majordomus.layer.model import Manifest


def manifest(**sections: str) -> Manifest:
    """A v1 manifest with the layer's halves where a fresh layer has them, and `sections`."""
    return Manifest(
        schema="ai-repository/v1",
        local_path="local",
        sections=sections,
    )
