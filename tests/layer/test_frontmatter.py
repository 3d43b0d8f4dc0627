"""Front matter: its fences and limits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.layer.frontmatter import LIMIT_BYTES, FrontMatterError, split
from majordomus.layer.yaml import YamlError, parse

NEVER_CLOSED = "front matter opened on line 1 and never closed"


def failure(text: str) -> str:
    with pytest.raises(FrontMatterError) as caught:
        split(text)
    assert str(caught.value) == caught.value.message
    return caught.value.message


def test_front_matter_and_body() -> None:
    assert split("---\nid: a\n---\n# Title\nbody\n") == ("id: a\n", "# Title\nbody\n")


def test_crlf_fences() -> None:
    text = "---\r\nid: a\r\n---\r\nbody\r\n"
    front, body = split(text)
    assert (front, body) == ("id: a\r\n", "body\r\n")
    assert parse(front) == {"id": "a"}


def test_mixed_line_endings_close_either_way() -> None:
    assert split("---\nid: a\n---\r\nbody") == ("id: a\n", "body")
    assert split("---\r\nid: a\n---\nbody") == ("id: a\n", "body")


def test_no_opening_fence_means_the_whole_text_is_the_body() -> None:
    for text in ["", "# Title\n", "body\n---\nx: 1\n---\n", "--- \nx: 1\n---\n", "----\n"]:
        assert split(text) == (None, text)


def test_bom_blank_line_toml_and_json_are_not_front_matter() -> None:
    for text in [
        "\ufeff---\nid: a\n---\n",
        "\n---\nid: a\n---\n",
        "+++\nid = 'a'\n+++\n",
        '{"id": "a"}\n',
    ]:
        assert split(text) == (None, text)


def test_closing_fence_must_be_exactly_three_dashes() -> None:
    text = "---\na: 1\n----\n --- \n--- x\n---\nbody"
    assert split(text) == ("a: 1\n----\n --- \n--- x\n", "body")


def test_closing_fence_at_end_of_text() -> None:
    assert split("---\na: 1\n---") == ("a: 1\n", "")
    assert split("---\na: 1\n---\r") == ("a: 1\n", "")
    assert split("---\na: 1\n---\n") == ("a: 1\n", "")


def test_only_the_first_closing_fence_counts() -> None:
    assert split("---\na: 1\n---\n---\nb: 2\n---\n") == ("a: 1\n", "---\nb: 2\n---\n")


def test_never_closed() -> None:
    assert failure("---\na: 1\n") == NEVER_CLOSED
    assert failure("---\n") == NEVER_CLOSED
    assert failure("---\r\n") == NEVER_CLOSED
    assert failure("---\na: 1\n--- \n") == NEVER_CLOSED


def test_whole_text_three_dashes_is_never_closed() -> None:
    assert failure("---") == NEVER_CLOSED


def test_empty_block_is_an_empty_mapping() -> None:
    assert split("---\n---\n") == ("", "")
    assert split("---\n---\nbody") == ("", "body")
    assert split("---\r\n---\r\n") == ("", "")
    assert parse(split("---\n---\n")[0] or "") == {}


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


@settings(derandomize=True, max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from(["---", "\n", "\r\n", "\r", "a: 1", " ", "-", "\ufeff", "é", "+++"]),
        max_size=20,
    ).map("".join)
)
def test_split_raises_only_front_matter_error(text: str) -> None:
    try:
        front, body = split(text)
    except FrontMatterError:
        return
    if front is None:
        assert body == text
    else:
        assert text.startswith("---") and text.endswith(body)
