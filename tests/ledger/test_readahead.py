"""The store read ahead by a child process (`majordomus.ledger.readahead`): the same load as
the store's own read over healthy and awkward stores; a child that dies, stalls or writes
garbage gives the same answer; no child outlives the load; small stores and the writer lock
never use one."""

from __future__ import annotations

import json
import os
import select
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

from majordomus.ledger import readahead
from majordomus.ledger.store import RECORD_FILE_LIMIT, STATE_DIR, Loaded, Store
from tests.ledger.test_store import stored
from tests.projections.store_files import chain, current_task


def _record(ident: str, stamp: str, task: str = "t") -> bytes:
    return json.dumps(stored(ident, stamp, task), indent=2).encode()


def _awkward(root: Path) -> None:
    """Every kind of entry a hand or an attacker leaves in a store."""
    store = root / STATE_DIR
    folder = store / "t"
    folder.mkdir(parents=True)
    for n in range(30):
        (folder / f"r{n}.json").write_bytes(_record(f"r{n % 25}", f"2026-10-01T09:{n:02d}:00.000Z"))
    (folder / "garbage.json").write_bytes(b"{not json")
    (folder / "empty.json").write_bytes(b"")
    (folder / ".json").write_bytes(_record("dot", "2026-10-01T09:00:00.000Z"))
    (folder / "note.txt").write_bytes(_record("txt", "2026-10-01T09:00:00.000Z"))
    (folder / ".r1.json.tmp").write_bytes(_record("tmp", "2026-10-01T09:00:00.000Z"))
    (folder / "link.json").symlink_to(folder / "r1.json")
    (folder / "dangling.json").symlink_to(folder / "nowhere.json")
    os.mkfifo(folder / "fifo.json")
    (folder / "dir.json").mkdir()
    with (folder / "huge.json").open("wb") as huge:
        huge.truncate(RECORD_FILE_LIMIT + 1)
    locked = folder / "locked.json"
    locked.write_bytes(_record("locked", "2026-10-01T09:00:00.000Z"))
    locked.chmod(0)
    os.close(os.open(os.fsencode(folder) + b"/\xff\xfe-odd.json", os.O_CREAT | os.O_WRONLY))
    with open(os.fsencode(folder) + b"/\xff-named.json", "wb") as odd:
        odd.write(_record("odd-name", "2026-10-02T00:00:00.000Z"))
    (folder / "latin1.json").write_bytes('{"id": "caf\xe9"}'.encode("latin-1"))
    (store / "empty-task").mkdir()
    (store / "u").mkdir()
    (store / "u" / "r3.json").write_bytes(_record("r3", "2026-10-01T09:03:00.000Z", task="u"))
    (store / "linked-task").symlink_to(folder)
    (store / "file-task").write_bytes(b"not a directory")


def _healthy(root: Path) -> None:
    chain(root)
    current_task(root, "t")


STORES = {"healthy": _healthy, "awkward": _awkward}


#: The child's own start with frames of 7 files (several even for a small store), then what
#: it does instead of (or around) its walk.
_IMPORTED = (
    "import sys; sys.path.insert(0, sys.argv[1]); from majordomus.ledger import readahead; "
    "readahead.FRAME = 7; "
)
#: The child as it runs, with small frames.
CHILD = _IMPORTED + "readahead.main(sys.argv[2])"


@pytest.fixture
def ahead(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every store worth a read-ahead, in small frames; none left behind by the test."""
    monkeypatch.setattr(readahead, "THRESHOLD", 1)
    monkeypatch.setattr(readahead, "_CHILD", CHILD)
    yield
    readahead.discard()


def _own_read(root: Path) -> Loaded:
    return Store(root)._load()


def _ended(pid: int) -> bool:
    """Whether the child is gone: reaped by the parent, exited, or killed and not yet run to
    its exit (the parent never waits for that); reaped here when it is not yet."""
    try:
        if os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG) is not None:
            return True  # exited, reaped now
    except ChildProcessError:
        return True  # reaped by the parent
    status = Path(f"/proc/{pid}/status").read_text()
    pending = 0
    for line in status.splitlines():
        if line.startswith(("SigPnd:", "ShdPnd:")):
            pending |= int(line.split()[1], 16)
    killed = bool(pending & 1 << (signal.SIGKILL - 1)) or "\nState:\tZ" in status
    if killed:
        os.waitid(os.P_PID, pid, os.WEXITED)
    return killed


def _started(root: Path) -> readahead.Child:
    readahead.start(root)
    child = readahead._pending
    assert child is not None
    return child


@pytest.mark.parametrize("store", sorted(STORES))
def test_the_read_ahead_loads_what_the_store_reads(
    tmp_path: Path, store: str, ahead: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    STORES[store](tmp_path)
    expected = _own_read(tmp_path)
    assert expected.records
    pid = _started(tmp_path).pid
    # only on a core nobody else wants
    assert os.sched_getscheduler(pid) == os.SCHED_IDLE
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # every frame sent

    def unused(*_: object) -> Loaded:
        raise AssertionError("the store was read again")

    monkeypatch.setattr(Store, "_load", unused)
    monkeypatch.setattr(readahead.Child, "_rest", unused)
    assert Store(tmp_path).load() == expected
    assert readahead._pending is None and _ended(pid)


#: Children whose output the parent drops, reading the store itself from the start.
FAILING = {
    "dies": "import os; os._exit(3)",
    "garbage": "import os; os.write(1, b'garbage!'); os.write(0, (8).to_bytes(8, 'little'))",
    "beyond": "import os; os.write(0, (1 << 40).to_bytes(8, 'little'))",
    "other-root": "import os, marshal; b = marshal.dumps(('x', 'y', 0)); os.write(1, b); "
    "os.write(0, len(b).to_bytes(8, 'little'))",
    "other-values": "import os, marshal; b = marshal.dumps(([1], [b'x'])); os.write(1, b); "
    "os.write(0, len(b).to_bytes(8, 'little'))",
    # the whole walk sent, then an exit code other than 0
    "exit-1": _IMPORTED + "readahead.os._exit = lambda code: sys.exit(1); "
    "readahead.main(sys.argv[2])",
}
#: Children that stall: the parent reads what they did not send itself.
STALLING = {
    "at-once": "import signal; signal.pause()",
    # frames sent, then a stall before the last one
    "after-the-frames": _IMPORTED
    + "readahead.sys.getfilesystemencoding = __import__('signal').pause; "
    + "readahead.main(sys.argv[2])",
}


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Store]:
    """The store's own reads from the start, counted."""
    reads: list[Store] = []
    own_read = Store._load

    def counted(self: Store) -> Loaded:
        reads.append(self)
        return own_read(self)

    monkeypatch.setattr(Store, "_load", counted)
    return reads


@pytest.mark.parametrize("failure", sorted(FAILING))
def test_a_failing_child_gives_the_same_load(
    tmp_path: Path, failure: str, ahead: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _awkward(tmp_path)
    expected = _own_read(tmp_path)
    monkeypatch.setattr(readahead, "_CHILD", FAILING[failure])
    pid = _started(tmp_path).pid
    os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)  # done, not reaped
    reads = _counting(monkeypatch)
    assert Store(tmp_path).load() == expected
    assert len(reads) == 1  # the child's walk was dropped and the store read here
    assert readahead._pending is None and _ended(pid)


@pytest.mark.parametrize("stall", sorted(STALLING))
def test_a_stalling_child_is_ended_and_the_rest_read_here(
    tmp_path: Path, stall: str, ahead: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _awkward(tmp_path)
    expected = _own_read(tmp_path)
    monkeypatch.setattr(readahead, "_CHILD", STALLING[stall])
    pid = _started(tmp_path).pid
    reads = _counting(monkeypatch)
    assert Store(tmp_path).load() == expected
    assert not reads
    assert readahead._pending is None and _ended(pid)


def test_a_store_changed_before_the_rest_loads_as_it_is_now(
    tmp_path: Path, ahead: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    _awkward(tmp_path)
    monkeypatch.setattr(readahead, "_CHILD", STALLING["after-the-frames"])
    child = _started(tmp_path)
    pid = child.pid
    select.select([child.notices], [], [])  # a first frame sent
    (tmp_path / STATE_DIR / "t" / "r0.json").unlink()
    (tmp_path / STATE_DIR / "t" / "new.json").write_bytes(_record("new", "2026-10-04T00:00:00Z"))
    assert Store(tmp_path).load() == _own_read(tmp_path)
    assert readahead._pending is None and _ended(pid)


def test_an_unused_read_ahead_is_ended(tmp_path: Path, ahead: None) -> None:
    _healthy(tmp_path)
    pid = _started(tmp_path).pid
    readahead.discard()
    assert readahead._pending is None and _ended(pid)


def test_a_small_store_spawns_nothing(tmp_path: Path) -> None:
    _healthy(tmp_path)
    readahead.start(tmp_path)
    assert readahead._pending is None


def test_no_child_when_children_are_reaped_unseen(tmp_path: Path, ahead: None) -> None:
    """With SIGCHLD ignored the kernel reaps a child at once: its exit could not be checked."""
    _healthy(tmp_path)
    previous = signal.signal(signal.SIGCHLD, signal.SIG_IGN)
    try:
        readahead.start(tmp_path)
    finally:
        signal.signal(signal.SIGCHLD, previous)
    assert readahead._pending is None


def test_the_writer_lock_reads_the_store_itself(tmp_path: Path, ahead: None) -> None:
    _healthy(tmp_path)
    expected = _own_read(tmp_path)
    _started(tmp_path)
    with Store(tmp_path).locked() as loaded:
        assert loaded == expected
    assert readahead._pending is not None and not readahead._taken


def test_another_root_reads_its_own_store(tmp_path: Path, ahead: None) -> None:
    _healthy(tmp_path / "a")
    _healthy(tmp_path / "b")
    _started(tmp_path / "a")
    assert readahead.taken(tmp_path / "b") is None
