"""The store's writer lock: one writer at a time per store, across processes.

Admission reads the whole store and decides against it (one answer per advisor and plan,
one conclusion in force per assessment, one resolution per disagreement), so the read, the
decision and the write must not interleave with another writer's. The lock is an exclusive
operating-system lock on `<store>/.lock`: `fcntl.flock` where the platform has it, else
`msvcrt.locking` (Windows). Both are released by the operating system when the holder exits,
so a crashed writer never leaves the store locked. Taking it never blocks for long: it is
polled without blocking until a bounded wait is over, then refused with one sentence.
Readers take no lock: a record becomes visible only once it is complete.
"""

from __future__ import annotations

import errno
import importlib
import math
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType

from majordomus import safefs
from majordomus.errors import Refused

LOCK_NAME = ".lock"

#: How long a writer waits for another one before it gives up (seconds).
DEFAULT_WAIT = 10.0

#: How often a waiting writer tries again (seconds); the wait is counted in tries, so a
#: frozen clock cannot make it endless.
POLL_INTERVAL = 0.01


class LedgerBusy(Refused):
    """Another writer held the store's lock for the whole wait."""


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


class _Flock:
    """`fcntl.flock`: whole-file, per open file, released on close or exit."""

    def __init__(self, fcntl: ModuleType) -> None:
        self.fcntl = fcntl

    def try_lock(self, fd: int) -> bool:
        try:
            self.fcntl.flock(fd, self.fcntl.LOCK_EX | self.fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                return False
            raise
        return True

    def unlock(self, fd: int) -> None:
        self.fcntl.flock(fd, self.fcntl.LOCK_UN)


class _Msvcrt:
    """`msvcrt.locking` on the file's first byte (Windows): non-blocking, released on exit."""

    def __init__(self, msvcrt: ModuleType) -> None:
        self.msvcrt = msvcrt

    def try_lock(self, fd: int) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            self.msvcrt.locking(fd, self.msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def unlock(self, fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        self.msvcrt.locking(fd, self.msvcrt.LK_UNLCK, 1)


def _primitive() -> _Flock | _Msvcrt:
    """The platform's lock, chosen when a lock is taken (so a test can hide a module)."""
    fcntl = _module("fcntl")
    if fcntl is not None:
        return _Flock(fcntl)
    msvcrt = _module("msvcrt")
    if msvcrt is not None:
        return _Msvcrt(msvcrt)
    raise Refused("the ledger cannot be written here: this platform offers no file lock")


def _open(dir_fd: int, shown: str) -> int:
    """The lock file, created when absent; never through a symlink, only a regular file."""
    try:
        return safefs.open_lock_file(dir_fd, LOCK_NAME)
    except safefs.Unsafe as exc:
        raise Refused(f"the ledger lock {shown} cannot be used: {exc.about(LOCK_NAME)}") from None


@contextmanager
def exclusive(dir_fd: int, shown: str, wait: float = DEFAULT_WAIT) -> Iterator[None]:
    """Hold the lock file `LOCK_NAME` in the store directory `dir_fd` for the block's duration.

    `shown` is how messages name the file. Refuses with `LedgerBusy` when another writer
    holds it for longer than `wait` seconds.
    """
    primitive = _primitive()
    fd = _open(dir_fd, shown)
    try:
        tries = max(1, math.ceil(wait / POLL_INTERVAL) + 1)
        for attempt in range(tries):
            if primitive.try_lock(fd):
                break
            if attempt + 1 < tries:
                time.sleep(POLL_INTERVAL)
        else:
            raise LedgerBusy(f"the ledger is busy: another writer holds {shown}; try again")
        try:
            yield
        finally:
            primitive.unlock(fd)
    finally:
        os.close(fd)
