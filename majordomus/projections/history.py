"""The consultation history the circuit breakers read, replayed from
the same records as the state, so circuits open and close from the ledger alone.

A consultation whose `recorded_at` is not a time `epoch_seconds` reads is left out: it
cannot say when it happened. Pure.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from majordomus.advisors.outcomes import Outcome
from majordomus.clock import epoch_seconds
from majordomus.ledger.loaded import Loaded, Relations
from majordomus.ledger.record import ConsultationInput


def history(loaded: Loaded, relations: Relations | None = None) -> list[Outcome]:
    """One outcome per consultation record, in record order.

    `relations`, when the caller indexed the same records already, lists the consultations:
    the records are then not walked a second time (at 10k records, milliseconds)."""
    consultations = (
        relations.consultations
        if relations is not None
        else [r for r in loaded.records if r.body.kind == "consultation"]
    )
    outcomes: list[Outcome] = []
    for record in consultations:
        body = record.body
        assert isinstance(body, ConsultationInput)
        at = epoch_seconds(record.recorded_at)
        if at is None:
            continue
        outcomes.append(
            Outcome(
                id=record.id,
                advisor=body.advisor,
                status=body.status,
                at=at,
                retry_after=body.retry_after_seconds,
            )
        )
    return outcomes


class LazyHistory(Sequence[Outcome]):
    """`history(loaded, relations)`, replayed when first read.

    Only an advisor that is present and not gated by the mode or the configuration has its
    circuit judged (`majordomus.advisors.availability`); where none is (no credential, CI,
    offline), nothing reads the history, and a status over 10k records skips ~1,250
    outcomes it would never show."""

    __slots__ = ("_loaded", "_outcomes", "_relations")

    def __init__(self, loaded: Loaded, relations: Relations | None = None) -> None:
        self._loaded = loaded
        self._relations = relations
        self._outcomes: list[Outcome] | None = None

    def _replayed(self) -> list[Outcome]:
        outcomes = self._outcomes
        if outcomes is None:
            outcomes = self._outcomes = history(self._loaded, self._relations)
        return outcomes

    @overload
    def __getitem__(self, index: int) -> Outcome: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Outcome]: ...

    def __getitem__(self, index: int | slice) -> Outcome | Sequence[Outcome]:
        return self._replayed()[index]

    def __len__(self) -> int:
        return len(self._replayed())

    def __iter__(self) -> Iterator[Outcome]:
        return iter(self._replayed())
