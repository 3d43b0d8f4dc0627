"""A re-index reads its `ls-files` against the one before (`Listing.entries_since`): whenever
it reads only the lines that differ, the entries are the ones reading every line gives, and
the changed paths are exactly those whose entry changed; over generated listings (conflicts,
paths changed at the same length, lines added or dropped, paths that are not UTF-8) and
blocks of every size."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.layer import git as git_module
from majordomus.layer.git import GitError

PROPERTY = settings(derandomize=True, max_examples=300, deadline=None)

#: (mode, blob, stage, path) of one index entry, as `ls-files -s -z` prints it.
Line = tuple[str, str, int, bytes]

names = st.lists(st.sampled_from([b"a", b"b", b"c", b"\xc3\xa9", b"a/b"]), min_size=1, max_size=4)
paths = names.map(b"".join)
blobs = st.text("0f", min_size=40, max_size=40)
modes = st.sampled_from(["100644", "100755"])
lines = st.tuples(modes, blobs, st.sampled_from([0, 0, 0, 1, 2, 3]), paths)
kinds = st.sampled_from(
    ["blob", "blob", "blob", "mode", "stage", "path", "same length", "drop", "add", "utf8"]
)
edits = st.lists(st.tuples(st.integers(0, 200), kinds, lines), min_size=1, max_size=3)


def _render(listed: list[Line]) -> bytes:
    return b"".join(
        f"{mode} {blob} {stage}\t".encode() + path + b"\0" for mode, blob, stage, path in listed
    )


def _edited(listed: list[Line], changes: list[tuple[int, str, Line]]) -> list[Line]:
    now = list(listed)
    for at, kind, line in changes:
        if kind == "add" or not now:
            now.insert(at % (len(now) + 1), line)
            continue
        at %= len(now)
        mode, blob, stage, path = now[at]
        if kind == "drop":
            del now[at]
        elif kind == "blob":
            now[at] = (mode, line[1], stage, path)
        elif kind == "mode":
            now[at] = (line[0], blob, stage, path)
        elif kind == "stage":
            now[at] = (mode, blob, line[2], path)
        elif kind == "path":
            now[at] = (mode, blob, stage, line[3])
        elif kind == "same length":
            now[at] = (mode, blob, stage, path[::-1])
        else:
            now[at] = (mode, blob, stage, path[:-1] + b"\xff")
    return now


def _read(out: bytes) -> dict[str, str] | str:
    try:
        return git_module._entries(out)
    except GitError as exc:
        return exc.message


@PROPERTY
@given(
    before=st.lists(lines, max_size=40),
    changes=edits,
    block=st.sampled_from([1, 5, 64, 4096]),
)
def test_reading_the_lines_that_differ_is_reading_every_line(
    before: list[Line], changes: list[tuple[int, str, Line]], block: int
) -> None:
    then = _render(before)
    was = _read(then)
    if isinstance(was, str):
        return  # a listing that fails is never read against
    now = _render(_edited(before, changes))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(git_module, "_BLOCK", block)
        delta = git_module._changed(now, then, was) if now != then else (was, [])
    if delta is None:
        return
    entries, changed = delta
    assert list(entries.items()) == list(_read(now).items())  # type: ignore[union-attr]
    assert sorted(changed) == sorted(path for path, entry in entries.items() if was[path] != entry)


def test_a_staged_edit_is_read_from_its_line_alone() -> None:
    before = [("100644", "0" * 40, 0, b"r/%d.md" % n) for n in range(500)]
    after = list(before)
    after[321] = ("100644", "f" * 40, 0, b"r/321.md")
    then = _render(before)
    delta = git_module._changed(_render(after), then, git_module._entries(then))
    assert delta is not None
    entries, changed = delta
    assert changed == ["r/321.md"]
    assert entries["r/321.md"] == "100644 " + "f" * 40 + " 0"
