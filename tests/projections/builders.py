"""Records for projection tests: stored envelopes around JSON bodies, as the seed builds them."""

from __future__ import annotations

from typing import Any

from majordomus.ledger.loaded import Loaded
from majordomus.ledger.record import ReasoningRecord
from tests.ledger.records import stored_record


def rec(record_id: str, n: int, body: dict[str, Any], task: str = "t") -> ReasoningRecord:
    """A stored record stamped `2026-10-01T00:00:<n>Z` (n may exceed 59: minutes roll)."""
    minutes, seconds = divmod(n, 60)
    return stored_record(
        record_id, body, task=task, stamp=f"2026-10-01T00:{minutes:02}:{seconds:02}Z"
    )


def loaded(*records: ReasoningRecord, unreadable: tuple[str, ...] = ()) -> Loaded:
    return Loaded(records=list(records), unreadable=list(unreadable))


def assessment(subject: str = "s", **fields: Any) -> dict[str, Any]:
    return {"kind": "assessment", "subject": subject, **fields}


def plan(
    assessment_id: str,
    outcome: str = "consult",
    selected: tuple[str, ...] = ("alpha",),
    reason: str = "material doubt",
    materiality: str = "material",
) -> dict[str, Any]:
    return {
        "kind": "plan",
        "assessment": assessment_id,
        "plan": {
            "mode": "standard",
            "mode_source": "default",
            "materiality": materiality,
            "confidence": "medium",
            "capabilities": ["independent_reasoning"],
            "budget": len(selected),
            "outcome": outcome,
            "reason": reason,
            "selected": [
                {"advisor": a, "covers": ["independent_reasoning"], "why": "first"}
                for a in selected
            ],
            "excluded": [],
            "available": len(selected),
        },
        "availability": [],
    }


def consultation(
    plan_id: str, advisor: str = "alpha", status: str = "completed", **fields: Any
) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "consultation",
        "plan": plan_id,
        "advisor": advisor,
        "status": status,
    }
    if status == "completed":
        body.update(conclusion="A", stance="supports")
    body.update(fields)
    return body


def disagreement(assessment_id: str, question: str = "do callers retry?") -> dict[str, Any]:
    return {
        "kind": "disagreement",
        "assessment": assessment_id,
        "positions": [
            {"source": "primary", "position": "A"},
            {"source": "consultation-9", "position": "B"},
        ],
        "discriminating_question": question,
    }


def resolution(disagreement_id: str, favours: str = "primary") -> dict[str, Any]:
    return {
        "kind": "resolution",
        "disagreement": disagreement_id,
        "experiment": "read the callers",
        "outcome": "none retries",
        "favours": favours,
        "evidence": [{"kind": "file", "reference": "src/caller.rs"}],
    }


def conclusion(
    assessment_id: str, decision: str = "keep the lock", **fields: Any
) -> dict[str, Any]:
    return {
        "kind": "conclusion",
        "assessment": assessment_id,
        "decision": decision,
        "rationale": "measured",
        "reviewed_by": [],
        "independent_review_count": 0,
        **fields,
    }


def validation(
    conclusion_id: str, outcome: str = "pass", check: str = "cargo test"
) -> dict[str, Any]:
    return {"kind": "validation", "conclusion": conclusion_id, "check": check, "outcome": outcome}


def attempt(assessment_id: str | None = None, **fields: Any) -> dict[str, Any]:
    body: dict[str, Any] = {
        "kind": "attempt",
        "attempt": "inline it",
        "observed_failure": "still slow",
        **fields,
    }
    if assessment_id is not None:
        body["assessment"] = assessment_id
    return body
