"""Fixtures for the reliability suite: an initialised repository with one "installed" advisor,
and the environment its processes run with; `MAJORDOMUS_SOAK=1` turns on the long variants."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import GIT_ENV, initialised_repo
from tests.conftest import REVIEWER_CATALOGUE as CATALOGUE

SOAK = os.environ.get("MAJORDOMUS_SOAK") == "1"


def soak(normal: int, long: int) -> int:
    """`long` under `MAJORDOMUS_SOAK=1`, else `normal`."""
    return long if SOAK else normal


@pytest.fixture(scope="session")
def advisor_bin(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the catalogue advisor's executable, so a plan can select it."""
    directory = tmp_path_factory.mktemp("bin")
    tool = directory / "fake-reviewer"
    tool.write_text("#!/bin/sh\n", encoding="utf-8")
    tool.chmod(tool.stat().st_mode | stat.S_IXUSR)
    return directory


@pytest.fixture(scope="session")
def suite_env(advisor_bin: Path) -> dict[str, str]:
    """What a subprocess of this suite gets on top of `run_majordomus`'s clean environment,
    and what an in-process `Context` gets as its whole environment."""
    return {
        **GIT_ENV,
        "PATH": f"{advisor_bin}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": os.environ.get("HOME", "/"),
        # Writers racing on a loaded 2-core machine wait their turn; never refused as busy.
        "MAJORDOMUS_LEDGER_LOCK_WAIT": "600",
    }


@pytest.fixture(scope="session")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One `majordomus init` + catalogue + commit per run; tests work on copies."""
    root = tmp_path_factory.mktemp("template") / "repo"
    return initialised_repo(root, {".ai/repo/advisors.yaml": CATALOGUE})


@pytest.fixture
def fresh_repo(template: Path, tmp_path: Path) -> Callable[[str], Path]:
    """Factory: a private copy of the template (its `.git` included) under `tmp_path/name`."""

    def copy(name: str = "repo") -> Path:
        target = tmp_path / name
        shutil.copytree(template, target, symlinks=True)
        return target

    return copy


@pytest.fixture
def repo(fresh_repo: Callable[[str], Path]) -> Path:
    return fresh_repo("repo")
