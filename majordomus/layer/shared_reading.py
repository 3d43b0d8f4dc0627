"""Reading a large layer's files in two processes: the build's side (docs/architecture.md,
"Reading a large layer in two processes").

The build reads from the front of the list while a worker (`majordomus.layer.shared_worker`)
is handed chunks from the back, two at a time; the build takes each answer between its own
steps and hands out the next chunk until the two fronts meet, then reads on through what is
still unanswered rather than wait. Whatever the worker has not answered when it fails to
start, dies, stalls, answers garbage or gets no CPU, the build reads itself: the reads, and
so the index, never depend on the worker. The worker is killed and reaped before the reads
are returned.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import majordomus
from majordomus.layer.discovery import Discovered
from majordomus.layer.kinds import load_kinds
from majordomus.layer.model import SourceClass
from majordomus.layer.reader import FileRead, LayerReader, read_entry
from majordomus.layer.shared_wire import Broken, ready, receive, send, unpack

#: Files in one chunk handed to the worker.
CHUNK = 128
#: Chunks the worker holds at once: it has the next while the build takes the last.
OUTSTANDING = 2
#: Files the build reads between two looks for an answer.
STEP = 16
#: Seconds without a byte of an answer that began to arrive before the build gives up on
#: the worker and reads the rest itself.
PATIENCE = 5.0
#: Room for a chunk's answer in the pipe, so the worker never waits for the build to read.
_PIPE_SIZE = 1 << 20

#: The interpreter's code: `majordomus` imported from the directory the build imported it
#: from, whatever installed it (an editable install, PYTHONPATH, a test's tree), and that
#: directory off the path again, so that it shadows no other module. `-P`: never the working
#: directory, a repository an attacker may have filled with modules; `-S`: no
#: site-packages, the worker needs none.
_CODE = (
    "import sys; sys.path.insert(0, sys.argv[1]); import majordomus; del sys.path[0]; "
    "from majordomus.layer.shared_worker import serve; serve(int(sys.argv[2]))"
)


def command(root_fd: int) -> list[str]:
    """The worker's command line (tests replace it to inject a failing worker)."""
    package = str(Path(majordomus.__file__).resolve().parent.parent)
    return [sys.executable, "-S", "-P", "-c", _CODE, package, str(root_fd)]


class _Worker:
    """A started worker: its process, the build's ends of its pipes and its chunks in hand
    (start → end)."""

    __slots__ = ("answers", "held", "process", "requests")

    def __init__(self, process: subprocess.Popen[bytes]) -> None:
        assert process.stdin is not None and process.stdout is not None
        self.process = process
        self.requests = process.stdin.fileno()
        self.answers = process.stdout.fileno()
        self.held: dict[int, int] = {}

    def stop(self) -> None:
        """Kill and reap the process, close the pipes."""
        self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stdout):
            if pipe is not None:
                pipe.close()


class Early:
    """A worker started before the listing is known (`majordomus.layer.reading.forerunner`),
    with its own descriptor of the root; used only when that is the build's root."""

    __slots__ = ("root_fd", "worker")

    def __init__(self, worker: _Worker, root_fd: int) -> None:
        self.worker = worker
        self.root_fd = root_fd

    def take(self, tree_fd: int) -> _Worker | None:
        """The worker when its root is the tree's, else None (and it is stopped)."""
        if os.path.samestat(os.fstat(self.root_fd), os.fstat(tree_fd)):
            return self.worker
        self.stop()
        return None

    def stop(self) -> None:
        """Kill and reap the worker, close the descriptor (again: nothing)."""
        self.worker.stop()
        if self.root_fd >= 0:
            os.close(self.root_fd)
            self.root_fd = -1


def spawn(root_fd: int) -> _Worker | None:
    """A worker reading through `root_fd`, waiting for its configuration; None when none
    can start."""
    if not sys.executable:
        return None  # an embedding interpreter that cannot name itself
    try:
        process = subprocess.Popen(
            command(root_fd),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            pass_fds=(root_fd,),
        )
    except OSError:
        return None
    worker = _Worker(process)
    resize = getattr(fcntl, "F_SETPIPE_SZ", None)  # Linux only
    if resize is not None:
        with contextlib.suppress(OSError):
            fcntl.fcntl(worker.answers, resize, _PIPE_SIZE)
    return worker


def _start(reader: LayerReader, classes: list[SourceClass], early: Early | None) -> _Worker | None:
    """A worker (the early one when it reads the build's root) told the build's root,
    manifest and classes; None when none can start."""
    root_fd = reader.tree.directory("")
    worker = None if early is None else early.take(root_fd)
    if worker is None:
        worker = spawn(root_fd)
    if worker is None:
        return None
    manifest = reader.manifest
    config = (
        str(reader.root),
        tuple(getattr(manifest, f.name) for f in fields(manifest)),
        [tuple(getattr(source, f.name) for f in fields(source)) for source in classes],
    )
    try:
        send(worker.requests, config)
    except OSError:
        worker.stop()
        return None
    return worker


def read_shared(
    found: list[Discovered], reader: LayerReader, early: Early | None = None
) -> list[FileRead]:
    """Each file's `read_entry`, in the order of `found`, part of them read by a worker.

    Only with the shipped kind schema, the one the worker loads itself; else, or when no
    worker starts, every file is read here."""
    classes: dict[str, tuple[int, SourceClass]] = {}
    for item in found:
        classes.setdefault(item.source.id, (len(classes), item.source))
    worker = None
    if reader.kinds is load_kinds():
        worker = _start(reader, [source for _, source in classes.values()], early)
    reads: list[FileRead | None] = [None] * len(found)
    if worker is not None:
        try:
            _share(found, reader, reads, worker, {key: at for key, (at, _) in classes.items()})
        finally:
            worker.stop()
    return [
        read_entry(found[at].path, found[at].source, reader) if read is None else read
        for at, read in enumerate(reads)
    ]


def _share(
    found: list[Discovered],
    reader: LayerReader,
    reads: list[FileRead | None],
    worker: _Worker,
    classes: dict[str, int],
) -> None:
    """Read from the front, hand chunks out from the back, take the answers. Once the
    fronts meet, read on through every file still unanswered rather than wait for the
    worker (on a loaded host it may not run at all); an answer that comes meanwhile saves
    the rest of its chunk. On any failure of the worker stop, leaving what it had not
    answered unread (None)."""
    low, high, size = 0, len(found), len(found)
    held, met = worker.held, False
    try:
        while low < size:
            if not met:
                while len(held) < OUTSTANDING and high - low >= 2 * CHUNK:
                    start = high - CHUNK
                    chunk = [(rel, classes[source.id]) for rel, source, _ in found[start:high]]
                    send(worker.requests, (start, chunk))
                    held[start] = high
                    high = start
                met = low >= high
                if met:
                    high = size
            stop = min(low + STEP, high)
            for at in range(low, stop):
                if reads[at] is None:
                    item = found[at]
                    reads[at] = read_entry(item.path, item.source, reader)
            low = stop
            while held and ready(worker.answers):
                _take(worker, reads)
    except (Broken, OSError):
        return


def _take(worker: _Worker, reads: list[FileRead | None]) -> None:
    """One answer into `reads`, but for the files the build has read itself meanwhile;
    raises `Broken` when it is not one of the chunks held."""
    answer = receive(worker.answers, PATIENCE)
    try:
        start, packed = answer
        end = worker.held.pop(start)
        if len(packed) != end - start:
            raise Broken("a chunk of another length")
        reads[start:end] = [
            unpack(read) if mine is None else mine
            for read, mine in zip(packed, reads[start:end], strict=True)
        ]
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        raise Broken(f"not an answer: {exc}") from None
