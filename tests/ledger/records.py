"""Record envelopes as the store holds them, for tests that build or plant records."""

from __future__ import annotations

from typing import Any

from majordomus.ledger.record import RECORD_SCHEMA, ReasoningRecord

STAMP = "2026-10-01T00:00:00Z"

#: A stored plan body that decided locally.
PLAN = {
    "kind": "plan",
    "assessment": "assessment-1",
    "plan": {
        "mode": "standard",
        "mode_source": "default",
        "materiality": "low",
        "confidence": "medium",
        "capabilities": ["independent_reasoning"],
        "budget": 0,
        "outcome": "decide_locally",
        "reason": "r",
        "selected": [],
        "excluded": [],
        "available": 0,
    },
    "availability": [],
}


def envelope(
    ident: str, body: dict[str, Any], *, task: str = "t", stamp: str = STAMP, **extra: Any
) -> dict[str, Any]:
    """A stored record's JSON value, envelope keys in the writer's order."""
    fields = {"id": ident, "task": task, "recorded_at": stamp}
    return {"schema": RECORD_SCHEMA, "version": 1, **fields, "body": body, **extra}


def stored_record(ident: str, body: dict[str, Any], **kwargs: Any) -> ReasoningRecord:
    return ReasoningRecord.model_validate(envelope(ident, body, **kwargs))
