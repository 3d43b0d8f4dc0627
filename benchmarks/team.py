"""The team ledger's targets (issue 34), over real git and file:// remotes.

    python benchmarks/team.py [--work DIR] [--samples 3] [--only NAME ...]

Rows (each prints its figure, the target and `met` or `MISSED`; exit 10 when one is missed):

* `interleave` — two clones append 500 records each to one task through the ledger's write
  path, with 100 random (seeded) push / pull / sync steps between the writes, then both
  sync; `reasoning status --format json` and `reasoning handover` of the task must be
  byte-identical in the two clones.
* `quarantine` — a writer's ref rewritten on the remote (a forced push): `reasoning pull`
  exits 10 naming it, and `status --task all --format json` is byte-identical before and
  after.
* `secrets` — 50 hand-planted records holding 50 secrets of ten shapes, pushed: 0 of them in
  `git cat-file --batch-all-objects --batch` of the remote.
* `replay` — 20 writers published 500 records each (five pushes of 100); a fresh clone runs
  `reasoning pull` then `reasoning status --task all --format json`: the two whole processes
  together, median of `--samples`; target <= 2 s.
* `push` — 100 new records on top of 1,000 published: `reasoning push` to a file:// remote,
  whole process, median of `--samples`; target <= 1 s.

The processes are the installed `majordomus`; the set-up writes records through the
library (`interleave`) or as record files (the others, stamped as the writer would).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.processes import MAJORDOMUS, bytecode_compiled, environment, load_average
from majordomus.ledger.record import RECORD_SCHEMA, AssessmentInput, ReasoningRecord
from majordomus.ledger.service import Ledger
from majordomus.ledger.store import STATE_DIR, record_bytes

IDENTITY = {
    "GIT_AUTHOR_NAME": "Bench",
    "GIT_AUTHOR_EMAIL": "bench@example.invalid",
    "GIT_COMMITTER_NAME": "Bench",
    "GIT_COMMITTER_EMAIL": "bench@example.invalid",
    "GIT_CONFIG_NOSYSTEM": "1",
}
ENV = {**environment(), **IDENTITY}

#: Ten secret shapes the redactor knows; five of each make the fifty planted secrets.
SECRETS = (
    "ghp_{n}aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    "AKIA{n}ABCDEFGHIJKLMN",
    "sk-ant-api03-{n}bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb",
    "xoxb-1234567890-{n}cccccccccccccccccccc",
    "glpat-{n}dddddddddddddddddd",
    "npm_{n}eeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
    "sk_live_{n}ffffffffffffffffffffffff",
    "AIza{n}ggggggggggggggggggggggggggggggggg",
    "password={n}hhhhhhhhhhhhhhhhhhh",
    "hf_{n}iiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiiii",
)


def git(cwd: Path, *args: str, data: bytes | None = None) -> str:
    done = subprocess.run(
        ["git", "-C", str(cwd), *args], input=data, capture_output=True, check=True, env=ENV
    )
    return done.stdout.decode()


def majordomus(cwd: Path, *args: str, ok: tuple[int, ...] = (0,)) -> tuple[int, bytes, float]:
    """Exit code, stdout and wall seconds of one whole process."""
    start = time.perf_counter()
    done = subprocess.run([MAJORDOMUS, *args], cwd=cwd, capture_output=True, env=ENV)
    took = time.perf_counter() - start
    if done.returncode not in ok:
        raise SystemExit(f"team: {' '.join(args)} exited {done.returncode}: {done.stderr!r}")
    return done.returncode, done.stdout, took


def clones(work: Path, count: int) -> tuple[Path, list[Path]]:
    """A bare repository with an initialised layer, and `count` clones of it."""
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    bare = work / "remote.git"
    git(work, "init", "-q", "--bare", "-b", "main", str(bare))
    first = work / "c0"
    git(work, "init", "-q", "-b", "main", str(first))
    majordomus(first, "init")
    git(first, "add", "-A")
    git(first, "commit", "-q", "-m", "layer")
    git(first, "remote", "add", "origin", bare.as_uri())
    git(first, "push", "-q", "origin", "main")
    for n in range(1, count):
        git(work, "clone", "-q", bare.as_uri(), str(work / f"c{n}"))
    return bare, [work / f"c{n}" for n in range(count)]


def plant(root: Path, writer: str, count: int, start: int, task: str = "t") -> None:
    """`count` assessment files as `writer` would write them, counters from `start`."""
    folder = root / STATE_DIR / task
    folder.mkdir(parents=True, exist_ok=True)
    (root / ".ai/local/state/writer-id").write_text(f"{writer}\n")
    for n in range(start, start + count):
        clock = f"{n // 3600 % 24:02}{n // 60 % 60:02}{n % 60:02}"
        ident = f"assessment-20261001T{clock}000Z-{n:06x}-{writer}"
        record = ReasoningRecord(
            schema_=RECORD_SCHEMA,
            version=1,
            id=ident,
            task=task,
            recorded_at=f"2026-10-01T{clock[:2]}:{clock[2:4]}:{clock[4:]}.000Z",
            lamport=n + 1,
            writer=writer,
            body=AssessmentInput(subject=f"{writer} question {n}", hypothesis="h" * 200),
        )
        (folder / f"{ident}.json").write_bytes(record_bytes(record))


def row(name: str, figure: str, target: str, met: bool) -> bool:
    print(f"{name:<11} {figure:<44} target {target:<22} {'met' if met else 'MISSED'}")
    return met


def interleave(work: Path) -> bool:
    _, (a, b) = clones(work / "interleave", 2)
    old = dict(os.environ)
    os.environ.update(IDENTITY)
    try:
        from majordomus.ledger.team import pull, push, sync

        chance = random.Random(34)
        steps = {"push": push, "pull": pull, "sync": sync}
        start = time.perf_counter()
        for step in range(100):
            for repo in (a, b):
                for n in range(5):
                    Ledger.open(repo, {}).record(
                        AssessmentInput(subject=f"{repo.name} {step}.{n}"), task="shared"
                    )
            steps[chance.choice(list(steps))](chance.choice((a, b)), None)
        for repo in (a, b, a):
            sync(repo, None)
        took = time.perf_counter() - start
    finally:
        os.environ.clear()
        os.environ.update(old)
    views = [
        (
            majordomus(repo, "reasoning", "status", "--task", "shared", "--format", "json")[1],
            majordomus(repo, "reasoning", "handover", "--task", "shared")[1],
        )
        for repo in (a, b)
    ]
    records = views[0][0].count(b'"phase"')
    same = views[0] == views[1]
    return row(
        "interleave",
        f"{records} records, identical: {same} ({took:.0f} s)",
        "identical, 1000",
        same and records == 1000,
    )


def quarantine(work: Path) -> bool:
    bare, (a, b) = clones(work / "quarantine", 2)
    plant(a, "0000000a", 20, 0)
    majordomus(a, "reasoning", "push")
    majordomus(b, "reasoning", "pull")
    before = majordomus(b, "reasoning", "status", "--task", "all", "--format", "json")[1]
    ref = "refs/majordomus/ledger/0000000a"
    tree = git(bare, "rev-parse", f"{ref}~0^{{tree}}").strip()
    forced = git(bare, "commit-tree", tree, "-m", "rewritten").strip()
    git(bare, "update-ref", ref, forced)
    code, out, _ = majordomus(b, "reasoning", "pull", ok=(10,))
    after = majordomus(b, "reasoning", "status", "--task", "all", "--format", "json")[1]
    named = b"refs/majordomus/quarantine/origin/0000000a" in out
    unchanged = before == after
    return row(
        "quarantine",
        f"exit {code}, named: {named}, projection unchanged: {unchanged}",
        "10, named, unchanged",
        code == 10 and named and unchanged,
    )


def secrets(work: Path) -> bool:
    bare, (a,) = clones(work / "secrets", 1)
    plant(a, "0000000b", 1, 0)
    planted = [shape.format(n=f"{n:02d}") for shape in SECRETS for n in range(5)]
    folder = a / STATE_DIR / "t"
    template = next(folder.iterdir()).read_bytes()
    for n, secret in enumerate(planted):
        record = ReasoningRecord.model_validate_json(template).model_copy(
            update={"id": f"planted-{n:02d}", "body": AssessmentInput(subject=f"see {secret}")}
        )
        (folder / f"planted-{n:02d}.json").write_bytes(record_bytes(record))
    majordomus(a, "reasoning", "push")
    objects = subprocess.run(
        ["git", "-C", str(bare), "cat-file", "--batch-all-objects", "--batch"],
        capture_output=True,
        check=True,
    ).stdout
    found = sum(secret.encode() in objects for secret in planted)
    return row(
        "secrets", f"{found} of {len(planted)} planted secrets on the remote", "0", not found
    )


def replay(work: Path, samples: int) -> bool:
    _, repos = clones(work / "replay", 21)
    for n, repo in enumerate(repos[1:]):
        writer = f"{n + 1:08x}"
        for part in range(5):
            plant(repo, writer, 100, part * 100)
            majordomus(repo, "reasoning", "push")
    fresh = repos[0]
    took = []
    for _ in range(samples):
        for ref in git(fresh, "for-each-ref", "--format=%(refname)", "refs/majordomus/").split():
            git(fresh, "update-ref", "-d", ref)
        pulled = majordomus(fresh, "reasoning", "pull")
        status = majordomus(fresh, "reasoning", "status", "--task", "all", "--format", "json")
        took.append(pulled[2] + status[2])
        assert status[1].count(b'"phase"') == 10_000, "every record is replayed"
    median = statistics.median(took)
    spread = f"{min(took):.2f}-{max(took):.2f}"
    return row(
        "replay", f"pull + status, 10k records: {median:.2f} s ({spread})", "<= 2 s", median <= 2
    )


def push_hundred(work: Path, samples: int) -> bool:
    _, (a,) = clones(work / "push", 1)
    plant(a, "0000000c", 1000, 0)
    majordomus(a, "reasoning", "push")
    took = []
    for n in range(samples):
        plant(a, "0000000c", 100, 1000 + n * 100)
        took.append(majordomus(a, "reasoning", "push")[2])
    median = statistics.median(took)
    spread = f"{min(took):.2f}-{max(took):.2f}"
    return row("push", f"100 new records: {median:.2f} s ({spread})", "<= 1 s", median <= 1)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/mj-team-bench"))
    parser.add_argument("--samples", type=int, default=3)
    parser.add_argument("--only", nargs="*", default=None)
    given = parser.parse_args()
    bytecode_compiled()
    rows = {
        "interleave": lambda: interleave(given.work),
        "quarantine": lambda: quarantine(given.work),
        "secrets": lambda: secrets(given.work),
        "replay": lambda: replay(given.work, given.samples),
        "push": lambda: push_hundred(given.work, given.samples),
    }
    print(f"load average {load_average()}")
    results = [run() for name, run in rows.items() if given.only is None or name in given.only]
    print(f"load average {load_average()}")
    return 0 if all(results) else 10


if __name__ == "__main__":
    sys.exit(main())
