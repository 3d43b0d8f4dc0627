"""Record models: fields, defaults, wire words, omission and strictness (an unknown kind or
word is refused in tests/ledger/test_messages.py, in the words a caller reads)."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from majordomus.advisors.policy import Materiality, ReasoningConfidence
from majordomus.ledger.record import (
    KINDS,
    ConsultationStatus,
    ReasoningRecord,
    StoredConclusion,
    StoredPlan,
    parse_body,
    parse_input,
)
from tests.ledger.records import envelope, stored_record
from tests.projections.builders import plan
from tests.reliability.chain import MODELS

MINIMAL = {
    "assessment": {"kind": "assessment", "subject": "s"},
    "plan": {"kind": "plan", "assessment": "assessment-1"},
    "consultation": {"kind": "consultation", "plan": "p", "advisor": "a", "status": "timeout"},
    "disagreement": {
        "kind": "disagreement",
        "assessment": "a",
        "positions": [],
        "discriminating_question": "q",
    },
    "resolution": {
        "kind": "resolution",
        "disagreement": "d",
        "experiment": "e",
        "outcome": "o",
        "favours": "neither",
        "evidence": [],
    },
    "conclusion": {"kind": "conclusion", "assessment": "a", "decision": "d", "rationale": "r"},
    "validation": {"kind": "validation", "conclusion": "c", "check": "x", "outcome": "pass"},
    "attempt": {"kind": "attempt", "attempt": "a", "observed_failure": "f"},
}


def test_kinds_in_spec_order():
    assert tuple(MODELS) == KINDS


@pytest.mark.parametrize("kind", KINDS)
def test_minimal_input_parses_into_its_kind(kind):
    given = parse_input(MINIMAL[kind])
    assert type(given) is MODELS[kind]
    assert given.kind == kind
    assert next(iter(given.wire())) == "kind", "kind is written first"


@pytest.mark.parametrize("kind", KINDS)
def test_inputs_refuse_unknown_fields(kind):
    with pytest.raises(ValidationError) as error:
        parse_input({**MINIMAL[kind], "notes": "misspelt"})
    assert "notes" in str(error.value)


@pytest.mark.parametrize("kind", KINDS)
def test_inputs_refuse_a_missing_required_field(kind):
    data = dict(MINIMAL[kind])
    required = next(k for k in data if k != "kind")
    del data[required]
    with pytest.raises(ValidationError):
        parse_input(data)


def test_assessment_defaults_and_omission():
    given = parse_input(MINIMAL["assessment"])
    assert given.materiality is Materiality.LOW
    assert given.confidence is ReasoningConfidence.MEDIUM
    assert given.wire() == {
        "kind": "assessment",
        "subject": "s",
        "materiality": "low",
        "confidence": "medium",
        "new_evidence": False,
    }


def test_assessment_full_key_order():
    data = {
        "kind": "assessment",
        "subject": "s",
        "materiality": "high",
        "confidence": "low",
        "hypothesis": "h",
        "affects": ["concurrency"],
        "facts": ["f"],
        "assumptions": ["a"],
        "questions": ["q"],
        "evidence": [{"kind": "test", "reference": "t", "note": "n"}],
        "capabilities": ["code_review"],
        "new_evidence": True,
    }
    assert parse_input(data).wire() == data
    assert list(parse_input(data).wire()) == list(data)


def test_consultation_full_round_trip():
    data = {
        "kind": "consultation",
        "plan": "plan-1",
        "advisor": "alpha",
        "status": "completed",
        "question": "q",
        "evidence": [{"kind": "prior_external_opinion", "reference": "consultation-1"}],
        "conclusion": "c",
        "stance": "alternative",
        "assumptions": ["a"],
        "risks": ["r"],
        "actions": ["x"],
        "falsifiers": ["f"],
        "confidence": "high",
        "duration_ms": 1200,
        "usage": {"input_tokens": 3, "output_tokens": 0},
        "diagnostic": "d",
        "retry_after_seconds": 60,
    }
    given = parse_input(data)
    assert given.status is ConsultationStatus.COMPLETED
    assert given.wire() == data


def test_consultation_omits_absent_fields():
    assert parse_input(MINIMAL["consultation"]).wire() == MINIMAL["consultation"]


def test_disagreement_resolution_validation_attempt_round_trip():
    for data in (
        {
            "kind": "disagreement",
            "assessment": "a",
            "positions": [{"source": "primary", "position": "A"}],
            "divergent_assumptions": ["x"],
            "discriminating_question": "q",
            "experiment": "e",
        },
        MINIMAL["resolution"],
        {
            "kind": "validation",
            "conclusion": "c",
            "check": "x",
            "command": "pytest -q",
            "outcome": "fail",
            "evidence": [{"kind": "command", "reference": "pytest -q"}],
        },
        {
            "kind": "attempt",
            "assessment": "a",
            "attempt": "t",
            "observed_failure": "f",
            "assumption_invalidated": "x",
            "evidence": [{"kind": "commit", "reference": "abc"}],
            "updated_hypothesis": "h",
        },
    ):
        assert parse_input(data).wire() == data
    assert parse_input(MINIMAL["disagreement"]).wire() == MINIMAL["disagreement"]


def test_conclusion_defaults():
    given = parse_input(MINIMAL["conclusion"])
    assert given.confidence is ReasoningConfidence.MEDIUM
    assert given.wire() == {**MINIMAL["conclusion"], "confidence": "medium"}


def test_a_list_field_refuses_null_while_an_option_accepts_it():
    with pytest.raises(ValidationError):
        parse_input({**MINIMAL["assessment"], "facts": None})
    assert parse_input({**MINIMAL["assessment"], "hypothesis": None}).hypothesis is None
    assert parse_input({**MINIMAL["conclusion"], "supersedes": None}).supersedes is None


def test_integers_are_non_negative_and_not_strings():
    base = MINIMAL["consultation"]
    for bad in (-1, "60", 1.5, True):
        with pytest.raises(ValidationError):
            parse_input({**base, "retry_after_seconds": bad})
    with pytest.raises(ValidationError):
        parse_input({**MINIMAL["assessment"], "new_evidence": "yes"})


def test_stored_conclusion_is_lenient_and_flat():
    data = {
        **MINIMAL["conclusion"],
        "reviewed_by": ["alpha"],
        "independent_review_count": 1,
        "later_field": True,
        "supersedes": None,
    }
    body = parse_body(data)
    assert isinstance(body, StoredConclusion)
    assert body.reviewed_by == ["alpha"]
    assert body.wire() == {
        **MINIMAL["conclusion"],
        "confidence": "medium",
        "reviewed_by": ["alpha"],
        "independent_review_count": 1,
    }


def test_stored_conclusion_writes_review_even_when_empty():
    stored = StoredConclusion.of(parse_input(MINIMAL["conclusion"]), [])
    assert stored.wire()["reviewed_by"] == []
    assert stored.wire()["independent_review_count"] == 0


def test_stored_plan_is_what_a_plan_body_parses_to():
    body = parse_body(plan("assessment-1", "decide_locally", ()))
    assert isinstance(body, StoredPlan)
    assert list(body.wire()) == ["kind", "assessment", "plan", "availability"]
    with pytest.raises(ValidationError):
        parse_body(MINIMAL["plan"])


def test_envelope_key_order_and_omission():
    record = stored_record(
        "attempt-1", MINIMAL["attempt"], head="0" * 40, redacted=["openai-key"], extra="ignored"
    )
    assert list(record.wire()) == [
        *["schema", "version", "id", "task", "recorded_at", "head", "redacted"],
        "body",
    ]
    assert record.kind == "attempt"
    bare = record.model_copy(update={"head": None, "redacted": []})
    assert "head" not in bare.wire() and "redacted" not in bare.wire()


def test_envelope_round_trip_is_byte_identical():
    body = {**MINIMAL["assessment"], "materiality": "low", "confidence": "medium"}
    text = json.dumps(envelope("assessment-1", {**body, "new_evidence": False}))
    assert json.dumps(ReasoningRecord.model_validate_json(text).wire()) == text
