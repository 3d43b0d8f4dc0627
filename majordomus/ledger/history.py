"""The consultation history the advisors' circuit breakers read, replayed from the records.
Pure."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

from majordomus.advisors.outcomes import Outcome
from majordomus.clock import epoch_seconds
from majordomus.ledger.loaded import Loaded, RecordIndex
from majordomus.ledger.record import ConsultationInput


def history(loaded: Loaded, index: RecordIndex | None = None) -> list[Outcome]:
    """One outcome per consultation with a readable `recorded_at`, in record order."""
    consultations = (
        index.consultations
        if index is not None
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
    """`history(loaded, index)`, replayed when first read (often no circuit is judged)."""

    def __init__(self, loaded: Loaded, index: RecordIndex | None = None) -> None:
        self._loaded = loaded
        self._index = index
        self._outcomes: list[Outcome] | None = None

    def _replayed(self) -> list[Outcome]:
        if self._outcomes is None:
            self._outcomes = history(self._loaded, self._index)
        return self._outcomes

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
