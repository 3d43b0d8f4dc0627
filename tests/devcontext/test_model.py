"""The wire models: schema names, strict inputs, omitted keys and canonical order keys."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from majordomus.devcontext import (
    CommitReference,
    CompileInput,
    Conflict,
    Deduplicated,
    ExplainInput,
    Explanation,
    Standing,
    Tier,
)
from majordomus.order import canonical
from majordomus.wire import dumps_canonical


def test_input_schemas_are_named_as_published() -> None:
    compile_schema = CompileInput.model_json_schema()
    assert compile_schema["title"] == "DevContextInput"
    assert compile_schema["type"] == "object" and compile_schema["additionalProperties"] is False
    assert compile_schema["description"] == (
        "The input of `devcontext.compile`: what to compile a context about."
    )
    assert "required" not in compile_schema
    explain_schema = ExplainInput.model_json_schema()
    assert explain_schema["title"] == "DevContextExplainInput"
    assert explain_schema["required"] == ["uri"]
    assert explain_schema["description"] == (
        "The input of `devcontext.explain`: one identifier, and the request to judge it under."
    )
    assert set(explain_schema["properties"]) == {*compile_schema["properties"], "uri"}


def test_the_standing_component_is_named_devcontext_standing() -> None:
    assert "DevContextStanding" in Explanation.model_json_schema()["$defs"]
    assert Standing is not None and Standing.__name__ == "DevContextStanding"


def test_unknown_fields_are_refused() -> None:
    with pytest.raises(ValidationError):
        CompileInput.model_validate({"issue": "I0001", "budget": 3})
    with pytest.raises(ValidationError):
        ExplainInput.model_validate({})
    with pytest.raises(ValidationError):
        CompileInput.model_validate({"budget_tokens": -1})


def test_the_canonical_form_omits_what_is_absent() -> None:
    assert CompileInput().wire() == {}
    given = CompileInput(paths=["lib"], all_blocking_rules=True, floor=0.5)
    assert dumps_canonical(given.wire()) == (
        '{"all_blocking_rules":true,"floor":0.5,"paths":["lib"]}'
    )


def test_enums_carry_their_words() -> None:
    assert [t.value for t in Tier.ORDER] == [
        "task",
        "governance",
        "source",
        "decision",
        "knowledge",
        "history",
    ]
    assert all(len(t.meaning()) > len(t.value) for t in Tier.ORDER)
    assert "architectural decisions" in Tier.DECISION.meaning()


def test_canonical_orders_of_the_collections() -> None:
    rows = [
        Deduplicated(kept="b", dropped=[], key="uri", detail="", paths=2),
        Deduplicated(kept="z", dropped=["y"], key="path", detail="", paths=1),
        Deduplicated(kept="item-10", dropped=["x"], key="identity", detail="", paths=1),
        Deduplicated(kept="item-2", dropped=["x"], key="identity", detail="", paths=1),
    ]
    assert [(d.key, d.kept) for d in canonical(rows)] == [
        ("identity", "item-2"),
        ("identity", "item-10"),
        ("path", "z"),
        ("uri", "b"),
    ]
    conflicts = [
        Conflict(current="a", against="b", kind="version", detail=""),
        Conflict(current="b", against="a", kind="supersedes", detail=""),
    ]
    assert [c.kind for c in canonical(conflicts)] == ["supersedes", "version"]
    commits = [
        CommitReference(commit="b", named_by="x"),
        CommitReference(commit="a", named_by="y", covers="proof"),
    ]
    assert [c.commit for c in canonical(commits)] == ["a", "b"]
    assert "covers" not in commits[0].wire()
