from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.projections.text import LINE_LIMIT, one_line


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


def _split_first_line(text: str) -> str:
    """The cut as it was written first: the first of `split("\\n", 1)`, trimmed and cut."""
    first = text.split("\n", 1)[0].strip()
    return first if len(first) <= LINE_LIMIT else first[: LINE_LIMIT - 1] + "…"


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(["a", " ", "\n", "\r", "\t", "é", "\u2028", "\x00"])))
def test_the_same_cut_as_a_split(text: str) -> None:
    assert one_line(text) == _split_first_line(text)
    assert one_line(text * 40) == _split_first_line(text * 40)
