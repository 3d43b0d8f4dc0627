"""Redaction (docs/ledger.md#the-redacted-vocabulary): every secret shape, the control scrub,
the walk over a body."""

from __future__ import annotations

import random
import re

import pytest

from majordomus.errors import Refused
from majordomus.ledger.record import parse_input
from majordomus.ledger.service import redact
from majordomus.redaction.redactor import (
    redact_text,
    redact_value,
    shapes_in,
    strip_controls,
)

SECRETS = {
    "anthropic-key": "sk-ant-" + "b" * 16,
    "openai-key": "sk-" + "a" * 20,
    "github-token": "ghp_" + "c" * 20,
    "github-pat": "github_pat_" + "d" * 20,
    "aws-access-key-id": "AKIA" + "Q" * 16,
    "google-api-key": "AIza" + "e" * 35,
    "slack-token": "xoxb-" + "1" * 10,
    "stripe-key": "sk_live_" + "f" * 16,
    "private-key-header": "-----BEGIN RSA PRIVATE KEY-----",
    "bearer-token": "Bearer " + "g" * 20,
}


@pytest.mark.parametrize(("name", "secret"), SECRETS.items())
def test_each_shape_is_replaced_by_its_marker(name, secret):
    assert redact_text(f"before {secret} after") == f"before [redacted:{name}] after"
    assert shapes_in(redact_text(secret)) == {name}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("sk-ant-" + "b" * 15, "sk-ant-" + "b" * 15),
        ("sk-" + "a" * 19, "sk-" + "a" * 19),
        ("sk-proj-" + "a" * 20, "[redacted:openai-key]"),
        ("gho_" + "c" * 19, "gho_" + "c" * 19),
        ("ghx_" + "c" * 30, "ghx_" + "c" * 30),
        ("AKIA" + "Q" * 18, "[redacted:aws-access-key-id]QQ"),
        ("AKIA" + "q" * 16, "AKIA" + "q" * 16),
        ("xoxc-" + "1" * 10, "xoxc-" + "1" * 10),
        ("rk_test_" + "f" * 16, "[redacted:stripe-key]"),
        ("sk_prod_" + "f" * 16, "sk_prod_" + "f" * 16),
        ("-----BEGIN PRIVATE KEY-----", "[redacted:private-key-header]"),
        ("-----BEGIN RSA ENCRYPTED PRIVATE KEY-----", "-----BEGIN RSA ENCRYPTED PRIVATE KEY-----"),
        ("bearer " + "g" * 20, "[redacted:bearer-token]"),
        ("BEARER " + "g" * 20, "BEARER " + "g" * 20),
        ("task-" + "x" * 20, "ta[redacted:openai-key]"),
        ("mask-" + "x" * 20, "ma[redacted:openai-key]"),
    ],
)
def test_shape_boundaries(text, expected):
    assert redact_text(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("export API_KEY=dddddddddddddddd", "export API_KEY=[redacted:assignment]"),
        (
            """{"Access_Token" : 'aaaaaaaaaaaaaaaa'}""",
            """{"Access_Token" : '[redacted:assignment]'}""",
        ),
        ("password: hunter2hunter2hunter2", "password: [redacted:assignment]"),
        ("secret-key=" + "z" * 16, "secret-key=[redacted:assignment]"),
        ("api_key\\=\\" + "z" * 16, "api_key\\=\\[redacted:assignment]"),
        # below the table's reach, the wider `secret-assignment` shape takes them
        ('apikey:\\"' + "z" * 16, 'apikey:\\"[redacted:secret-assignment]'),
        ("Password=" + "z" * 15, "Password=[redacted:secret-assignment]"),
        ("api__key=" + "z" * 16, "api__key=" + "z" * 16),
        ("PASSWORD =  'short'", "PASSWORD =  '[redacted:secret-assignment]'"),
        ("password: " + "y" * 16 + " and more", "password: [redacted:assignment] and more"),
    ],
)
def test_assignment_keeps_key_and_separator(text, expected):
    assert redact_text(text) == expected


def test_assignment_key_is_ascii_case_insensitive_only():
    kelvin = "api_\u212aey=" + "z" * 16
    assert redact_text(kelvin) == kelvin


def test_several_shapes_in_one_text():
    text = f"{SECRETS['github-token']} then {SECRETS['openai-key']} and {SECRETS['github-token']}"
    out = redact_text(text)
    assert out == "[redacted:github-token] then [redacted:openai-key] and [redacted:github-token]"
    assert shapes_in(out) == {"github-token", "openai-key"}


def test_anthropic_key_is_not_reported_as_openai():
    assert shapes_in(redact_text("sk-ant-" + "b" * 30)) == {"anthropic-key"}


def test_controls_are_stripped_and_ansi_sequences_dropped():
    assert strip_controls("\x1b[31mred\x1b[0m\tdone\nnext") == "reddone\nnext"
    assert strip_controls("a\x1bb\x7fc\rd\x85e") == "abcde"
    assert strip_controls("keep\nlines") == "keep\nlines"
    assert strip_controls("cut \x1b[12;3") == "cut "


def test_markers_already_present_count_and_foreign_markers_do_not():
    assert shapes_in("see [redacted:openai-key]") == {"openai-key"}
    assert shapes_in("see [redacted:password]") == set()


def test_every_string_value_is_walked_keys_untouched():
    value = {
        "sk-" + "k" * 20: "sk-" + "v" * 20,
        "list": [{"note": "AKIA" + "Q" * 16}, 3, None, True],
    }
    cleaned, kinds = redact_value(value)
    assert cleaned == {
        "sk-" + "k" * 20: "[redacted:openai-key]",
        "list": [{"note": "[redacted:aws-access-key-id]"}, 3, None, True],
    }
    assert kinds == ["aws-access-key-id", "openai-key"]


def test_a_body_without_secrets_comes_back_unchanged():
    body = parse_input({"kind": "assessment", "subject": "lock scope"})
    cleaned, kinds = redact(body)
    assert cleaned is body
    assert kinds == []


def test_controls_alone_are_cleaned_without_a_kind():
    body = parse_input({"kind": "assessment", "subject": "\x1b[1mbold\x1b[0m"})
    cleaned, kinds = redact(body)
    assert cleaned.subject == "bold"
    assert kinds == []


@pytest.mark.filterwarnings("ignore::UserWarning")
def test_a_redacted_form_that_no_longer_parses_is_refused_and_never_written():
    # A closed vocabulary cannot carry a secret in a valid body; an unchecked one can, and
    # its redacted form is no body at all: the record is refused, naming the shape only.
    body = parse_input({"kind": "assessment", "subject": "s"})
    secret = "sk-" + "a" * 20
    broken = body.model_copy(update={"confidence": secret})
    with pytest.raises(Refused, match=r"holds a secret \(openai-key\)") as refused:
        redact(broken)
    assert secret not in str(refused.value)


def test_key_words_are_found_where_ascii_lower_casing_finds_them() -> None:
    """Key words are found in `_lowered` where lower-casing the ASCII letters alone puts them
    (the Kelvin sign and the dotted I stay: the patterns match ASCII letters only)."""
    from majordomus.redaction.redactor import _COMPILED, _lowered

    def reference(text: str) -> str:
        return text.translate({code: code + 32 for code in range(ord("A"), ord("Z") + 1)})

    words = ["password", "Pass", "KEY", "ey", "api_", "Token", "secret", "aws", "heroku", "curl"]
    others = ["\u212a", "\u0130", "É", "é", "ß", "\udc80", "→", "\U0001f600", " ", "=", "x", "1"]
    chooser = random.Random(7)
    anchors = [shape.anchor for shape in _COMPILED if shape.anchor is not None]
    for _ in range(600):
        pieces = [chooser.choice(words if chooser.random() < 0.4 else others) for _ in range(12)]
        text = "".join(pieces[: chooser.randint(1, 12)])
        fast, slow = _lowered(text), reference(text)
        assert len(fast) == len(text), text
        for anchor in anchors:
            assert [m.span() for m in re.finditer(anchor, fast)] == [
                m.span() for m in re.finditer(anchor, slow)
            ], (anchor, text)
