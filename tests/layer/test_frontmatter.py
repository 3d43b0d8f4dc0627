"""Front matter: its fences and limits."""

from __future__ import annotations

import pytest

from majordomus.layer.frontmatter import LIMIT_BYTES, FrontMatterError, split
from majordomus.layer.yaml import YamlError, parse

NEVER_CLOSED = "front matter opened on line 1 and never closed"

#: Text → (front matter, body) as `split` cuts it.
SPLITS = {
    "---\nid: a\n---\n# Title\nbody\n": ("id: a\n", "# Title\nbody\n"),
    "---\r\nid: a\r\n---\r\nbody\r\n": ("id: a\r\n", "body\r\n"),
    # mixed line endings close either way
    "---\nid: a\n---\r\nbody": ("id: a\n", "body"),
    "---\r\nid: a\n---\nbody": ("id: a\n", "body"),
    # no opening fence (nor a BOM, a blank line, TOML or JSON): the whole text is the body
    **{
        text: (None, text)
        for text in [
            *["", "# Title\n", "body\n---\nx: 1\n---\n", "--- \nx: 1\n---\n", "----\n"],
            *["\ufeff---\nid: a\n---\n", "\n---\nid: a\n---\n", "+++\nid = 'a'\n+++\n"],
            '{"id": "a"}\n',
        ]
    },
    # the closing fence is exactly three dashes, the first one counts, it may end the text
    "---\na: 1\n----\n --- \n--- x\n---\nbody": ("a: 1\n----\n --- \n--- x\n", "body"),
    "---\na: 1\n---": ("a: 1\n", ""),
    "---\na: 1\n---\r": ("a: 1\n", ""),
    "---\na: 1\n---\n": ("a: 1\n", ""),
    "---\na: 1\n---\n---\nb: 2\n---\n": ("a: 1\n", "---\nb: 2\n---\n"),
    # an empty block
    "---\n---\n": ("", ""),
    "---\n---\nbody": ("", "body"),
    "---\r\n---\r\n": ("", ""),
    # the body is kept verbatim, tabs included
    "---\nid: a\n---\n\tindented\r\n---\n\u2028 # not yaml: [\n": (
        "id: a\n",
        "\tindented\r\n---\n\u2028 # not yaml: [\n",
    ),
}


@pytest.mark.parametrize(("text", "expected"), SPLITS.items())
def test_split(text: str, expected: tuple[str | None, str]) -> None:
    assert split(text) == expected


@pytest.mark.parametrize("text", ["---\na: 1\n", "---\n", "---\r\n", "---\na: 1\n--- \n", "---"])
def test_never_closed(text: str) -> None:
    assert failure(text) == NEVER_CLOSED


def test_the_front_matter_parses() -> None:
    assert parse(split("---\r\nid: a\r\n---\r\nbody\r\n")[0] or "") == {"id": "a"}
    assert parse(split("---\n---\n")[0] or "") == {}


def failure(text: str) -> str:
    with pytest.raises(FrontMatterError) as caught:
        split(text)
    assert str(caught.value) == caught.value.message
    return caught.value.message


def test_size_limit_counts_utf8_bytes() -> None:
    at_limit = "a: " + "x" * (LIMIT_BYTES - 4) + "\n"
    assert len(at_limit.encode()) == LIMIT_BYTES
    assert split(f"---\n{at_limit}---\n") == (at_limit, "")
    over = "a: " + "é" * (LIMIT_BYTES // 2 - 2) + "x\n"
    size = len(over.encode())
    assert size == LIMIT_BYTES + 1 and len(over) < LIMIT_BYTES
    assert failure(f"---\n{over}---\nbody") == (
        f"front matter is {size} bytes, over the 65536 byte limit"
    )


def test_body_keeps_its_content_verbatim_including_tabs() -> None:
    body = "\tindented\r\n---\n\u2028 # not yaml: [\n"
    assert split(f"---\nid: a\n---\n{body}") == ("id: a\n", body)


def test_yaml_line_numbers_count_from_after_the_opening_fence() -> None:
    front, _ = split("---\nid: a\n bad: 1\n---\n")
    with pytest.raises(YamlError, match=r"^odd indentation on line 2$"):
        parse(front or "")


def test_document_markers_inside_are_not_the_closing_fence_when_padded() -> None:
    front, body = split("---\nid: a\n  ---\n---\nbody")
    assert parse(front or "") == {"id": "a"}
    assert body == "body"
