"""Crash safety of the writer (docs/RELIABILITY.md, property 2): writers forked from one warmed
process SIGKILL themselves at seeded moments, and at each step of one write for each
publisher; `load()` never sees a partial record and `status` / `check` stay clean."""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import random
import signal
import sys
from pathlib import Path
from types import FrameType, SimpleNamespace
from typing import Any

import pytest

from majordomus.ledger.store import STATE_DIR, Store
from tests.conftest import run_majordomus
from tests.reliability.conftest import soak

TASK = "crashes"
SEED = 20261001
KILLS = soak(48, 1000)
AT_ONCE = 4
RECORDS_PER_WRITER = 3


def _record(number: int) -> dict[str, Any]:
    """One record as written, JSON."""
    return {"kind": "assessment", "subject": f"question {number}"}


def _write(ledger: Any, number: int) -> str:
    """Record one record into the crash task as a library user would; its id."""
    from majordomus import AssessmentInput

    return str(ledger.record(AssessmentInput(**_record(number)), task=TASK).record.id)


def _inside_write(frame: FrameType | None) -> bool:
    while frame is not None:
        code = frame.f_code
        if code.co_name == "write" and code.co_filename.endswith("ledger/store.py"):
            return True
        frame = frame.f_back
    return False


def _is_io(function: Any) -> bool:
    """An `os` system call or a method of an open file."""
    return getattr(function, "__module__", None) == "posix" or isinstance(
        getattr(function, "__self__", None), io.IOBase
    )


def _counts(only_in_write: bool, event: str, frame: FrameType, arg: Any) -> bool:
    """Which profile events count: any, or the I/O calls made inside `Store.write`."""
    return not only_in_write or (event == "c_call" and _is_io(arg) and _inside_write(frame))


def _self_kill_after(limit: int, only_in_write: bool, log: Path) -> None:
    """SIGKILL this process at the `limit`-th counted profile event; the moment is noted in
    `log` first (inside the write or not, and the function called)."""
    count = 0

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal count
        if not _counts(only_in_write, event, frame, arg):
            return
        count += 1
        if count >= limit:
            where = "write" if only_in_write or _inside_write(frame) else "elsewhere"
            name = getattr(arg, "__name__", None) or frame.f_code.co_name
            with log.open("a", encoding="utf-8") as handle:
                handle.write(f"{where} {name}\n")
            os.kill(os.getpid(), signal.SIGKILL)

    sys.setprofile(profile)


def _calibrate(ledger: Any, number: int) -> tuple[int, int]:
    """(all events, I/O calls inside the write) of one `repo.ledger.record` call."""
    seen = [0, 0]

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        seen[0] += 1
        seen[1] += _counts(True, event, frame, arg)

    sys.setprofile(profile)
    _write(ledger, number)
    sys.setprofile(None)
    return seen[0], seen[1]


def _writer(ledger: Any, journal: Path, first: int, limit: int, only_in_write: bool) -> None:
    """A forked writer: record a few records, journal each success, die at the chosen moment."""
    _self_kill_after(limit, only_in_write, journal.with_name("kills.txt"))
    for number in range(first, first + RECORDS_PER_WRITER):
        ident = _write(ledger, number)
        with journal.open("a", encoding="utf-8") as handle:
            handle.write(ident + "\n")
    sys.setprofile(None)
    os._exit(0)


def zygote(root: str, environ: dict[str, str], kills: int, seed: int, out: Any) -> None:
    """Warm up once, then fork writers `AT_ONCE` at a time until `kills` of them died."""
    from majordomus import Repository

    ledger = Repository.open(root, environ=environ).ledger
    _write(ledger, -1)  # every import a write needs is done
    events, writes = _calibrate(ledger, -2)
    rng = random.Random(seed)
    journal = Path(root) / "journal.txt"
    killed = survived = rounds = 0
    number = 0
    while killed < kills:
        children = []
        for _ in range(AT_ONCE):
            only_in_write = rng.random() < 0.5
            span = writes if only_in_write else events * RECORDS_PER_WRITER
            limit = rng.randint(1, span)
            pid = os.fork()
            if pid == 0:
                _writer(ledger, journal, number, limit, only_in_write)
            children.append(pid)
            number += RECORDS_PER_WRITER
        for pid in children:
            _, status = os.waitpid(pid, 0)
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL:
                killed += 1
            else:
                assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0
                survived += 1
        rounds += 1
    out.put({"killed": killed, "survived": survived, "rounds": rounds, "span": (events, writes)})


def assert_nothing_partial(root: Path, env: dict[str, str]) -> dict[str, int]:
    """The invariants after crashes; returns what the store holds."""
    folder = root / STATE_DIR / TASK
    loaded = Store(root).load()
    assert loaded.unreadable == [], "a partial record is visible to load()"
    ids = {record.id for record in loaded.records}
    temporary = 0
    for path in folder.iterdir():
        if path.name.endswith(".json.tmp"):
            assert path.name.startswith(".")
            temporary += 1
            continue
        assert path.suffix == ".json", path.name
        assert path.stem in ids
        assert json.loads(path.read_text(encoding="utf-8"))["id"] == path.stem
    journal = root / "journal.txt"
    if journal.exists():
        journalled = set(journal.read_text(encoding="utf-8").split())
        assert journalled <= ids, "a record its writer saw written is gone"
    for args in (["reasoning", "check"], ["reasoning", "status", "--task", "all"]):
        done = run_majordomus([*args, "--format", "json"], cwd=root, env=env)
        assert done.code == 0, done.stdout + done.stderr
        answer = json.loads(done.stdout)
        if args[1] == "check":
            assert answer == {**answer, "ok": True, "findings": []}
        else:
            assert "unreadable" not in answer["state"]
            assert answer["state"]["totals"]["records"] == len(ids)
    return {"records": len(ids), "temporary": temporary}


def test_seeded_random_kills_leave_nothing_partial(repo: Path, suite_env: dict[str, str]) -> None:
    spawn = multiprocessing.get_context("spawn")
    out = spawn.Queue()
    process = spawn.Process(target=zygote, args=(str(repo), suite_env, KILLS, SEED, out))
    process.start()
    tally = out.get(timeout=600)
    process.join(timeout=60)
    assert process.exitcode == 0
    assert tally["killed"] >= KILLS
    held = assert_nothing_partial(repo, suite_env)
    moments = (repo / "kills.txt").read_text(encoding="utf-8").splitlines()
    assert len(moments) == tally["killed"]
    inside = [m.split()[1] for m in moments if m.startswith("write ")]
    # the seed spreads the kills over the whole call and over the write's own I/O calls;
    # victims wrote records before they died
    assert len(inside) >= KILLS // 4
    assert len(moments) - len(inside) >= KILLS // 8
    assert held["temporary"] >= 1, "no kill fell between the temporary file and its unlink"
    assert held["records"] > 2 + tally["survived"] * RECORDS_PER_WRITER
    # a writer after all those crashes still writes
    done = run_majordomus(
        ["reasoning", "record", "--task", TASK],
        cwd=repo,
        input=json.dumps(_record(10**6)),
        env=suite_env,
    )
    assert done.code == 0, done.stderr


# -- a kill at each step of one write ------------------------------------------------------


#: Each step of a write, and the (records, temporary files) a kill there leaves behind.
LEFT = {
    "after-mkdir": (0, 0),
    "after-open": (0, 1),
    "half-written": (0, 1),
    "before-fsync": (0, 1),
    "before-publish": (0, 1),
    "after-publish": (1, 0),
    "after-unlink": (1, 0),
}
#: How a write publishes its temporary file: `renameat2` where the platform has it, else a
#: hard link (the temporary name is removed after it).
PUBLISHERS = ["renameat2", "link"]


def _die() -> None:
    os.kill(os.getpid(), signal.SIGKILL)


class _HalfWriter:
    """A file handle that, at step `half-written`, writes half of its first write and dies."""

    def __init__(self, handle: Any, step: str) -> None:
        self.handle = handle
        self.step = step

    def __enter__(self) -> _HalfWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.handle.close()

    def write(self, data: bytes) -> int:
        if self.step == "half-written":
            self.handle.write(data[: len(data) // 2])
            self.handle.flush()
            _die()
        return self.handle.write(data)

    def flush(self) -> None:
        self.handle.flush()

    def fileno(self) -> int:
        return self.handle.fileno()


class _Saboteur:
    """The calls of `Store.write` that safefs makes, each dying when it is at `step`."""

    def __init__(self, step: str, publish: Any) -> None:
        self.step = step
        self.publish = publish
        self.real = {name: getattr(os, name) for name in ("open", "fdopen", "fsync", "mkdir")}

    def mkdir(self, path: Any, *args: Any, **kwargs: Any) -> None:
        try:
            self.real["mkdir"](path, *args, **kwargs)
        finally:
            if self.step == "after-mkdir" and path == TASK:
                _die()

    def opened(self, path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        fd: int = self.real["open"](path, flags, *args, **kwargs)
        if self.step == "after-open" and str(path).endswith(".json.tmp"):
            _die()
        return fd

    def fdopen(self, fd: int, *args: Any, **kwargs: Any) -> Any:
        return _HalfWriter(self.real["fdopen"](fd, *args, **kwargs), self.step)

    def fsync(self, fd: int) -> None:
        if self.step == "before-fsync":
            _die()
        self.real["fsync"](fd)

    def published(self, dir_fd: int, temporary: str, name: str) -> bool:
        if self.step == "before-publish":
            _die()
        done: bool = self.publish(dir_fd, temporary, name)
        if self.step == "after-publish":
            _die()
        return done

    def fsync_directory(self, fd: int) -> None:
        if self.step == "after-unlink":
            _die()


def kill_at(root: str, environ: dict[str, str], step: str, publisher: str) -> None:
    """Record one record and die at `step` of `Store.write` (run in a spawned process)."""
    from majordomus import Repository, safefs
    from majordomus.ledger.refs import writer_id

    writer_id(Path(root))  # a clone's first record mints its writer id: not the write killed here
    publish = {"renameat2": safefs._publish_renameat2, "link": safefs._publish_link}
    saboteur = _Saboteur(step, publish[publisher])
    opened, mkdir = saboteur.opened, saboteur.mkdir
    # only safefs sees the wrapped calls: its `os` is a copy of the module's namespace
    wrapped = {"open": opened, "fdopen": saboteur.fdopen, "fsync": saboteur.fsync, "mkdir": mkdir}
    relative = os.supports_dir_fd | {opened, mkdir}
    safefs.os = SimpleNamespace(  # type: ignore[assignment]
        **{**vars(os), **wrapped, "supports_dir_fd": relative}
    )
    safefs.fsync_directory = saboteur.fsync_directory  # type: ignore[assignment]
    setattr(safefs, f"_publish_{publisher}", saboteur.published)
    if publisher == "link":
        safefs._publish_renameat2 = lambda *_args: False  # type: ignore[assignment]
    _write(Repository.open(root, environ=environ).ledger, 0)
    os._exit(0)


@pytest.mark.parametrize("publisher", PUBLISHERS)
@pytest.mark.parametrize("step", LEFT)
def test_a_kill_at_each_step_of_a_write(
    repo: Path, suite_env: dict[str, str], step: str, publisher: str
) -> None:
    spawn = multiprocessing.get_context("spawn")
    process = spawn.Process(target=kill_at, args=(str(repo), suite_env, step, publisher))
    process.start()
    process.join(timeout=120)
    assert process.exitcode == -signal.SIGKILL
    held = assert_nothing_partial(repo, suite_env)
    expected = LEFT[step]
    if step == "after-publish" and publisher == "link":
        expected = (1, 1)  # a rename leaves no temporary name behind; a link until the unlink
    assert (held["records"], held["temporary"]) == expected
