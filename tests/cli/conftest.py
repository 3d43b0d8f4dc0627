"""Fixtures of the `reasoning` command tests: the planned layer with a chain, and a runner."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.projections.store_files import STORE, chain


@pytest.fixture
def repo(git_repo: Callable[..., Path]) -> Path:
    root = git_repo("layers/planned")
    chain(root)
    return root


@pytest.fixture
def run(majordomus: Callable[..., Any]) -> Callable[..., Any]:
    """`reasoning ARGS` in `root` with no advisor on PATH."""

    def call(root: Path, *args: str, **env: str) -> Any:
        return majordomus(["reasoning", *args], cwd=root, env={"PATH": "/nonexistent", **env})

    return call


def unreadable_files(root: Path) -> None:
    """Four store files of task `t` that do not parse as a record: empty, foreign, cut, bad."""
    folder = root / STORE / "t"
    (folder / "unparsable.json").write_text("{nope", encoding="utf-8")
    (folder / "truncated.json").write_text('{"schema": "majordomus/reasoning-rec', encoding="utf-8")
    foreign = json.loads((folder / "assessment-1.json").read_text()) | {"schema": "other/thing"}
    (folder / "foreign.json").write_text(json.dumps(foreign), encoding="utf-8")
    (folder / "empty.json").write_bytes(b"")
