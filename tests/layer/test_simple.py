"""The common-shape reading of `majordomus.layer.simple` answers what the full steps of
`majordomus.layer.reader` answer, on every file it takes; and it takes the usual ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from majordomus.layer.kinds import load_kinds
from majordomus.layer.model import SourceClass
from majordomus.layer.reader import Excluded, LayerReader, _checked, _read
from majordomus.layer.simple import plan_of
from tests.layer.support import manifest

MANIFEST = manifest(rules="repo/rules")
KINDS = load_kinds()
#: The kinds a plan reads.
PLANNED = sorted(name for name, spec in KINDS.kinds.items() if plan_of(spec) is not None)

RULE = """\
---
id: project.rule-0
version: 1
kind: rule
title: Rule 0
description: Rule number 0, in one sentence.
statement: Do the thing number 0.
status: active
class: advisory
depends_on: []
tags: [synthetic]
---

# Rationale

Rationale line 0 of rule 0.
"""

KEYS = st.sampled_from(
    [
        "id", "version", "kind", "title", "description", "statement", "status", "class",
        "depends_on", "tags", "name", "applies_to", "scope", "x-majordomus.category",
        "x-majordomus", "colour", "_b", "Z9", "9a", "tïtle", "id ", " id", "-id",
    ]
)  # fmt: skip
VALUES = st.sampled_from(
    [
        "v", "two words", "1", "0", "2", "-1", "007", "9223372036854775808", "true", "false",
        "'quoted'", '"dq # not a comment"', "text # comment", "a #b", "[]", "[a, b, 1]", "[ ]",
        "[a]", "[a", "[a, [b]]", "[1, true]", "&anchor", "*alias", "|", ">", "{a: b}", "#",
        "\u00a0", "x\u00a0", "é ü", "a: b", " ", "", "  lead", "trail ", "''", '""',
        "rule", "prompt", "document", "skill", "a/b", "a@b", "a\x01b", "a\x1cb", "a\vb",
        "a\fb", "\t", "project.rule-0", "x\u2028y",
    ]
)  # fmt: skip
LINES = st.one_of(
    st.builds(lambda k, v: f"{k}: {v}", KEYS, VALUES),
    st.builds(lambda k, v: f"{k}:  {v}", KEYS, VALUES),
    st.builds(lambda k, v: f"{k}:{v}", KEYS, VALUES),
    st.builds(lambda k: f"{k}:", KEYS),
    st.sampled_from(["", "# comment", "---", "----", "  nested: 1", "- item", "key:\tv", "bad"]),
    st.sampled_from(["title: x\r", "---x: 1", "... ", "id: a\x85", "tags:", "  - a"]),
)
OPENINGS = st.one_of(
    st.just("---\n"), st.sampled_from(["---\r\n", "", "---", "--- \n", "\ufeff---\n"])
)
CLOSINGS = st.one_of(
    st.just("---\n"), st.sampled_from(["---", "---\r\n", "---\r", "----\n", "--- \n", ""])
)
BODIES = st.sampled_from(["", "\n# Heading\n\nBody.\n", "# H", "\n---\nx: y\n", "é\n", "---\n"])


def _reader(tmp: Path, *, simple: bool) -> LayerReader:
    reader = LayerReader(root=tmp, manifest=MANIFEST, kinds=KINDS)
    if not simple:
        reader.plans.update(dict.fromkeys(KINDS.kinds))  # every kind read in full
    return reader


def _source(kind: str) -> SourceClass:
    return SourceClass(id=kind, kind=kind, discovery="vcs", pathspec="", required=False)


def _typed(value: Any) -> str:
    """A value's text with its types and key order (`True` is not `1` here)."""
    return json.dumps(value, ensure_ascii=False)


def _full(kind: str, text: str, reader: LayerReader) -> tuple[Any, ...]:
    try:
        spec, metadata, body = _checked(KINDS.kinds[kind], text, reader, _source(kind))
    except Excluded as exc:
        return ("excluded", exc.code, exc.message)
    return (spec.name, _typed(metadata), body)


@pytest.fixture(scope="module")
def readers(tmp_path_factory: pytest.TempPathFactory) -> tuple[LayerReader, LayerReader]:
    tmp = tmp_path_factory.mktemp("simple")
    return _reader(tmp, simple=True), _reader(tmp, simple=False)


def _plain(kind: str) -> st.SearchStrategy[tuple[str, str]]:
    """A plain `key: value` of one of the kind's own keys."""
    plan = plan_of(KINDS.kinds[kind])
    assert plan is not None
    names = st.sampled_from(sorted(plan.names))
    return st.tuples(
        names, st.sampled_from(["v", "x y", "1", "0", "[a, b]", "[]", "[1]", kind, "a.b-c", "'q'"])
    )


def _lines(kind: str) -> st.SearchStrategy[list[str]]:
    """Plain lines of the kind's own keys, and at times one line of anything else."""
    plan = plan_of(KINDS.kinds[kind])
    assert plan is not None
    names = st.sampled_from(sorted(plan.names))
    pair = st.one_of(*[_plain(kind)] * 12, st.tuples(names, VALUES))
    odd = st.one_of(LINES, st.builds(lambda k, v: f"{k}: {v}", names, VALUES))
    return st.builds(
        lambda pairs, extra, at: [
            *(f"{k}: {v}" for k, v in pairs[:at]),
            *([] if extra is None else [extra]),
            *(f"{k}: {v}" for k, v in pairs[at:]),
        ],
        st.lists(pair, max_size=7, unique_by=lambda pair: pair[0]),
        st.one_of(st.none(), st.none(), odd),
        st.integers(0, 7),
    )


@settings(max_examples=2000, deadline=None)
@given(
    data=st.data(),
    kind=st.sampled_from(PLANNED),
    opening=OPENINGS,
    closing=CLOSINGS,
    body=BODIES,
)
def test_a_plan_answers_what_the_full_steps_answer(
    readers: tuple[LayerReader, LayerReader],
    data: st.DataObject,
    kind: str,
    opening: str,
    closing: str,
    body: str,
) -> None:
    lines = data.draw(_lines(kind))
    text = opening + "".join(line + "\n" for line in lines) + closing + body
    plan = plan_of(KINDS.kinds[kind])
    assert plan is not None
    fast = plan.read(text)
    if fast is not None:
        assert (kind, _typed(fast[0]), fast[1]) == _full(kind, text, readers[1])
    # and the whole read of the file, objects and diagnostics, with and without the plans
    raw = text.encode("utf-8")
    answers = []
    for reader in readers:
        try:
            objects, findings = _read("x/a.md", _source(kind), reader, KINDS.kinds[kind], raw)
            answers.append(([_typed(o.to_json()) for o in objects], findings))
        except Excluded as exc:
            answers.append(("excluded", exc.code, exc.message))
    assert answers[0] == answers[1]


@settings(max_examples=500, deadline=None)
@given(data=st.data(), kind=st.sampled_from(PLANNED))
def test_a_plain_front_matter_the_full_steps_accept_takes_the_plan(
    readers: tuple[LayerReader, LayerReader], data: st.DataObject, kind: str
) -> None:
    pairs = data.draw(st.lists(_plain(kind), min_size=1, max_size=8, unique_by=lambda p: p[0]))
    assume(dict(pairs).get("kind", kind) == kind)  # any other kind is left to the full steps
    text = "---\n" + "".join(f"{k}: {v}\n" for k, v in pairs) + "---\n# Title\n"
    plan = plan_of(KINDS.kinds[kind])
    assert plan is not None
    if _full(kind, text, readers[1])[0] != "excluded":
        assert plan.read(text) is not None


@pytest.mark.parametrize(
    ("kind", "text"),
    [
        ("rule", RULE),
        ("rule", RULE[: RULE.index("---\n\n#") + 3]),
        ("document", "# Document 0\n\nLine 0.\n"),
        ("document", "---\ntitle: T\n---\n# Doc\n"),
        ("prompt", "---\nname: p\ndescription: d\n---\nbody\n"),
    ],
)
def test_the_usual_files_take_the_plan(kind: str, text: str) -> None:
    plan = plan_of(KINDS.kinds[kind])
    assert plan is not None
    assert plan.read(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        RULE.replace("title: Rule 0", "title: Rule 0 # note"),
        RULE.replace("title: Rule 0", "title:  Rule 0"),
        RULE.replace("title: Rule 0", "title: Rule 0 "),
        RULE.replace("title: Rule 0", "title: Règle 0"),
        RULE.replace("title: Rule 0", "title:\tRule 0"),
        RULE.replace("title: Rule 0", "colour: blue"),
        RULE.replace("kind: rule", "kind: document"),
        RULE.replace("tags: [synthetic]", "tags:\n  - a"),
        RULE.replace("status: active", "status: active\ntitle: again"),
        RULE.replace("\n", "\r\n"),
        "# no front matter: a rule without one is read as a document\n",
    ],
)
def test_anything_else_is_left_to_the_full_steps(text: str) -> None:
    plan = plan_of(KINDS.kinds["rule"])
    assert plan is not None
    assert plan.read(text) is None
