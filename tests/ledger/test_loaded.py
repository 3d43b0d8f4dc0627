"""Loaded records and the lookups over them."""

from __future__ import annotations

from typing import Any

from majordomus.ledger.loaded import Loaded, RecordIndex, subject_key
from tests.ledger.records import stored_record as rec
from tests.projections.builders import plan


def conclusion(assessment: str, supersedes: str | None = None) -> dict[str, Any]:
    return {
        "kind": "conclusion",
        "assessment": assessment,
        "decision": "d",
        "rationale": "r",
        "supersedes": supersedes,
        "reviewed_by": [],
        "independent_review_count": 0,
    }


def chain() -> Loaded:
    return Loaded(
        records=[
            rec("assessment-1", {"kind": "assessment", "subject": "s"}),
            rec("plan-2", plan("assessment-1", "decide_locally", ())),
            rec(
                "consultation-3",
                {"kind": "consultation", "plan": "plan-2", "advisor": "a", "status": "timeout"},
            ),
            rec(
                "disagreement-4",
                {
                    "kind": "disagreement",
                    "assessment": "assessment-1",
                    "positions": [],
                    "discriminating_question": "q",
                },
            ),
            rec(
                "resolution-5",
                {
                    "kind": "resolution",
                    "disagreement": "disagreement-4",
                    "experiment": "e",
                    "outcome": "o",
                    "favours": "neither",
                    "evidence": [],
                },
            ),
            rec("conclusion-6", conclusion("assessment-1")),
            rec(
                "validation-7",
                {
                    "kind": "validation",
                    "conclusion": "conclusion-6",
                    "check": "x",
                    "outcome": "pass",
                },
            ),
            rec("attempt-8", {"kind": "attempt", "attempt": "a", "observed_failure": "f"}),
            rec(
                "consultation-9",
                {"kind": "consultation", "plan": "plan-0", "advisor": "a", "status": "timeout"},
            ),
        ]
    )


def test_default_is_empty():
    assert Loaded() == Loaded(records=[], unreadable=[])


def test_get_returns_the_first_record_with_the_id():
    loaded = chain()
    loaded.records.append(rec("assessment-1", {"kind": "assessment", "subject": "dup"}))
    assert loaded.get("assessment-1").body.subject == "s"
    assert loaded.get("nothing") is None
    assert RecordIndex(loaded.records).get("assessment-1").body.subject == "s"
    assert RecordIndex(loaded.records).get("nothing") is None


def test_assessment_of_every_kind():
    loaded = chain()
    index = RecordIndex(loaded.records)
    belongs = {r.id: index.assessment_of(r) for r in loaded.records}
    assert belongs == {
        "assessment-1": "assessment-1",
        "plan-2": "assessment-1",
        "consultation-3": "assessment-1",
        "disagreement-4": "assessment-1",
        "resolution-5": "assessment-1",
        "conclusion-6": "assessment-1",
        "validation-7": "assessment-1",
        "attempt-8": None,
        "consultation-9": None,
    }


def test_the_conclusion_in_force_skips_superseded_ones():
    loaded = Loaded(
        records=[
            rec("conclusion-1", conclusion("assessment-1")),
            rec("conclusion-3", conclusion("assessment-1", "conclusion-1")),
            rec("conclusion-2", conclusion("assessment-1", "conclusion-3")),
        ]
    )
    index = RecordIndex(loaded.records)
    assert index.conclusion_in_force("assessment-1").id == "conclusion-2"
    assert index.conclusion_in_force("assessment-2") is None
    loaded.records.append(rec("conclusion-4", conclusion("assessment-1", "conclusion-2")))
    assert RecordIndex(loaded.records).conclusion_in_force("assessment-1").id == "conclusion-4"


def test_resolution_of():
    index = RecordIndex(chain().records)
    assert index.resolution_of("disagreement-4").id == "resolution-5"
    assert index.resolution_of("disagreement-0") is None


def test_subject_key_collapses_space_and_case():
    assert subject_key("  Lock\tScope \n here ") == "lock scope here"


def test_prior_on_subject_ignores_own_conclusion_and_crosses_tasks():
    own = Loaded(
        records=[
            rec("assessment-1", {"kind": "assessment", "subject": "Lock scope"}),
            rec("conclusion-2", conclusion("assessment-1")),
        ]
    )
    index = RecordIndex(own.records)
    assert index.prior_on_subject(own.records[0]) is None
    assert index.prior_on_subject(own.records[1]) is None
    other = rec("assessment-3", {"kind": "assessment", "subject": "lock  SCOPE"}, task="t2")
    own.records.append(other)
    assert RecordIndex(own.records).prior_on_subject(other).id == "conclusion-2"


def test_prior_on_subject_takes_the_latest_assessment_with_a_conclusion_in_force():
    loaded = Loaded(
        records=[
            rec("assessment-1", {"kind": "assessment", "subject": "s"}),
            rec("conclusion-2", conclusion("assessment-1")),
            rec("assessment-3", {"kind": "assessment", "subject": "s"}),
            rec("conclusion-4", conclusion("assessment-3")),
            rec("assessment-5", {"kind": "assessment", "subject": "s"}),
            rec("assessment-6", {"kind": "assessment", "subject": "s"}),
        ]
    )
    assert RecordIndex(loaded.records).prior_on_subject(loaded.records[-1]).id == "conclusion-4"


def test_circular_references_belong_to_no_assessment():
    loaded = Loaded(
        records=[
            rec("c-1", {"kind": "consultation", "plan": "c-2", "advisor": "a", "status": "empty"}),
            rec("c-2", {"kind": "consultation", "plan": "c-1", "advisor": "a", "status": "empty"}),
            rec("c-3", {"kind": "consultation", "plan": "c-3", "advisor": "a", "status": "empty"}),
        ]
    )
    index = RecordIndex(loaded.records)
    assert [index.assessment_of(r) for r in loaded.records] == [None, None, None]
