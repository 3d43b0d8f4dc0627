"""Record envelopes as the store holds them, for tests that build or plant records."""

from __future__ import annotations

from typing import Any

from majordomus.ledger.record import RECORD_SCHEMA, ReasoningRecord

STAMP = "2026-10-01T00:00:00Z"
EVIDENCE = [{"kind": "file", "reference": "src/lock.py:10"}]


def envelope(
    ident: str, body: dict[str, Any], *, task: str = "t", stamp: str = STAMP, **extra: Any
) -> dict[str, Any]:
    """A stored record's JSON value, envelope keys in the writer's order."""
    fields = {"id": ident, "task": task, "recorded_at": stamp}
    return {"schema": RECORD_SCHEMA, "version": 1, **fields, "body": body, **extra}


def stored_record(ident: str, body: dict[str, Any], **kwargs: Any) -> ReasoningRecord:
    return ReasoningRecord.model_validate(envelope(ident, body, **kwargs))


def conclusion_input(assessment: str, **extra: Any) -> dict[str, Any]:
    """A conclusion a caller writes, grounded enough for material uncertainty."""
    fields = {"rationale": "measured", "evidence": EVIDENCE, "validation_plan": ["soak"]}
    return {
        "kind": "conclusion",
        "assessment": assessment,
        "decision": "keep the lock",
        **fields,
        **extra,
    }
