"""`safefs.replace`: the atomic replace-write of a state file, never through a link."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from majordomus import safefs


def _replace(folder: Path, name: str, data: bytes) -> None:
    fd = safefs.open_root(folder)
    try:
        safefs.replace(fd, name, data)
    finally:
        os.close(fd)


def test_creates_then_replaces_leaving_no_temporary(tmp_path: Path) -> None:
    _replace(tmp_path, "current.yaml", b"id: a\n")
    _replace(tmp_path, "current.yaml", b"id: b\n")
    assert (tmp_path / "current.yaml").read_bytes() == b"id: b\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current.yaml"]


def test_a_link_is_replaced_never_followed(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.write_bytes(b"kept")
    (tmp_path / "current.yaml").symlink_to(target)
    _replace(tmp_path, "current.yaml", b"id: a\n")
    assert target.read_bytes() == b"kept"
    assert not (tmp_path / "current.yaml").is_symlink()


def test_something_that_is_not_a_file_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "current.yaml")
    with pytest.raises(safefs.Unsafe) as refused:
        _replace(tmp_path, "current.yaml", b"id: a\n")
    assert refused.value.code == "not_a_file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["current.yaml"]
