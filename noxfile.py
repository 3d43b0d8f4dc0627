"""The test suite on every supported Python this machine has, and the lint checks.

`nox` (what the README's test command and `.ci/run` run) runs `lint` and one `tests-3.X`
session per supported minor version. A version the machine does not have is skipped, not
failed, so a fresh machine with a single `python3` still passes; the Python running nox is
always one of the sessions, so the suite never silently runs nowhere. Interpreters come from
PATH and, because a pyenv shim for a version that is installed but not selected fails when
run, from pyenv's install folders too. Nothing is downloaded but packages through pip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import nox

SUPPORTED = ("3.11", "3.12", "3.13")
RUNNING = f"{sys.version_info.major}.{sys.version_info.minor}"
VERSIONS = tuple(sorted({*SUPPORTED, RUNNING}, key=lambda v: tuple(map(int, v.split(".")))))

nox.options.error_on_missing_interpreters = False  # CI=true would otherwise fail on one
nox.options.download_python = "never"


def _version_of(executable: str) -> str | None:
    """The `X.Y` an interpreter reports when run, or None when it does not run (a pyenv shim
    for an unselected version exits with an error)."""
    try:
        done = subprocess.run(
            [executable, "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
            capture_output=True,
            text=True,
            timeout=30,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def _pyenv_candidates(version: str) -> list[str]:
    """pyenv's installs of `version`, newest patch release first."""
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    found = [p for p in root.glob(f"{version}.*/bin/python{version}") if p.is_file()]
    return [str(p) for p in sorted(found, key=lambda p: _patch(p.parent.parent.name))[::-1]]


def _patch(name: str) -> int:
    last = name.rsplit(".", 1)[-1]
    return int(last) if last.isdigit() else -1


def interpreter(version: str) -> str:
    """An interpreter that runs and is `version`, as a path; else `version` itself, which nox
    then looks for on its own (the Windows registry, other version managers) or skips."""
    if version == RUNNING:
        return sys.executable
    on_path = shutil.which(f"python{version}")
    for candidate in [*([on_path] if on_path else []), *_pyenv_candidates(version)]:
        if _version_of(candidate) == version:
            return candidate
    return version


@nox.session
def lint(session: nox.Session) -> None:
    """ruff, mypy and the layering contract (pyproject.toml), as every commit must pass them."""
    session.install("-q", "-e", ".[lint]")
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")
    session.run("mypy", "majordomus")
    session.run("lint-imports")


def tests(session: nox.Session) -> None:
    """The whole suite, two workers."""
    session.install("-q", "-e", ".[test]")
    session.run("python", "-m", "pytest", "-q", "-n", "2", *session.posargs)


for _version in VERSIONS:
    nox.session(name=f"tests-{_version}", python=interpreter(_version), tags=["tests"])(tests)
