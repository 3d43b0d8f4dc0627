from __future__ import annotations

from majordomus.projections.text import one_line


def test_first_line_trimmed() -> None:
    assert one_line("  share the client \nacross threads") == "share the client"


def test_only_newline_ends_a_line() -> None:
    assert one_line("a\rb\u2028c") == "a\rb\u2028c".strip()


def test_empty() -> None:
    assert one_line("") == ""


def test_exactly_140_is_kept() -> None:
    assert one_line("x" * 140) == "x" * 140


def test_longer_is_cut_to_140_with_an_ellipsis() -> None:
    cut = one_line("é" * 141)
    assert cut == "é" * 139 + "…"
    assert len(cut) == 140
