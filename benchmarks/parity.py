"""Parity harness: every answer of the CLI, MCP and HTTP surfaces, captured as files.

    python benchmarks/parity.py capture --checkout DIR --out OUTDIR [--work WORKDIR]
        [--inputs DIR] [--python PY] [--jobs N]
    python benchmarks/parity.py compare A B

Typical use, the baseline from a worktree of the commit before a change, then the change:

    git worktree add --detach /work/parity-base 0067e56
    python benchmarks/parity.py capture --checkout /work/parity-base --out /work/parity/baseline
    python benchmarks/parity.py capture --checkout . --out /work/parity/candidate
    python benchmarks/parity.py compare /work/parity/baseline /work/parity/candidate

`capture` rebuilds a fixed set of test repositories at fixed paths under WORKDIR/repos
(default /tmp/mj-parity/repos, wiped and rebuilt identically every time, committed with a
fixed author and date, so absolute paths and commit ids in the answers are equal between
runs), then runs the majordomus code of the checkout DIR (`python -m majordomus` with
`PYTHONPATH=DIR`, so any checkout can be measured with the one virtual environment) and
writes every answer into OUTDIR, one file per case: the command line or request, the exit
code or status, stdout and stderr (or the response body), each section with its byte count.
The cases: the command line in text and `--format json` (objects, the repository resource,
capabilities, lint, `mcp --inspect`, devcontext, reasoning, schema, help, version, usage
errors, not found, `--strict` on degraded layers, the shared options in each place, shell
completion, and writes into fresh copies: `init`, `new`, `reasoning record` of a whole
chain, `reasoning task set`), `majordomus mcp` driven over stdio with raw JSON-RPC lines
(one case per request; per session one more with the notifications, stderr and exit code;
the first call of a session in several variants, and a layer changed under a running
server) and `majordomus serve` asked over HTTP (one case per request: status, content type
and body; every GET route of its own /openapi.json, the record POST, guard refusals).
Read-only commands run `--jobs` at a time (default 2); writes run one after another.
`capture.json` in OUTDIR (not compared) has the case counts, the phases' seconds and the
slowest commands. A capture takes about 3 min on a 2-core host under a load of 6-9 from other
work, 5 under 10-12. `compare A B` lists the cases that differ with the first 30 lines of a unified
diff each, and those only in one capture, then a count; it exits 1 when any differ.

The repositories: every fixture layer (`fixtures/layers/*`, each `broken/<code>` with the
set-up step `tests/layer/test_fixtures.py` takes), the healthy layer with one broken rule
added, synthetic layers of `majordomus.synthetic` (the small shape with a 48- and a
1,200-record ledger, the latter above the ledger read-ahead threshold; 100 and 2,000 rules,
the latter at the shared-reading threshold), a layer written by `majordomus init`, copies of
`planned` with an advisor catalogue for the writes, and /work/shared/corpus/prismatic-layer
(skipped when absent; copied under WORKDIR, never into the repository). `--inputs DIR` names
the checkout whose fixtures and generator build them (default: the measured checkout); each
repository's files are listed with their digests as the cases `inputs/<name>.txt`, so a
change of input shows up as a difference of its own.

Determinism. Every process runs with a frozen wall clock: a generated `sitecustomize.py` on
`PYTHONPATH` starts `freezegun.freeze_time(FROZEN_AT)` (a moment after the synthetic ledgers'
records), leaving the monotonic clocks real so deadlines and timeouts still work; the case
`env/clock.txt` proves it takes effect (and that the checkout is what is imported), and the
writes over MCP and HTTP check it for the servers. The n-th command-line write is frozen at
`WRITES_FROM` + n seconds, a minute before the reads: records of one frozen moment are
ordered by their random ids, so the servers' writes keep to one record of a kind per task.
The environment is built from scratch (PATH, HOME, locale, terminal width); hash
randomisation stays on, so an answer that depends on a set's order shows as a difference
between two captures. What is still inherently unstable is normalised in the saved files:
record ids minted by a write (`<kind>-<stamp>-<6 random hex>`, replaced by
`<kind>-<stamp>-mintedNN`, numbered in the order they first appear within one surface and
repository), the checkout's own path (`<checkout>`), for `serve` the bound port and the
server's pid, and a WORKDIR other than the default, written as the default's path (so
captures made in separate work folders compare; one WORKDIR is held by one capture at a
time: a second one stops and says so). Bytecode of the checkout is compiled first (this
host sets PYTHONDONTWRITEBYTECODE), as `pip install` would.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import fcntl
import hashlib
import http.client
import itertools
import json
import os
import queue
import re
import shlex
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

FROZEN_AT = "2026-10-01T12:00:00Z"
FROZEN_STAMP = "2026-10-01T12:00:00.000Z"
FROZEN_COMPACT = "20261001T120000000Z"
WRITES_FROM = "2026-10-01T11:59:"  # the n-th command-line write is frozen at second n
PYTHON = "/work/main/.venv/bin/python"
DEFAULT_WORK = Path("/tmp/mj-parity")
CORPUS = Path("/work/shared/corpus/prismatic-layer")
COMMIT_DATE = "2026-09-01T00:00:00+00:00"
MARKER = ".mj-parity"
SYNTHETIC_TASK_AS_OF = "2026-09-21T14:13:40Z"  # the 21st record of the synthetic ledgers
UNKNOWN_RECORD = "assessment-20990101T000000000Z-abcdef"
KINDS = b"assessment|plan|consultation|disagreement|resolution|conclusion|validation|attempt"
MINTED = re.compile(rb"\b(" + KINDS + rb")-20261001T1(?:159|200)[0-9]{5}Z-[0-9a-f]{6}\b")
SERVED_URL = re.compile(r"http://127\.0\.0\.1:([0-9]+)")
SERVER_PID = re.compile(r"server process \[([0-9]+)\]")
MCP_PROTOCOLS = ("2025-06-18", "2025-11-25")

SITECUSTOMIZE = '''\
"""Generated by benchmarks/parity.py: freeze the wall clock of every Python process."""

import os

_AT = os.environ.get("MJ_PARITY_FROZEN_AT")
if _AT:
    import time

    from freezegun import api as _api
    from freezegun import freeze_time as _freeze_time

    _FREEZER = _freeze_time(_AT)
    _FREEZER.start()
    # Durations stay real: a frozen monotonic clock would stall every deadline and timeout.
    _REAL = {
        "monotonic": _api.real_monotonic,
        "perf_counter": _api.real_perf_counter,
        "monotonic_ns": _api.real_monotonic_ns,
        "perf_counter_ns": _api.real_perf_counter_ns,
    }
    for _name, _real in _REAL.items():
        setattr(time, _name, _real)
    _KEEP = set(map(id, _REAL.values()))
    for _module, _attribute, _original in _FREEZER.undo_changes:
        if id(_original) in _KEEP:
            setattr(_module, _attribute, _original)

    # A clone's writer id and the server's token are random: the same bytes in every capture.
    import hashlib as _hashlib
    import itertools as _itertools

    _DRAWS = _itertools.count()

    def _urandom(size: int) -> bytes:
        seed = _hashlib.sha256(b"parity-%d" % next(_DRAWS)).digest()
        return (seed * (size // len(seed) + 1))[:size]

    import random as _random

    os.urandom = _random._urandom = _urandom  # secrets draws through random's copy
'''

CLOCK_PROBE = (
    "import majordomus, majordomus.clock as c; print(c.now_stamp()); print(majordomus.__file__)"
)

SYNTHETIC = """\
import sys
from pathlib import Path
from majordomus.synthetic import Shape, SyntheticRepository, synthetic_ledger
root, rules, records = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
SyntheticRepository.new(Shape.scaling(rules) if rules else Shape(), at=root).commit()
if records:
    synthetic_ledger(root, records)
"""

#: An advisor catalogue with one CLI advisor whose executable (a no-op) is on PATH.
CATALOGUE = """\
version: 1
capabilities:
  - id: independent_reasoning
    description: A second line of reasoning.
advisors:
  - id: reviewer
    title: Reviewer
    transport: cli
    adapter: reviewer-cli
    executable: fake-reviewer
    capabilities: [independent_reasoning]
"""

BROKEN_RULE = """\
---
id: project.gamma
version: 1
kind: rule
title: Gamma
"""

EVIDENCE = [{"kind": "file", "reference": "lib/thing.sh:3"}]
ASSESSMENT: dict[str, Any] = {
    "kind": "assessment",
    "subject": "does the lock cover the retry",
    "materiality": "material",
    "confidence": "low",
    "hypothesis": "the lock covers it",
    "facts": ["the pool retries once", "a key AKIAABCDEFGHIJKLMNOP was pasted here"],
    "evidence": EVIDENCE,
}


# --- the run: environment, normalisation, case files -----------------------------------------


@dataclass
class Run:
    """One capture: where things are, and the state every case file is written through."""

    checkout: Path
    inputs: Path
    work: Path
    out: Path
    python: str
    jobs: int = 2
    minted: dict[tuple[str, bytes], bytes] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    counts: dict[str, int] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    writes: int = 0
    pending: list[Command] | None = None

    @property
    def repos(self) -> Path:
        return self.work / "repos"

    def repo(self, name: str) -> Path:
        return self.repos / name

    def env(self, extra: Mapping[str, str] | None = None) -> dict[str, str]:
        """The whole environment of a measured process, built from scratch."""
        return {
            "PATH": f"{self.work / 'bin'}:/usr/local/bin:/usr/bin:/bin",
            "HOME": str(self.work / "home"),
            "LANG": "C.UTF-8",
            "LC_ALL": "C.UTF-8",
            "TZ": "UTC",
            "COLUMNS": "80",
            "LINES": "24",
            "PYTHONPATH": f"{self.checkout}{os.pathsep}{self.work / 'site'}",
            "PYTHONDONTWRITEBYTECODE": "1",
            "MJ_PARITY_FROZEN_AT": FROZEN_AT,
            **git_identity(),
            **(extra or {}),
        }

    def normalise(
        self, data: bytes, scope: str, swaps: Sequence[tuple[bytes, bytes]] = ()
    ) -> bytes:
        """`data` with the swaps made, the checkout's path replaced and each minted record id
        replaced by its placeholder: numbered in the order the ids first appear within
        `scope` (a surface and repository), so cases of other repositories never shift it."""
        for old, new in swaps:
            data = data.replace(old, new)
        data = data.replace(str(self.checkout).encode(), b"<checkout>")
        if self.work != DEFAULT_WORK:  # another --work reads as the default one
            data = data.replace(str(self.work).encode(), str(DEFAULT_WORK).encode())

        def placeholder(found: re.Match[bytes]) -> bytes:
            key = (scope, found.group(0))
            if key not in self.minted:
                number = sum(1 for known, _ in self.minted if known == scope) + 1
                self.minted[key] = found.group(0)[: -len("123456")] + f"minted{number:02d}".encode()
            return self.minted[key]

        return MINTED.sub(placeholder, data)

    def save(
        self,
        name: str,
        header: Sequence[tuple[str, str]],
        sections: Sequence[tuple[str, bytes]],
        swaps: Sequence[tuple[bytes, bytes]] = (),
    ) -> None:
        """Write one case file: `key value` lines, then each section with its byte count."""
        if name in self.names:
            raise SystemExit(f"parity: two cases are named {name}")
        self.names.add(name)
        surface = name.split("/", 1)[0]
        self.counts[surface] = self.counts.get(surface, 0) + 1
        scope = "/".join(name.split("/")[:2])
        parts = [f"case    {name}\n".encode()]
        for key, value in header:
            parts.append(self.normalise(f"{key:<7} {value}\n".encode(), scope, swaps))
        for title, data in sections:
            body = self.normalise(data, scope, swaps)
            parts.append(f"--- {title}: {len(body)} bytes\n".encode())
            parts.append(body if body.endswith(b"\n") or not body else body + b"\n")
        path = self.out / f"{name}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"".join(parts))


def git_identity() -> dict[str, str]:
    return {
        "GIT_AUTHOR_NAME": "Parity",
        "GIT_AUTHOR_EMAIL": "parity@example.invalid",
        "GIT_COMMITTER_NAME": "Parity",
        "GIT_COMMITTER_EMAIL": "parity@example.invalid",
        "GIT_AUTHOR_DATE": COMMIT_DATE,
        "GIT_COMMITTER_DATE": COMMIT_DATE,
        "GIT_CONFIG_NOSYSTEM": "1",
    }


def slug(text: str) -> str:
    """A file name for a case: the text with every run of other characters made `_`."""
    name = re.sub(r"[^A-Za-z0-9._@=+-]+", "_", text).strip("_") or "empty"
    if len(name) > 160:
        name = name[:140] + "-" + hashlib.sha256(name.encode()).hexdigest()[:12]
    return name


# --- the command line -----------------------------------------------------------------------


@dataclass(frozen=True)
class Answer:
    code: int
    stdout: bytes
    stderr: bytes

    def json(self) -> Any:
        return json.loads(self.stdout)


@dataclass(frozen=True)
class Command:
    """One command-line case: `python -m majordomus ARGS` in a repository (or `cwd`)."""

    repo: str
    args: tuple[str, ...]
    stdin: bytes | None = None
    env: tuple[tuple[str, str], ...] = ()
    cwd: Path | None = None
    name: str | None = None


def execute(run: Run, command: Command) -> tuple[Answer, float]:
    begun = time.monotonic()
    done = subprocess.run(
        [run.python, "-m", "majordomus", *command.args],
        cwd=command.cwd or run.repo(command.repo),
        input=command.stdin,
        stdin=None if command.stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        env=run.env(dict(command.env)),
        timeout=600,
        check=False,
    )
    return Answer(done.returncode, done.stdout, done.stderr), time.monotonic() - begun


def save_command(run: Run, command: Command, answer: Answer, seconds: float) -> None:
    """Save a command-line case as `cli/REPO/<slug of its arguments or name>`."""
    scope = f"cli/{command.repo}"
    label = command.name or run.normalise(" ".join(command.args).encode(), scope).decode()
    name = f"{scope}/{slug(label)}"
    header = [
        ("argv", shlex.join(["majordomus", *command.args])),
        ("cwd", str(command.cwd or run.repo(command.repo))),
    ]
    header += [("env", f"{key}={value}") for key, value in command.env]
    if command.stdin is not None:
        header.append(("stdin", command.stdin.decode("utf-8", "replace").strip()))
    header.append(("exit", str(answer.code)))
    run.save(name, header, [("stdout", answer.stdout), ("stderr", answer.stderr)])
    run.seconds[name] = seconds


def command_of(
    repo: str,
    args: Sequence[str],
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    name: str | None = None,
) -> Command:
    return Command(repo, tuple(args), stdin, tuple(sorted((env or {}).items())), cwd, name)


def cli_now(
    run: Run,
    repo: str,
    args: Sequence[str],
    *,
    stdin: bytes | None = None,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    name: str | None = None,
) -> Answer:
    """Run one command now, save it, and return its answer (for the writes and what follows
    from their answers)."""
    command = command_of(repo, args, stdin, env, cwd, name)
    answer, seconds = execute(run, command)
    save_command(run, command, answer, seconds)
    return answer


def cli(
    run: Run,
    repo: str,
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    name: str | None = None,
) -> None:
    """A read-only command: queued while a batch is open (`batch(run)`), else run now."""
    command = command_of(repo, args, None, env, cwd, name)
    if run.pending is not None:
        run.pending.append(command)
    else:
        save_command(run, command, *execute(run, command))


@contextlib.contextmanager
def batch(run: Run) -> Iterator[None]:
    """Queue the read-only commands of the block, then run them `run.jobs` at a time and save
    them in the order they were queued."""
    run.pending = []
    try:
        yield
        commands, run.pending = run.pending, None
        with ThreadPoolExecutor(max_workers=run.jobs) as pool:
            answers = list(pool.map(lambda command: execute(run, command), commands))
        for command, (answer, seconds) in zip(commands, answers, strict=True):
            save_command(run, command, answer, seconds)
    finally:
        run.pending = None


def both(run: Run, repo: str, args: Sequence[str]) -> None:
    """The command in text, then in JSON."""
    cli(run, repo, args)
    cli(run, repo, [*args, "--format", "json"])


# --- the repositories -----------------------------------------------------------------------


def git(run: Run, root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(root), "-c", "commit.gpgsign=false", "-c", "core.autocrlf=false", *args],
        capture_output=True,
        text=True,
        env={k: v for k, v in run.env().items() if not k.startswith("PYTHON")},
        check=True,
    )
    return done.stdout


def commit_all(run: Run, root: Path, message: str) -> None:
    git(run, root, "add", "-A")
    git(run, root, "commit", "-q", "--allow-empty", "-m", message)


def fixture_repo(run: Run, name: str, source: Path) -> Path:
    root = run.repo(name)
    shutil.copytree(source, root, symlinks=True)
    git(run, root, "init", "-q", "-b", "master")
    commit_all(run, root, "fixture")
    return root


def broken_setup(run: Run, code: str, root: Path) -> None:
    """The SETUP.md step of the fixtures that cannot be committed as they are (as the tests
    of `tests/layer/test_fixtures.py` take it)."""
    if code == "unreadable":
        (root / "docs" / "GONE.md").unlink()
    elif code == "symlink":
        os.symlink("GUIDE.md", root / "docs" / "link.md")
        git(run, root, "add", "docs/link.md")
    elif code == "not_a_file":
        (root / "docs" / "dir.md").unlink()
        (root / "docs" / "dir.md").mkdir()
        (root / "docs" / "dir.md" / "inner.txt").write_text("x\n")
    elif code == "oversized":
        size = 4 * 1024 * 1024 + 1
        (root / "docs" / "BIG.md").write_bytes(b"# Big\n" + b"x" * (size - 6))
        git(run, root, "add", "docs/BIG.md")


def synthetic_repo(run: Run, name: str, rules: int, records: int) -> None:
    env = run.env({"PYTHONPATH": str(run.inputs)})
    subprocess.run(
        [run.python, "-c", SYNTHETIC, str(run.repo(name)), str(rules), str(records)],
        env=env,
        check=True,
        capture_output=True,
    )


def with_catalogue(run: Run, name: str, source: Path) -> None:
    """A fixture with the advisor catalogue and `.ai/local/` ignored: for the writes."""
    root = run.repo(name)
    shutil.copytree(source, root, symlinks=True)
    (root / ".gitignore").write_text(".ai/local/\n", encoding="utf-8")
    (root / ".ai" / "repo" / "advisors.yaml").write_text(CATALOGUE, encoding="utf-8")
    git(run, root, "init", "-q", "-b", "master")
    commit_all(run, root, "fixture with an advisor catalogue")


@contextlib.contextmanager
def work_lock(work: Path) -> Iterator[None]:
    """Hold WORKDIR for one capture: two at once would rebuild each other's repositories."""
    if work.exists() and not (work / MARKER).exists() and any(work.iterdir()):
        raise SystemExit(f"parity: {work} is not empty and not a parity work folder")
    work.mkdir(parents=True, exist_ok=True)
    (work / MARKER).write_text("made by benchmarks/parity.py\n", encoding="utf-8")
    with open(work / ".lock", "w", encoding="utf-8") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise SystemExit(
                f"parity: another capture is using {work}; wait, or pass another --work "
                f"(its paths are written as {DEFAULT_WORK}'s)"
            ) from None
        yield


def prepare_work(run: Run) -> None:
    """Wipe and recreate WORKDIR's repositories, home, bin and site folders."""
    for part in ("repos", "home", "bin", "site", "empty"):
        shutil.rmtree(run.work / part, ignore_errors=True)
        (run.work / part).mkdir(parents=True)
    (run.work / "site" / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    reviewer = run.work / "bin" / "fake-reviewer"
    reviewer.write_text("#!/bin/sh\n", encoding="utf-8")
    reviewer.chmod(0o755)


def build_repositories(run: Run) -> list[str]:
    """Every repository the cases read, at fixed paths; returns their names."""
    layers = run.inputs / "fixtures" / "layers"
    for source in sorted(p for p in layers.iterdir() if p.is_dir() and p.name != "broken"):
        fixture_repo(run, source.name, source)
    for source in sorted(p for p in (layers / "broken").iterdir() if p.is_dir()):
        root = fixture_repo(run, f"broken-{source.name}", source)
        broken_setup(run, source.name, root)
    degraded = fixture_repo(run, "healthy-degraded", layers / "healthy")
    (degraded / ".ai/repo/rules/project/gamma.v1.md").write_text(BROKEN_RULE, encoding="utf-8")
    commit_all(run, degraded, "one rule whose front matter never closes")
    synthetic_repo(run, "synthetic", 0, 48)
    synthetic_repo(run, "synthetic-1200", 0, 1200)
    synthetic_repo(run, "rules-100", 100, 0)
    synthetic_repo(run, "rules-2000", 2000, 0)
    if CORPUS.is_dir():
        fixture_repo(run, "prismatic", CORPUS)
    for name in ("writes-cli", "writes-mcp", "writes-http"):
        with_catalogue(run, name, layers / "planned")
    init_repo(run)
    return sorted(p.name for p in run.repos.iterdir() if p.is_dir())


def init_repo(run: Run) -> None:
    """`majordomus init` of the measured checkout into an empty repository (its answer is a
    case), committed; a copy of it takes the `new` writes."""
    root = run.repo("init")
    root.mkdir()
    git(run, root, "init", "-q", "-b", "master")
    cli(run, "init", ["init"])
    commit_all(run, root, "Add the .ai layer")
    shutil.copytree(root, run.repo("writes-new"), symlinks=True)


def digest_lines(root: Path) -> Iterator[str]:
    """Each file of the work tree (not `.git`): type, size and SHA-256, in path order."""
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        if rel == ".git" or rel.startswith(".git/"):
            continue
        if path.is_symlink():
            yield f"link {rel} -> {os.readlink(path)}"
        elif path.is_file():
            data = path.read_bytes()
            yield f"file {rel} {len(data)} {hashlib.sha256(data).hexdigest()}"
        elif path.is_dir():
            yield f"dir  {rel}"


def save_inputs(run: Run, names: Sequence[str]) -> None:
    for name in names:
        root = run.repo(name)
        head = git(run, root, "rev-parse", "HEAD").strip()
        status = git(run, root, "status", "--porcelain", "--untracked-files=all")
        listing = "".join(f"{line}\n" for line in digest_lines(root))
        header = [("root", str(root)), ("head", head)]
        sections = [("git status", status.encode()), ("files", listing.encode())]
        run.save(f"inputs/{name}", header, sections)


# --- the layers and their typical arguments -------------------------------------------------


@dataclass(frozen=True)
class Layer:
    """A repository and the arguments its cases take."""

    name: str
    uris: tuple[str, ...] = ()
    short: tuple[str, ...] = ()
    issue: str = ""
    milestone: str = ""
    query: str = "rule"
    kind: str = "rule"
    tag: str = ""
    paths: tuple[str, ...] = ()
    intent: str = "check the rules before changing the reader"


HEALTHY = Layer(
    "healthy",
    uris=(
        "majordomus://adr/adr-0001",
        "majordomus://rule/project.alpha@1",
        "majordomus://prompt/continue",
        "majordomus://document/docs/GUIDE.md",
        "majordomus://claim/reader-refuses",
        "majordomus://skill/review",
        "majordomus://session/s-20260909000000-aaaa",
    ),
    short=("adr-0002", "I0002", "rule/project.beta", "knowledge/start-here"),
    issue="I0001",
    milestone="M001",
    query="reader",
    tag="reader",
    paths=("lib/thing.sh",),
    intent="make the reader refuse what it cannot read",
)
LEDGERLY = Layer(
    "ledgerly",
    uris=(
        "majordomus://rule/project.money-is-decimal@1",
        "majordomus://knowledge/rounding-lessons",
    ),
    short=("I0104", "adr-0003"),
    issue="I0102",
    milestone="billing",
    query="invoice",
    kind="issue",
    paths=("src/billing/tax.py",),
    intent="round invoice totals once",
)
PLANNED = Layer(
    "planned",
    uris=("majordomus://rule/project.gamma@1",),
    short=("adr-0001",),
    issue="I0002",
    milestone="m1",
    query="alpha",
    paths=("lib/thing.sh",),
)
PRISMATIC = Layer(
    "prismatic",
    uris=("majordomus://rule/majordomus.adr-integrity@1", "majordomus://milestone/M003"),
    short=("I0818",),
    issue="I0817",
    milestone="M003",
    query="blocker",
    kind="adr",
    intent="hand work between sessions",
)
SYNTHETIC_LAYER = Layer(
    "synthetic",
    uris=("majordomus://rule/project.rule-3@1",),
    short=("prompt-1",),
    query="scope",
    tag="synthetic",
    paths=("docs/DOC_1.md",),
    intent="do the thing number 3",
)
RULES_100 = Layer(
    "rules-100",
    uris=("majordomus://rule/project.rule-42@1",),
    query="rule 42",
    intent="do the thing number 42",
)
RULES_2000 = Layer(
    "rules-2000",
    uris=("majordomus://rule/project.rule-1999@1",),
    query="Rule 1999",
    intent="do the thing number 1999",
)
INIT = Layer(
    "init",
    uris=("majordomus://prompt/continue",),
    query="scope",
    intent="start the first task",
)


def object_cases(run: Run, layer: Layer, *, full: bool = True) -> None:
    name = layer.name
    both(run, name, ["objects", "list"])
    both(run, name, ["objects", "list", "--kind", layer.kind])
    for index, uri in enumerate(layer.uris if full else layer.uris[:1]):
        if index < 3:
            both(run, name, ["objects", "get", uri])
        else:
            cli(run, name, ["objects", "get", uri, "--format", "json"])
    for short in layer.short:
        cli(run, name, ["objects", "get", short, "--format", "json"])
    both(run, name, ["objects", "search", layer.query])
    cli(run, name, ["objects", "search", layer.query, "--kind", layer.kind, "--limit", "2"])
    both(run, name, ["objects", "get", "majordomus://repository"])
    if full:
        cli(run, name, ["objects", "get", "majordomus://rule/no-such@1"])
        cli(run, name, ["objects", "get", "no-such", "--format", "json"])
        if layer.tag:
            cli(run, name, ["objects", "list", "--tag", layer.tag, "--format", "json"])


def layer_cases(run: Run, layer: Layer, *, full: bool = True) -> None:
    name = layer.name
    cli(run, name, ["lint"])
    cli(run, name, ["lint", "--format", "json"])
    cli(run, name, ["lint", "--strict"])
    cli(run, name, ["mcp", "--inspect", "--format", "json"])
    if full:
        cli(run, name, ["mcp", "--inspect"])
        cli(run, name, ["capabilities", "list"])


def context_cases(run: Run, layer: Layer, *, full: bool = True) -> None:
    name = layer.name
    compile_ = ["devcontext", "compile"]
    if layer.issue:
        both(run, name, [*compile_, "--issue", layer.issue, "--budget-tokens", "4000"])
        cli(run, name, [*compile_, "--issue", layer.issue, "--budget-tokens", "60"])
    if layer.milestone and full:
        cli(run, name, [*compile_, "--milestone", layer.milestone, "--format", "json"])
    for path in layer.paths:
        cli(run, name, [*compile_, "--path", path, "--budget-tokens", "2000", "--format", "json"])
    both(run, name, [*compile_, "--intent", layer.intent, "--bundle", "--budget-tokens", "3000"])
    if full:
        cli(run, name, [*compile_, "--intent", layer.intent, "--max-depth", "1", "--floor", "0.5"])
    seed = ["--issue", layer.issue] if layer.issue else ["--intent", layer.intent]
    if layer.uris:
        both(run, name, ["devcontext", "explain", layer.uris[0], *seed])
    if full:
        cli(run, name, ["devcontext", "explain", "majordomus://rule/no-such@1", *seed])


def reasoning_read_cases(run: Run, name: str, ids: Sequence[str], *, full: bool = True) -> None:
    """The read-only reasoning commands; `ids` are records of the ledger to explain."""
    cli(run, name, ["reasoning", "status", "--format", "json"])
    cli(run, name, ["reasoning", "status"])
    cli(run, name, ["reasoning", "status", "--report"])
    cli(run, name, ["reasoning", "status", "--task", "all", "--format", "json"])
    cli(run, name, ["reasoning", "status", "--as-of", SYNTHETIC_TASK_AS_OF, "--format", "json"])
    both(run, name, ["reasoning", "handover"])
    both(run, name, ["reasoning", "check"])
    for record in ids:
        both(run, name, ["reasoning", "explain", record])
    if not full:
        return
    cli(run, name, ["reasoning", "explain", UNKNOWN_RECORD])
    both(run, name, ["reasoning", "advisors"])
    plan = ["reasoning", "plan", "--materiality", "high", "--confidence", "low"]
    both(run, name, [*plan, "--capabilities", "independent_reasoning"])
    cli(run, name, ["reasoning", "task", "show"])
    cli(run, name, ["reasoning", "task", "list"])
    cli(run, name, ["reasoning", "export", "--format", "jsonl"])


def ledger_ids(run: Run, name: str) -> list[str]:
    """The first assessment, the first conclusion and the last record of a synthetic ledger."""
    folder = run.repo(name) / ".ai" / "local" / "state" / "reasoning" / "synthetic"
    files = sorted(p.stem for p in folder.glob("*.json"))
    first = [next(f for f in files if f.startswith(kind)) for kind in ("assessment", "conclusion")]
    return [*first, max(files, key=lambda f: f.split("-")[1])]


# --- the command-line cases -------------------------------------------------------------------


def global_cases(run: Run) -> None:
    """Help, version, usage errors and what is not found, run in the healthy layer."""
    helps = [
        ["--help"], ["--version"], ["help", "objects"], ["objects", "get", "--help"],
        ["devcontext", "compile", "--help"], ["reasoning", "status", "--help"],
        ["reasoning", "record", "--help"], ["mcp", "--help"], ["serve", "--help"], ["lint", "-h"],
    ]  # fmt: skip
    usage = [
        ["nosuch"], ["objects", "list", "--nope"], ["objects", "get"], ["objects"],
        ["--format", "xml", "objects", "list"], ["devcontext", "compile", "--budget-tokens", "x"],
        ["reasoning", "status", "--as-of", "yesterday"], ["reasoning", "status", "--as-of", "x",
        "--format", "json"], ["reasoning", "plan", "--materiality", "huge"], ["schema"],
        ["objects", "list", "--kind", "nonsense"], ["objects", "list", "--kind", "nonsense",
        "--format", "json"], ["--log-level", "loud", "lint"],
    ]  # fmt: skip
    for args in helps + usage:
        cli(run, "healthy", args)
    for kind in ("issue", "rule", "adr", "milestone", "knowledge", "nonsense"):
        cli(run, "healthy", ["schema", kind])
    cli(run, "healthy", ["schema", "issue", "--format", "json"])
    both(run, "healthy", ["capabilities", "describe", "objects.get"])
    cli(run, "healthy", ["capabilities", "describe", "devcontext.compile", "--format", "json"])
    cli(run, "healthy", ["capabilities", "describe", "no.such"])
    cli(run, "healthy", ["capabilities", "list", "--format", "json"])
    cli(run, "healthy", ["capabilities", "validate"])
    both(run, "healthy", ["devcontext", "policy"])
    option_cases(run)
    elsewhere_cases(run)
    completion_cases(run)


def option_cases(run: Run) -> None:
    """The shared options, in their places: the plain `objects list` path reads them all."""
    cli(run, "healthy", ["-q", "objects", "list", "--format", "json"])
    cli(run, "healthy", ["objects", "--discovery", "filesystem", "list", "--format", "json"])
    cli(run, "healthy", ["objects", "list", "--log-level", "debug"])
    cli(run, "healthy", ["objects", "list", "--strict", "--format", "json"])
    cli(run, "healthy", ["--format", "json", "reasoning", "status"])
    cli(run, "healthy", ["reasoning", "status", "--task", "nothing-here", "--format", "json"])
    cli(run, "healthy", ["reasoning", "status", "--format", "json", "--log-level", "debug"])
    degraded = "healthy-degraded"
    cli(run, degraded, ["objects", "list", "--format", "json"])
    cli(run, degraded, ["objects", "list", "--log-level", "debug"])
    cli(run, degraded, ["--strict", "objects", "list"])
    cli(run, degraded, ["objects", "get", "majordomus://rule/project.alpha@1", "--strict"])
    cli(run, degraded, ["lint"])
    cli(run, degraded, ["lint", "--format", "json"])
    cli(run, degraded, ["mcp", "--inspect", "--format", "json"])
    cli(run, degraded, ["-q", "lint", "--strict"])


def elsewhere_cases(run: Run) -> None:
    """Outside any repository, and `--repo` from there."""
    empty = run.work / "empty"
    for args in (["objects", "list"], ["lint"], ["reasoning", "status", "--format", "json"]):
        cli(run, "empty", args, cwd=empty)
    cli(run, "empty", ["--repo", str(run.repo("does-not-exist")), "objects", "list"], cwd=empty)
    cli(run, "empty", ["--repo", str(run.repo("healthy")), "objects", "list"], cwd=empty)
    cli(run, "empty", ["objects", "list", "--repo", str(run.repo("ledgerly"))], cwd=empty)


def completion_cases(run: Run) -> None:
    lines = [
        "majordomus dev",
        "majordomus objects get majordomus://r",
        "majordomus objects list --kind ",
        "majordomus devcontext compile --issue I",
    ]
    for words in lines:
        env = {
            "_MAJORDOMUS_COMPLETE": "bash_complete",
            "COMP_WORDS": words,
            "COMP_CWORD": str(len(words.split(" ")) - 1),
        }
        cli(run, "healthy", [], env=env, name=f"complete {words}")


#: The broken fixtures whose text report and `--strict` refusal are cases too.
BROKEN_MORE = ("claimed_twice", "duplicate_identity", "invalid_manifest", "symlink", "unreadable")


def broken_cases(run: Run, names: Sequence[str]) -> None:
    """Each broken fixture's lint report; a few also in text and refused under --strict."""
    for name in names:
        if not name.startswith("broken-"):
            continue
        cli(run, name, ["lint", "--format", "json"])
        if name.removeprefix("broken-") in BROKEN_MORE:
            cli(run, name, ["lint"])
            cli(run, name, ["objects", "list", "--strict", "--format", "json"])


def layer_suite(run: Run) -> None:
    for layer in (HEALTHY, LEDGERLY):
        object_cases(run, layer)
        layer_cases(run, layer)
        context_cases(run, layer)
    reasoning_read_cases(run, "healthy", [], full=False)  # an empty ledger
    for layer in (PLANNED, INIT):
        object_cases(run, layer, full=False)
        layer_cases(run, layer, full=False)
        context_cases(run, layer, full=False)
    cli(run, "init", ["reasoning", "status", "--format", "json"])
    if run.repo("prismatic").is_dir():
        object_cases(run, PRISMATIC, full=False)
        layer_cases(run, PRISMATIC)
        context_cases(run, PRISMATIC, full=False)
        cli(run, "prismatic", ["--strict", "objects", "list", "--format", "json"])
        cli(run, "prismatic", ["--strict", "devcontext", "compile", "--issue", "I0817"])
    synthetic_suite(run)


def synthetic_suite(run: Run) -> None:
    object_cases(run, SYNTHETIC_LAYER, full=False)
    context_cases(run, SYNTHETIC_LAYER, full=False)
    reasoning_read_cases(run, "synthetic", ledger_ids(run, "synthetic"))
    reasoning_read_cases(run, "synthetic-1200", ledger_ids(run, "synthetic-1200")[:1], full=False)
    for layer in (RULES_100, RULES_2000):
        name = layer.name
        both(run, name, ["objects", "list"])
        cli(run, name, ["objects", "get", layer.uris[0], "--format", "json"])
        cli(run, name, ["objects", "search", layer.query, "--limit", "5", "--format", "json"])
        cli(run, name, ["lint"])
        cli(run, name, ["mcp", "--inspect", "--format", "json"])
        cli(run, name, ["devcontext", "compile", "--intent", layer.intent, "--format", "json"])


def record(run: Run, repo: str, label: str, body: Mapping[str, Any], *args: str) -> Answer:
    """`reasoning record` of `body`, each write a second after the one before (a minute
    before the frozen moment the reads run at): records of one moment would be ordered by
    their random ids, and a chain recorded in one instant is not what a session writes."""
    data = json.dumps(body, sort_keys=True).encode()
    argv = ["reasoning", "record", *args]
    name = f"reasoning record {label} {' '.join(args)}"
    env = {"MJ_PARITY_FROZEN_AT": f"{WRITES_FROM}{run.writes:02d}Z"}
    run.writes += 1
    return cli_now(run, repo, argv, stdin=data, env=env, name=name)


def id_of(answer: Answer) -> str:
    """The id of the record a write answered with (an unknown one if it was refused)."""
    try:
        return str(answer.json()["record"]["id"])
    except (ValueError, KeyError, TypeError):
        return UNKNOWN_RECORD


def writes_cli(run: Run) -> None:
    """The writes of the command line, each into a fresh copy: reasoning records and the
    current task (random record ids normalised), `new`."""
    repo = "writes-cli"
    cli(run, repo, ["reasoning", "task", "show"], name="reasoning task show before")
    cli(run, repo, ["reasoning", "task", "set", "parity-task"])
    cli(run, repo, ["reasoning", "task", "set", "not a name!"])
    cli(run, repo, ["reasoning", "task", "show", "--format", "json"])
    assessment = id_of(record(run, repo, "assessment", ASSESSMENT, "--format", "json"))
    plan_body = {"kind": "plan", "assessment": assessment}
    plan = id_of(record(run, repo, "plan", plan_body, "--format", "json"))
    consultation = {
        "kind": "consultation",
        "plan": plan,
        "advisor": "reviewer",
        "status": "completed",
        "conclusion": "keep the lock",
        "stance": "supports",
    }
    answered = id_of(record(run, repo, "consultation", consultation, "--format", "json"))
    conclusion = {
        "kind": "conclusion",
        "assessment": assessment,
        "decision": "keep the lock",
        "rationale": "no caller retries",
        "evidence": EVIDENCE,
        "validation_plan": ["run the soak test"],
    }
    record(run, repo, "conclusion uncited", conclusion)  # refused: it ignores the review
    cited = {**conclusion, "consultations": [answered]}
    concluded = id_of(record(run, repo, "conclusion", cited, "--format", "json"))
    validation = {
        "kind": "validation",
        "conclusion": concluded,
        "check": "sh test/cases/01_thing.sh",
        "outcome": "pass",
    }
    record(run, repo, "validation", validation)
    other = {**ASSESSMENT, "subject": "another task"}
    record(run, repo, "assessment", other, "--task", "other-task")
    record(run, repo, "unknown kind", {"kind": "nope"})
    record(run, repo, "plan of nothing", {"kind": "plan", "assessment": UNKNOWN_RECORD})
    cli_now(run, repo, ["reasoning", "record"], stdin=b"this is not JSON", name="record not-json")
    with batch(run):
        reasoning_read_cases(run, repo, [assessment, concluded])
        as_of = ["--as-of", "2026-09-30T00:00:00Z", "--format", "json"]
        cli(run, repo, ["reasoning", "status", *as_of])


def writes_new(run: Run) -> None:
    repo = "writes-new"
    news = [
        ["new", "adr", "Read every file once", "--status", "accepted"],
        ["new", "rule", "project.one-reader", "--title", "One reader", "--statement",
         "Every file is read by the one reader.", "--class", "blocking"],
        ["new", "milestone", "M1", "--title", "Reader parity", "--outcome", "one reader"],
        ["new", "issue", "I0001", "--title", "Port the reader", "--milestone", "M1", "--rule",
         "project.one-reader", "--adr", "adr-0001", "--scope", "lib/reader.py"],
        ["new", "prompt", "review", "--description", "Review the change."],
        ["new", "knowledge", "start-here", "--title", "Start here"],
        ["new", "issue", "I0001", "--title", "Twice"],
        ["new", "rule", "Not An Id", "--title", "x", "--statement", "y"],
    ]  # fmt: skip
    for args in news:
        cli(run, repo, args)
    cli(run, repo, ["--discovery", "filesystem", "lint"])
    commit_all(run, run.repo(repo), "the new files")
    cli(run, repo, ["objects", "list"])
    for uri in ("adr/adr-0001", "rule/project.one-reader@1", "issue/I0001", "prompt/review"):
        cli(run, repo, ["objects", "get", f"majordomus://{uri}", "--format", "json"])
    cli(run, repo, ["devcontext", "compile", "--issue", "I0001", "--format", "json"])


def demo_case(run: Run) -> None:
    cli(run, "empty", ["demo", str(run.repo("demo"))], cwd=run.work / "empty")


# --- MCP over stdio ---------------------------------------------------------------------------

NO_ID = object()


class McpSession:
    """`python -m majordomus mcp` driven with raw newline-delimited JSON-RPC, one request at
    a time; every answer is saved as a case, every other line the server writes (a
    notification) in the session's closing case with its stderr and exit code."""

    def __init__(self, run: Run, repo: str, label: str, args: Sequence[str] = ()) -> None:
        self.run = run
        self.prefix = f"mcp/{repo}/{label}"
        self.args = ["majordomus", "mcp", *args]
        self.process = subprocess.Popen(
            [run.python, "-m", *self.args],
            cwd=run.repo(repo),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=run.env(),
        )
        self.lines: queue.Queue[bytes | None] = queue.Queue()
        self.stderr = bytearray()
        self.notes: list[bytes] = []
        self.last_id = 0
        self.threads = [
            threading.Thread(target=self._pump_stdout, daemon=True),
            threading.Thread(target=self._pump_stderr, daemon=True),
        ]
        for thread in self.threads:
            thread.start()

    def _pump_stdout(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _pump_stderr(self) -> None:
        assert self.process.stderr is not None
        self.stderr.extend(self.process.stderr.read())

    def _write(self, line: bytes) -> bool:
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(line)
            self.process.stdin.flush()
        except (BrokenPipeError, ValueError):
            return False
        return True

    def _await(self, expect: object) -> bytes | None:
        deadline = time.monotonic() + 120
        while (remaining := deadline - time.monotonic()) > 0:
            try:
                line = self.lines.get(timeout=remaining)
            except queue.Empty:
                return None
            if line is None:
                self.lines.put(None)
                return None
            if is_answer(line, expect):
                return line
            self.notes.append(line)
        return None

    def exchange(self, name: str, line: bytes, expect: object) -> Any:
        """Send one line, wait for the answer to `expect` and save both; the parsed answer."""
        answer = self._await(expect) if self._write(line) else None
        header = [("argv", shlex.join(self.args)), ("request", line.decode().rstrip("\n"))]
        sections = [("response", answer if answer is not None else b"<no response>")]
        self.run.save(f"{self.prefix}/{slug(name)}", header, sections)
        return json.loads(answer) if answer is not None else None

    def request(self, name: str, method: str, params: Mapping[str, Any] | None = None) -> Any:
        self.last_id += 1
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": self.last_id, "method": method}
        if params is not None:
            message["params"] = params
        return self.exchange(name, encode(message), self.last_id)

    def call(self, name: str, tool: str, arguments: Mapping[str, Any]) -> Any:
        return self.request(name, "tools/call", {"name": tool, "arguments": arguments})

    def notify(self, method: str) -> None:
        self._write(encode({"jsonrpc": "2.0", "method": method}))

    def initialize(self, protocol: str = MCP_PROTOCOLS[0]) -> Any:
        params = {
            "protocolVersion": protocol,
            "capabilities": {},
            "clientInfo": {"name": "parity", "version": "1"},
        }
        answer = self.request(f"initialize {protocol}", "initialize", params)
        self.notify("notifications/initialized")
        return answer

    def close(self) -> None:
        assert self.process.stdin is not None
        with contextlib.suppress(BrokenPipeError):
            self.process.stdin.close()
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        for thread in self.threads:
            thread.join(timeout=30)
        while (line := self.lines.get_nowait() if not self.lines.empty() else None) is not None:
            self.notes.append(line)
        header = [("argv", shlex.join(self.args)), ("exit", str(code))]
        sections = [("notifications", b"".join(self.notes)), ("stderr", bytes(self.stderr))]
        self.run.save(f"{self.prefix}/~session", header, sections)


def encode(message: Mapping[str, Any]) -> bytes:
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def is_answer(line: bytes, expect: object) -> bool:
    try:
        message = json.loads(line)
    except ValueError:
        return False
    if not isinstance(message, dict) or not ("result" in message or "error" in message):
        return False
    return bool(message.get("id", NO_ID) == expect)


def listed(answer: Any, key: str, name: str) -> list[str]:
    """The names (or uris) of an MCP listing's entries."""
    if not isinstance(answer, dict):
        return []
    return [entry[name] for entry in answer.get("result", {}).get(key, [])]


def tool_arguments(layer: Layer, records: Sequence[str]) -> dict[str, dict[str, Any]]:
    """A typical argument set per tool; a tool not named here is called with none."""
    seed: dict[str, Any] = {"issue": layer.issue} if layer.issue else {"intent": layer.intent}
    return {
        "majordomus_capability": {"id": "objects.get"},
        "majordomus_capabilities": {"kind": "query"},
        "majordomus_devcontext": {**seed, "budget_tokens": 4000},
        "majordomus_devcontext_explain": {**seed, "uri": layer.uris[0]},
        "majordomus_get": {"uri": layer.uris[0]},
        "majordomus_list": {"kind": layer.kind},
        "majordomus_search": {"query": layer.query, "limit": 5},
        "majordomus_reasoning_explain": {"id": records[0] if records else UNKNOWN_RECORD},
        "majordomus_reasoning_plan": {"materiality": "high", "confidence": "low"},
        "majordomus_reasoning_record": {"record": {"kind": "nope"}},
        "majordomus_reasoning_handover": {"task": "all"},
    }


INVALID_CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("get-no-uri", "majordomus_get", {}),
    ("get-uri-number", "majordomus_get", {"uri": 5}),
    ("get-unknown", "majordomus_get", {"uri": "majordomus://rule/no-such@1"}),
    ("get-extra-key", "majordomus_get", {"uri": "adr-0001", "extra": True}),
    ("search-limit-0", "majordomus_search", {"query": "x", "limit": 0}),
    ("devcontext-budget-text", "majordomus_devcontext", {"budget_tokens": "many"}),
    ("devcontext-nothing", "majordomus_devcontext", {}),
    ("reasoning-as-of-bad", "majordomus_reasoning", {"as_of": "yesterday"}),
    ("unknown-tool", "majordomus_nope", {}),
]


def mcp_full(run: Run, layer: Layer, records: Sequence[str]) -> None:
    """Every listing, prompt, a few resources, every tool and the error cases."""
    session = McpSession(run, layer.name, "full")
    session.initialize()
    tools = listed(session.request("tools/list", "tools/list"), "tools", "name")
    session.request("resources/list", "resources/list")
    session.request("resources/templates/list", "resources/templates/list")
    prompts = listed(session.request("prompts/list", "prompts/list"), "prompts", "name")
    prompt_cases(session, layer, prompts)
    resources = ["repository", "health", "reasoning", "reasoning/advisors", "devcontext/policy"]
    uris = [f"majordomus://{r}" for r in resources] + [*layer.uris, "majordomus://rule/none@1"]
    for uri in uris:
        session.request(f"resources/read {uri}", "resources/read", {"uri": uri})
    arguments = tool_arguments(layer, records)
    for tool in tools:
        session.call(f"tools/call {tool}", tool, arguments.get(tool, {}))
    for name, tool, args in INVALID_CALLS:
        session.call(f"tools/call invalid {name}", tool, args)
    session.request("tools/call without name", "tools/call", {"arguments": {}})
    session.request("unknown method", "no/such/method")
    session.exchange("malformed line", b"this is not json\n", None)
    session.exchange("no jsonrpc field", b'{"id":"x","method":"ping"}\n', "x")
    session.request("ping", "ping")
    completion_requests(session, layer)
    session.close()


def prompt_cases(session: McpSession, layer: Layer, prompts: Sequence[str]) -> None:
    for prompt in prompts:
        arguments = {"issue": layer.issue} if prompt == "devcontext" and layer.issue else {}
        session.request(
            f"prompts/get {prompt}", "prompts/get", {"name": prompt, "arguments": arguments}
        )
    if "devcontext" in prompts:
        intent = {"intent": layer.intent, "budget_tokens": "2000"}
        session.request(
            "prompts/get devcontext intent",
            "prompts/get",
            {"name": "devcontext", "arguments": intent},
        )
        session.request(
            "prompts/get devcontext none", "prompts/get", {"name": "devcontext", "arguments": {}}
        )
    session.request("prompts/get unknown", "prompts/get", {"name": "no-such-prompt"})


def completion_requests(session: McpSession, layer: Layer) -> None:
    template = {"type": "ref/resource", "uri": "majordomus://{kind}/{identity}"}
    prompt = {"type": "ref/prompt", "name": "devcontext"}
    asks = [
        ("kind r", template, {"name": "kind", "value": "r"}, None),
        ("identity", template, {"name": "identity", "value": ""}, {"kind": layer.kind}),
        ("prompt issue", prompt, {"name": "issue", "value": "I"}, None),
    ]
    for name, ref, argument, context in asks:
        params: dict[str, Any] = {"ref": ref, "argument": argument}
        if context is not None:
            params["context"] = {"arguments": context}
        session.request(f"completion/complete {name}", "completion/complete", params)


SHORT_TOOLS = (
    "majordomus_repository",
    "majordomus_health",
    "majordomus_list",
    "majordomus_get",
    "majordomus_search",
    "majordomus_devcontext",
    "majordomus_devcontext_explain",
)


def mcp_short(run: Run, layer: Layer, label: str = "short", args: Sequence[str] = ()) -> None:
    """The layer-dependent listings and the read tools of one layer."""
    session = McpSession(run, layer.name, label, args)
    if session.initialize() is None:  # refused to start (--strict on a degraded layer)
        session.close()
        return
    session.request("resources/list", "resources/list")
    prompts = listed(session.request("prompts/list", "prompts/list"), "prompts", "name")
    prompt_cases(session, layer, prompts[:1])
    arguments = tool_arguments(layer, [])
    for tool in SHORT_TOOLS:
        session.call(f"tools/call {tool}", tool, arguments.get(tool, {}))
    session.close()


def mcp_first_answers(run: Run, layer: Layer) -> None:
    """One session per first call: the first answer of a session may take its own path."""
    arguments = tool_arguments(layer, [])
    firsts = [
        ("first-get", "majordomus_get", arguments["majordomus_get"]),
        ("first-get-short", "majordomus_get", {"uri": (layer.short or layer.uris)[0]}),
        ("first-search", "majordomus_search", arguments["majordomus_search"]),
        ("first-devcontext", "majordomus_devcontext", arguments["majordomus_devcontext"]),
        ("first-get-invalid", "majordomus_get", {"uri": 5}),
        ("first-search-limit-300", "majordomus_search", {"query": layer.query, "limit": 300}),
    ]
    for index, (label, tool, args) in enumerate(firsts):
        session = McpSession(run, layer.name, label)
        session.initialize(MCP_PROTOCOLS[index % 2])
        session.call(f"tools/call {tool}", tool, args)
        session.call(f"tools/call {tool} again", tool, args)
        session.close()


def mcp_reasoning(run: Run, name: str, records: Sequence[str]) -> None:
    session = McpSession(run, name, "reasoning")
    session.initialize(MCP_PROTOCOLS[1])
    calls: list[tuple[str, dict[str, Any]]] = [
        ("majordomus_reasoning", {}),
        ("majordomus_reasoning", {"task": "all"}),
        ("majordomus_reasoning", {"as_of": SYNTHETIC_TASK_AS_OF}),
        ("majordomus_reasoning_handover", {}),
        ("majordomus_reasoning_check", {}),
        ("majordomus_reasoning_advisors", {}),
        ("majordomus_reasoning_plan", {"materiality": "critical", "confidence": "low"}),
        *[("majordomus_reasoning_explain", {"id": record}) for record in records],
    ]
    for tool, args in calls:
        label = " ".join(f"{k}={v}" for k, v in args.items())
        session.call(f"tools/call {tool} {label}", tool, args)
    session.request("resources/read reasoning", "resources/read", {"uri": "majordomus://reasoning"})
    session.close()


def mcp_writes(run: Run) -> None:
    """Records written over MCP, then the layer changed under the running server."""
    repo = "writes-mcp"
    root = run.repo(repo)
    session = McpSession(run, repo, "writes")
    session.initialize()
    tool = "majordomus_reasoning_record"
    answer = session.call("record assessment", tool, {"record": ASSESSMENT})
    assessment = str(structured(answer).get("record", {}).get("id", UNKNOWN_RECORD))
    clock_check(answer, "mcp")
    session.call("record plan", tool, {"record": {"kind": "plan", "assessment": assessment}})
    session.call("record refused", tool, {"record": {"kind": "plan", "assessment": UNKNOWN_RECORD}})
    session.call("reasoning after", "majordomus_reasoning", {})
    alpha = root / ".ai/repo/rules/project/alpha.v1.md"
    alpha.write_text(alpha.read_text(encoding="utf-8") + "\nOne more line.\n", encoding="utf-8")
    git(run, root, "add", "-A")
    session.call("get alpha after a change", "majordomus_get", {"uri": "rule/project.alpha"})
    delta = root / ".ai/repo/rules/project/delta.v1.md"
    delta.write_text(BROKEN_RULE.replace("gamma", "delta") + "---\n\nDelta.\n", encoding="utf-8")
    git(run, root, "add", "-A")
    session.call("list after a new rule", "majordomus_list", {"kind": "rule"})
    session.request("resources/list after a new rule", "resources/list")
    session.call("repository after a new rule", "majordomus_repository", {})
    session.close()


def structured(answer: Any) -> Any:
    """The JSON of a tool result: its structured content, or its first text ({} if none)."""
    try:
        result = answer["result"]
        if "structuredContent" in result:
            return result["structuredContent"]
        return json.loads(result["content"][0]["text"])
    except (KeyError, IndexError, TypeError, ValueError):
        return {}


def clock_check(answer: Any, surface: str) -> None:
    if FROZEN_STAMP not in json.dumps(answer):
        print(f"parity: WARNING: the {surface} server's clock is not frozen", file=sys.stderr)


def mcp_suite(run: Run) -> None:
    mcp_full(run, HEALTHY, [])
    mcp_full(run, SYNTHETIC_LAYER, ledger_ids(run, "synthetic"))
    mcp_first_answers(run, HEALTHY)
    mcp_first_answers(run, RULES_100)
    mcp_short(run, LEDGERLY)
    mcp_short(run, Layer("healthy-degraded", uris=HEALTHY.uris, issue="I0001"))
    mcp_short(run, Layer("healthy-degraded", uris=HEALTHY.uris), "strict", ["--strict"])
    mcp_short(run, HEALTHY, "read-only", ["--read-only"])
    if run.repo("prismatic").is_dir():
        mcp_short(run, PRISMATIC)
    mcp_reasoning(run, "synthetic-1200", ledger_ids(run, "synthetic-1200"))
    mcp_writes(run)


# --- HTTP ---------------------------------------------------------------------------------------


class Server:
    """A running `python -m majordomus serve --port 0`, its port and pid normalised away."""

    def __init__(self, run: Run, repo: str, args: Sequence[str] = ()) -> None:
        self.run = run
        self.repo = repo
        self.args = ["majordomus", "serve", "--port", "0", *args]
        self.process = subprocess.Popen(
            [run.python, "-m", *self.args],
            cwd=run.repo(repo),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=run.env(),
        )
        self.stderr: list[str] = []
        self.port: queue.Queue[int | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()
        port = self.port.get(timeout=120)
        if port is None:
            raise SystemExit(f"parity: serve exited in {repo}: {''.join(self.stderr)}")
        self.bound = port
        self.swaps = [(f"127.0.0.1:{port}".encode(), b"127.0.0.1:<port>")]

    def _read(self) -> None:
        assert self.process.stderr is not None
        for raw in self.process.stderr:
            line = raw.decode("utf-8", "replace")
            self.stderr.append(line)
            found = SERVED_URL.search(line)
            if found and self.port.empty():
                self.port.put(int(found.group(1)))
        self.port.put(None)

    def ask(
        self,
        method: str,
        target: str,
        body: bytes | None = None,
        headers: Mapping[str, str] | None = None,
        name: str | None = None,
    ) -> tuple[int, bytes]:
        """One request on a fresh connection, saved as `http/REPO/<slug>`."""
        connection = http.client.HTTPConnection("127.0.0.1", self.bound, timeout=120)
        sent = {"Content-Type": "application/json"} if body is not None else {}
        sent.update(headers or {})
        connection.request(method, target, body=body, headers=sent)
        response = connection.getresponse()
        data = response.read()
        connection.close()
        header = [("request", f"{method} {target}")]
        header += [("header", f"{k}: {v}") for k, v in sorted((headers or {}).items())]
        if body is not None:
            header.append(("body", body.decode("utf-8", "replace")))
        header += [
            ("status", str(response.status)),
            ("type", response.getheader("content-type") or "-"),
        ]
        scope = f"http/{self.repo}"
        label = name or self.run.normalise(f"{method} {target}".encode(), scope).decode()
        self.run.save(f"http/{self.repo}/{slug(label)}", header, [("body", data)], self.swaps)
        return response.status, data

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait()
        self.reader.join(timeout=30)
        pid = str(self.process.pid).encode()
        swaps = [*self.swaps, (b"[" + pid + b"]", b"[<pid>]")]
        text = "".join(self.stderr).encode()
        header = [("argv", shlex.join(self.args)), ("exit", str(code))]
        self.run.save(f"http/{self.repo}/~server", header, [("stderr", text)], swaps)


def queries(layer: Layer, records: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
    """Typical query strings per GET route; a route not named here is asked without one."""
    seed = {"issue": layer.issue} if layer.issue else {"intent": layer.intent}
    paths = {"paths": list(layer.paths)} if layer.paths else {"intent": layer.intent}
    return {
        "/api/v1/capabilities": [{}, {"kind": "query"}, {"exposure": "mcp"}],
        "/api/v1/capability": [{"id": "objects.get"}, {"id": "no.such"}, {}],
        "/api/v1/devcontext": [
            {**seed, "budget_tokens": "4000"},
            {"intent": layer.intent, "bundle": "true", "budget_tokens": "3000"},
            paths,
            {"budget_tokens": "many"},
        ],
        "/api/v1/devcontext/explain": [{**seed, "uri": layer.uris[0]}, seed],
        "/api/v1/object": [
            *[{"uri": uri} for uri in layer.uris[:2]],
            *[{"uri": short} for short in layer.short[:1]],
            {"uri": "majordomus://rule/no-such@1"},
            {},
        ],
        "/api/v1/objects": [{}, {"kind": layer.kind}, {"tag": layer.tag or "none"}],
        "/api/v1/search": [
            {"query": layer.query},
            {"query": layer.query, "kind": layer.kind, "limit": "1"},
            {"query": layer.query, "limit": "abc"},
        ],
        "/api/v1/reasoning": [{}, {"task": "all"}, {"as_of": SYNTHETIC_TASK_AS_OF}],
        "/api/v1/reasoning/explain": [{"id": r} for r in [*records, UNKNOWN_RECORD]],
        "/api/v1/reasoning/plan": [
            {"materiality": "high", "confidence": "low"},
            {"materiality": "x"},
        ],
    }


def get_routes(server: Server) -> list[str]:
    """The GET routes the server's own OpenAPI document lists."""
    status, data = server.ask("GET", "/openapi.json")
    if status != 200:
        return []
    document = json.loads(data)
    return sorted(path for path, ops in document.get("paths", {}).items() if "get" in ops)


def http_reads(run: Run, layer: Layer, records: Sequence[str]) -> None:
    server = Server(run, layer.name)
    try:
        for target in ("/", "/api/v1", "/swagger", "/nope", "/api/v1/nope"):
            server.ask("GET", target)
        table = queries(layer, records)
        for path in get_routes(server):
            for query in table.get(path, [{}]):
                server.ask("GET", f"{path}?{urlencode(query, doseq=True)}" if query else path)
        http_errors(server)
    finally:
        server.stop()


def http_errors(server: Server) -> None:
    records = "/api/v1/reasoning/records"
    server.ask("POST", records, b"this is not json", name="POST records not-json")
    server.ask("POST", records, b'{"record": {"kind": "nope"}}', name="POST records bad kind")
    server.ask("POST", records, b"[]", name="POST records array")
    server.ask("POST", "/api/v1/objects", b"{}", name="POST objects")
    server.ask("DELETE", "/api/v1/objects")
    server.ask("GET", "/api/v1/objects", headers={"Host": "evil.example"}, name="bad host")
    server.ask(
        "GET", "/api/v1/objects", headers={"Origin": "http://evil.example"}, name="bad origin"
    )


def http_writes(run: Run) -> None:
    server = Server(run, "writes-http")
    records = "/api/v1/reasoning/records"
    task = "http-task"  # one record per kind: records of one frozen moment sort by id
    try:
        body = json.dumps({"record": ASSESSMENT, "task": task}, sort_keys=True).encode()
        _, data = server.ask("POST", records, body, name="POST assessment")
        answer = json.loads(data)
        clock_check(answer, "http")
        assessment = answer.get("record", {}).get("id", UNKNOWN_RECORD)
        plan = {"record": {"kind": "plan", "assessment": assessment}, "task": task}
        server.ask("POST", records, json.dumps(plan, sort_keys=True).encode(), name="POST plan")
        refused = {"record": {"kind": "plan", "assessment": UNKNOWN_RECORD}}
        server.ask("POST", records, json.dumps(refused).encode(), name="POST refused")
        for target in (
            "/api/v1/reasoning",
            f"/api/v1/reasoning?task={task}",
            "/api/v1/reasoning?task=all",
            f"/api/v1/reasoning/handover?task={task}",
            f"/api/v1/reasoning/explain?id={assessment}",
        ):
            server.ask("GET", target)
    finally:
        server.stop()


def http_suite(run: Run) -> None:
    http_reads(run, HEALTHY, [])
    http_reads(run, SYNTHETIC_LAYER, ledger_ids(run, "synthetic"))
    http_writes(run)


# --- capture ----------------------------------------------------------------------------------


def clock_case(run: Run) -> None:
    """Proof that the frozen clock and the checkout are what a measured process sees."""
    done = subprocess.run(
        [run.python, "-c", CLOCK_PROBE],
        capture_output=True,
        env=run.env(),
        cwd=run.work / "empty",
        check=False,
    )
    lines = done.stdout.decode().split("\n")
    if done.returncode != 0 or lines[0] != FROZEN_STAMP:
        raise SystemExit(f"parity: the clock is not frozen: {done.stdout!r} {done.stderr!r}")
    if not lines[1].startswith(str(run.checkout)):
        raise SystemExit(f"parity: majordomus was imported from {lines[1]}, not the checkout")
    header = [("argv", shlex.join(["python", "-c", CLOCK_PROBE])), ("exit", str(done.returncode))]
    run.save("env/clock", header, [("stdout", done.stdout), ("stderr", done.stderr)])


def compile_bytecode(run: Run) -> None:
    env = {k: v for k, v in run.env().items() if k != "PYTHONDONTWRITEBYTECODE"}
    for folder in (run.checkout / "majordomus", run.work / "site"):
        subprocess.run([run.python, "-m", "compileall", "-q", str(folder)], env=env, check=True)


def prepare_out(out: Path) -> None:
    if out.exists() and any(out.iterdir()) and not (out / "capture.json").exists():
        raise SystemExit(f"parity: {out} is not empty and holds no capture")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)


def capture(args: argparse.Namespace) -> int:
    checkout = Path(args.checkout).resolve()
    if not (checkout / "majordomus" / "__init__.py").is_file():
        raise SystemExit(f"parity: {checkout} is not a majordomus checkout")
    out = Path(args.out).resolve()
    run = Run(
        checkout=checkout,
        inputs=Path(args.inputs).resolve() if args.inputs else checkout,
        work=Path(args.work).resolve(),
        out=out,
        python=args.python,
        jobs=max(1, args.jobs),
    )
    with work_lock(run.work):
        return captured(run)


def captured(run: Run) -> int:
    """The capture itself, WORKDIR held."""
    started = time.monotonic()
    out = run.out
    prepare_out(out)
    prepare_work(run)
    compile_bytecode(run)
    clock_case(run)
    phases: list[tuple[str, Callable[[Run], None]]] = [
        ("repositories", lambda r: save_inputs(r, build_repositories(r))),
        ("command line", cli_suite),
        ("mcp", mcp_suite),
        ("http", http_suite),
    ]
    timings: dict[str, float] = {}
    for title, phase in phases:
        begun = time.monotonic()
        phase(run)
        timings[title] = round(time.monotonic() - begun, 1)
        print(f"parity: {title} done in {timings[title]} s", file=sys.stderr)
    timings["total"] = round(time.monotonic() - started, 1)
    summary = {
        "checkout": str(run.checkout),
        "commit": head_of(run.checkout),
        "inputs": str(run.inputs),
        "frozen_at": FROZEN_AT,
        "cases": dict(sorted(run.counts.items())),
        "seconds": timings,
        "jobs": run.jobs,
        "slowest commands": {
            name: round(seconds, 2)
            for name, seconds in sorted(run.seconds.items(), key=lambda item: -item[1])[:12]
        },
    }
    (out / "capture.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    total = sum(run.counts.values())
    print(f"parity: {total} cases in {out} ({timings['total']} s)", file=sys.stderr)
    return 0


def cli_suite(run: Run) -> None:
    with batch(run):
        global_cases(run)
        layer_suite(run)
        broken_cases(run, sorted(p.name for p in run.repos.iterdir()))
    writes_cli(run)
    writes_new(run)
    cli(run, "init", ["init", "--extend"])
    demo_case(run)


def head_of(checkout: Path) -> str:
    done = subprocess.run(
        ["git", "-C", str(checkout), "rev-parse", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


# --- compare ----------------------------------------------------------------------------------


def cases_in(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*.txt")}


def diff_head(name: str, a: bytes, b: bytes, lines: int = 30) -> list[str]:
    old = a.decode("utf-8", "replace").splitlines(keepends=True)
    new = b.decode("utf-8", "replace").splitlines(keepends=True)
    diff = difflib.unified_diff(old, new, fromfile=f"A/{name}", tofile=f"B/{name}", n=2)
    head = list(itertools.islice(diff, lines + 1))
    shown = [line if line.endswith("\n") else line + "\n" for line in head[:lines]]
    if len(head) > lines:
        shown.append("    ...\n")
    return shown


def compare(args: argparse.Namespace) -> int:
    a, b = Path(args.a), Path(args.b)
    for folder in (a, b):
        if not folder.is_dir():
            raise SystemExit(f"parity: {folder} is not a capture")
    names_a, names_b = cases_in(a), cases_in(b)
    differ, only_a, only_b = [], sorted(names_a - names_b), sorted(names_b - names_a)
    for name in sorted(names_a & names_b):
        old, new = (a / name).read_bytes(), (b / name).read_bytes()
        if old != new:
            differ.append(name)
            print(f"=== differs: {name}")
            sys.stdout.writelines(diff_head(name, old, new))
    for name in only_a:
        print(f"=== only in A: {name}")
    for name in only_b:
        print(f"=== only in B: {name}")
    same = len(names_a & names_b) - len(differ)
    print(
        f"parity: {len(names_a | names_b)} cases: {same} identical, {len(differ)} differ, "
        f"{len(only_a)} only in A ({a}), {len(only_b)} only in B ({b})"
    )
    return 1 if differ or only_a or only_b else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    take = sub.add_parser("capture", help="run every case against a checkout")
    take.add_argument("--checkout", required=True, help="the majordomus checkout to measure")
    take.add_argument("--out", required=True, help="the folder the case files go to")
    take.add_argument("--work", default=str(DEFAULT_WORK), help="repositories, home, site")
    take.add_argument("--inputs", help="the checkout whose fixtures and generator build the inputs")
    take.add_argument("--python", default=PYTHON, help="the interpreter (with the dependencies)")
    take.add_argument("--jobs", type=int, default=2, help="read-only commands run at once")
    take.set_defaults(handler=capture)
    check = sub.add_parser("compare", help="list the cases that differ between two captures")
    check.add_argument("a")
    check.add_argument("b")
    check.set_defaults(handler=compare)
    args = parser.parse_args(argv)
    handler: Callable[[argparse.Namespace], int] = args.handler
    return handler(args)


if __name__ == "__main__":
    sys.exit(main())
