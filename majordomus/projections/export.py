"""A copy of the ledger for analysis: JSON Lines, or a SQLite database ready for Datasette.

Written, never read back: the store stays the only truth. Every text is redacted first."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from majordomus import safefs
from majordomus.egress import clean_json
from majordomus.errors import Refused
from majordomus.ledger.loaded import Loaded, RecordIndex
from majordomus.ledger.record import KINDS, AssessmentInput
from majordomus.projections.timeline import step_of
from majordomus.projections.views import assessment_view
from majordomus.wire import dumps_compact

#: The text columns of an empty `records` table, after `id` and `position`, and of an empty
#: `assessments` table, after `id` and `task`.
RECORD_TEXTS = ("task", "kind", "recorded_at", "head", "redacted", "phase", "summary")
ASSESSMENT_TEXTS = ("subject", "materiality", "confidence", "standing", "conclusion")

TIMELINE_VIEW = """
SELECT position, recorded_at AS at, task, id, kind, phase, summary
FROM records ORDER BY position
"""

STANDING_VIEW = """
SELECT a.id, a.task, a.subject, a.materiality, a.confidence, a.standing, a.conclusion,
       r.recorded_at
FROM assessments AS a JOIN records AS r ON r.id = a.id
ORDER BY r.position
"""


def _clean(value: Any) -> Any:
    """The value as it may leave the process (secrets redacted, controls escaped)."""
    return json.loads(clean_json(dumps_compact(value), dumps_compact))


def jsonl(loaded: Loaded) -> bytes:
    """One stored record per line, canonical order, each line compact JSON."""
    return "".join(
        clean_json(dumps_compact(r.wire()), dumps_compact) + "\n" for r in loaded.records
    ).encode("utf-8")


def _rows(loaded: Loaded) -> tuple[list[dict[str, Any]], dict[str, list[dict[str, Any]]]]:
    index = RecordIndex(loaded.records)
    records: list[dict[str, Any]] = []
    by_kind: dict[str, list[dict[str, Any]]] = {}
    for position, record in enumerate(loaded.records, 1):
        step = step_of(record)
        records.append(
            {
                "id": record.id,
                "position": position,
                "task": record.task,
                "kind": record.kind,
                "recorded_at": record.recorded_at,
                "head": record.head,
                "redacted": record.redacted,
                "phase": step.phase.value,
                "summary": step.summary,
            }
        )
        body = record.body.model_dump(mode="json", exclude={"kind"})
        row: dict[str, Any] = {"id": record.id, "task": record.task, **body}
        if isinstance(record.body, AssessmentInput):
            view = assessment_view(record, record.body, index)
            row.update(standing=view.standing.value, conclusion=view.conclusion)
        by_kind.setdefault(record.kind, []).append(row)
    return [_clean(r) for r in records], {k: [_clean(r) for r in v] for k, v in by_kind.items()}


def sqlite_bytes(loaded: Loaded) -> bytes:
    """The database, built in memory: its bytes are then written as any other file is."""
    import sqlite3

    import sqlite_utils

    records, by_kind = _rows(loaded)
    connection = sqlite3.connect(":memory:")
    db = sqlite_utils.Database(connection)
    try:
        db["records"].insert_all(records, pk="id", alter=True)  # type: ignore[union-attr]
        if not records:
            columns = {"id": str, "position": int, **dict.fromkeys(RECORD_TEXTS, str)}
            db["records"].create(columns, pk="id")  # type: ignore[union-attr]
        for kind in KINDS:
            table = f"{kind}s"  # each kind's table is its plural
            if kind in by_kind:
                db[table].insert_all(by_kind[kind], pk="id", alter=True)  # type: ignore[union-attr]
            else:
                texts = ASSESSMENT_TEXTS if kind == "assessment" else ()
                columns = {"id": str, "task": str, **dict.fromkeys(texts, str)}
                db[table].create(columns, pk="id")  # type: ignore[union-attr]
        db.create_view("timeline", TIMELINE_VIEW.strip())
        db.create_view("standing", STANDING_VIEW.strip())
        return connection.serialize()
    finally:
        db.close()


def publish(target: Path, data: bytes, *, force: bool) -> None:
    """Write `data` as `target` through safefs; without `force` an existing one is refused."""
    try:
        folder = os.open(target.parent, os.O_RDONLY | os.O_DIRECTORY)
        try:
            (safefs.replace if force else safefs.write_new)(folder, target.name, data)
        finally:
            os.close(folder)
    except FileExistsError:
        raise Refused(f"{target} already exists; pass --force to replace it") from None
    except safefs.Unsafe as exc:
        raise Refused(f"{target} {exc.reason}") from None
    except OSError as exc:
        raise Refused(f"cannot write {target}: {exc.strerror or exc}") from None
