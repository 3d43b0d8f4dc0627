"""`majordomus init`: writing a layer from the shipped skeleton, or completing an existing one;
never overwrites, never writes through a symlink (docs/layer-internals.md)."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from majordomus import safefs
from majordomus.errors import ProtocolFailure
from majordomus.layer.root import is_legacy

#: Where the skeleton `init` writes as `.ai/` is shipped.
SKELETON = ("layer", "skeleton", "ai")
LOCAL_IGNORE = ".ai/local/"
_IGNORE_FORMS = frozenset({".ai/local/", "/.ai/local/", ".ai/local", "/.ai/local"})
EMPTY_DIRECTORIES = (
    ".ai/repo/project/milestones",
    ".ai/repo/project/issues",
    ".ai/local/state/handovers",
    ".ai/local/state/checkpoints",
)


class InitRefused(ProtocolFailure):
    """`init` will not write here: a layer exists, or the target is not a directory (exit 13)."""


def skeleton_files() -> list[tuple[str, bytes]]:
    """(path under the root, bytes) of every skeleton file, in path order."""
    from majordomus.shipped import shipped, shipped_bytes

    found: list[tuple[str, bytes]] = []
    stack: list[tuple[str, tuple[str, ...]]] = [(".ai", SKELETON)]
    while stack:
        prefix, parts = stack.pop()
        for entry in shipped(*parts).iterdir():
            rel, below = f"{prefix}/{entry.name}", (*parts, entry.name)
            if entry.is_dir():
                if entry.name != "__pycache__":
                    stack.append((rel, below))
            else:
                found.append((rel, shipped_bytes(*below)))
    return sorted(found, key=lambda item: item[0])


def _refuse_existing(root: Path, extend: bool) -> None:
    if not root.is_dir():
        raise InitRefused(f"cannot initialise {root}: it is not a directory")
    layer = root / ".ai"
    if extend and layer.is_symlink():
        raise InitRefused(f"{layer} is a symbolic link; refusing to write through it")
    if not extend and (layer.exists() or layer.is_symlink()):
        raise InitRefused(
            f"{layer} already exists; majordomus init never overwrites a layer "
            "(`majordomus init --extend` adds only the missing skeleton files)"
        )
    if is_legacy(root):
        raise InitRefused(
            f"project data lives under {root / '.majordomus'}, the pre-.ai layout; run "
            "`majordomus migrate` instead of init"
        )
    ignore = root / ".gitignore"
    if ignore.is_symlink():
        raise InitRefused(
            f"{ignore} is a symbolic link; refusing to write through it (init appends "
            f"{LOCAL_IGNORE} to it: replace the link with a file, or add the line yourself)"
        )
    if ignore.exists() and not ignore.is_file():
        raise InitRefused(f"{ignore} is not a regular file; refusing to write into it")


def _ignore_local(root: Path) -> bool:
    """Append `.ai/local/` to `.gitignore` unless present; True when the file changed (the
    line is checked where it is read: `.gitignore` at the root)."""
    try:
        current = safefs.read_file(root, ".gitignore").decode("utf-8", errors="replace")
    except safefs.Unsafe as exc:
        if exc.code != "missing":
            raise
        current = ""
    if any(line.strip() in _IGNORE_FORMS for line in current.split("\n")):
        return False
    separator = "" if not current or current.endswith("\n") else "\n"
    _append(root, ".gitignore", f"{separator}{LOCAL_IGNORE}\n".encode())
    return True


def _append(root: Path, rel: str, data: bytes) -> None:
    fd = safefs.open_root(root)
    try:
        safefs.append(fd, rel, data)
    finally:
        os.close(fd)


def warn_if_tracked(root: Path) -> None:
    """Before the first write under `.ai/local/` (it does not exist yet): when git would track
    what is written there, say so once on stderr with the command that fixes it."""
    from majordomus.layer.git import ignored

    if not safefs.is_directory(root, ".ai/local") and ignored(root, ".ai/local/state") is False:
        logging.getLogger(__name__).warning(
            "%s is not git-ignored: `git add -A` would commit the ledger written there; "
            "`majordomus init --ignore-local` adds it to .gitignore",
            LOCAL_IGNORE,
        )


def _write_new(root: Path, rel: str, data: bytes, *, extend: bool = False) -> bool:
    """Create `rel`; True when written. Extending, an existing file is left as it is."""
    try:
        safefs.write_file(root, rel, data)
    except FileExistsError:
        if not extend:
            raise
        return False
    return True


def _missing_directory(root: Path, rel: str) -> bool:
    try:
        return not safefs.is_directory(root, rel)
    except safefs.Unsafe:
        return True


def _add_classes(root: Path) -> list[str]:
    """Append to `sources.yaml` the classes `init` declares for the sections no class reads;
    refused when the file would not read back as its classes followed by them."""
    from majordomus.layer.coverage import proposed, render_classes, uncovered
    from majordomus.layer.index import open_layer
    from majordomus.layer.sources import parse_sources, sources_path

    layer = open_layer(root)
    with safefs.Tree(root) as tree:
        missing = proposed(
            layer.manifest, layer.sources, uncovered(layer.manifest, layer.sources, tree)
        )
    if not missing:
        return []
    rel = sources_path(root, layer.manifest).relative_to(root).as_posix()
    current = safefs.read_file(root, rel).decode("utf-8")
    block = ("" if current.endswith("\n") else "\n") + render_classes(missing)
    if parse_sources(current + block, rel) != [*layer.sources, *missing]:
        raise InitRefused(
            f"{rel} does not end with its `sources:` list; add these lines to that list: "
            + " ".join(render_classes(missing).split())
        )
    _append(root, rel, block.encode())
    return [f"{rel} (class {c.id})" for c in missing]


def init_layer(
    root: Path, *, extend: bool = False, sources: bool = False, ignore_local: bool = False
) -> list[str]:
    """Write the skeleton layer into `root`; the created paths, root-relative."""
    partial = sources or ignore_local
    _refuse_existing(root, extend or partial)
    created: list[str] = []
    try:
        if not partial:
            for rel, data in skeleton_files():
                if _write_new(root, rel, data, extend=extend):
                    created.append(rel)
            for rel in EMPTY_DIRECTORIES:
                missing = _missing_directory(root, rel)
                os.close(safefs.ensure_dir(root, rel))
                if missing:
                    created.append(rel + "/")
        if (not partial or ignore_local) and _ignore_local(root):
            created.append(".gitignore")
        if (extend and not partial) or sources:
            created.extend(_add_classes(root))
    except safefs.Unsafe as exc:
        raise InitRefused(f"cannot write the layer into {root}: {exc.message}") from None
    except OSError as exc:
        raise InitRefused(f"cannot write the layer into {root}: {exc.strerror or exc}") from exc
    return created
