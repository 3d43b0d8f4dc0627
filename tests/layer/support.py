"""What several tests build alike: a manifest of the usual shape, and a spy on the
`ls-files` listings discovery starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.layer import discovery as discovery_module
from majordomus.layer.model import Manifest


def manifest(**sections: str) -> Manifest:
    """A v1 manifest with the layer's halves where a fresh layer has them, and `sections`."""
    return Manifest(
        schema="ai-repository/v1",
        repo_path="repo",
        local_path="local",
        local_tracked=False,
        local_implicit_context=False,
        sections=sections,
    )


def listing_calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, ...]]:
    """The pathspecs of each listing discovery starts from now on, in order."""
    calls: list[tuple[str, ...]] = []
    real = discovery_module.Listing

    def counting(root: Path, *pathspecs: str) -> object:
        calls.append(pathspecs)
        return real(root, *pathspecs)

    monkeypatch.setattr(discovery_module, "Listing", counting)
    return calls
