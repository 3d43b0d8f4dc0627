"""The store's writer lock: one writer at a time per store, across processes.

docs/ledger.md ("Several writers at once") says what is held and why."""

from __future__ import annotations

import errno
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


def _try_lock(fcntl: ModuleType, fd: int) -> bool:
    """`fcntl.flock` without waiting: whole-file, per open file, released on close or exit."""
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    except OSError as exc:
        if exc.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            return False
        raise
    return True


def _fcntl() -> ModuleType:
    """`fcntl`, imported when a lock is taken (so a test can hide it); only POSIX reaches
    here, as reading a repository safely needs a POSIX system (README, "Platforms")."""
    try:
        import fcntl
    except ImportError:
        raise Refused(
            "the ledger cannot be written here: this platform offers no file lock"
        ) from None
    return fcntl


def _same_file(dir_fd: int, fd: int) -> bool:
    """Whether `fd` is still the file at `LOCK_NAME` (never following a link)."""
    held = os.fstat(fd)
    try:
        now = os.stat(LOCK_NAME, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (held.st_dev, held.st_ino) == (now.st_dev, now.st_ino)


def _try(fcntl: ModuleType, dir_fd: int, shown: str) -> tuple[bool, int] | None:
    """One try: (directory held, lock file descriptor), or None with nothing held."""
    directory: bool | None
    try:
        directory = _try_lock(fcntl, dir_fd)
    except OSError as exc:
        # where the file system cannot lock a directory (NFS), the lock file alone is held
        if exc.errno not in (errno.EBADF, errno.EINVAL, errno.ENOLCK, errno.EOPNOTSUPP):
            raise
        directory = None
    if directory is False:
        return None
    try:
        fd = safefs.open_lock_file(dir_fd, LOCK_NAME)
    except safefs.Unsafe as exc:
        raise Refused(f"the ledger lock {shown} cannot be used: {exc.about(LOCK_NAME)}") from None
    if _try_lock(fcntl, fd):
        if _same_file(dir_fd, fd):
            return directory is True, fd
        fcntl.flock(fd, fcntl.LOCK_UN)
    os.close(fd)
    if directory:
        fcntl.flock(dir_fd, fcntl.LOCK_UN)
    return None


@contextmanager
def exclusive(dir_fd: int, shown: str, wait: float) -> Iterator[None]:
    """Hold `dir_fd` and its `LOCK_NAME` for the block (`shown` names it); `LedgerBusy`
    after `wait` seconds."""
    fcntl = _fcntl()
    tries = max(1, math.ceil(wait / POLL_INTERVAL) + 1)
    for attempt in range(tries):
        held = _try(fcntl, dir_fd, shown)
        if held is not None:
            break
        if attempt + 1 < tries:
            time.sleep(POLL_INTERVAL)
    else:
        raise LedgerBusy(f"the ledger is busy: another writer holds {shown}; try again")
    directory, fd = held
    try:
        yield
    finally:
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
        if directory:
            fcntl.flock(dir_fd, fcntl.LOCK_UN)
