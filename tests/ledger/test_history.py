"""The consultation history replayed from the ledger: circuits open and close from records alone."""

from __future__ import annotations

from collections.abc import Sequence

from majordomus.advisors.availability import Inputs, derive_availability
from majordomus.advisors.catalogue import AdvisorCatalogue, References
from majordomus.advisors.outcomes import ConsultationStatus, Outcome
from majordomus.advisors.states import AdvisorState, AdvisorStatus
from majordomus.clock import epoch_seconds
from majordomus.ledger.loaded import history
from majordomus.projections.moment import epoch_of, parse_moment, recorded_by
from tests.advisors.fakes import Everything, adv
from tests.projections.builders import assessment, consultation, loaded, rec

CATALOGUE = AdvisorCatalogue.model_validate(
    {
        "version": 1,
        "capabilities": [{"id": "code_review", "description": "x"}],
        "advisors": [adv("a")],
    }
)


def state_at(records, now: int):
    return state_at_with(history(records), now)


T0 = epoch_seconds("2026-10-01T00:00:00Z")
assert T0 is not None


def test_history_holds_every_consultation_with_its_time_and_retry_after() -> None:
    records = loaded(
        rec("assessment-1", 1, assessment()),
        rec("c-2", 2, consultation("p", "a", "rate_limited", retry_after_seconds=60)),
        rec("c-3", 3, consultation("p", "b")),
    )
    assert history(records) == [
        Outcome(
            id="c-2", advisor="a", status=ConsultationStatus.RATE_LIMITED, at=T0 + 2, retry_after=60
        ),
        Outcome(id="c-3", advisor="b", status=ConsultationStatus.COMPLETED, at=T0 + 3),
    ]


def test_a_stamp_that_does_not_read_is_left_out() -> None:
    record = rec("c-1", 1, consultation("p", "a", "timeout"))
    record = record.model_copy(update={"recorded_at": "yesterday"})
    assert history(loaded(record)) == []


def test_two_timeouts_open_the_circuit_and_it_closes_after_the_cooldown() -> None:
    records = loaded(
        rec("c-1", 1, consultation("p", "a", "timeout")),
        rec("c-2", 2, consultation("p", "a", "timeout")),
    )
    opened = state_at(records, T0 + 3)
    assert (opened.status, opened.reason) == (
        AdvisorStatus.TEMPORARILY_FAILED,
        "consecutive_failures",
    )
    assert opened.circuit is not None and opened.circuit.opened_by == "c-2"
    closed = state_at(records, T0 + 2 + 600)
    assert (closed.status, closed.recovering, closed.circuit) == (
        AdvisorStatus.AVAILABLE,
        True,
        None,
    )


def test_as_of_sees_the_circuit_a_handover_saw() -> None:
    records = loaded(
        rec("c-1", 1, consultation("p", "a", "timeout")),
        rec("c-2", 2, consultation("p", "a", "timeout")),
        rec("c-3", 30, consultation("p", "a")),
    )
    moment = parse_moment("2026-10-01T00:00:10Z")
    assert moment is not None
    then = state_at(recorded_by(records, moment), epoch_of(moment))
    assert then.status is AdvisorStatus.TEMPORARILY_FAILED
    assert state_at(records, epoch_of(moment) + 60).status is AdvisorStatus.AVAILABLE


def state_at_with(outcomes: Sequence[Outcome], now: int) -> AdvisorState:
    inputs = Inputs(refs=References(), presence=Everything(), history=outcomes, now=now)
    return derive_availability(CATALOGUE, inputs)[0]
