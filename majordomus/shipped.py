"""The files shipped inside the package (the kind schema, allow-lists, glossary, edge table,
advisor catalogue, `init`'s skeleton, the synthetic data): read from the installed package,
never from a repository, so they take none of safefs's guards. Every such read is here."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).parent


def shipped(*parts: str) -> Path:
    """Where a shipped file or folder is, by its parts under the package (`"layer", "data"`)."""
    return PACKAGE.joinpath(*parts)


def shipped_text(*parts: str) -> str:
    """A shipped file's text (UTF-8)."""
    return shipped(*parts).read_text(encoding="utf-8")


def shipped_bytes(*parts: str) -> bytes:
    """A shipped file's bytes, as they are written out (`init`'s skeleton)."""
    return shipped(*parts).read_bytes()
