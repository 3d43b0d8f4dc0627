"""The record store's walk, and that walk read ahead in a child process.

A one-shot read-only answer (`reasoning status`, `reasoning check`) spends its first
~150 ms importing pydantic and the record models while the second core idles, then ~50 ms
opening and reading one small file per record. `start` spawns (never forks: a fork's
copy-on-write faults slow the parent's imports) a child interpreter that imports only this
module and `majordomus.safefs`, walks the store exactly as the parent would (`files`) and
hands every file's bytes, or None for a refused one, back in marshal frames in a memfd,
each announced on a pipe; the parent's `Store.load` replays them through the same
validation (`taken`), one frame while the child reads the next. When the parent catches up
with a child that is behind (the other core was busy), it ends the child and reads the rest
itself. Whatever goes wrong with the child (no such platform call, a non-zero exit, a frame
that does not parse, a store that changed under it) the parent reads the store itself from
the start: the answer never depends on it. Small stores (under `THRESHOLD` entries) are
read as usual.

The child reads the store a few milliseconds before the parent would have: the answer is
the one the same command started that much earlier gives. Readers never wait for the
writer lock, so no reader is promised a later snapshot than that; a writer
(`Store.locked`) never uses a read-ahead. docs/architecture.md, "Speed tricks", places it.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from majordomus import safefs

STATE_DIR = ".ai/local/state/reasoning"

#: The largest record file read back: a record is at most 1 MiB, its pretty-printed
#: envelope a few times that at most.
RECORD_FILE_LIMIT = 4 * 1024 * 1024

#: The fewest store entries worth a child: the parent saves ~5 µs a file for ~1.5 ms of
#: spawning, the child costs ~45 ms of the other core at 1,000 files; pre-commit's usual
#: store is far smaller.
THRESHOLD = 1000
#: Files per frame: the parent validates a frame while the child reads the next.
FRAME = 500

#: The child: the parent's package directory first on the path, then `main(root)`.
_CHILD = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from majordomus.ledger.readahead import main; main(sys.argv[2])"
)


def task_names(tree: safefs.Tree) -> list[str]:
    """The store's task directories (no link followed); raises `Unsafe` or `OSError`."""
    store = tree.directory(STATE_DIR)
    return [e.name for e in os.scandir(store) if e.is_dir(follow_symlinks=False)]


def files(tree: safefs.Tree, tasks: list[str], skip: int = 0) -> Iterator[tuple[str, bytes | None]]:
    """Every record file of the tasks' directories as `<task>/<name>` and its bytes, or None
    when `Tree.read_in` refuses it (a link, not a regular file, over `RECORD_FILE_LIMIT`);
    a directory that cannot be opened or listed is skipped. The first `skip` files are
    named and not read (None): another process read them."""
    for task in tasks:
        try:
            directory = tree.directory(f"{STATE_DIR}/{task}")
            names = [e.name for e in os.scandir(directory)]
        except (safefs.Unsafe, OSError):
            continue
        folder = f"{task}/"
        for name in names:
            # `Path.suffix == ".json"`: the name ends so and is not `.json` itself
            if not name.endswith(".json") or name == ".json":
                continue
            if skip:
                skip -= 1
                yield folder + name, None
                continue
            try:
                data: bytes | None = tree.read_in(directory, name, RECORD_FILE_LIMIT)
            except safefs.Unsafe:
                data = None
            yield folder + name, data


class Failed(Exception):
    """The read-ahead could not be used: the caller reads the store itself."""


def main(root: str) -> None:
    """The child: the walk of the store under `root` in frames of `FRAME` files, each a
    marshal `(paths, datas)` appended to stdout (the memfd) and announced by its end offset
    on stdin (a pipe), then a last frame `(encoding, root, count)`: the file system
    encoding and the root as this process read them, for the parent to compare, and how
    many files there were. Exits without the interpreter's teardown."""
    sent = 0

    def send(frame: tuple[list[str], list[bytes | None]] | tuple[str, str, int]) -> None:
        nonlocal sent
        view = memoryview(marshal.dumps(frame))
        sent += len(view)
        while view:
            view = view[os.write(1, view) :]
        os.write(0, sent.to_bytes(8, "little"))

    count = 0
    with safefs.Tree(Path(root)) as tree:
        paths: list[str] = []
        datas: list[bytes | None] = []
        for path, data in files(tree, task_names(tree)):
            paths.append(path)
            datas.append(data)
            if len(paths) == FRAME:
                send((paths, datas))
                count += FRAME
                paths, datas = [], []
        if paths:
            send((paths, datas))
            count += len(paths)
    send((sys.getfilesystemencoding(), root, count))
    os._exit(0)


class Child:
    """A running read-ahead: its process, the pipe its frames are announced on, and the
    memfd that holds them."""

    __slots__ = ("memfd", "notices", "pid", "root")

    def __init__(self, root: Path, pid: int, notices: int, memfd: int) -> None:
        self.root = root
        self.pid = pid
        self.notices = notices
        self.memfd = memfd

    def walked(self) -> Iterator[tuple[str, bytes | None]]:
        """The child's walk, frame by frame as it reads on (the parent validates one frame
        while the child reads the next). When the next frame is not there yet, the child
        is ended and the rest of the walk read here (`_rest`). Raises `Failed` when a frame
        does not parse, the last frame does not match this process, or the child does not
        exit 0."""
        import select

        start = 0
        seen: list[str] = []
        while select.select([self.notices], [], [], 0)[0]:
            notice = os.read(self.notices, 8)
            end = int.from_bytes(notice, "little")
            if len(notice) != 8 or not start < end <= os.fstat(self.memfd).st_size:
                raise Failed("no frame")
            try:
                frame = marshal.loads(os.pread(self.memfd, end - start, start))
            except (ValueError, EOFError, TypeError):
                raise Failed("a frame that does not parse") from None
            start = end
            if type(frame) is not tuple or len(frame) != 2:
                if frame != (sys.getfilesystemencoding(), str(self.root), len(seen)):
                    raise Failed("another encoding, root or count")
                # its exit is checked when it happened already; never waited for (below)
                done, status = os.waitpid(self.pid, os.WNOHANG)
                if done:
                    self.pid = 0
                    if os.waitstatus_to_exitcode(status) != 0:
                        raise Failed("the child failed")
                return
            paths, datas = frame
            if (
                type(paths) is not list
                or type(datas) is not list
                or len(paths) != len(datas)
                or not set(map(type, paths)) <= {str}
                or not set(map(type, datas)) <= {bytes, type(None)}
            ):
                raise Failed("a frame of other values")
            seen += paths
            yield from zip(paths, datas, strict=True)
        self.end()
        yield from self._rest(seen)

    def _rest(self, seen: list[str]) -> Iterator[tuple[str, bytes | None]]:
        """The walk after the files the child read (`seen`), read here: the store listed
        again, and when it still begins with those files, the others read. The files are
        never rewritten (`Store.write`), so this is the walk of a reader that read the first
        ones a moment earlier. Raises `Failed` when the listing changed."""
        try:
            with safefs.Tree(self.root) as tree:
                walk = files(tree, task_names(tree), len(seen))
                if [path for path, _ in islice(walk, len(seen))] != seen:
                    raise Failed("the store changed")
                yield from walk
        except (safefs.Unsafe, safefs.Unsupported, OSError):
            raise Failed("the store cannot be listed") from None

    def end(self) -> None:
        """The child killed unless it exited, reaped when it is gone, its descriptors
        closed. Never waited for: under `SCHED_IDLE` on a busy host even dying waits for an
        idle core, and the parent would wait with it; killed, it runs no more of its code,
        and what is left of it the system reaps when the command exits."""
        if self.pid:
            import signal

            os.kill(self.pid, signal.SIGKILL)  # never reaped yet, so still ours to kill
            os.waitpid(self.pid, os.WNOHANG)
            self.pid = 0
        if self.memfd >= 0:
            os.close(self.notices)
            os.close(self.memfd)
            self.memfd = -1


#: The read-ahead started and not yet ended (one per process at most).
_pending: Child | None = None
#: Whether it was taken (a store loads it once; a second load reads itself).
_taken = False


def _worth(root: Path) -> bool:
    """Whether the store holds at least `THRESHOLD` entries: its task directories listed
    (no stat), stopping at the threshold."""
    count = 0
    try:
        with safefs.Tree(root) as tree:
            for task in task_names(tree):
                with os.scandir(tree.directory(f"{STATE_DIR}/{task}")) as entries:
                    for _ in entries:
                        count += 1
                        if count >= THRESHOLD:
                            return True
    except (safefs.Unsafe, safefs.Unsupported, OSError):
        return False
    return False


def start(root: Path) -> None:
    """Spawn the read-ahead of the store under `root` when the platform can and the store
    is large enough; otherwise nothing (the store is read as usual)."""
    global _pending, _taken
    if _pending is not None or not sys.executable or not _worth(root):
        return
    import signal

    if signal.getsignal(signal.SIGCHLD) == signal.SIG_IGN:
        return  # children reaped by the kernel: the child's exit could not be checked
    package = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    try:
        memfd = os.memfd_create("majordomus-readahead", os.MFD_CLOEXEC)
    except (AttributeError, OSError):
        return
    try:
        notices, announce = os.pipe()
    except OSError:
        os.close(memfd)
        return
    try:
        pid = os.posix_spawn(
            sys.executable,
            [sys.executable, "-I", "-S", "-c", _CHILD, package, str(root)],
            os.environ,
            file_actions=[
                (os.POSIX_SPAWN_DUP2, announce, 0),
                (os.POSIX_SPAWN_DUP2, memfd, 1),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
            ],
        )
    except (AttributeError, OSError, ValueError):
        os.close(notices)
        os.close(memfd)
        return
    finally:
        os.close(announce)
    # from its start on, the child runs only on a core nobody else wants: on a busy host it
    # takes no time from the parent, which then reads the store itself
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))
    _pending, _taken = Child(root, pid, notices, memfd), False


def taken(root: Path) -> Iterator[tuple[str, bytes | None]] | None:
    """The walk the read-ahead of `root` reads, once, as it comes (`Child.walked`; the
    child ended when it is done or dropped), or None when there is none."""
    global _taken
    child = _pending
    if child is None or _taken or child.root != root:
        return None
    _taken = True
    return _ended(child)


def _ended(child: Child) -> Iterator[tuple[str, bytes | None]]:
    """The child's walk, the child ended however the walk stops (done, failed, dropped)."""
    try:
        yield from child.walked()
    finally:
        discard()


def discard() -> None:
    """End the read-ahead, taken or not (a command that failed before loading the store)."""
    global _pending
    child, _pending = _pending, None
    if child is not None:
        child.end()
