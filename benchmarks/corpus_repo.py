"""A throw-away git repository holding a copy of the shared corpus, its ADRs indexed.

The corpus (/work/shared/corpus/prismatic-layer, a real upstream `.ai/` layer) is not part
of this repository and is never copied into it: `corpus_repository` copies it into a
temporary directory at run time, adds an `adr` source class to its `sources.yaml` (the
corpus declares none, so its ADRs would not be objects), git-ignores `.ai/local/`, makes
it a fresh git repository and commits everything. Nothing here imports the product: only
the `majordomus` executable is run, so these helpers keep working whatever its modules
become. Used by benchmarks/token_bill.py and benchmarks/recall.py.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

#: The shared corpus; absent on machines that do not have it (the scripts then skip).
CORPUS = Path("/work/shared/corpus/prismatic-layer")

#: The `majordomus` installed next to this interpreter (the virtual environment's own).
MAJORDOMUS = shutil.which("majordomus", path=str(Path(sys.executable).parent)) or "majordomus"

#: The class `majordomus init` writes for ADRs (majordomus/layer/skeleton/.../sources.yaml).
ADR_CLASS = """
  - id: adr
    kind: adr
    discovery: vcs
    pathspec: ':(glob).ai/repo/adrs/????-*.md'
    required: false
"""

SOURCES = Path(".ai/repo/knowledge/sources.yaml")
ADRS = Path(".ai/repo/adrs")
COMMIT_DATE = "2026-09-01T00:00:00+00:00"


def skip_unless_present(corpus: Path, script: str, as_json: bool) -> None:
    """Exit 0 with one clear line when the corpus is absent."""
    if (corpus / ".ai").is_dir():
        return
    reason = f"the corpus {corpus} is absent (no .ai/ there); nothing was measured"
    if as_json:
        print(json.dumps({"skipped": reason}))
    print(f"{script}: skipped: {reason}", file=sys.stderr)
    raise SystemExit(0)


def git_environment() -> dict[str, str]:
    """Git without the user's or the system's configuration, with a fixed identity."""
    env = dict(os.environ)
    env.update(
        {
            "GIT_CONFIG_GLOBAL": os.devnull,
            "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "benchmark",
            "GIT_AUTHOR_EMAIL": "benchmark@example.invalid",
            "GIT_COMMITTER_NAME": "benchmark",
            "GIT_COMMITTER_EMAIL": "benchmark@example.invalid",
            "GIT_AUTHOR_DATE": COMMIT_DATE,
            "GIT_COMMITTER_DATE": COMMIT_DATE,
        }
    )
    return env


def majordomus_environment() -> dict[str, str]:
    """What every measured `majordomus` process gets: warnings only, no CI mode switch."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAJORDOMUS_")}
    env.pop("CI", None)
    env["MAJORDOMUS_LOG"] = "warn"
    return env


def _writable(root: Path) -> None:
    """The corpus is read-only; its copy must take the class, the ledger and `.git`."""
    for path in (root, *root.rglob("*")):
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | stat.S_IWUSR)


def _add_adr_class(root: Path) -> None:
    sources = root / SOURCES
    text = sources.read_text(encoding="utf-8")
    if "kind: adr" in text:
        return
    if not text.endswith("\n"):
        text += "\n"
    # `sources:` is the file's last key, so the class appends to its list.
    sources.write_text(text + ADR_CLASS, encoding="utf-8")


def _git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(root), *args],
        env=git_environment(),
        check=True,
        stdout=subprocess.DEVNULL,
    )


@contextmanager
def corpus_repository(corpus: Path = CORPUS, keep: Path | None = None) -> Iterator[Path]:
    """The corpus copied into a fresh, committed git repository with an `adr` class;
    removed afterwards unless `keep` names where to put it (it must not exist yet)."""
    parent = Path(tempfile.mkdtemp(prefix="mj-corpus-")) if keep is None else keep.parent
    root = parent / "prismatic-layer" if keep is None else keep
    try:
        shutil.copytree(corpus, root, symlinks=True)
        _writable(root)
        _add_adr_class(root)
        ignore = root / ".gitignore"
        previous = ignore.read_text(encoding="utf-8") if ignore.exists() else ""
        ignore.write_text(previous + ".ai/local/\n", encoding="utf-8")
        _git(root, "init", "-q", "-b", "main")
        _git(root, "add", "-A")
        _git(root, "commit", "-q", "-m", "A copy of the shared corpus, its ADRs indexed")
        yield root
    finally:
        if keep is None:
            shutil.rmtree(parent, ignore_errors=True)


@dataclass(frozen=True)
class AdrCheck:
    """How many ADR files the copy holds and how many became `adr` objects."""

    files: int
    indexed: int
    state: str

    def line(self) -> str:
        missing = self.files - self.indexed
        why = f"; {missing} file(s) not an adr object" if missing else ""
        return f"ADRs indexed: {self.indexed} of {self.files} files (layer {self.state}){why}"


def check_adrs(majordomus: str, root: Path) -> AdrCheck:
    """Ask `majordomus lint --format json` how many `adr` objects the layer has (it exits
    10 on the corpus, whose layer is degraded by a few files of its own)."""
    files = len(list((root / ADRS).glob("[0-9][0-9][0-9][0-9]-*.md")))
    done = subprocess.run(
        [majordomus, "lint", "--format", "json"],
        cwd=root,
        env=majordomus_environment(),
        capture_output=True,
        text=True,
    )
    indexed, state = 0, "unknown"
    try:
        report = json.loads(done.stdout)
        indexed = int(report.get("kinds", {}).get("adr", 0))
        state = str(report.get("state", "unknown"))
    except (ValueError, AttributeError, TypeError):
        state = f"lint exit {done.returncode}, output not JSON"
    return AdrCheck(files=files, indexed=indexed, state=state)
