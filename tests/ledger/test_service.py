"""The ledger's write path as one service: the size limit first, the availability read only
for a plan, admission and redaction before the envelope, and the envelope before the write."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from majordomus.advisors.modes import ModeResolution, ReasoningMode
from majordomus.errors import InvalidInput, Refused
from majordomus.ledger.admission import Admission
from majordomus.ledger.loaded import Loaded
from majordomus.ledger.record import (
    MAX_RECORD_BYTES,
    AssessmentInput,
    ConsultationInput,
    PlanInput,
    ValidationInput,
)
from majordomus.ledger.service import Ledger, lock_wait, record_size, with_full_ids
from majordomus.ledger.store import STATE_DIR, Store
from tests.layer.support import write
from tests.ledger.records import stored_record

ADMISSION = Admission(mode=ModeResolution(mode=ReasoningMode.STANDARD, source="default"))


class Counted:
    """An availability that counts how often the ledger asks for it."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, loaded: Loaded) -> Admission:
        self.calls += 1
        return ADMISSION


def ledger(root: Path, availability: Counted) -> Ledger:
    return Ledger(Store(root), availability=availability, head=lambda _: None)


def test_only_a_plan_reads_the_availability(tmp_path: Path) -> None:
    asked = Counted()
    writer = ledger(tmp_path, asked)
    first = writer.record(AssessmentInput(subject="lock scope"), task="t")
    assert asked.calls == 0
    plan = writer.record(PlanInput(assessment=first.record.id), task="t")
    assert asked.calls == 1
    assert plan.record.body.kind == "plan"
    assert [r.id for r in writer.store.load().records] == [first.record.id, plan.record.id]


def test_short_ids_are_made_full_where_a_record_is_cited_and_nowhere_else() -> None:
    """A consultation's `conclusion` is the advisor's text even when it spells an id's start."""
    full = "assessment-20261001T000000000Z-1a2b3c"
    loaded = Loaded([stored_record(full, {"kind": "assessment", "subject": "s"})])
    advice = ConsultationInput(plan="1a2b3c", advisor="x", status="completed", conclusion="as")
    assert with_full_ids(advice, loaded) == advice.model_copy(update={"plan": full})
    checked = with_full_ids(ValidationInput.model_construct(conclusion="1a2b3c"), loaded)
    assert checked.conclusion == full


def test_a_broken_catalogue_refuses_plans_only(tmp_path: Path) -> None:
    write(tmp_path, ".ai/repo/advisors.yaml", "advisors: [\n")
    writer = Ledger.open(tmp_path, {})
    first = writer.record(AssessmentInput(subject="s"), task="t")
    with pytest.raises(Refused) as refused:
        writer.record(PlanInput(assessment=first.record.id), task="t")
    assert "advisors.yaml" in refused.value.message
    assert len(writer.store.load().records) == 1


def test_the_size_is_the_compact_json_of_the_fields_given() -> None:
    given = AssessmentInput.model_validate({"kind": "assessment", "subject": "é"})
    assert record_size(given) == len('{"kind":"assessment","subject":"é"}'.encode())


def test_an_oversized_record_is_refused_before_the_store_is_touched(tmp_path: Path) -> None:
    asked = Counted()
    big = AssessmentInput(subject="x" * MAX_RECORD_BYTES)
    with pytest.raises(InvalidInput) as refused:
        ledger(tmp_path, asked).record(big)
    size = len(json.dumps(big.model_dump(mode="json", exclude_unset=True), separators=(",", ":")))
    assert refused.value.message == (
        f"the record is over the 1 MiB limit ({MAX_RECORD_BYTES} bytes): {size} bytes"
    )
    assert not (tmp_path / STATE_DIR).exists()


def test_a_string_that_is_not_text_is_refused(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match=r"^must be valid text$"):
        ledger(tmp_path, Counted()).record(AssessmentInput(subject="a\ud800b"))
    assert not (tmp_path / ".ai").exists()


@pytest.mark.parametrize(
    ("value", "wait"), [("2.5", 2.5), ("0", 0.0), ("-1", 10.0), ("soon", 10.0), ("4000", 10.0)]
)
def test_the_lock_wait_comes_from_the_environment(value: str, wait: float) -> None:
    assert lock_wait({"MAJORDOMUS_LEDGER_LOCK_WAIT": value}) == wait
    assert Ledger.open(Path("."), {"MAJORDOMUS_LEDGER_LOCK_WAIT": value}).store.lock_wait == wait
