"""The YAML subset (`majordomus/layer/yaml.py`): every rule and every quirk, one test each."""

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


def error(text: str) -> str:
    with pytest.raises(YamlError) as caught:
        parse(text)
    assert str(caught.value) == caught.value.message
    return caught.value.message


def value(text: str) -> Any:
    """The value of key `k` in a one-line document `k: <text>`."""
    return parse(f"k: {text}\n")["k"]


# line processing -----------------------------------------------------------------------


def test_empty_document_and_only_comments_and_markers_are_empty_mappings() -> None:
    assert parse("") == {}
    assert parse("\n\n  \n") == {}
    assert parse("# c\n---\n  # indented comment\n---   \n") == {}


def test_crlf_lines_are_accepted() -> None:
    assert parse("a: 1\r\nb:\r\n  c: x\r\n") == {"a": 1, "b": {"c": "x"}}


def test_only_newline_splits_lines() -> None:
    for separator in ["\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]:
        assert parse(f"a: x{separator}b: 2\n") == {"a": f"x{separator}b: 2"}


def test_line_numbers_start_at_one_and_count_blank_lines() -> None:
    assert error("\n\n# c\n?x\n") == "cannot parse line 4: ?x"


def test_tab_in_value_is_an_error() -> None:
    assert error("a: 1\nb: x\ty\n") == "tab character on line 2"


def test_tab_in_comment_is_an_error() -> None:
    assert error("a: 1\n\n# a\tcomment\n") == "tab character on line 3"
    assert error("a: 1 #\tc\n") == "tab character on line 1"


def test_tab_as_indentation_or_after_colon_is_an_error() -> None:
    assert error("a:\n\tb: 1\n") == "tab character on line 2"
    assert error("a:\t1\n") == "tab character on line 1"


def test_earlier_line_errors_come_before_a_later_tab() -> None:
    assert error(" a: 1\nb: \t\n") == "odd indentation on line 1"


def test_odd_indentation_is_an_error() -> None:
    assert error("a:\n b: 1\n") == "odd indentation on line 2"
    assert error("a:\n   - x\n") == "odd indentation on line 2"


def test_blank_and_comment_lines_are_skipped_before_the_indent_check() -> None:
    assert parse("a: 1\n   \n   # odd comment\nb: 2\n") == {"a": 1, "b": 2}


def test_document_markers_are_skipped_anywhere() -> None:
    text = "---\na: 1\n---\nb:\n  ---\n  c: 2\n   ---  \n"
    assert parse(text) == {"a": 1, "b": {"c": 2}}


def test_document_marker_with_a_comment_is_not_a_marker() -> None:
    assert error("--- # start\n") == "cannot parse line 1: --- # start"


def test_end_marker_and_complex_keys_cannot_be_parsed() -> None:
    assert error("a: 1\n...\n") == "cannot parse line 2: ..."
    assert error("? k\n: v\n") == "cannot parse line 1: ? k"


def test_key_grammar() -> None:
    assert error("a:b\n") == "cannot parse line 1: a:b"
    assert error('"a": 1\n') == 'cannot parse line 1: "a": 1'
    assert error("a.b: 1\n") == "cannot parse line 1: a.b: 1"
    assert error("1x: 2\n") == "cannot parse line 1: 1x: 2"
    assert error("a b: 1\n") == "cannot parse line 1: a b: 1"
    assert parse("_a-b_9: 1\nX: 2\n") == {"_a-b_9": 1, "X": 2}


def test_key_splits_at_the_first_colon() -> None:
    assert parse("url: http://x/y\n") == {"url": "http://x/y"}
    assert parse("time: 12:30\n") == {"time": "12:30"}


def test_cannot_parse_message_shows_the_line_without_indentation() -> None:
    assert error("a:\n  b: 1\n  just text\n") == "cannot parse line 3: just text"


def test_multi_line_plain_scalar_fails_on_the_continuation() -> None:
    assert error("a: one\n  two\n") == "cannot parse line 2: two"


# key lines and nesting -----------------------------------------------------------------


def test_nested_mappings() -> None:
    text = "a:\n  b:\n    c: 1\n  d: 2\ne: 3\n"
    assert parse(text) == {"a": {"b": {"c": 1}, "d": 2}, "e": 3}


def test_unexpected_indentation() -> None:
    assert error("a: 1\n  b: 2\n") == "unexpected indentation on line 2"
    assert error("a:\n    b: 1\n") == "unexpected indentation on line 2"


def test_block_key_without_children_vanishes() -> None:
    assert parse("a:\nb: 1\n") == {"b": 1}
    assert parse("a:\n  b:\n") == {}
    assert key_paths(parse("a:\nb: 1\nc:\n")) == ["b"]


def test_vanished_key_can_then_be_given() -> None:
    assert parse("a:\na: 1\n") == {"a": 1}


def test_closing_a_block_forgets_its_deeper_context() -> None:
    assert error("a:\n  b: 1\nc: 2\n  d: 3\n") == "unexpected indentation on line 4"


# list items ----------------------------------------------------------------------------


def test_list_items_two_deeper_than_their_key() -> None:
    assert parse("a:\n  - x\n  - y\n") == {"a": ["x", "y"]}


def test_list_items_at_their_keys_own_indent() -> None:
    assert parse("a:\n- x\n- y\nb: 1\n") == {"a": ["x", "y"], "b": 1}
    assert parse("a:\n  b:\n  - x\n") == {"a": {"b": ["x"]}}


def test_list_of_mappings_continues_with_keys_two_deeper_than_the_dash() -> None:
    text = "a:\n  - id: x\n    n: 1\n  - id: y\n    n: 2\n"
    assert parse(text) == {"a": [{"id": "x", "n": 1}, {"id": "y", "n": 2}]}


def test_list_of_mappings_with_nested_blocks() -> None:
    text = "\n".join(
        [
            "a:",
            "- b:",
            "    c: 1",
            "  d:",
            "  - x",
            "  e:",
            "    - y",
            "- f:",
            "  - z",
            "  g: 2",
        ]
    )
    assert parse(text) == {"a": [{"b": {"c": 1}, "d": ["x"], "e": ["y"]}, {"f": ["z"], "g": 2}]}


def test_list_item_key_opening_a_list_four_deeper() -> None:
    assert parse("a:\n- b:\n    - x\n") == {"a": [{"b": ["x"]}]}


def test_scalar_items_holding_colon_space_are_text() -> None:
    text = "notes:\n  - Both readers agree: always\n  - a:b\n"
    assert parse(text) == {"notes": ["Both readers agree: always", "a:b"]}


def test_item_that_is_a_key_line_is_a_mapping() -> None:
    assert parse("a:\n- url: http://x\n") == {"a": [{"url": "http://x"}]}


def test_dash_space_alone_is_the_empty_string() -> None:
    assert parse("a:\n- \n-   \n- x\n") == {"a": ["", "", "x"]}


def test_bare_dash_is_a_parse_error() -> None:
    assert error("a:\n-\n") == "cannot parse line 2: -"
    assert error("a:\n-x\n") == "cannot parse line 2: -x"


def test_top_level_list_is_refused() -> None:
    assert error("- a\n- b\n") == "list item without a parent key on line 1"


def test_list_item_too_deep_has_no_parent() -> None:
    assert error("a:\n    - x\n") == "list item without a parent key on line 2"
    assert error("a: 1\n- x\n") == "list item without a parent key on line 2"


def test_items_of_the_same_parent_count_across_the_document() -> None:
    assert parse("a:\n- x\nb: 1\na:\n- y\n") == {"a": ["x", "y"], "b": 1}


def test_nested_dash_item_is_text() -> None:
    assert parse("a:\n- - x\n") == {"a": ["- x"]}


def test_inline_list_as_item_nests_a_list() -> None:
    assert parse("a:\n- [x, y]\n- []\n") == {"a": [["x", "y"], []]}


# refused constructs ---------------------------------------------------------------------


@pytest.mark.parametrize("construct", ["&anchor x", "*alias", "|", ">-", "| # literal"])
def test_unquoted_anchors_aliases_and_block_scalars_are_refused(construct: str) -> None:
    assert error(f"a: 1\nk: {construct}\n") == (
        f"unsupported YAML construct on line 2: {construct}"
    )


def test_refused_constructs_in_list_items() -> None:
    assert error("a:\n- *x\n") == "unsupported YAML construct on line 2: *x"
    assert error("a:\n- k: &x v\n") == "unsupported YAML construct on line 2: &x v"


def test_quoted_forms_are_plain_text() -> None:
    assert parse("a: '*x'\nb: \"&y\"\nc:\n- '|'\n- \">\"\n") == {
        "a": "*x",
        "b": "&y",
        "c": ["|", ">"],
    }


def test_inline_list_elements_are_not_checked() -> None:
    assert value("[*a, &b, |, >]") == ["*a", "&b", "|", ">"]


def test_tags_are_text() -> None:
    assert value("!x") == "!x"
    assert value("!!str 1") == "!!str 1"


def test_backtick_percent_and_at_led_values_are_text() -> None:
    assert value("`git status` stays clean") == "`git status` stays clean"
    assert value("%TAG") == "%TAG"
    assert value("@heading") == "@heading"


def test_colon_space_inside_a_value_is_text() -> None:
    assert parse("description: one thing: another\n") == {"description": "one thing: another"}


def test_flow_mappings_are_strings() -> None:
    assert value("{a: 1}") == "{a: 1}"
    assert value("{}") == "{}"


# scalars, quoting, comments, inline lists ------------------------------------------------


def test_inline_list_splits_on_every_comma() -> None:
    assert value("[a, b ,c]") == ["a", "b", "c"]
    assert value('["a, b", c]') == ['"a', 'b"', "c"]
    assert value("[[a, b], c]") == ["[a", "b]", "c"]
    assert value("[a,]") == ["a", ""]


def test_inline_list_elements_are_typed_scalars() -> None:
    assert value("[1, true, 'x', \"2\", no]") == [1, True, "x", "2", "no"]


def test_inline_list_elements_cut_their_own_comments() -> None:
    assert value("[a #b, c]") == ["a", "c"]


def test_empty_inline_list() -> None:
    assert value("[]") == []
    assert value("[   ]") == []
    assert key_paths(parse("tags: []\n")) == ["tags"]


def test_unbalanced_brackets_are_strings() -> None:
    assert value("[a") == "[a"
    assert value("a]") == "a]"
    assert value("[") == "["


def test_inline_list_leaves() -> None:
    assert leaves("k: [a, 1]\nj: []\n") == [("k.0", "a"), ("k.1", 1), ("j", [])]


def test_quoted_strings_have_no_escape_processing() -> None:
    assert value('"a\\"b"') == 'a\\"b'
    assert value("'it''s'") == "it''s"
    assert value('"\\n"') == "\\n"


def test_quoted_strings_are_always_strings_and_keep_inner_spaces() -> None:
    assert value('"1"') == "1"
    assert value("'true'") == "true"
    assert value('"  padded  "') == "  padded  "
    assert value("''") == ""
    assert value("'a # b'") == "a # b"


def test_mismatched_or_single_quotes_are_plain_text() -> None:
    assert value("'") == "'"
    assert value("'a\"") == "'a\""
    assert value("'a' b") == "'a' b"


def test_comment_is_cut_at_space_hash() -> None:
    assert value("x # comment") == "x"
    assert value("x    # comment # more") == "x"
    assert value("1 # one") == 1
    assert value("true # yes") is True


def test_quirk_quoted_value_with_comment_keeps_its_quotes() -> None:
    assert value('"x" # c') == '"x"'


def test_quirk_hash_at_index_zero_is_not_a_comment() -> None:
    assert value("# c") == "# c"
    assert value("#") == "#"


def test_quirk_hash_without_a_space_before_is_text() -> None:
    assert value("x#y") == "x#y"
    assert value("a#b #c") == "a#b"


def test_quirk_inline_list_with_comment_is_a_string() -> None:
    assert parse("tags: [a, b] # c\n") == {"tags": "[a, b]"}


def test_quirk_comment_after_block_key_makes_a_string() -> None:
    assert parse("sections: # note\n") == {"sections": "# note"}
    assert error("sections: # note\n  rules: repo/rules\n") == ("unexpected indentation on line 2")


def test_booleans_are_exactly_true_and_false() -> None:
    assert value("true") is True
    assert value("false") is False
    for text in ["True", "FALSE", "yes", "no", "on", "off", "y"]:
        assert value(text) == text


def test_integers() -> None:
    assert value("0") == 0
    assert value("007") == 7
    assert value("-3") == -3
    assert value("-0") == 0
    assert value("9223372036854775807") == 9223372036854775807
    assert value("-9223372036854775808") == -9223372036854775808
    assert type(value("1")) is int


def test_integer_lookalikes_are_strings() -> None:
    for text in [
        "--5",
        "-",
        "--",
        "+5",
        "9223372036854775808",
        "-9223372036854775809",
        "1_000",
        "0x1f",
        "1e3",
        "١٢",
        "5 5",
    ]:
        assert value(text) == text, text


def test_no_null_float_or_date() -> None:
    for text in ["null", "~", "Null", "1.5", ".5", "2026-01-01", "2026-01-01T00:00:00Z", "15m"]:
        assert value(text) == text


def test_unquoted_empty_value_in_an_inline_list_is_the_empty_string() -> None:
    assert value("[a, , b]") == ["a", "", "b"]


def test_trailing_spaces_are_trimmed() -> None:
    assert parse("a: x   \nb: 'y'  \n") == {"a": "x", "b": "y"}


# rebuilding ------------------------------------------------------------------------------


def test_insertion_order_is_kept() -> None:
    assert list(parse("z: 1\na: 2\nm: 3\n")) == ["z", "a", "m"]


def test_duplicate_keys_are_given_twice() -> None:
    assert error("a: 1\na: 2\n") == "'a' is given twice"
    assert error("a:\n  b: 1\n  b: 2\n") == "'a.b' is given twice"
    assert error("a:\n  b: 1\na: 2\n") == "'a' is given twice"
    assert error("a: [x]\na:\n- y\n") == "'a.0' is given twice"


def test_list_mixed_with_mapping() -> None:
    assert error("a: [x]\na:\n  b: 1\n") == "'a.b' mixes a mapping with a scalar or list"
    assert error("a:\n  b: 1\na:\n- x\n") == "'a.0' mixes a list with a mapping"
    assert error("a:\n- x\n  b: 1\n") == "'a.b' mixes a mapping with a scalar or list"


def test_mapping_mixed_with_scalar() -> None:
    assert error("a: 2\na:\n  b: 1\n") == "'a.b' mixes a mapping with a scalar or list"
    assert error("a: x\na:\n- y\n") == "'a.0' mixes a list with a mapping"


def test_empty_inline_list_then_block_items_extend_it() -> None:
    assert parse("a: []\na:\n- y\n") == {"a": ["y"]}


def test_gaps_are_filled_with_none() -> None:
    assert parse("a:\n- b:\n- c: 1\n") == {"a": [None, {"c": 1}]}
    assert build([("a.2", "x")]) == {"a": [None, None, "x"]}
    assert build([("a.1", "x"), ("a.0", "y")]) == {"a": ["y", "x"]}


def test_parse_errors_come_before_rebuild_errors() -> None:
    assert error("a: 1\na: 2\n?\n") == "cannot parse line 3: ?"


# key paths -------------------------------------------------------------------------------


def test_key_paths_example() -> None:
    text = "\n".join(
        [
            "id: a",
            "version: 1",
            "depends_on: [x@1, y@2]",
            "tags: []",
            "x-majordomus:",
            "  validator: v",
            "  tests: [t]",
        ]
    )
    assert key_paths(parse(text)) == [
        "id",
        "version",
        "depends_on.0",
        "depends_on.1",
        "tags",
        "x-majordomus.validator",
        "x-majordomus.tests.0",
    ]


def test_key_paths_of_lists_of_mappings_and_gaps() -> None:
    text = "evidence:\n- covers: x\n  by: y\n- skip:\n- covers: z\n"
    assert key_paths(parse(text)) == [
        "evidence.0.covers",
        "evidence.0.by",
        "evidence.1",
        "evidence.2.covers",
    ]
    assert key_paths({}) == []


# scalars as text, typed reads -------------------------------------------------------------


def test_render_scalar() -> None:
    assert render_scalar("x") == "x"
    assert render_scalar("") == ""
    assert render_scalar(1) == "1"
    assert render_scalar(-7) == "-7"
    assert render_scalar(True) == "true"
    assert render_scalar(False) == "false"
    assert render_scalar(None) is None
    assert render_scalar([]) is None
    assert render_scalar({"a": 1}) is None


class _Source(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: str
    required: bool


class _Sources(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    version: int
    sources: list[_Source]


def test_parse_into_validates_the_rebuilt_mapping() -> None:
    text = "version: 1\nsources:\n  - id: rule\n    required: true\n"
    got = parse_into(text, _Sources)
    assert got == _Sources(version=1, sources=[_Source(id="rule", required=True)])


def test_parse_into_raises_yaml_errors() -> None:
    with pytest.raises(YamlError, match=r"^tab character on line 1$"):
        parse_into("version:\t1\n", _Sources)


def test_parse_into_lets_validation_errors_through() -> None:
    with pytest.raises(ValidationError) as caught:
        parse_into("version: '1'\nsources: []\nextra: x\n", _Sources)
    fields = {error["loc"] for error in caught.value.errors()}
    assert fields == {("version",), ("extra",)}


def test_yaml_error_is_a_value_error_with_its_message() -> None:
    err = YamlError("odd indentation on line 2")
    assert isinstance(err, ValueError)
    assert err.message == str(err) == "odd indentation on line 2"
