"""A record with everything it stands on: the all-task timeline of its assessment. Pure."""

from __future__ import annotations

from typing import Annotated

from majordomus.ledger.loaded import Loaded, RecordIndex
from majordomus.ledger.record import ReasoningRecord
from majordomus.projections.timeline import ReasoningStep, step_of
from majordomus.wire import OMIT, Wire


class ReasoningExplanation(Wire):
    """The record, the assessment it belongs to, and that assessment's chain in time order."""

    record: ReasoningRecord
    assessment: Annotated[str | None, OMIT] = None
    chain: list[ReasoningStep]


def explain(loaded: Loaded, record_id: str) -> ReasoningExplanation | None:
    """The explanation of `record_id`, or None when no loaded record has that id."""
    index = RecordIndex(loaded.records)
    record = index.get(record_id)
    if record is None:
        return None
    assessment = index.assessment_of(record)
    if assessment is None:
        chain = [step_of(r) for r in loaded.records if r is record]
    else:
        chain = [step_of(r) for r in loaded.records if index.assessment_of(r) == assessment]
    return ReasoningExplanation(record=record, assessment=assessment, chain=chain)
