"""Reading from and writing under the repository root without ever leaving it: every path is
reached from a descriptor of the root, no link followed (docs/RELIABILITY.md, "Threat model").

Over 400 lines on purpose: the trust boundary of the file system, audited as one file."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from majordomus.errors import ProtocolFailure

#: Cap for the small files of the layer and the local state: the manifest, `sources.yaml`,
#: `advisors.yaml`, `current.yaml`, handovers and checkpoints.
CONFIG_LIMIT = 1024 * 1024

#: Open directory descriptors one `Tree` keeps at most (the root is kept besides).
_OPEN_DIRECTORIES = 64

#: `renameat2` flag: fail with EEXIST instead of replacing the target.
_RENAME_NOREPLACE = 1

#: Errors saying "this filesystem or kernel cannot do that call", not "the call failed".
_UNSUPPORTED_CALL = frozenset(
    code
    for code in (
        getattr(errno, name, None)
        for name in ("EINVAL", "ENOSYS", "ENOTSUP", "EOPNOTSUPP", "EPERM", "EXDEV", "EMLINK")
    )
    if code is not None
)

_SYMLINK_REASON = "is a symbolic link; symlinks are never followed"


class Unsupported(ProtocolFailure):
    """The platform lacks a call safe access needs (exit 13)."""


class Unsafe(Exception):
    """A root-relative path refused: `code`, the offending component `path`, and `reason`
    (the sentence after the path, never the file's content)."""

    def __init__(self, code: str, path: str, reason: str) -> None:
        self.code = code
        self.path = path
        self.reason = reason
        self.message = f"{path} {reason}" if reason.startswith("is ") else f"{path}: {reason}"
        super().__init__(self.message)

    def about(self, rel: str) -> str:
        """The reason alone when `rel` itself is at fault, else the reason with the path."""
        return self.reason if self.path == rel else self.message


def _flag(name: str) -> int:
    value = getattr(os, name, None)
    if value is None:
        raise Unsupported(
            f"this platform has no os.{name}; majordomus cannot open repository files "
            "without following symbolic links here (it needs a POSIX system)"
        )
    return int(value)


def _directory_flags() -> int:
    # judged by name: a wrapped `os.open` is still the platform's call
    relative = {getattr(call, "__name__", "") for call in os.supports_dir_fd}
    for name in ("open", "stat", "mkdir"):
        if name not in relative:
            raise Unsupported(
                f"this platform cannot call os.{name} relative to a directory; "
                "majordomus cannot open repository files safely here (it needs a POSIX system)"
            )
    return os.O_RDONLY | _flag("O_DIRECTORY") | _flag("O_NOFOLLOW") | getattr(os, "O_CLOEXEC", 0)


def _read_flags() -> int:
    return os.O_RDONLY | _flag("O_NOFOLLOW") | _flag("O_NONBLOCK") | getattr(os, "O_CLOEXEC", 0)


def _write_flags() -> int:
    return os.O_WRONLY | os.O_CREAT | os.O_EXCL | _flag("O_NOFOLLOW") | getattr(os, "O_CLOEXEC", 0)


def open_root(root: Path) -> int:
    """A descriptor of the root itself: the user named it, so it may be reached by a link."""
    try:
        return os.open(root, os.O_RDONLY | _flag("O_DIRECTORY") | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise Unsafe("unreadable", str(root), f"cannot be opened: {exc.strerror or exc}") from exc


def _components(rel: str) -> list[str]:
    """The names of a root-relative path; refuses anything that is not a plain name."""
    if rel in ("", "."):
        return []
    names = rel.split("/")
    for name in names:
        if name in ("", ".", "..") or "\x00" in name:
            raise Unsafe("unreadable", rel, "is not a plain path below the repository root")
    return names


def _classify(parent: int, name: str, rel: str, exc: OSError, *, directory: bool) -> Unsafe:
    """Why opening `name` failed, from what `lstat` says of it."""
    try:
        info = os.stat(name, dir_fd=parent, follow_symlinks=False)
    except FileNotFoundError:
        return Unsafe("missing", rel, "cannot stat: No such file or directory")
    except OSError as failure:
        return Unsafe("unreadable", rel, f"cannot stat: {failure.strerror or failure}")
    if stat.S_ISLNK(info.st_mode):
        return Unsafe("symlink", rel, _SYMLINK_REASON)
    if directory and not stat.S_ISDIR(info.st_mode):
        return Unsafe("not_a_directory", rel, "is not a directory")
    if not directory and not stat.S_ISREG(info.st_mode):
        return Unsafe("not_a_file", rel, "is not a regular file")
    return Unsafe("unreadable", rel, f"cannot read: {exc.strerror or exc}")


def read_open_stat(fd: int, limit: int) -> tuple[bytes, os.stat_result]:
    """The bytes of the open regular file `fd` (at most `limit + 1` read, whatever its size
    claims) and its `fstat`; raises `Unsafe` with an empty path."""
    try:
        info = os.fstat(fd)
    except OSError as exc:
        raise Unsafe("unreadable", "", f"cannot read: {exc.strerror or exc}") from exc
    if not stat.S_ISREG(info.st_mode):
        raise Unsafe("not_a_file", "", "is not a regular file")
    if info.st_size > limit:
        raise Unsafe("oversized", "", f"{info.st_size} bytes, over the {limit} byte limit")
    try:
        chunks = [os.read(fd, info.st_size + 1)]
        total = len(chunks[0])
        while total > info.st_size and total <= limit:
            chunk = os.read(fd, limit + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
    except OSError as exc:
        raise Unsafe("unreadable", "", f"cannot read: {exc.strerror or exc}") from exc
    if total > limit:
        raise Unsafe("oversized", "", f"more than {limit} bytes, the limit")
    return (chunks[0] if len(chunks) == 1 else b"".join(chunks)), info


def _read_at(
    dir_fd: int, name: str, limit: int, rel: str, flags: int
) -> tuple[bytes, os.stat_result]:
    try:
        fd = os.open(name, flags, dir_fd=dir_fd)
    except OSError as exc:
        raise _classify(dir_fd, name, rel, exc, directory=False) from None
    except ValueError:
        raise Unsafe("unreadable", rel, "is not a plain path") from None
    try:
        return read_open_stat(fd, limit)
    except Unsafe as exc:
        raise Unsafe(exc.code, rel, exc.reason) from None
    finally:
        os.close(fd)


class Tree:
    """Directory descriptors below one root, each opened once from its parent's; the oldest
    closed past `_OPEN_DIRECTORIES`."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self._flags = _directory_flags()
        self._read_flags = _read_flags()
        self._root_fd = open_root(self.root)
        self._open: dict[str, int] = {}

    def __enter__(self) -> Tree:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        for fd in self._open.values():
            os.close(fd)
        self._open.clear()
        if self._root_fd >= 0:
            os.close(self._root_fd)
            self._root_fd = -1

    def directory(self, rel: str) -> int:
        """Directory `rel` ("" is the root), a descriptor the tree owns; raises `Unsafe`."""
        fd = self._root_fd
        names = _components(rel)
        for depth, name in enumerate(names):
            prefix = "/".join(names[: depth + 1])
            held = self._open.get(prefix)
            if held is None:
                try:
                    held = os.open(name, self._flags, dir_fd=fd)
                except OSError as exc:
                    raise _classify(fd, name, prefix, exc, directory=True) from None
                if len(self._open) >= _OPEN_DIRECTORIES:
                    os.close(self._open.pop(next(iter(self._open))))
                self._open[prefix] = held
            fd = held
        return fd

    def read(self, rel: str, limit: int) -> bytes:
        """The bytes of regular file `rel`, at most `limit` of them; raises `Unsafe`."""
        return self.read_stat(rel, limit)[0]

    def read_stat(self, rel: str, limit: int) -> tuple[bytes, os.stat_result]:
        """`read`, with the file's `fstat` as it was opened."""
        directory, _, name = rel.rpartition("/")
        if name in ("", ".", ".."):
            raise Unsafe("unreadable", rel, "is not a plain path below the repository root")
        return _read_at(self.directory(directory), name, limit, rel, self._read_flags)

    def read_in(self, directory: int, name: str, limit: int) -> bytes:
        """`read` of `name` in a descriptor `directory()` returned (one walk for many files)."""
        return _read_at(directory, name, limit, name, self._read_flags)[0]

    def lstat(self, rel: str) -> os.stat_result:
        """What `rel` is, without following a link at any component; raises `Unsafe`."""
        directory, _, name = rel.rpartition("/")
        if name in ("", ".", ".."):
            raise Unsafe("unreadable", rel, "is not a plain path below the repository root")
        dir_fd = self.directory(directory)
        try:
            return os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        except FileNotFoundError:
            raise Unsafe("missing", rel, "cannot stat: No such file or directory") from None
        except (OSError, ValueError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise Unsafe("unreadable", rel, f"cannot stat: {reason}") from None

    def entries(self, rel: str) -> Iterator[tuple[str, int]]:
        """(name, lstat mode) of each entry of directory `rel`; vanished entries are skipped."""
        fd = self.directory(rel)
        try:
            listing = list(os.scandir(fd))
        except OSError as exc:
            raise Unsafe("unreadable", rel or ".", f"cannot list: {exc.strerror or exc}") from None
        for entry in listing:
            try:
                yield entry.name, entry.stat(follow_symlinks=False).st_mode
            except OSError:
                continue

    def kind(self, rel: str) -> str | None:
        """`file`, `directory`, `symlink` or `other` for `rel`; None when absent or refused."""
        try:
            mode = self.lstat(rel).st_mode
        except Unsafe:
            return None
        if stat.S_ISREG(mode):
            return "file"
        if stat.S_ISDIR(mode):
            return "directory"
        if stat.S_ISLNK(mode):
            return "symlink"
        return "other"


def read_file(root: Path, rel: str, limit: int = CONFIG_LIMIT) -> bytes:
    """One file's bytes, read safely; raises `Unsafe` (a missing file has code `missing`)."""
    with Tree(root) as tree:
        return tree.read(rel, limit)


def is_directory(root: Path, rel: str) -> bool:
    """Whether `rel` and every directory above it are real directories (no symlink)."""
    try:
        with Tree(root) as tree:
            tree.directory(rel)
    except Unsafe:
        return False
    return True


def ensure_dir(root: Path, rel: str) -> int:
    """A new descriptor (the caller closes it) of directory `rel`, each missing component
    created relative to its parent; a link or non-directory in the way raises `Unsafe`."""
    flags = _directory_flags()
    fd = open_root(root)
    done: list[str] = []
    try:
        for name in _components(rel):
            done.append(name)
            shown = "/".join(done)
            try:
                os.mkdir(name, 0o777, dir_fd=fd)
            except FileExistsError:
                pass
            except OSError as exc:
                raise _write_refusal(fd, name, shown, exc) from None
            try:
                child = os.open(name, flags, dir_fd=fd)
            except OSError as exc:
                raise _write_refusal(fd, name, shown, exc) from None
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


def _write_refusal(parent: int, name: str, rel: str, exc: OSError) -> Unsafe:
    found = _classify(parent, name, rel, exc, directory=True)
    if found.code == "symlink":
        return Unsafe("symlink", rel, "is a symbolic link; refusing to write through it")
    if found.code == "not_a_directory":
        return Unsafe("not_a_directory", rel, "is not a directory; refusing to write into it")
    return Unsafe(found.code, rel, f"cannot be created: {exc.strerror or exc}")


def fsync_directory(fd: int) -> None:
    """Make new entries of the directory `fd` durable; not every platform can."""
    with contextlib.suppress(OSError):
        os.fsync(fd)


@cache
def _renameat2() -> Callable[..., int] | None:
    """libc's `renameat2` (glibc 2.28+); ctypes is imported by the first write only."""
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        function = libc.renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.c_char_p,
        ctypes.c_uint,
    ]
    function.restype = ctypes.c_int
    return function


def _publish_renameat2(dir_fd: int, temporary: str, name: str) -> bool:
    """Rename without replacing; False when the call or the filesystem does not support it."""
    function = _renameat2()
    if function is None:
        return False
    result = function(dir_fd, os.fsencode(temporary), dir_fd, os.fsencode(name), _RENAME_NOREPLACE)
    if result == 0:
        return True
    from ctypes import get_errno

    code = get_errno()
    if code == errno.EEXIST:
        raise FileExistsError(code, os.strerror(code), name)
    if code in _UNSUPPORTED_CALL:
        return False
    raise OSError(code, os.strerror(code), name)


def _publish_link(dir_fd: int, temporary: str, name: str) -> bool:
    """Hard-link the temporary file to its name; False when the filesystem has no links."""
    try:
        os.link(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except FileExistsError:
        raise
    except OSError as exc:
        if exc.errno in _UNSUPPORTED_CALL:
            return False
        raise
    except NotImplementedError:
        return False
    return True


def _publish_reserved(dir_fd: int, temporary: str, name: str) -> None:
    """Create the name empty and exclusively, then rename the complete file over it."""
    os.close(os.open(name, _write_flags(), 0o644, dir_fd=dir_fd))
    try:
        os.rename(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        os.unlink(name, dir_fd=dir_fd)
        raise


def _fill(fd: int, data: bytes) -> None:
    """Write `data` to the new file `fd`, make it durable and close it."""
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def write_new(dir_fd: int, name: str, data: bytes, *, mode: int = 0o644) -> None:
    """Write a new file `name` in `dir_fd` via a durable `.<name>.tmp`, never replacing a name
    (`FileExistsError`); publishers as docs/RELIABILITY.md lists them."""
    temporary = f".{name}.tmp"
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        pass
    else:
        raise FileExistsError(errno.EEXIST, "already exists", name)
    fd = os.open(temporary, _write_flags(), mode, dir_fd=dir_fd)
    published = False
    try:
        _fill(fd, data)
        if _publish_renameat2(dir_fd, temporary, name):
            published = True
        elif _publish_link(dir_fd, temporary, name):
            pass
        else:
            _publish_reserved(dir_fd, temporary, name)
            published = True
    finally:
        if not published:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary, dir_fd=dir_fd)
    fsync_directory(dir_fd)


def replace(dir_fd: int, name: str, data: bytes) -> None:
    """Atomically replace `name` in `dir_fd` (a link is replaced, never followed; a non-file
    refused) via a durable `.<name>.tmp`. For state, never for a record."""
    try:
        found = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        pass
    else:
        if not stat.S_ISREG(found.st_mode) and not stat.S_ISLNK(found.st_mode):
            raise Unsafe("not_a_file", name, "is not a regular file; refusing to replace it")
    temporary = f".{name}.tmp"
    with contextlib.suppress(FileNotFoundError):
        os.unlink(temporary, dir_fd=dir_fd)
    fd = os.open(temporary, _write_flags(), 0o644, dir_fd=dir_fd)
    try:
        _fill(fd, data)
        os.rename(temporary, name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary, dir_fd=dir_fd)
        raise
    fsync_directory(dir_fd)


def write_file(root: Path, rel: str, data: bytes, *, replacing: bool = False) -> None:
    """`write_new` (or `replace`) of `rel` below `root`, directories made by `ensure_dir`."""
    folder, _, name = rel.rpartition("/")
    fd = ensure_dir(root, folder)
    try:
        (replace if replacing else write_new)(fd, name, data)
    finally:
        os.close(fd)


def _open_file(dir_fd: int, name: str, flags: int, *, writing: bool) -> int:
    """`name` in `dir_fd` opened with `flags` (created 0o644), never through a link, never
    blocking; refused (`Unsafe`) unless it is a regular file."""
    flags |= _flag("O_NOFOLLOW") | _flag("O_NONBLOCK") | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(name, flags, 0o644, dir_fd=dir_fd)
    except OSError as exc:
        found = _classify(dir_fd, name, name, exc, directory=False)
        if writing and found.code == "symlink":
            raise Unsafe(
                "symlink", name, "is a symbolic link; refusing to write through it"
            ) from None
        raise found from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            tail = "; refusing to write into it" if writing else ""
            raise Unsafe("not_a_file", name, "is not a regular file" + tail)
    except BaseException:
        os.close(fd)
        raise
    return fd


def append(dir_fd: int, name: str, data: bytes) -> None:
    """Append to the regular file `name` (created), never through a link or into a FIFO."""
    fd = _open_file(dir_fd, name, os.O_WRONLY | os.O_APPEND | os.O_CREAT, writing=True)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def open_lock_file(dir_fd: int, name: str) -> int:
    """A read-write descriptor of the regular file `name` (created), never through a link."""
    return _open_file(dir_fd, name, os.O_RDWR | os.O_CREAT, writing=False)
