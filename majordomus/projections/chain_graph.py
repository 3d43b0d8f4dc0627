"""The chain of a task's records as a Mermaid flowchart that renders on GitHub. Pure.

Large tasks show their most recent records only, so the graph stays within what GitHub renders."""

from __future__ import annotations

from collections.abc import Sequence

from majordomus.ledger.loaded import cites
from majordomus.ledger.record import (
    AttemptInput,
    ReasoningRecord,
    StoredConclusion,
    ValidationInput,
    ValidationOutcome,
)
from majordomus.projections.timeline import one_line
from majordomus.redaction.redactor import redact_secrets

#: At most this many records are drawn (the most recent ones): GitHub refuses larger graphs.
MAX_GRAPH_RECORDS = 100

#: Characters of a label's summary.
LABEL_LIMIT = 60

#: Mermaid entity codes for what would end a label, open HTML or close the code fence.
_ESCAPES = {"#": "#35;", '"': "#quot;", "<": "#lt;", ">": "#gt;", "`": "#96;"}
_PLAIN = frozenset(_ESCAPES)


def _label_text(text: str) -> str:
    # redacted before it is cut and escaped, which would hide a secret from the egress filter;
    # a short printable label is neither, and the filter sees it whole
    if len(text) > LABEL_LIMIT or not text.isprintable() or not _PLAIN.isdisjoint(text):
        text = redact_secrets(text)
    text = one_line(text)
    if len(text) > LABEL_LIMIT:
        text = text[: LABEL_LIMIT - 1] + "…"
    return "".join(_ESCAPES.get(ch, ch) for ch in text)


def _sources(record: ReasoningRecord) -> list[str]:
    """The ids of the records this record answers: what it cites, but a conclusion that cites
    consultations or disagreements answers those and not its assessment."""
    found = cites(record)
    body = record.body
    if isinstance(body, StoredConclusion) and (body.consultations or body.disagreements):
        return found[1:]
    return found


def chain_graph(records: Sequence[ReasoningRecord], summaries: dict[str, str]) -> str:
    """The flowchart (without its fence) of `records`, labelled by `summaries`; "" for none."""
    shown = list(records)[-MAX_GRAPH_RECORDS:]
    if not shown:
        return ""
    node = {record.id: f"r{position}" for position, record in enumerate(shown, 1)}
    rows = ["flowchart TD"]
    for record in shown:
        label = _label_text(f"{record.kind}: {summaries.get(record.id, record.id)}")
        rows.append(f'  {node[record.id]}["{label}"]')
    for record in shown:
        for source in dict.fromkeys(_sources(record)):
            if source in node:
                rows.append(f"  {node[source]} --> {node[record.id]}")
    failed = [
        node[r.id]
        for r in shown
        if isinstance(r.body, AttemptInput)
        or (isinstance(r.body, ValidationInput) and r.body.outcome is ValidationOutcome.FAIL)
    ]
    if failed:
        rows.append("  classDef failed stroke:#c00,stroke-width:2px")
        rows.append(f"  class {','.join(failed)} failed")
    return "".join(f"{row}\n" for row in rows)


def omitted(records: Sequence[ReasoningRecord]) -> int:
    """How many of `records` the graph leaves out."""
    return max(0, len(records) - MAX_GRAPH_RECORDS)
