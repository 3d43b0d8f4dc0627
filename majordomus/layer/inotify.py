"""Linux inotify over ctypes: which watched directories saw a change since last asked.

The freshness check of a long-lived server (`majordomus.layer.freshness`) asks before every
answer; with a watch on each directory it would otherwise `stat`, the kernel queues an event
inside the writer's own system call, so an edit that finished before the question is in the
queue when it is read, and a question with an empty queue costs one non-blocking `read`.
No dependency: libc's calls through ctypes. Anything unusual (not Linux, no libc, a network
or FUSE file system, the instance or watch limit reached, a queue overflow) is reported,
never hidden, so the caller falls back to its `stat` check.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
import weakref
from collections.abc import Iterable

_CLOEXEC = 0o2000000
_NONBLOCK = 0o4000
_MODIFY, _ATTRIB, _CLOSE_WRITE = 0x2, 0x4, 0x8
_MOVED_FROM, _MOVED_TO, _CREATE, _DELETE = 0x40, 0x80, 0x100, 0x200
_DELETE_SELF, _MOVE_SELF = 0x400, 0x800
_OVERFLOW, _IGNORED = 0x4000, 0x8000
_ONLYDIR, _DONT_FOLLOW = 0x01000000, 0x02000000
#: Every change to a directory's entries, to an entry's content or metadata, and to the
#: directory itself; a symlink is never followed (the layer is read without following them).
_MASK = (
    _MODIFY
    | _ATTRIB
    | _CLOSE_WRITE
    | _MOVED_FROM
    | _MOVED_TO
    | _CREATE
    | _DELETE
    | _DELETE_SELF
    | _MOVE_SELF
    | _ONLYDIR
    | _DONT_FOLLOW
)
#: Events after which a watch no longer stands for its directory.
_LOST = _OVERFLOW | _IGNORED | _DELETE_SELF | _MOVE_SELF
_HEADER = struct.Struct("iIII")
_BUFFER = 64 * 1024
#: `statfs` magic numbers of the file systems whose every change passes through this
#: kernel (ext2-4, XFS, Btrfs, tmpfs, overlayfs, ZFS, F2FS, bcachefs). A network or FUSE
#: mount (NFS, SMB, sshfs, a container's view of a host folder) may change under it
#: unseen, so only these are watched and anything else keeps the `stat` check.
_LOCAL_FILE_SYSTEMS = frozenset(
    {
        0xEF53,
        0x58465342,
        0x9123683E,
        0x01021994,
        0x794C7630,
        0x2FC12FC1,
        0xF2F52010,
        0xCA451A4E,
    }
)
#: Larger than `struct statfs` on every Linux ABI; its first field is `f_type`.
_STATFS_SIZE = 256


def _libc() -> ctypes.CDLL | None:
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = _load_libc()
        libc.inotify_init1.argtypes = [ctypes.c_int]
        libc.inotify_add_watch.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32]
        libc.statfs.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
    except (OSError, AttributeError):
        return None
    return libc


def _load_libc() -> ctypes.CDLL:
    """glibc's libc by its usual name; only where that fails is it looked up with
    `ctypes.util.find_library`, which starts `ldconfig -p` as a child process."""
    try:
        return ctypes.CDLL("libc.so.6", use_errno=True)
    except OSError:
        from ctypes.util import find_library

        return ctypes.CDLL(find_library("c") or "libc.so.6", use_errno=True)


def _local(libc: ctypes.CDLL, path: str) -> bool:
    """Whether `path` is on a file system every change to which this kernel sees."""
    buffer = ctypes.create_string_buffer(_STATFS_SIZE)
    if libc.statfs(os.fsencode(path), buffer) != 0:
        return False
    kind = ctypes.c_long.from_buffer(buffer).value & 0xFFFFFFFF
    return kind in _LOCAL_FILE_SYSTEMS


class Notifier:
    """One inotify instance and its watches; `drain()` says what moved since the last call.

    `lost` turns true for good once the queue overflowed or a watch stopped standing for its
    directory (deleted, moved): the caller then checks everything it would without events.
    """

    def __init__(self, fd: int, libc: ctypes.CDLL) -> None:
        self._fd = fd
        self._libc = libc
        self._folders: dict[int, str] = {}
        self.watched: set[str] = set()
        self._devices: dict[int, bool] = {}
        self.lost = False
        self._closer = weakref.finalize(self, os.close, fd)

    @classmethod
    def open(cls) -> Notifier | None:
        """A new instance, or None where inotify is not to be had."""
        libc = _libc()
        if libc is None:
            return None
        fd = libc.inotify_init1(_NONBLOCK | _CLOEXEC)
        if fd < 0:
            return None
        return cls(fd, libc)

    def watch(self, folders: Iterable[str]) -> list[str]:
        """Watch each folder not watched yet; the ones that could not be watched (gone,
        or on a file system whose changes this kernel may not see)."""
        failed = []
        for folder in folders:
            if folder in self.watched:
                continue
            if not self._on_local(folder):
                failed.append(folder)
                continue
            wd = self._libc.inotify_add_watch(self._fd, os.fsencode(folder), _MASK)
            if wd < 0:
                failed.append(folder)
                continue
            self._folders[wd] = folder
            self.watched.add(folder)
        return failed

    def _on_local(self, folder: str) -> bool:
        try:
            device = os.stat(folder).st_dev
        except OSError:
            return False
        local = self._devices.get(device)
        if local is None:
            local = self._devices[device] = _local(self._libc, folder)
        return local

    def drain(self) -> set[str] | None:
        """The paths (folder, or folder + os.sep + name) an event named since the last call;
        None when none did. Sets `lost` on an overflow or a lost watch."""
        touched: set[str] | None = None
        while True:
            try:
                data = os.read(self._fd, _BUFFER)
            except BlockingIOError:
                return touched
            except OSError:
                self.lost = True
                return touched if touched is not None else set()
            if not data:
                return touched
            if touched is None:
                touched = set()
            self._parse(data, touched)

    def _parse(self, data: bytes, touched: set[str]) -> None:
        offset, end = 0, len(data)
        while offset < end:
            wd, mask, _cookie, length = _HEADER.unpack_from(data, offset)
            offset += _HEADER.size
            name = data[offset : offset + length].rstrip(b"\0")
            offset += length
            if mask & _LOST:
                self.lost = True
            folder = self._folders.get(wd)
            if folder is None:
                continue
            touched.add(folder + os.sep + os.fsdecode(name) if name else folder)

    def close(self) -> None:
        self._closer()
