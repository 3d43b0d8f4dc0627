"""Records written straight into a checkout's store, as a hand or an older writer left them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

STORE = ".ai/local/state/reasoning"


def put(root: Path, record_id: str, at: str, body: dict[str, Any], task: str = "t") -> Path:
    """Write one stored record file; `at` is its `recorded_at`."""
    folder = root / STORE / task
    folder.mkdir(parents=True, exist_ok=True)
    record = {
        "schema": "majordomus/reasoning-record",
        "version": 1,
        "id": record_id,
        "task": task,
        "recorded_at": at,
        "body": body,
    }
    path = folder / f"{record_id}.json"
    path.write_text(json.dumps(record, indent=2), encoding="utf-8")
    return path


def current_task(root: Path, task: str) -> None:
    path = root / ".ai/local/state/current.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f'id: "{task}"\n', encoding="utf-8")


def chain(root: Path) -> None:
    """A short chain on task `t`: assessment, local plan, a timeout, a conclusion, a pass;
    and one attempt on task `u`."""
    put(
        root,
        "assessment-1",
        "2026-10-01T09:00:00.000Z",
        {"kind": "assessment", "subject": "lock scope", "questions": ["held across await?"]},
    )
    put(
        root,
        "plan-2",
        "2026-10-01T09:01:00.000Z",
        {
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
                "reason": "a low-materiality uncertainty is decided locally",
                "available": 0,
            },
            "availability": [],
        },
    )
    put(
        root,
        "consultation-3",
        "2026-10-01T09:02:00.000Z",
        {
            "kind": "consultation",
            "plan": "plan-2",
            "advisor": "tool",
            "status": "timeout",
            "diagnostic": "no answer in 60s",
        },
    )
    put(
        root,
        "conclusion-4",
        "2026-10-01T09:03:00.000Z",
        {
            "kind": "conclusion",
            "assessment": "assessment-1",
            "decision": "keep the lock",
            "rationale": "measured",
            "reviewed_by": [],
            "independent_review_count": 0,
        },
    )
    put(
        root,
        "validation-5",
        "2026-10-01T09:04:00.000Z",
        {"kind": "validation", "conclusion": "conclusion-4", "check": "soak", "outcome": "pass"},
    )
    put(
        root,
        "attempt-6",
        "2026-10-01T09:05:00.000Z",
        {"kind": "attempt", "attempt": "inline it", "observed_failure": "still slow"},
        task="u",
    )
