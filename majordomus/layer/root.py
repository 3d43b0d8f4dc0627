"""Finding the layer root (the nearest ancestor holding `.ai/manifest.yaml`; `.git` is not a
marker) and the fatal errors of locating it. Stat calls only."""

from __future__ import annotations

import os
import stat
from pathlib import Path

from majordomus.errors import MissingArtifact, ProtocolFailure

MANIFEST = ".ai/manifest.yaml"


class RepositoryNotFound(MissingArtifact):
    """No ancestor of the start directory carries `.ai/manifest.yaml` (exit 12)."""


class LegacyLayout(MissingArtifact):
    """A pre-`.ai` `.majordomus/` data directory was found first (exit 12)."""


class LayerIOError(ProtocolFailure):
    """A file the run needs cannot be read, or the start path does not exist (exit 13)."""


def _is_marker(path: Path) -> bool:
    """A regular file, or a symlink in its place: the link makes this the root whose
    manifest read refuses it by name, instead of silently finding a layer further up."""
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def is_legacy(directory: Path) -> bool:
    """A pre-`.ai` data directory (a checkout of the tool itself, with `bin/majordomus`, is not)."""
    data = directory / ".majordomus"
    return data.is_dir() and not (data / "bin" / "majordomus").exists()


def find_root(start: Path | None = None) -> Path:
    """The nearest directory, from `start` upwards, whose `.ai/manifest.yaml` is a file
    (or a symlink, which reading the manifest then refuses)."""
    raw = Path.cwd() if start is None else start
    try:
        origin = raw.resolve(strict=True)  # symlinks resolved; a missing start is an I/O error
    except (OSError, RuntimeError) as exc:
        reason = getattr(exc, "strerror", None) or "cannot be resolved"
        raise LayerIOError(f"cannot use {raw} as the start directory: {reason}") from exc
    for directory in (origin, *origin.parents):
        if _is_marker(directory / MANIFEST):
            return directory
        if is_legacy(directory):
            raise LegacyLayout(
                f"project data lives under {directory / '.majordomus'}, the pre-.ai layout; "
                "run `majordomus migrate` to move it into .ai/"
            )
    raise RepositoryNotFound(
        f"no Majordomus repository found from {origin}: neither it nor any parent directory "
        f"carries {MANIFEST} (run `majordomus init` to create a layer)"
    )
