"""Seed 001: the doctests about records, the store, admission and redaction.

Each test is named after the seed document's example it restates. State derivation, policy
and availability examples live with their own modules' seed tests.
"""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.advisors.policy import PlanOutcome
from majordomus.ledger.admission import Admission, Refusal, admit
from majordomus.ledger.record import (
    RECORD_SCHEMA,
    RECORD_VERSION,
    AdvisorUsage,
    AssessmentInput,
    AttemptInput,
    ConclusionInput,
    ConsultationStatus,
    DisagreementPosition,
    PlanInput,
    ReasoningEvidence,
    ReasoningEvidenceKind,
    ReasoningRecord,
    Stance,
    StoredConclusion,
    StoredPlan,
    ValidationOutcome,
    parse_input,
)
from majordomus.ledger.service import redact
from majordomus.ledger.store import Loaded
from tests.projections.builders import rec


def test_usage_defaults():
    usage = AdvisorUsage.model_validate_json('{"input_tokens": 120}')
    assert usage == AdvisorUsage(input_tokens=120, output_tokens=0)


def test_consultation_status_words():
    status = ConsultationStatus(json.loads('"rate_limited"'))
    assert status is ConsultationStatus.RATE_LIMITED
    assert not status.is_transient()
    assert ConsultationStatus.TIMEOUT.is_transient()


def test_disagreement_position_json():
    position = DisagreementPosition(source="primary", position="keep the lock")
    assert position.wire() == {"source": "primary", "position": "keep the lock"}


def test_body_kind():
    body = AssessmentInput(subject="lock scope")
    assert body.kind == "assessment"
    assert body.wire()["kind"] == "assessment"


def test_evidence_strictness():
    evidence = ReasoningEvidence.model_validate({"kind": "file", "reference": "src/worker.rs:42"})
    assert evidence.kind is ReasoningEvidenceKind.FILE
    assert evidence.note is None
    with pytest.raises(ValidationError):
        ReasoningEvidence.model_validate({"kind": "file", "reference": "x", "notes": "misspelt"})


def test_evidence_kinds():
    kind = ReasoningEvidenceKind(json.loads('"prior_external_opinion"'))
    assert kind is ReasoningEvidenceKind.PRIOR_EXTERNAL_OPINION
    assert json.dumps(ReasoningEvidenceKind.ADR.value) == '"adr"'


def test_tagged_input():
    given = parse_input({"kind": "plan", "assessment": "assessment-1"})
    assert isinstance(given, PlanInput) and given.assessment == "assessment-1"
    with pytest.raises(ValidationError):
        parse_input({"kind": "opinion", "text": "x"})


def test_envelope_without_head():
    record = ReasoningRecord(
        schema=RECORD_SCHEMA,
        version=RECORD_VERSION,
        id="attempt-20261001T000000Z-abcdef",
        task="untasked",
        recorded_at="2026-10-01T00:00:00Z",
        head=None,
        redacted=[],
        body=AttemptInput(attempt="inline the call", observed_failure="the test still fails"),
    )
    text = record.model_dump_json(by_alias=True)
    assert '"head"' not in text, "an absent head is not written"
    back = ReasoningRecord.model_validate_json(text)
    assert back.id == record.id
    assert back.body.kind == "attempt"


def test_stance_words():
    assert Stance(json.loads('"alternative"')) is Stance.ALTERNATIVE
    with pytest.raises(ValueError):
        Stance("agrees")


def test_stored_conclusion_flattening():
    stored = StoredConclusion.of(
        ConclusionInput(assessment="assessment-1", decision="keep the lock", rationale="measured"),
        ["alpha"],
    )
    assert stored.reviewed_by == ["alpha"]
    data = stored.wire()
    assert data["decision"] == "keep the lock"
    assert data["independent_review_count"] == 1


def test_plan_admission():
    mode = ModeResolution(mode=ReasoningMode.STANDARD, source="default")
    admission = Admission(mode=mode, availability=[])
    loaded = Loaded(records=[rec("assessment-1", 1, {"kind": "assessment", "subject": "a name"})])
    stored = admit(PlanInput(assessment="assessment-1"), loaded, admission)
    assert isinstance(stored, StoredPlan), "a plan input is stored as a plan"
    assert stored.assessment == "assessment-1"
    assert stored.plan.outcome is PlanOutcome.DECIDE_LOCALLY
    assert stored.availability == []


def test_validation_outcome_words():
    assert ValidationOutcome(json.loads('"fail"')) is ValidationOutcome.FAIL
    assert json.dumps(ValidationOutcome.PASS.value) == '"pass"'


# The examples the seed document adds from the original's docs and tests.

_ADMISSION = Admission(mode=ModeResolution(mode=ReasoningMode.STANDARD, source="default"))


def test_plan_for_an_absent_assessment_is_refused():
    with pytest.raises(Refusal) as refused:
        admit(PlanInput(assessment="assessment-1"), Loaded(), _ADMISSION)
    assert str(refused.value) == "no assessment assessment-1 is recorded"


def test_material_assessment_without_evidence_is_refused():
    given = parse_input({"kind": "assessment", "subject": "s", "materiality": "material"})
    with pytest.raises(Refusal) as refused:
        admit(given, Loaded(), _ADMISSION)
    assert str(refused.value).startswith("a material assessment carries the evidence")


def test_disagreement_with_one_position_is_refused():
    loaded = Loaded(records=[rec("assessment-1", 1, {"kind": "assessment", "subject": "s"})])
    given = parse_input(
        {
            "kind": "disagreement",
            "assessment": "assessment-1",
            "positions": [{"source": "primary", "position": "A"}],
            "discriminating_question": "q",
        }
    )
    with pytest.raises(Refusal) as refused:
        admit(given, loaded, _ADMISSION)
    assert str(refused.value) == "a disagreement has at least two positions"


def test_redaction_example():
    body = AssessmentInput(subject="the key sk-ant-bbbbbbbbbbbbbbbbbbbbbbbb leaks")
    cleaned, kinds = redact(body)
    assert "sk-ant-" not in cleaned.subject
    assert kinds == ["anthropic-key"]


def test_record_input():
    from majordomus.capabilities.record import ReasoningRecordInput

    given = ReasoningRecordInput.model_validate(
        {"record": {"kind": "plan", "assessment": "assessment-1"}}
    )
    assert isinstance(given.record, PlanInput) and given.record.assessment == "assessment-1"


def test_recorded_schema_requires_record_path_step():
    from majordomus.capabilities.record import ReasoningRecorded

    required = ReasoningRecorded.model_json_schema()["required"]
    for field in ("record", "path", "step"):
        assert field in required, field
