"""The views of the derived state and their JSON (omitted keys included)."""

from __future__ import annotations

from majordomus.projections.state import derive

from .builders import (
    assessment,
    conclusion,
    consultation,
    disagreement,
    loaded,
    rec,
    resolution,
    validation,
)


def test_assessment_view_json_omits_empty_fields() -> None:
    state = derive(loaded(rec("assessment-1", 1, assessment("lock scope"))), None)
    assert state.assessments[0].wire() == {
        "id": "assessment-1",
        "task": "t",
        "subject": "lock scope",
        "materiality": "low",
        "standing": "open",
    }


def test_consultation_view_json() -> None:
    state = derive(loaded(rec("consultation-1", 1, consultation("plan-0"))), None)
    assert state.consultations[0].wire() == {
        "id": "consultation-1",
        "plan": "plan-0",
        "advisor": "alpha",
        "status": "completed",
        "stance": "supports",
        "conclusion": "A",
    }


def test_disagreement_view_without_resolution() -> None:
    state = derive(loaded(rec("disagreement-1", 1, disagreement("assessment-0"))), None)
    assert state.disagreements[0].wire() == {
        "id": "disagreement-1",
        "assessment": "assessment-0",
        "discriminating_question": "do callers retry?",
    }


def test_the_first_resolution_settles_a_disagreement() -> None:
    records = [
        rec("disagreement-1", 1, disagreement("assessment-0")),
        rec("resolution-2", 2, resolution("disagreement-1", "primary")),
        rec("resolution-3", 3, resolution("disagreement-1", "consultation-9")),
    ]
    view = derive(loaded(*records), None).disagreements[0]
    assert (view.resolution, view.favours) == ("resolution-2", "primary")


def test_conclusion_view_counts_validations_and_keeps_the_plan() -> None:
    records = [
        rec(
            "conclusion-1",
            1,
            conclusion(
                "assessment-0",
                reviewed_by=["alpha"],
                independent_review_count=1,
                validation_plan=["run the soak test"],
                risks=["slower under load"],
            ),
        ),
        rec("validation-2", 2, validation("conclusion-1", "pass")),
        rec("validation-3", 3, validation("conclusion-1", "pass"), task="other"),
        rec("validation-4", 4, validation("conclusion-1", "fail")),
    ]
    view = derive(loaded(*records), "t").conclusions[0]
    assert view.wire() == {
        "id": "conclusion-1",
        "assessment": "assessment-0",
        "decision": "keep the lock",
        "reviewed_by": ["alpha"],
        "independent_review_count": 1,
        "validations_passed": 2,
        "validations_failed": 1,
        "validation_plan": ["run the soak test"],
        "risks": ["slower under load"],
    }


def test_validation_plan_is_always_written() -> None:
    view = derive(loaded(rec("conclusion-1", 1, conclusion("a-0"))), None).conclusions[0]
    assert view.wire()["validation_plan"] == []
    assert "risks" not in view.wire()
    assert "superseded_by" not in view.wire()


def test_superseded_by_names_the_first_superseding_conclusion() -> None:
    records = [
        rec("conclusion-1", 1, conclusion("a-0")),
        rec("conclusion-2", 2, conclusion("a-0", "B", supersedes="conclusion-1")),
        rec("conclusion-3", 3, conclusion("a-0", "C", supersedes="conclusion-1")),
    ]
    views = derive(loaded(*records), None).conclusions
    assert [v.superseded_by for v in views] == ["conclusion-2", None, None]
