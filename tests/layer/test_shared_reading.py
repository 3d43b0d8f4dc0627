"""A cold build that reads part of its files in a second process yields the index a serial
build does, over every fixture layer, a synthetic layer and awkward files; a worker that
dies, stalls or answers garbage changes nothing, and none outlives the build."""

from __future__ import annotations

import os
import select
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from majordomus.layer import reading, shared_reading
from majordomus.layer.index import Built, build, build_index
from majordomus.layer.model import Discovery
from majordomus.layer.reader import SIZE_LIMIT
from majordomus.synthetic import Shape, SyntheticRepository
from tests.conftest import FIXTURES, git
from tests.layer.test_fixtures import FATAL, _setup

#: The broken fixtures a build reads (the others stop before reading anything).
READ = sorted(
    p.name for p in (FIXTURES / "layers" / "broken").iterdir() if p.is_dir() and p.name not in FATAL
)


def _rendered(built: Built) -> list[Any]:
    """Everything of an index a command prints, in order, and each file's read as a later
    build would reuse it."""
    index = built.index
    return [
        list(built.snapshot.files.items()),
        [obj.to_json() for obj in index.objects],
        [d.to_json() for d in index.diagnostics],
        [(e.source, e.target, e.kind) for e in index.edges],
        index.external,
        index.unresolved,
    ]


class Spy:
    """The workers started and the files they answered."""

    def __init__(self) -> None:
        self.processes: list[subprocess.Popen[bytes]] = []
        self.answered = 0


@pytest.fixture
def shared(monkeypatch: pytest.MonkeyPatch) -> Spy:
    """Every build shares: the worker is handed each file, one a chunk, but the first two
    (the build reads one file, then awaits the worker's answers)."""
    monkeypatch.setattr(reading, "SHARE_FROM", 1)
    monkeypatch.setattr(shared_reading, "CHUNK", 1)
    monkeypatch.setattr(shared_reading, "OUTSTANDING", sys.maxsize)
    monkeypatch.setattr(shared_reading, "STEP", 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    spy = Spy()
    real_start, real_unpack = shared_reading._start, shared_reading.unpack

    def start(*args: Any) -> Any:
        worker = real_start(*args)
        if worker is not None:
            spy.processes.append(worker.process)
        return worker

    def unpack(packed: Any) -> Any:
        spy.answered += 1
        return real_unpack(packed)

    monkeypatch.setattr(shared_reading, "_start", start)
    monkeypatch.setattr(
        shared_reading,
        "ready",
        lambda fd: bool(select.select([fd], [], [], shared_reading.PATIENCE)[0]),
    )
    monkeypatch.setattr(shared_reading, "unpack", unpack)
    return spy


def _serial(root: Path, discovery: Discovery = "vcs") -> list[Any]:
    old = reading.SHARE_FROM
    reading.SHARE_FROM = sys.maxsize
    try:
        return _rendered(build(root, discovery))
    finally:
        reading.SHARE_FROM = old


def _both(root: Path, spy: Spy, discovery: Discovery = "vcs") -> None:
    """The serial and the shared build print the same; the worker answered and is gone."""
    expected = _serial(root, discovery)
    assert _rendered(build(root, discovery)) == expected
    assert spy.processes and all(p.returncode is not None for p in spy.processes)


@pytest.mark.parametrize("name", ["healthy", "ledgerly", "planned"])
def test_fixture_layers(name: str, git_repo: Callable[..., Path], shared: Spy) -> None:
    _both(git_repo(f"layers/{name}"), shared)
    assert shared.answered > 10


@pytest.mark.parametrize("name", READ)
def test_broken_fixtures(name: str, git_repo: Callable[..., Path], shared: Spy) -> None:
    root = git_repo(f"layers/broken/{name}")
    _setup(name, root)
    _both(root, shared)


def test_synthetic_layer_in_both_discoveries(tmp_path: Path, shared: Spy) -> None:
    with SyntheticRepository.new(Shape.scaling(300), at=tmp_path / "repo") as repo:
        repo.commit()
        for discovery in ("vcs", "filesystem"):
            _both(repo.root, shared, discovery)  # type: ignore[arg-type]
    assert shared.answered > 300


def _awkward(root: Path) -> None:
    """Files an attacker may commit: bad front matter, a symlink, a FIFO, a huge file, a
    name and a text that are not UTF-8, a duplicate identity, files excluded with an
    identity still readable; tracked where git can."""
    rules = root / ".ai" / "repo" / "rules"
    rules.mkdir(parents=True, exist_ok=True)
    for name, front in (
        ("extra-key", "id: project.extra\nversion: 1\nowner: me\n"),
        ("mismatch", "id: project.mismatch\nversion: 1\nkind: prompt\n"),
        ("version", "id: project.version\nversion: 9\n"),
        ("no-id", "version: 1\n"),
    ):
        (rules / f"{name}.v1.md").write_text(f"---\n{front}---\n# {name}\n")
    (rules / "broken.v1.md").write_text("---\nid: [unclosed\n---\n# B\n")
    (rules / "latin1.v1.md").write_bytes(b"---\nid: caf\xe9\n---\n")
    (rules / "name-\xe9.v1.md".encode("utf-8", "surrogateescape").decode()).write_text("# x\n")
    (rules / "huge.v1.md").write_bytes(b"# Huge\n" + b"x" * SIZE_LIMIT)
    (rules / "fifo.v1.md").write_text("# later a FIFO\n")
    (rules / "link.v1.md").write_text("# later a symlink\n")
    for copy in ("dup-a.v1.md", "dup-b.v1.md"):
        (rules / copy).write_text("---\nid: shared.same\nversion: 1\n---\n# Same\n")
    git(root, "add", "-A")
    (rules / "fifo.v1.md").unlink()
    os.mkfifo(rules / "fifo.v1.md")
    (rules / "link.v1.md").unlink()
    (rules / "link.v1.md").symlink_to("dup-a.v1.md")


def test_awkward_files(git_repo: Callable[..., Path], shared: Spy) -> None:
    root = git_repo("layers/healthy")
    _awkward(root)
    _both(root, shared)
    _both(root, shared, "filesystem")


def _worker(code: str) -> Callable[[int], list[str]]:
    """A worker command running `code` instead of the real worker's loop."""
    return lambda root_fd: [sys.executable, "-c", code, str(root_fd)]


#: The real worker, made to end after its first answer.
_DIES_MIDWAY = """
import os, sys
sys.path.insert(0, {package!r})
import majordomus.layer.shared_worker as worker
real = worker.send
def send(fd, value):
    real(fd, value)
    os._exit(1)
worker.send = send
worker.serve(int(sys.argv[1]))
"""


@pytest.mark.parametrize(
    "code",
    [
        "import sys; sys.exit(3)",
        "import os; os.write(1, b'\\x05\\x00\\x00\\x00\\xff\\xff\\xff\\xff\\xff'); input()",
        "import os; os.write(1, b'\\xff' * 64); input()",
        "import marshal, os; d = marshal.dumps((0, [1, 2])); "
        "os.write(1, len(d).to_bytes(4, 'little') + d); input()",
        "import sys; sys.stdin.buffer.read()",
        _DIES_MIDWAY.format(package=str(Path(shared_reading.__file__).parents[2])),
    ],
    ids=["dies-at-start", "bad-marshal", "huge-length", "wrong-chunk", "stalls", "dies-midway"],
)
def test_failing_worker_changes_nothing(
    code: str, git_repo: Callable[..., Path], shared: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_reading, "command", _worker(code))
    monkeypatch.setattr(shared_reading, "PATIENCE", 0.2)
    root = git_repo("layers/healthy")
    _awkward(root)
    _both(root, shared)


def test_unstartable_worker_changes_nothing(
    git_repo: Callable[..., Path], shared: Spy, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(shared_reading, "command", lambda _fd: ["/nonexistent/python"])
    root = git_repo("layers/healthy")
    assert _rendered(build(root)) == _serial(root)
    assert not shared.processes


@pytest.fixture
def starts(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The number of files of each build that started a worker."""
    started: list[int] = []
    real = shared_reading.read_shared

    def counting(found: list[Any], reader: Any, early: Any = None) -> Any:
        started.append(len(found))
        return real(found, reader, early)

    monkeypatch.setattr(shared_reading, "read_shared", counting)
    yield started


def test_no_worker_below_the_threshold_on_one_cpu_or_a_busy_host(
    git_repo: Callable[..., Path], starts: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo("layers/healthy")
    files = len(build(root).snapshot.files)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.5, 0.0, 0.0))
    monkeypatch.setattr(reading, "SHARE_FROM", files + 1)
    build_index(root)
    monkeypatch.setattr(reading, "SHARE_FROM", files)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0})
    build_index(root)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 0.0, 0.0))
    build_index(root)
    assert starts == []
    monkeypatch.setattr(os, "getloadavg", lambda: (1.9, 0.0, 0.0))
    build_index(root)
    assert starts == [files]


def test_no_worker_for_a_rebuild(
    git_repo: Callable[..., Path], starts: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = git_repo("layers/healthy")
    monkeypatch.setattr(reading, "SHARE_FROM", 1)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    before = build(root)
    rule = next(root.glob(".ai/repo/rules/**/*.md"))
    rule.write_text(rule.read_text() + "\nmore\n")
    build(root, reuse=before.snapshot, moved=[str(rule.relative_to(root))])
    assert len(starts) == 1


def test_the_worker_imports_neither_pydantic_nor_click_nor_from_the_working_directory(
    tmp_path: Path,
) -> None:
    (tmp_path / "json.py").write_text("raise SystemExit('imported from the repository')\n")
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import majordomus.layer.shared_worker; "
        "print(sorted(m for m in sys.modules if m.partition('.')[0] in ('pydantic', 'click')))"
    )
    argv = shared_reading.command(0)
    argv[argv.index("-c") + 1] = code
    done = subprocess.run(argv, cwd=tmp_path, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (0, "[]\n")


@pytest.fixture
def spawned(monkeypatch: pytest.MonkeyPatch) -> list[subprocess.Popen[bytes]]:
    """Every worker process started, early or not."""
    processes: list[subprocess.Popen[bytes]] = []
    real = shared_reading.spawn

    def spawning(root_fd: int) -> Any:
        worker = real(root_fd)
        if worker is not None:
            processes.append(worker.process)
        return worker

    monkeypatch.setattr(shared_reading, "spawn", spawning)
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: {0, 1})
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    return processes


def test_an_early_worker_is_dismissed_when_the_layer_is_small(
    git_repo: Callable[..., Path],
    starts: list[int],
    spawned: list[subprocess.Popen[bytes]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Many tracked files outside the layer start a worker while the files are listed; the
    layer is below the threshold, so it reads nothing, is reaped, and the index is the
    serial build's."""
    root = git_repo("layers/healthy")
    files = len(build(root).snapshot.files)
    for at in range(files + 1):
        (root / f"other-{at}.txt").write_text("not the layer\n")
    git(root, "add", ".")
    expected = _serial(root)
    spawned.clear()
    monkeypatch.setattr(reading, "SHARE_FROM", files + 1)
    assert _rendered(build(root)) == expected
    assert starts == []
    assert len(spawned) == 1 and spawned[0].returncode is not None
    monkeypatch.setattr(os, "getloadavg", lambda: (2.0, 0.0, 0.0))
    build(root)
    assert len(spawned) == 1


def test_an_early_worker_of_another_root_is_not_used(
    tmp_path: Path, spawned: list[subprocess.Popen[bytes]], monkeypatch: pytest.MonkeyPatch
) -> None:
    index = tmp_path / "index"
    index.write_bytes(b"DIRC" + (2).to_bytes(4, "big") + (5).to_bytes(4, "big"))
    monkeypatch.setattr(reading, "SHARE_FROM", 5)
    early = reading.forerunner(tmp_path, index)
    assert early is not None
    other = os.open(FIXTURES, os.O_RDONLY)
    try:
        assert early.take(other) is None
    finally:
        os.close(other)
    assert spawned[0].returncode is not None and early.root_fd == -1
    monkeypatch.setattr(reading, "SHARE_FROM", 6)
    assert reading.forerunner(tmp_path, index) is None
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert reading.forerunner(tmp_path, fifo) is None  # a FIFO for an index does not block
    assert len(spawned) == 1
