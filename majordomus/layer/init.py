"""`majordomus init [PATH]`: writing a new layer from the shipped skeleton (layer §9.4).

Owns the skeleton (package data `skeleton/ai/**`, written to `<root>/.ai/**`), the local
half's directories and the `.ai/local/` line of `.gitignore` (README decision 6). Never
overwrites: an existing `.ai/` (or a pre-`.ai` `.majordomus/` directory) is refused before
anything is written, and every file is created exclusively. Runs no git command.
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from majordomus.errors import ProtocolFailure
from majordomus.layer.root import is_legacy

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


def skeleton_files() -> list[tuple[str, Traversable]]:
    """(path under the root, resource) of every skeleton file, in path order."""
    found: list[tuple[str, Traversable]] = []
    stack: list[tuple[str, Traversable]] = [
        (".ai", resources.files("majordomus.layer") / "skeleton" / "ai")
    ]
    while stack:
        prefix, folder = stack.pop()
        for entry in folder.iterdir():
            rel = f"{prefix}/{entry.name}"
            if entry.is_dir():
                if entry.name != "__pycache__":
                    stack.append((rel, entry))
            else:
                found.append((rel, entry))
    return sorted(found, key=lambda item: item[0])


def _refuse_existing(root: Path) -> None:
    if not root.is_dir():
        raise InitRefused(f"cannot initialise {root}: it is not a directory")
    layer = root / ".ai"
    if layer.exists() or layer.is_symlink():
        raise InitRefused(
            f"{layer} already exists; majordomus init never overwrites a layer "
            "(edit it, or remove it first)"
        )
    if is_legacy(root):
        raise InitRefused(
            f"project data lives under {root / '.majordomus'}, the pre-.ai layout; run "
            "`majordomus migrate` instead of init"
        )


def _ignore_local(root: Path) -> bool:
    """Append `.ai/local/` to `.gitignore` unless present; True when the file changed."""
    path = root / ".gitignore"
    try:
        current = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        current = ""
    if any(line.strip() in _IGNORE_FORMS for line in current.split("\n")):
        return False
    separator = "" if not current or current.endswith("\n") else "\n"
    with path.open("a", encoding="utf-8") as handle:
        handle.write(f"{separator}{LOCAL_IGNORE}\n")
    return True


def init_layer(target: Path | None = None) -> list[str]:
    """Write the skeleton layer into `target` (default: cwd); the created paths, root-relative.

    Directories created empty on purpose are listed with a trailing `/`; `.gitignore` is
    listed when it was created or extended.
    """
    root = Path.cwd() if target is None else target
    _refuse_existing(root)
    created: list[str] = []
    try:
        for rel, resource in skeleton_files():
            dest = root / rel
            dest.parent.mkdir(parents=True, exist_ok=True)
            with dest.open("xb") as handle:
                handle.write(resource.read_bytes())
            created.append(rel)
        for rel in EMPTY_DIRECTORIES:
            (root / rel).mkdir(parents=True, exist_ok=True)
            created.append(rel + "/")
        if _ignore_local(root):
            created.append(".gitignore")
    except OSError as exc:
        raise InitRefused(f"cannot write the layer into {root}: {exc.strerror or exc}") from exc
    return created
