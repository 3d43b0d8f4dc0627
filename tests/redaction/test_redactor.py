"""Redaction (docs/ledger.md#the-redacted-vocabulary): every secret shape, the control scrub,
the walk over a body."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from majordomus.errors import Refused
from majordomus.ledger.record import parse_input
from majordomus.ledger.service import redact
from majordomus.redaction import redactor
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


def _fresh_prefilter() -> Any:
    return redactor._Prefilter(set(redactor._LITERALS.exact), set(redactor._LITERALS.any_case))


@pytest.mark.parametrize("rented", [0, 1 << 40], ids=["one scan", "literal by literal"])
def test_the_prefilter_never_misses_a_literal_a_text_holds(
    rented: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One scan stands for a scan per literal: overlapping, nested and case-folded literals
    are all found, whichever set they belong to (a text without any is passed over whole);
    so does the search literal by literal that a process starts with."""
    from majordomus.redaction import redactor as redaction
    from majordomus.redaction.redactor import WORD_END

    monkeypatch.setattr(redaction, "_RENTED_BYTES", rented)
    scan = _fresh_prefilter()
    literals = scan.exact + scan.any_case
    chooser = random.Random(18)
    for _ in range(2000):
        pieces = [
            chooser.choice(literals)[: chooser.randint(1, 12)] for _ in range(chooser.randint(1, 8))
        ]
        glue = ["", " ", "x", "A", "-", "é", "K", "1", "_"]
        text = "".join(piece + chooser.choice(glue) for piece in pieces)
        text = text.upper() if chooser.random() < 0.2 else text
        exact, any_case = scan.found_in(text.encode("utf-8"))
        assert exact >= {lit for lit in scan.exact if lit in text}, text
        lowered = text.encode("utf-8", "surrogatepass").lower().decode("latin-1")
        assert any_case >= {
            lit
            for lit in scan.any_case
            if re.search(re.escape(lit.removesuffix(WORD_END)) + "(?![a-z0-9])", lowered)
            or (not lit.endswith(WORD_END) and lit in lowered)
        }, text
    plain = "the quick brown fox: a rule, a title and an id (r-12) over example.org/a"
    assert scan.found_in(plain.encode("ascii")) == (frozenset(), frozenset())


def test_the_scans_redact_as_the_search_literal_by_literal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled scans gate the shapes as the search literal by literal does, whatever the
    text (case-folded, non-ASCII, escapes, a secret across `_RENTED_BYTES`)."""
    from majordomus.redaction import redactor as redaction
    from tests.reliability.secret_samples import ORDINARY, SAMPLES

    literals = [
        literal.removesuffix(redaction.WORD_END)
        for literal in redaction._LITERALS.exact + redaction._LITERALS.any_case
    ]
    sources = [literals, [sample.text for sample in SAMPLES], list(ORDINARY), ["pass", "x_pass="]]
    glue = ["", " ", "x", "A", "-", "é", "K", "1", "_", "\n", '"', "\\n", '\\"', "=", ": "]
    glue += ["\u212a", "\u0130", "\ud800", "—", "://", "@", ".", "\x1b[31m"]
    chooser = random.Random(2026)
    texts = []
    for _ in range(1500):
        pieces = []
        for _ in range(chooser.randint(1, 24)):
            source = chooser.choice(sources[chooser.choice((0, 0, 1, 2, 3))])
            piece = source[: chooser.randint(1, len(source))]
            piece = chooser.choice((piece, piece, piece.upper(), piece.lower()))
            pieces.append(piece + chooser.choice(glue))
        texts.append("".join(pieces))
    filler = "\n".join(ORDINARY) * (140_000 // len("\n".join(ORDINARY)) + 1)
    for sample in SAMPLES[:: max(1, len(SAMPLES) // 12)]:
        at = redaction._RENTED_BYTES - len(sample.text) // 2
        texts.append(filler[:at] + sample.text + filler[at:])
    monkeypatch.setattr(redaction, "_RENTED_BYTES", 1 << 40)
    monkeypatch.setattr(redaction, "_LITERALS", _fresh_prefilter())
    expected = [redaction.redact_secrets(text) for text in texts]
    monkeypatch.setattr(redaction, "_RENTED_BYTES", 0)
    monkeypatch.setattr(redaction, "_LITERALS", _fresh_prefilter())
    assert [redaction.redact_secrets(text) for text in texts] == expected
    assert sum("[redacted:" in text for text in expected) > len(texts) // 2


def _key_word_texts(seed: int) -> list[str]:
    """600 texts of key words and characters outside ASCII (Kelvin sign, lone surrogate)."""
    words = ["password", "Pass", "KEY", "ey", "api_", "Token", "secret", "aws", "heroku", "curl"]
    others = ["\u212a", "\u0130", "É", "é", "ß", "\udc80", "→", "\U0001f600", " ", "=", "x", "1"]
    chooser = random.Random(seed)
    return [
        "".join(
            chooser.choice(words if chooser.random() < 0.4 else others)
            for _ in range(chooser.randint(1, 12))
        )
        for _ in range(600)
    ]


def test_key_words_are_found_where_full_lower_casing_finds_them() -> None:
    """Key words are found in `_lowered` where `str.lower` (ASCII letters only when it would
    move an offset) puts them."""
    from majordomus.redaction.redactor import _COMPILED, _lowered

    def reference(text: str) -> str:
        lowered = text.lower()
        if len(lowered) == len(text):
            return lowered
        return text.translate({code: code + 32 for code in range(ord("A"), ord("Z") + 1)})

    anchors = [shape.anchor for shape in _COMPILED if shape.anchor is not None]
    for text in _key_word_texts(7):
        fast, slow = _lowered(text), reference(text)
        assert len(fast) == len(text), text
        for anchor in anchors:
            assert [m.span() for m in re.finditer(anchor, fast)] == [
                m.span() for m in re.finditer(anchor, slow)
            ], (anchor, text)


def test_key_words_found_in_the_bytes_start_where_they_start_in_the_text() -> None:
    """Key words found in a text's lower-cased UTF-8 bytes start at the text's own offsets."""
    from majordomus.redaction.redactor import _COMPILED, _KeyWords, _lowered

    anchors = [re.compile(shape.anchor) for shape in _COMPILED if shape.anchor is not None]
    for text in _key_word_texts(11):
        key_words = _KeyWords(text, text.encode("utf-8", "surrogatepass"))
        for anchor in anchors:
            assert list(key_words.starts(anchor)) == [
                m.start() for m in anchor.finditer(_lowered(text))
            ], (anchor.pattern, text)


def test_narrowed_key_word_anchors_redact_as_all_the_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """A shape gated by whole key words alone looks only for the words a text holds; what
    it replaces is what looking for all of them replaces, whatever else the text holds."""
    from majordomus.redaction import redactor as redaction

    narrowed = [shape for shape in redaction._COMPILED if shape.words is not None]
    assert [shape.marker for shape in narrowed] == ["[redacted:secret-assignment]"]
    pieces = [
        *narrowed[0].words,
        *(word.upper() for word in narrowed[0].words),
        "db_",
        "x.",
        "=",
        ": ",
        '"',
        "\\n",
        "\u212a",
        "ey",
        "\u0130",
        "é",
        "hunter2hunter2",
        " ",
        "api_",
        "s3cr3tv4lue",
        "\n",
    ]
    chooser = random.Random(11)
    texts = [
        "".join(chooser.choice(pieces) for _ in range(chooser.randint(1, 14))) for _ in range(1500)
    ]
    narrowed_results = [redaction.redact_secrets(text) for text in texts]
    for shape in narrowed:
        monkeypatch.setattr(shape, "words", None)
    assert [redaction.redact_secrets(text) for text in texts] == narrowed_results
    assert any("[redacted:secret-assignment]" in result for result in narrowed_results)


_PREFILTER = _fresh_prefilter()
_PREFILTER._rented = redactor._RENTED_BYTES  # past its start: every text goes through the scans
_BARE = sorted({lit.removesuffix("$") for lit in _PREFILTER.exact + _PREFILTER.any_case})


def _neighbours(literal: str) -> list[str]:
    """A literal cut short at either end, and with one character changed in place."""
    near = [literal[1:], literal[:-1]]
    near += [literal[:at] + "#" + literal[at + 1 :] for at in range(len(literal))]
    return [piece for piece in near if piece]


_PIECES = st.one_of(
    st.sampled_from(_BARE),
    st.sampled_from(sorted({near for lit in _BARE for near in _neighbours(lit)})),
    st.sampled_from(_BARE).flatmap(
        lambda lit: st.lists(st.booleans(), min_size=len(lit), max_size=len(lit)).map(
            lambda upper: "".join(c.upper() if up else c for c, up in zip(lit, upper, strict=True))
        )
    ),
    st.sampled_from(["", " ", "a", "Z", "0", "_", "-", ".", "/", ":", "=", '"', "\\n", "\n"]),
    st.sampled_from(["é", "\u212a", "\u0130", "\ud800", "\x85", "—", "\u202e", "\U0001f600"]),
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(_PIECES, max_size=12))
def test_the_compiled_scans_never_report_fewer_literals_than_a_search_of_each(
    pieces: list[str],
) -> None:
    """The scans report every literal a search literal by literal finds: the literals, their
    neighbours and case variants, glued by boundaries and characters outside ASCII."""
    data = "".join(pieces).encode("utf-8", "surrogatepass")
    exact, any_case = _PREFILTER.found_in(data)
    held_exact, held_any_case = _PREFILTER._each(data)
    assert exact >= held_exact
    assert any_case >= held_any_case


def test_every_literal_holds_one_of_its_scans_chosen_pivots() -> None:
    """The pivots are covers of the table's literals (a literal holding none would be
    looked for from a pivot of its own, a pass more over every large text that holds it)."""
    from majordomus.redaction import redactor as redaction

    for literal in _PREFILTER.exact:
        chosen = redaction._FOLDED_PIVOTS if literal == literal.lower() else redaction._CASED_PIVOTS
        assert set(literal) & set(chosen), literal
    for literal in _PREFILTER.any_case:
        assert set(literal.removesuffix("$")) & set(redaction._FOLDED_PIVOTS), literal


def test_a_look_behind_filter_finds_what_its_look_behinds_find() -> None:
    """Literals ending only by looking behind at one place share a look behind at the
    characters before their pivots: it finds exactly what they alone find."""
    from majordomus.redaction.redactor import _alternation

    literals = {"hvb.": 3, "hvs.": 3, "ya29.": 4, "dp.": 2}
    pattern = _alternation(literals)
    assert pattern.startswith(r"\.(?<=[9bps]\.)")
    bare = re.compile(r"\.(?:(?<=dp\.)|(?<=hvb\.)|(?<=hvs\.)|(?<=ya29\.))")
    text = "a.b.hvb.hvs.ya29.xa29.dp.dq.p.s.9.hv.vs.. hvb.."
    assert re.findall(pattern, text) == bare.findall(text)
    assert [m.start() for m in re.finditer(pattern, text)] == [
        m.start() for m in bare.finditer(text)
    ]
