"""The local continuity reader and the size function."""

from __future__ import annotations

from pathlib import Path

import pytest

from majordomus.devcontext.sources import disk_size, local_state
from tests.layer.support import write


def test_no_state_means_no_records(tmp_path: Path) -> None:
    assert local_state(tmp_path)() == {"handover": None, "checkpoint": None}


def test_newest_record_with_its_scalar_fields(tmp_path: Path) -> None:
    state = ".ai/local/state"
    write(tmp_path, f"{state}/handovers/20260901T000000Z.md", "---\nbranch: old\n---\n")
    write(
        tmp_path,
        f"{state}/handovers/20260902T000000Z.md",
        "---\nbranch: main\nhead: abc\nworking_tree: dirty\nmatched: exact\n"
        "commits: [a, b]\nunrelated: 1\n---\n# Handover\n",
    )
    write(tmp_path, f"{state}/checkpoints/only.md", "no front matter\n")
    records = local_state(tmp_path)()
    assert records["handover"] == {
        "path": f"{state}/handovers/20260902T000000Z.md",
        "branch": "main",
        "head": "abc",
        "matched": "exact",
        "working_tree": "dirty",
    }
    assert records["checkpoint"] == {"path": f"{state}/checkpoints/only.md"}


def test_a_stated_creation_time_outranks_a_name(tmp_path: Path) -> None:
    folder = tmp_path / ".ai" / "mine" / "state" / "checkpoints"
    write(folder, "z.md", "---\ncreated_at: 2026-01-01\n---\n")
    write(folder, "a.md", "---\ncreated_at: 2026-02-01\n---\n")
    record = local_state(tmp_path, "mine")()["checkpoint"]
    assert record is not None and record["path"].endswith("a.md")


def test_a_broken_record_makes_the_provider_fail(tmp_path: Path) -> None:
    write(tmp_path, ".ai/local/state/handovers/x.md", "---\nkey: [unclosed\n")
    with pytest.raises(ValueError):
        local_state(tmp_path)()


def test_disk_size(tmp_path: Path) -> None:
    write(tmp_path, "lib/a.sh", "12345")
    size_of = disk_size(tmp_path)
    assert size_of("lib/a.sh") == 5
    assert size_of("lib") is not None
    assert size_of("missing") is None
    assert size_of("../etc/passwd") is None and size_of("/etc/passwd") is None
