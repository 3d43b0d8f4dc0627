"""The flat fast path of `parse` agrees with the general pass on every text it takes."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.layer.yaml import YamlError, build, leaves, parse

KEYS = st.sampled_from(["id", "kind", "title", "a", "_b", "tags", "x-y", "depends_on", "Z9"])
VALUES = st.sampled_from(
    [
        "v",
        "two words",
        "1",
        "-7",
        "007",
        "9223372036854775808",
        "true",
        "false",
        "'quoted'",
        '"dq # not a comment"',
        "text # comment",
        "[]",
        "[a, b, 1]",
        "[ ]",
        "[a, [b]]",
        "&anchor",
        "*alias",
        "|",
        ">",
        "\u00a0",
        "\u00a0x\u3000",
        "é ü",
        "a: b",
        "#",
        " ",
        "",
    ]
)
LINES = st.one_of(
    st.builds(lambda k, v: f"{k}: {v}", KEYS, VALUES),
    st.builds(lambda k, v: f"{k}:   {v}", KEYS, VALUES),
    st.builds(lambda k: f"{k}:", KEYS),
    st.sampled_from(["", "# comment", "---", "  nested: 1", "- item", "key:\tv", "k: v\r", "bad"]),
)


def general(text: str) -> Any:
    try:
        return build(leaves(text))
    except YamlError as exc:
        return ("error", exc.message)


def fast(text: str) -> Any:
    try:
        return parse(text)
    except YamlError as exc:
        return ("error", exc.message)


@settings(max_examples=3000)
@given(st.lists(LINES, max_size=10))
def test_parse_equals_the_general_pass(lines: list[str]) -> None:
    text = "\n".join(lines)
    assert fast(text) == general(text)
    assert fast(text + "\n") == general(text + "\n")


def test_a_typed_list_is_owned_by_each_document() -> None:
    """A list is never shared between two reads."""
    first, second = parse("tags: [a, 1]\n"), parse("tags: [a, 1]\n")
    assert first == second == {"tags": ["a", 1]}
    first["tags"].append("changed")
    assert parse("tags: [a, 1]\n") == {"tags": ["a", 1]}
    assert second == {"tags": ["a", 1]}


@settings(max_examples=1500)
@given(st.lists(st.builds(lambda k, v: f"{k}: {v}", KEYS, VALUES), max_size=8), st.booleans())
def test_flat_documents_agree_with_the_general_pass(lines: list[str], trailing: bool) -> None:
    """Flat documents of typed and untyped values against the general pass."""
    text = "\n".join(lines) + ("\n" if trailing else "")
    assert repr(fast(text)) == repr(general(text))
