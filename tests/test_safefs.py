"""`majordomus.safefs`: reads and writes below a root that never leave it, block, or replace a
name (each publisher forced in turn); a platform lacking the calls fails with one line."""

from __future__ import annotations

import ctypes
import errno
import os
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from majordomus import safefs
from majordomus.safefs import Tree, Unsafe, Unsupported
from tests.conftest import command_env, initialised_repo
from tests.layer.support import write


def _refusal(root: Path, rel: str, limit: int = safefs.CONFIG_LIMIT) -> Unsafe:
    with Tree(root) as tree, pytest.raises(Unsafe) as caught:
        tree.read(rel, limit)
    return caught.value


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory next to the root, holding a secret no read may return."""
    folder = tmp_path / "outside"
    folder.mkdir()
    (folder / "secret.md").write_text("OUTSIDE-SECRET\n")
    return folder


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "root"
    folder.mkdir()
    return folder


# -- reading -----------------------------------------------------------------------------------


def test_a_regular_file_is_read(root: Path) -> None:
    write(root, "a/b/c.md", b"hello\n")
    with Tree(root) as tree:
        assert tree.read("a/b/c.md", 100) == b"hello\n"
        assert tree.read("a/b/c.md", 6) == b"hello\n"


def test_a_symlinked_file_is_refused(root: Path, outside: Path) -> None:
    (root / "link.md").symlink_to(outside / "secret.md")
    found = _refusal(root, "link.md")
    assert (found.code, found.path) == ("symlink", "link.md")
    assert found.about("link.md") == "is a symbolic link; symlinks are never followed"
    assert "OUTSIDE-SECRET" not in str(found)


def test_a_symlinked_directory_at_any_component_is_refused_naming_it(
    root: Path, outside: Path
) -> None:
    (root / "a").mkdir()
    (root / "a" / "b").symlink_to(outside)
    for rel in ("a/b/secret.md", "a/b/deeper/x.md"):
        found = _refusal(root, rel)
        assert (found.code, found.path) == ("symlink", "a/b")
        assert found.about(rel) == "a/b is a symbolic link; symlinks are never followed"
    (root / "top").symlink_to(outside)
    assert _refusal(root, "top/secret.md").path == "top"


def test_a_fifo_is_not_a_file_and_never_blocks(root: Path) -> None:
    os.mkfifo(root / "pipe.yaml")
    found = _refusal(root, "pipe.yaml")
    assert (found.code, found.reason) == ("not_a_file", "is not a regular file")


def test_a_socket_and_a_directory_are_not_files(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "d").mkdir()
    assert _refusal(root, "d").code == "not_a_file"
    with socket.socket(socket.AF_UNIX) as server:
        monkeypatch.chdir(root)  # a socket path must be short
        server.bind("s")
        assert _refusal(root, "s").code == "not_a_file"


def test_a_device_is_not_a_file() -> None:
    fd = os.open("/dev/zero", os.O_RDONLY)
    try:
        with pytest.raises(Unsafe) as caught:
            safefs.read_open_stat(fd, 10)
    finally:
        os.close(fd)
    assert caught.value.code == "not_a_file"


def test_over_the_cap_is_refused(root: Path) -> None:
    write(root, "big", b"x" * 11)
    found = _refusal(root, "big", 10)
    assert (found.code, found.reason) == ("oversized", "11 bytes, over the 10 byte limit")


def test_no_read_goes_past_the_cap_whatever_the_size_claims(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file that grows after `fstat` (or lies about its size) is read to cap + 1 at most."""
    write(root, "grows", b"y" * 1000)
    real_fstat, real_read = os.fstat, os.read
    asked: list[int] = []

    def fstat(fd: int) -> Any:
        info = real_fstat(fd)
        return os.stat_result((info.st_mode, *info[1:6], 0, *info[7:10]))

    def read(fd: int, size: int) -> bytes:
        asked.append(size)
        return real_read(fd, size)

    monkeypatch.setattr(os, "fstat", fstat)
    monkeypatch.setattr(os, "read", read)
    found = _refusal(root, "grows", 10)
    assert (found.code, found.reason) == ("oversized", "more than 10 bytes, the limit")
    assert sum(asked) <= 11


def test_missing_and_paths_that_are_not_plain(root: Path) -> None:
    assert _refusal(root, "absent.md").code == "missing"
    assert _refusal(root, "no/such/dir/x.md").code == "missing"
    write(root, "file")
    assert _refusal(root, "file/x").code == "not_a_directory"
    for rel in ("../x", "a/../../x", "/etc/passwd", "a//b", "a/./x", "", "a/.."):
        assert _refusal(root, rel).code == "unreadable", rel


def test_many_directories_keep_few_descriptors_open(root: Path) -> None:
    for i in range(200):
        write(root, f"d{i}/sub/f.md", str(i).encode())
    with Tree(root) as tree:
        for _ in range(2):
            for i in range(200):
                assert tree.read(f"d{i}/sub/f.md", 10) == str(i).encode()
        assert len(tree._open) <= 64


def test_lstat_kind_and_entries_never_follow(root: Path, outside: Path) -> None:
    write(root, "d/f.md")
    (root / "d" / "link").symlink_to(outside)
    (root / "d" / "sub").mkdir()
    with Tree(root) as tree:
        assert tree.kind("d/f.md") == "file"
        assert tree.kind("d/link") == "symlink"
        assert tree.kind("d/sub") == "directory"
        assert tree.kind("d/link/secret.md") is None
        assert tree.kind("d/absent") is None
        modes = dict(tree.entries("d"))
        assert sorted(modes) == ["f.md", "link", "sub"]
        assert stat.S_ISLNK(modes["link"])
        with pytest.raises(Unsafe):
            list(tree.entries("d/link"))
    assert safefs.is_directory(root, "d/sub")
    assert not safefs.is_directory(root, "d/link")


def test_read_file_in_one_call(root: Path) -> None:
    write(root, ".ai/x.yaml", b"a: 1\n")
    assert safefs.read_file(root, ".ai/x.yaml") == b"a: 1\n"


# -- writing -----------------------------------------------------------------------------------


def test_ensure_dir_creates_every_component(root: Path) -> None:
    fd = safefs.ensure_dir(root, ".ai/local/state/reasoning/t")
    try:
        assert stat.S_ISDIR(os.fstat(fd).st_mode)
    finally:
        os.close(fd)
    assert (root / ".ai/local/state/reasoning/t").is_dir()


@pytest.mark.parametrize("link", [".ai", ".ai/local", ".ai/local/state/reasoning/t"])
def test_ensure_dir_refuses_a_symlink_naming_it(root: Path, outside: Path, link: str) -> None:
    (root / link).parent.mkdir(parents=True, exist_ok=True)
    (root / link).symlink_to(outside)
    with pytest.raises(Unsafe) as caught:
        safefs.ensure_dir(root, ".ai/local/state/reasoning/t")
    assert caught.value.code == "symlink"
    assert caught.value.message == f"{link} is a symbolic link; refusing to write through it"
    assert sorted(p.name for p in outside.iterdir()) == ["secret.md"]


def test_ensure_dir_refuses_a_file_in_the_way(root: Path) -> None:
    write(root, ".ai/local")
    with pytest.raises(Unsafe) as caught:
        safefs.ensure_dir(root, ".ai/local/state")
    assert caught.value.message == ".ai/local is not a directory; refusing to write into it"


@pytest.fixture
def folder(root: Path) -> Iterator[int]:
    fd = safefs.ensure_dir(root, "store")
    yield fd
    os.close(fd)


def _no_renameat2(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(safefs, "_renameat2", lambda: None)


def _no_links(monkeypatch: pytest.MonkeyPatch, code: int = errno.EPERM) -> None:
    def link(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "link", link)


def _renameat2_says(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    def function(*_args: Any) -> int:
        ctypes.set_errno(code)
        return -1

    monkeypatch.setattr(safefs, "_renameat2", lambda: function)


PUBLISHERS = ["renameat2", "link", "reserved", "renameat2-einval", "link-exdev"]


def _force(publisher: str, monkeypatch: pytest.MonkeyPatch) -> None:
    if publisher == "renameat2":
        if safefs._renameat2() is None:
            pytest.skip("this C library has no renameat2")
        monkeypatch.setattr(os, "link", None)  # never reached
    elif publisher == "link":
        _no_renameat2(monkeypatch)
    elif publisher == "reserved":
        _no_renameat2(monkeypatch)
        _no_links(monkeypatch)
    elif publisher == "renameat2-einval":
        _renameat2_says(monkeypatch, errno.EINVAL)
    elif publisher == "link-exdev":
        _renameat2_says(monkeypatch, errno.ENOSYS)
        _no_links(monkeypatch, errno.EXDEV)


@pytest.mark.parametrize("publisher", PUBLISHERS)
def test_write_new_publishes_the_whole_file_and_leaves_no_temporary(
    root: Path, folder: int, publisher: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    _force(publisher, monkeypatch)
    safefs.write_new(folder, "r.json", b'{"a": 1}\n')
    assert (root / "store" / "r.json").read_bytes() == b'{"a": 1}\n'
    assert sorted(os.listdir(root / "store")) == ["r.json"]


@pytest.mark.parametrize("publisher", PUBLISHERS)
def test_write_new_never_replaces_an_existing_name(
    root: Path, folder: int, publisher: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    (root / "store" / "r.json").write_bytes(b"first\n")
    _force(publisher, monkeypatch)
    with pytest.raises(FileExistsError):
        safefs.write_new(folder, "r.json", b"second\n")
    assert (root / "store" / "r.json").read_bytes() == b"first\n"
    assert sorted(os.listdir(root / "store")) == ["r.json"]


@pytest.mark.parametrize("publisher", ["renameat2", "link", "reserved"])
def test_a_name_taken_between_the_check_and_the_publication_is_not_replaced(
    root: Path, folder: int, publisher: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another writer takes the name after the early check: the publication itself refuses."""
    _force(publisher, monkeypatch)
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        real_fsync(fd)
        target = root / "store" / "r.json"
        if not target.exists():
            target.write_bytes(b"racer\n")

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(FileExistsError):
        safefs.write_new(folder, "r.json", b"mine\n")
    assert (root / "store" / "r.json").read_bytes() == b"racer\n"
    assert sorted(os.listdir(root / "store")) == ["r.json"]


def test_a_symlink_under_the_final_name_is_neither_followed_nor_replaced(
    root: Path, folder: int, outside: Path
) -> None:
    (root / "store" / "r.json").symlink_to(outside / "new.json")
    with pytest.raises(FileExistsError):
        safefs.write_new(folder, "r.json", b"x")
    assert not (outside / "new.json").exists()


def test_a_failed_rename_drops_the_reservation(
    root: Path, folder: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_renameat2(monkeypatch)
    _no_links(monkeypatch)

    def rename(*_args: Any, **_kwargs: Any) -> None:
        raise OSError(errno.EIO, "I/O error")

    monkeypatch.setattr(os, "rename", rename)
    with pytest.raises(OSError, match="I/O error"):
        safefs.write_new(folder, "r.json", b"x")
    assert os.listdir(root / "store") == []


def test_a_hard_failure_of_the_link_is_not_a_fallback(
    root: Path, folder: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_renameat2(monkeypatch)
    _no_links(monkeypatch, errno.EIO)
    with pytest.raises(OSError):
        safefs.write_new(folder, "r.json", b"x")
    assert os.listdir(root / "store") == []


def test_append_and_its_refusals(root: Path, outside: Path, folder: int) -> None:
    safefs.append(folder, "log", b"a\n")
    safefs.append(folder, "log", b"b\n")
    assert (root / "store" / "log").read_bytes() == b"a\nb\n"
    (root / "store" / "link").symlink_to(outside / "secret.md")
    with pytest.raises(Unsafe, match="refusing to write through it"):
        safefs.append(folder, "link", b"x")
    assert (outside / "secret.md").read_text() == "OUTSIDE-SECRET\n"
    os.mkfifo(root / "store" / "fifo")
    with pytest.raises(Unsafe) as caught:
        safefs.append(folder, "fifo", b"x")  # no reader: refused, not blocked
    assert caught.value.code == "not_a_file"


def test_open_lock_file(root: Path, outside: Path, folder: int) -> None:
    fd = safefs.open_lock_file(folder, "lock")
    os.close(fd)
    assert (root / "store" / "lock").is_file()
    fd = safefs.open_lock_file(folder, "lock")
    os.close(fd)
    (root / "store" / "evil").symlink_to(outside / "secret.md")
    with pytest.raises(Unsafe) as caught:
        safefs.open_lock_file(folder, "evil")
    assert caught.value.code == "symlink"
    (root / "store" / "dir").mkdir()
    with pytest.raises(Unsafe):
        safefs.open_lock_file(folder, "dir")


def test_replace_creates_then_replaces_leaving_no_temporary(root: Path, folder: int) -> None:
    safefs.replace(folder, "current.yaml", b"id: a\n")
    safefs.replace(folder, "current.yaml", b"id: b\n")
    assert (root / "store" / "current.yaml").read_bytes() == b"id: b\n"
    assert os.listdir(root / "store") == ["current.yaml"]


def test_replace_replaces_a_link_never_follows_it(root: Path, outside: Path, folder: int) -> None:
    (root / "store" / "current.yaml").symlink_to(outside / "secret.md")
    safefs.replace(folder, "current.yaml", b"id: a\n")
    assert (outside / "secret.md").read_text() == "OUTSIDE-SECRET\n"
    assert not (root / "store" / "current.yaml").is_symlink()


def test_replace_refuses_what_is_not_a_file(root: Path, folder: int) -> None:
    os.mkfifo(root / "store" / "current.yaml")
    with pytest.raises(Unsafe) as refused:
        safefs.replace(folder, "current.yaml", b"id: a\n")
    assert refused.value.code == "not_a_file"
    assert os.listdir(root / "store") == ["current.yaml"]


# -- a platform without the calls --------------------------------------------------------------


@pytest.mark.parametrize("name", ["O_NOFOLLOW", "O_DIRECTORY", "O_NONBLOCK"])
def test_a_missing_flag_is_one_clear_error(
    root: Path, name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(root, "f")
    monkeypatch.delattr(os, name)
    with pytest.raises(Unsupported) as caught, Tree(root) as tree:
        tree.read("f", 10)
    assert caught.value.exit_code == 13
    assert f"os.{name}" in caught.value.message and "\n" not in caught.value.message
    if name != "O_NONBLOCK":  # creating a directory does not need it
        with pytest.raises(Unsupported):
            os.close(safefs.ensure_dir(root, "x"))


def test_no_descriptor_relative_calls_is_one_clear_error(
    root: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "supports_dir_fd", set())
    with pytest.raises(Unsupported, match="relative to a directory"):
        Tree(root)


SIMULATE = {
    "O_NOFOLLOW": "del os.O_NOFOLLOW",
    "O_DIRECTORY": "del os.O_DIRECTORY",
    "dir_fd": "os.supports_dir_fd.clear()",
}


@pytest.mark.parametrize("missing", sorted(SIMULATE))
def test_the_command_says_so_in_one_line_without_a_traceback(tmp_path: Path, missing: str) -> None:
    repo = initialised_repo(tmp_path / "repo")
    program = (
        f"import os, sys; {SIMULATE[missing]}; sys.argv = ['majordomus'] + sys.argv[1:]; "
        "from majordomus.cli.entry import console; console()"
    )
    for args in (["objects", "list"], ["reasoning", "status"]):
        done = subprocess.run(
            [sys.executable, "-c", program, *args],
            cwd=repo,
            capture_output=True,
            text=True,
            env=command_env(),
            timeout=120,
        )
        assert done.returncode == 13, done.stderr
        assert "Traceback" not in done.stderr
        lines = [line for line in done.stderr.splitlines() if line.startswith("majordomus: ")]
        assert len(lines) == 1 and "POSIX" in lines[0], done.stderr
