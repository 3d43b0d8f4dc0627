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
        try:
            mode = os.lstat(directory / MANIFEST).st_mode
        except OSError:
            mode = 0
        # a symlink counts: reading it refuses it by name, where finding a layer further up
        # would be silent
        if stat.S_ISREG(mode) or stat.S_ISLNK(mode):
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
