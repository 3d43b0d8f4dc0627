"""The YAML subset (`majordomus/layer/yaml.py`): every rule and every quirk, one row each."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

from majordomus.layer.yaml import (
    YamlError,
    build,
    key_paths,
    leaves,
    parse,
    parse_into,
    render_scalar,
)

#: Document text → the message of the `YamlError` it raises.
ERRORS = {
    # line processing: line numbers count blank lines; tabs anywhere; earlier errors first
    "\n\n# c\n?x\n": "cannot parse line 4: ?x",
    "a: 1\nb: x\ty\n": "tab character on line 2",
    "a: 1\n\n# a\tcomment\n": "tab character on line 3",
    "a: 1 #\tc\n": "tab character on line 1",
    "a:\n\tb: 1\n": "tab character on line 2",
    "a:\t1\n": "tab character on line 1",
    " a: 1\nb: \t\n": "odd indentation on line 1",
    "a:\n b: 1\n": "odd indentation on line 2",
    "a:\n   - x\n": "odd indentation on line 2",
    "--- # start\n": "cannot parse line 1: --- # start",
    "a: 1\n...\n": "cannot parse line 2: ...",
    "? k\n: v\n": "cannot parse line 1: ? k",
    # the key grammar; the message shows the line without its indentation
    "a:b\n": "cannot parse line 1: a:b",
    '"a": 1\n': 'cannot parse line 1: "a": 1',
    "a.b: 1\n": "cannot parse line 1: a.b: 1",
    "1x: 2\n": "cannot parse line 1: 1x: 2",
    "a b: 1\n": "cannot parse line 1: a b: 1",
    "a:\n  b: 1\n  just text\n": "cannot parse line 3: just text",
    "a: one\n  two\n": "cannot parse line 2: two",
    # nesting: closing a block forgets its deeper context
    "a: 1\n  b: 2\n": "unexpected indentation on line 2",
    "a:\n    b: 1\n": "unexpected indentation on line 2",
    "a:\n  b: 1\nc: 2\n  d: 3\n": "unexpected indentation on line 4",
    # list items
    "a:\n-\n": "cannot parse line 2: -",
    "a:\n-x\n": "cannot parse line 2: -x",
    "- a\n- b\n": "list item without a parent key on line 1",
    "a:\n    - x\n": "list item without a parent key on line 2",
    "a: 1\n- x\n": "list item without a parent key on line 2",
    # refused constructs, unquoted, in list items too
    **{
        f"a: 1\nk: {construct}\n": f"unsupported YAML construct on line 2: {construct}"
        for construct in ["&anchor x", "*alias", "|", ">-", "| # literal"]
    },
    "a:\n- *x\n": "unsupported YAML construct on line 2: *x",
    "a:\n- k: &x v\n": "unsupported YAML construct on line 2: &x v",
    # quirk: a comment after a block key makes a string, so its children are too deep
    "sections: # note\n  rules: repo/rules\n": "unexpected indentation on line 2",
    # rebuilding: duplicates and mixtures; parse errors come before rebuild errors
    "a: 1\na: 2\n": "'a' is given twice",
    "a:\n  b: 1\n  b: 2\n": "'a.b' is given twice",
    "a:\n  b: 1\na: 2\n": "'a' is given twice",
    "a: [x]\na:\n- y\n": "'a.0' is given twice",
    "a: [x]\na:\n  b: 1\n": "'a.b' mixes a mapping with a scalar or list",
    "a:\n  b: 1\na:\n- x\n": "'a.0' mixes a list with a mapping",
    "a:\n- x\n  b: 1\n": "'a.b' mixes a mapping with a scalar or list",
    "a: 2\na:\n  b: 1\n": "'a.b' mixes a mapping with a scalar or list",
    "a: x\na:\n- y\n": "'a.0' mixes a list with a mapping",
    "a: 1\na: 2\n?\n": "cannot parse line 3: ?",
}

#: Document text → what it parses to.
PARSES: dict[str, Any] = {
    # empty documents: blank, comments and document markers only
    "": {},
    "\n\n  \n": {},
    "# c\n---\n  # indented comment\n---   \n": {},
    "a: 1\r\nb:\r\n  c: x\r\n": {"a": 1, "b": {"c": "x"}},
    "a: 1\n   \n   # odd comment\nb: 2\n": {"a": 1, "b": 2},
    "---\na: 1\n---\nb:\n  ---\n  c: 2\n   ---  \n": {"a": 1, "b": {"c": 2}},
    "_a-b_9: 1\nX: 2\n": {"_a-b_9": 1, "X": 2},
    # a key splits at the first colon
    "url: http://x/y\n": {"url": "http://x/y"},
    "time: 12:30\n": {"time": "12:30"},
    # nesting; a block key without children vanishes, and can then be given
    "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n": {"a": {"b": {"c": 1}, "d": 2}, "e": 3},
    "a:\nb: 1\n": {"b": 1},
    "a:\n  b:\n": {},
    "a:\na: 1\n": {"a": 1},
    # list items: two deeper than their key, or at its own indent
    "a:\n  - x\n  - y\n": {"a": ["x", "y"]},
    "a:\n- x\n- y\nb: 1\n": {"a": ["x", "y"], "b": 1},
    "a:\n  b:\n  - x\n": {"a": {"b": ["x"]}},
    "a:\n  - id: x\n    n: 1\n  - id: y\n    n: 2\n": {
        "a": [{"id": "x", "n": 1}, {"id": "y", "n": 2}]
    },
    "a:\n- b:\n    c: 1\n  d:\n  - x\n  e:\n    - y\n- f:\n  - z\n  g: 2": {
        "a": [{"b": {"c": 1}, "d": ["x"], "e": ["y"]}, {"f": ["z"], "g": 2}]
    },
    "a:\n- b:\n    - x\n": {"a": [{"b": ["x"]}]},
    "notes:\n  - Both readers agree: always\n  - a:b\n": {
        "notes": ["Both readers agree: always", "a:b"]
    },
    "a:\n- url: http://x\n": {"a": [{"url": "http://x"}]},
    "a:\n- \n-   \n- x\n": {"a": ["", "", "x"]},
    "a:\n- x\nb: 1\na:\n- y\n": {"a": ["x", "y"], "b": 1},
    "a:\n- - x\n": {"a": ["- x"]},
    "a:\n- [x, y]\n- []\n": {"a": [["x", "y"], []]},
    # quoted forms of refused constructs are plain text
    "a: '*x'\nb: \"&y\"\nc:\n- '|'\n- \">\"\n": {"a": "*x", "b": "&y", "c": ["|", ">"]},
    "description: one thing: another\n": {"description": "one thing: another"},
    # quirks of comments
    "tags: [a, b] # c\n": {"tags": "[a, b]"},
    "sections: # note\n": {"sections": "# note"},
    "a: x   \nb: 'y'  \n": {"a": "x", "b": "y"},
    # rebuilding: an empty inline list is extended by items; gaps are filled with None
    "a: []\na:\n- y\n": {"a": ["y"]},
    "a:\n- b:\n- c: 1\n": {"a": [None, {"c": 1}]},
}

#: The text of `k: <text>` → the value of `k`, of the same type.
VALUES: dict[str, Any] = {
    # unquoted anchors and the like inside inline lists are not checked; tags and other
    # leading characters are text; flow mappings are strings
    "[*a, &b, |, >]": ["*a", "&b", "|", ">"],
    "!x": "!x",
    "!!str 1": "!!str 1",
    "`git status` stays clean": "`git status` stays clean",
    "%TAG": "%TAG",
    "@heading": "@heading",
    "{a: 1}": "{a: 1}",
    "{}": "{}",
    # inline lists split on every comma into typed scalars, each cutting its comment
    "[a, b ,c]": ["a", "b", "c"],
    '["a, b", c]': ['"a', 'b"', "c"],
    "[[a, b], c]": ["[a", "b]", "c"],
    "[a,]": ["a", ""],
    "[1, true, 'x', \"2\", no]": [1, True, "x", "2", "no"],
    "[a #b, c]": ["a", "c"],
    "[]": [],
    "[   ]": [],
    "[a, , b]": ["a", "", "b"],
    "[a": "[a",
    "a]": "a]",
    "[": "[",
    # quoted strings: no escapes, always strings, inner spaces kept
    '"a\\"b"': 'a\\"b',
    "'it''s'": "it''s",
    '"\\n"': "\\n",
    '"1"': "1",
    "'true'": "true",
    '"  padded  "': "  padded  ",
    "''": "",
    "'a # b'": "a # b",
    "'": "'",
    "'a\"": "'a\"",
    "'a' b": "'a' b",
    # comments are cut at space-hash; the quirks: quotes kept, `#` first or unspaced is text
    "x # comment": "x",
    "x    # comment # more": "x",
    "1 # one": 1,
    "true # yes": True,
    '"x" # c': '"x"',
    "# c": "# c",
    "#": "#",
    "x#y": "x#y",
    "a#b #c": "a#b",
    # booleans are exactly true and false
    "true": True,
    "false": False,
    **{text: text for text in ["True", "FALSE", "yes", "no", "on", "off", "y"]},
    # integers within 64 bits; lookalikes, nulls, floats and dates are strings
    "0": 0,
    "1": 1,
    "007": 7,
    "-3": -3,
    "-0": 0,
    "9223372036854775807": 9223372036854775807,
    "-9223372036854775808": -9223372036854775808,
    **{
        text: text
        for text in [
            *["--5", "-", "--", "+5", "9223372036854775808", "-9223372036854775809"],
            *["1_000", "0x1f", "1e3", "١٢", "5 5", "null", "~", "Null", "1.5", ".5"],
            *["2026-01-01", "2026-01-01T00:00:00Z", "15m"],
        ]
    },
}


@pytest.mark.parametrize(("text", "message"), ERRORS.items())
def test_errors(text: str, message: str) -> None:
    with pytest.raises(YamlError) as caught:
        parse(text)
    assert caught.value.message == str(caught.value) == message


@pytest.mark.parametrize(("text", "expected"), PARSES.items())
def test_parses(text: str, expected: Any) -> None:
    assert parse(text) == expected


@pytest.mark.parametrize(("text", "expected"), VALUES.items())
def test_values(text: str, expected: Any) -> None:
    got = parse(f"k: {text}\n")["k"]
    assert (got, type(got)) == (expected, type(expected))


@pytest.mark.parametrize(
    "separator", ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
)
def test_only_newline_splits_lines(separator: str) -> None:
    assert parse(f"a: x{separator}b: 2\n") == {"a": f"x{separator}b: 2"}


def test_insertion_order_is_kept() -> None:
    assert list(parse("z: 1\na: 2\nm: 3\n")) == ["z", "a", "m"]


def test_build_fills_gaps_and_places_items_by_index() -> None:
    assert build([("a.2", "x")]) == {"a": [None, None, "x"]}
    assert build([("a.1", "x"), ("a.0", "y")]) == {"a": ["y", "x"]}


def test_key_paths() -> None:
    text = "id: a\nversion: 1\ndepends_on: [x@1, y@2]\ntags: []\nx-majordomus:\n  validator: v\n"
    assert key_paths(parse(text + "  tests: [t]")) == [
        *["id", "version", "depends_on.0", "depends_on.1", "tags"],
        *["x-majordomus.validator", "x-majordomus.tests.0"],
    ]
    text = "evidence:\n- covers: x\n  by: y\n- skip:\n- covers: z\n"
    assert key_paths(parse(text)) == [
        *["evidence.0.covers", "evidence.0.by", "evidence.1", "evidence.2.covers"]
    ]
    assert key_paths({}) == []
    assert key_paths(parse("a:\nb: 1\nc:\n")) == ["b"]
    assert key_paths(parse("tags: []\n")) == ["tags"]


def test_inline_list_leaves() -> None:
    assert leaves("k: [a, 1]\nj: []\n") == [("k.0", "a"), ("k.1", 1), ("j", [])]


def test_render_scalar() -> None:
    shown = [render_scalar(v) for v in ["x", "", 1, -7, True, False, None, [], {"a": 1}]]
    assert shown == ["x", "", "1", "-7", "true", "false", None, None, None]


class _Source(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str
    required: bool


class _Sources(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    version: int
    sources: list[_Source]


def test_parse_into_validates_the_rebuilt_mapping_and_raises_both_errors() -> None:
    text = "version: 1\nsources:\n  - id: rule\n    required: true\n"
    got = parse_into(text, _Sources)
    assert got == _Sources(version=1, sources=[_Source(id="rule", required=True)])
    with pytest.raises(YamlError, match=r"^tab character on line 1$"):
        parse_into("version:\t1\n", _Sources)
    with pytest.raises(ValidationError) as caught:
        parse_into("version: '1'\nsources: []\nextra: x\n", _Sources)
    assert {error["loc"] for error in caught.value.errors()} == {("version",), ("extra",)}


def test_yaml_error_is_a_value_error_with_its_message() -> None:
    err = YamlError("odd indentation on line 2")
    assert isinstance(err, ValueError)
    assert err.message == str(err) == "odd indentation on line 2"


def test_a_typed_list_is_owned_by_each_document() -> None:
    """A list is never shared between two reads."""
    first, second = parse("tags: [a, 1]\n"), parse("tags: [a, 1]\n")
    assert first == second == {"tags": ["a", 1]}
    first["tags"].append("changed")
    assert parse("tags: [a, 1]\n") == {"tags": ["a", 1]}
    assert second == {"tags": ["a", 1]}
