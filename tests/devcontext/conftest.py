"""The planned repository `fixtures/layers/planned`, indexed, on a clean `master` at `HEAD`."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from majordomus.devcontext.model import CompiledContext, ContextEntry
from majordomus.layer.git import GitState
from majordomus.layer.index import build
from majordomus.layer.model import Index
from tests.layer.support import write

PLANNED = Path(__file__).resolve().parents[2] / "fixtures" / "layers" / "planned"
LEDGERLY = PLANNED.parent / "ledgerly"
HEAD = "0123456789abcdef0123456789abcdef01234567"
MASTER = GitState(
    state="available", toplevel=None, head=HEAD, branch="master", working_tree="clean"
)


def planned_index(root: Path = PLANNED) -> Index:
    """The layer at `root` read from the work tree, git reported as `MASTER`."""
    return replace(build(root, "filesystem").index, git=MASTER)


def entry(compiled: CompiledContext, uri: str) -> ContextEntry:
    """The one selected entry of `uri`."""
    [found] = [e for e in compiled.selected if e.uri == uri]
    return found


@pytest.fixture(scope="session")
def planned() -> Index:
    return planned_index()


@pytest.fixture(scope="session")
def ledgerly() -> Index:
    """The hand-written layer that resembles a real one, git reported as `MASTER`."""
    return planned_index(LEDGERLY)


@pytest.fixture
def planned_copy(tmp_path: Path) -> Callable[[dict[str, str]], Path]:
    """Factory: a copy of the planned fixture with `files` (path → text) added or replaced."""

    def make(files: dict[str, str]) -> Path:
        root = tmp_path / "planned"
        shutil.copytree(PLANNED, root, dirs_exist_ok=True)
        for rel, text in files.items():
            write(root, rel, text)
        return root

    return make
