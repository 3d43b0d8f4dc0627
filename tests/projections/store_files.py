"""Records written straight into a checkout's store, as a hand or an older writer left them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.layer.support import write
from tests.ledger.records import envelope
from tests.projections.builders import (
    assessment,
    attempt,
    conclusion,
    consultation,
    plan,
    validation,
)

STORE = ".ai/local/state/reasoning"


def put(
    root: Path,
    record_id: str,
    at: str,
    body: dict[str, Any],
    task: str = "t",
    file: str | None = None,
) -> Path:
    """Write one stored record file, at `<task>/<id>.json` unless `file` places it elsewhere;
    `at` is its `recorded_at`."""
    record = envelope(record_id, body, task=task, stamp=at)
    return write(root / STORE, file or f"{task}/{record_id}.json", json.dumps(record, indent=2))


def current_task(root: Path, task: str) -> None:
    write(root, ".ai/local/state/current.yaml", f'id: "{task}"\n')


def chain(root: Path) -> None:
    """A short chain on task `t`: assessment, local plan, a timeout, a conclusion, a pass;
    and one attempt on task `u`."""
    reason = "a low-materiality uncertainty is decided locally"
    local_plan = plan("assessment-1", "decide_locally", (), reason, materiality="low")
    timeout = consultation("plan-2", "tool", "timeout", diagnostic="no answer in 60s")
    steps = [
        ("assessment-1", assessment("lock scope", questions=["held across await?"]), "t"),
        ("plan-2", local_plan, "t"),
        ("consultation-3", timeout, "t"),
        ("conclusion-4", conclusion("assessment-1"), "t"),
        ("validation-5", validation("conclusion-4", "pass", "soak"), "t"),
        ("attempt-6", attempt(), "u"),
    ]
    for minute, (record_id, body, task) in enumerate(steps):
        put(root, record_id, f"2026-10-01T09:0{minute}:00.000Z", body, task)
