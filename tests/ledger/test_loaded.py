"""Loaded records and the lookups over them."""

from __future__ import annotations

from majordomus.ledger.loaded import Loaded, RecordIndex, subject_key
from tests.ledger.records import stored_record as rec
from tests.projections.builders import (
    assessment,
    attempt,
    conclusion,
    consultation,
    disagreement,
    plan,
    resolution,
    validation,
)


def chain() -> Loaded:
    return Loaded(
        records=[
            rec("assessment-1", assessment()),
            rec("plan-2", plan("assessment-1", "decide_locally", ())),
            rec("consultation-3", consultation("plan-2", "a", "timeout")),
            rec("disagreement-4", disagreement("assessment-1")),
            rec("resolution-5", resolution("disagreement-4", "neither")),
            rec("conclusion-6", conclusion("assessment-1")),
            rec("validation-7", validation("conclusion-6")),
            rec("attempt-8", attempt()),
            rec("consultation-9", consultation("plan-0", "a", "timeout")),
        ]
    )


def test_default_is_empty():
    assert Loaded() == Loaded(records=[], unreadable=[])


def test_get_returns_the_first_record_with_the_id():
    loaded = chain()
    loaded.records.append(rec("assessment-1", assessment("dup")))
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
            rec("conclusion-3", conclusion("assessment-1", supersedes="conclusion-1")),
            rec("conclusion-2", conclusion("assessment-1", supersedes="conclusion-3")),
        ]
    )
    index = RecordIndex(loaded.records)
    assert index.conclusion_in_force("assessment-1").id == "conclusion-2"
    assert index.conclusion_in_force("assessment-2") is None
    loaded.records.append(
        rec("conclusion-4", conclusion("assessment-1", supersedes="conclusion-2"))
    )
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
            rec("assessment-1", assessment("Lock scope")),
            rec("conclusion-2", conclusion("assessment-1")),
        ]
    )
    index = RecordIndex(own.records)
    assert index.prior_on_subject(own.records[0]) is None
    assert index.prior_on_subject(own.records[1]) is None
    other = rec("assessment-3", assessment("lock  SCOPE"), task="t2")
    own.records.append(other)
    assert RecordIndex(own.records).prior_on_subject(other).id == "conclusion-2"


def test_prior_on_subject_takes_the_latest_assessment_with_a_conclusion_in_force():
    loaded = Loaded(
        records=[
            rec("assessment-1", assessment("s")),
            rec("conclusion-2", conclusion("assessment-1")),
            rec("assessment-3", assessment("s")),
            rec("conclusion-4", conclusion("assessment-3")),
            rec("assessment-5", assessment("s")),
            rec("assessment-6", assessment("s")),
        ]
    )
    assert RecordIndex(loaded.records).prior_on_subject(loaded.records[-1]).id == "conclusion-4"


def test_circular_references_belong_to_no_assessment():
    loaded = Loaded(
        records=[
            rec("c-1", consultation("c-2", "a", "empty")),
            rec("c-2", consultation("c-1", "a", "empty")),
            rec("c-3", consultation("c-3", "a", "empty")),
        ]
    )
    index = RecordIndex(loaded.records)
    assert [index.assessment_of(r) for r in loaded.records] == [None, None, None]
