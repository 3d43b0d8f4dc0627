"""`one_line`: the first line only (only `\\n` ends one), trimmed, at most 140 characters."""

from __future__ import annotations

import pytest

from majordomus.projections.timeline import one_line


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("  share the client \nacross threads", "share the client"),
        ("a\rb\u2028c", "a\rb\u2028c"),
        ("", ""),
        ("x" * 140, "x" * 140),
        ("é" * 141, "é" * 139 + "…"),
    ],
)
def test_one_line(text: str, line: str) -> None:
    assert one_line(text) == line
