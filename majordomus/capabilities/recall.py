"""The `recall` module: ranked retrieval over the layer's objects and the ledger's records."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field

from majordomus.capabilities.core import RECORD_URI, ResourceView
from majordomus.capabilities.paging import cursor, offset_in
from majordomus.capabilities.registry import Capability, Module
from majordomus.errors import InvalidInput, NotFound, Refused
from majordomus.layer.ranking import Document, Ranking, Scored, plan, rank, snippet, why
from majordomus.ledger.record import KINDS, ReasoningEvidence, ReasoningRecord
from majordomus.wire import OMIT, StrictInput, Wire, dumps_pretty

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace

#: The `kind` that selects every record, whatever its own kind.
RECORD = "record"
DEFAULT_LIMIT = 10
MAX_LIMIT = 50
TITLE_CHARACTERS = 160

#: Per record kind, the fields of its three text columns: what the record is about, what it
#: argues, what backs it (a record's head weighs most, its rationale and evidence less).
RECORD_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "assessment": (
        ("subject",),
        ("hypothesis", "questions", "affects"),
        ("facts", "assumptions", "evidence"),
    ),
    "plan": ((), ("plan",), ()),
    "consultation": (
        ("conclusion", "question"),
        ("risks", "actions", "assumptions", "falsifiers", "diagnostic"),
        ("evidence",),
    ),
    "disagreement": (
        ("discriminating_question",),
        ("positions", "divergent_assumptions"),
        ("experiment",),
    ),
    "resolution": (("outcome", "experiment"), ("favours",), ("evidence",)),
    "conclusion": (
        ("decision",),
        ("rationale", "rejected"),
        ("assumptions", "risks", "validation_plan", "evidence"),
    ),
    "validation": (("check",), ("command", "outcome"), ("evidence",)),
    "attempt": (
        ("attempt", "observed_failure"),
        ("assumption_invalidated", "updated_hypothesis"),
        ("evidence",),
    ),
}
#: Words a record kind is also known by ("did we try", "what did we decide").
RECORD_WORDS = {
    "assessment": "assessment uncertainty question",
    "plan": "plan review",
    "consultation": "consultation advisor opinion",
    "disagreement": "disagreement",
    "resolution": "resolution resolved experiment",
    "conclusion": "conclusion decision decided settled",
    "validation": "validation check tested verified",
    "attempt": "attempt try tried failed failure",
}
#: The field that points at the record each kind belongs to.
PARENT = {
    "plan": "assessment",
    "consultation": "plan",
    "disagreement": "assessment",
    "resolution": "disagreement",
    "conclusion": "assessment",
    "validation": "conclusion",
    "attempt": "assessment",
}


def _text(value: Any) -> str:
    """A field's words: strings as they are, lists and evidence pointers item by item."""
    if isinstance(value, str):
        return value
    if isinstance(value, ReasoningEvidence):
        return f"{value.reference} {value.note or ''}"
    if isinstance(value, list | tuple):
        return "\n".join(_text(v) for v in value)
    if isinstance(value, Wire):
        if hasattr(value, "reason"):
            return str(value.reason)
        return " ".join(_text(v) for v in value.model_dump().values() if isinstance(v, str))
    return str(getattr(value, "value", "") or "")  # an enum's value; nothing for None


def _column(record: ReasoningRecord, names: tuple[str, ...]) -> str:
    return "\n".join(_text(getattr(record.body, n, None)) for n in names)


def record_title(record: ReasoningRecord, subjects: dict[str, str]) -> str:
    """The record's head (a plan's: the subject of its assessment), on one line, cut short."""
    head, _, _ = RECORD_FIELDS[record.kind]
    text = _column(record, head[:1]) if head else subjects.get(_parent(record) or "", "")
    line = " ".join(text.split())
    if record.kind == "plan":
        line = f"review plan: {line}"
    return line if len(line) <= TITLE_CHARACTERS else line[: TITLE_CHARACTERS - 1] + "…"


def _parent(record: ReasoningRecord) -> str | None:
    parent = getattr(record.body, PARENT.get(record.kind, ""), None)
    return parent if isinstance(parent, str) else None


def record_documents(records: list[ReasoningRecord]) -> list[Document]:
    """One document per record: its head, what it argues, what backs it; linked to the record
    it belongs to (an attempt's assessment, a validation's conclusion)."""
    subjects = {
        r.id: str(getattr(r.body, "subject", "")) for r in records if r.kind == "assessment"
    }
    documents = []
    for record in records:
        head, argues, backs = RECORD_FIELDS[record.kind]
        parent = _parent(record)
        documents.append(
            Document(
                uri=RECORD_URI + record.id,
                kind=record.kind,
                title=record_title(record, subjects),
                name=_column(record, head),
                summary=_column(record, argues),
                body=_column(record, backs) + "\n" + subjects.get(parent or "", ""),
                kind_words=f"record {RECORD_WORDS[record.kind]}",
                links=(RECORD_URI + parent,) if parent else (),
                labels=(
                    "/".join(head) or "assessment subject",
                    "/".join(argues),
                    "/".join(backs) + ("/assessment subject" if parent else ""),
                ),
            )
        )
    return documents


def ledger_state(root: Any) -> tuple[tuple[str, int, int], ...]:
    """What says the store moved: the store's and each task directory's modification time
    and entry count (a record is a new file in its task's directory, never an edit)."""
    from majordomus.ledger.store import STATE_DIR

    base = os.path.join(root, STATE_DIR)
    state = []
    try:
        with os.scandir(base) as entries:
            tasks = sorted(e.name for e in entries if e.is_dir(follow_symlinks=False))
        stat = os.stat(base, follow_symlinks=False)
        state.append(("", stat.st_mtime_ns, len(tasks)))
        for task in tasks:
            stat = os.stat(os.path.join(base, task), follow_symlinks=False)
            state.append((task, stat.st_mtime_ns, stat.st_nlink))
    except OSError:
        return ()
    return tuple(state)


class LedgerRanking:
    """The ledger's records and their ranking, as of one state of the store."""

    def __init__(self, records: list[ReasoningRecord], state: tuple[Any, ...]) -> None:
        self.records = {r.id: r for r in records}
        self.state = state
        documents = record_documents(records)
        self.titles = {r.id: d.title for r, d in zip(records, documents, strict=True)}
        self.ranking = Ranking(documents)


def ledger_ranking(ctx: Workspace) -> LedgerRanking:
    """The workspace's ledger ranking, built again when the store moved since the last."""
    from majordomus.ledger.store import Store

    state = ledger_state(ctx.root)
    known: LedgerRanking | None = ctx.__dict__.get("ledger_ranking")
    if known is None or known.state != state or not state:
        known = LedgerRanking(Store(ctx.root).load().records, state)
        ctx.__dict__["ledger_ranking"] = known
    return known


class RecallInput(StrictInput):
    """What to look for, in what, and which page."""

    query: Annotated[
        str, Field(description="Words, a phrase or a question; every word is optional.")
    ]
    limit: Annotated[
        int | None,
        Field(description=f"At most this many hits (1..{MAX_LIMIT}, default {DEFAULT_LIMIT})."),
    ] = None
    cursor: Annotated[
        str | None, Field(description="The `next_cursor` of the page before, for the next one.")
    ] = None
    kind: Annotated[
        str | None,
        Field(
            description="Only hits of this kind: a layer kind (`adr`, `issue`), a record kind "
            "(`attempt`, `conclusion`), or `record` for every record."
        ),
    ] = None
    task: Annotated[
        str | None, Field(description="Only the records of this task (no layer object).")
    ] = None


class RecallHit(Wire):
    """One hit: what it is, how well and why it matched, and the window that matched."""

    uri: str
    kind: str
    title: str
    score: float
    snippet: str
    why: str
    id: Annotated[str | None, OMIT] = None
    task: Annotated[str | None, OMIT] = None


class RecallAnswer(Wire):
    """The hits best first; `next_cursor` while more remain."""

    query: str
    hits: list[RecallHit]
    next_cursor: Annotated[str | None, OMIT] = None


def _check_kind(ctx: Workspace, kind: str | None) -> None:
    if kind is None or kind == RECORD or kind in KINDS:
        return
    from majordomus.layer.kinds import load_kinds

    declared = set(load_kinds().kinds) | set(ctx.index_without_status().kinds)
    if kind not in declared:
        every = ", ".join(sorted(declared | {RECORD, *KINDS}))
        raise InvalidInput(f"kind '{kind}' is neither a layer kind nor a record kind: {every}")


def recall_query(ctx: Workspace, request: RecallInput) -> RecallAnswer:
    if not request.query.strip():
        raise Refused("argument 'query' is required and must not be blank")
    if request.limit is not None and not 1 <= request.limit <= MAX_LIMIT:
        raise InvalidInput(f"limit: between 1 and {MAX_LIMIT}")
    if request.task is not None:
        from majordomus.ledger.tasks import check_task

        check_task(request.task)
    _check_kind(ctx, request.kind)
    offset = 0 if request.cursor is None else offset_in(request.cursor, "recall")
    if offset is None:
        raise InvalidInput("cursor: pass the next_cursor an earlier recall answer gave")
    limit = request.limit or DEFAULT_LIMIT
    ledger = ledger_ranking(ctx)
    rankings = [ledger.ranking]
    if request.task is None:
        rankings.insert(0, ctx.ranking)
    kind, task, records = request.kind, request.task, ledger.records

    def keep(d: Document) -> bool:
        record = records.get(d.uri[len(RECORD_URI) :]) if d.uri.startswith(RECORD_URI) else None
        if task is not None and (record is None or record.task != task):
            return False
        return kind is None or d.kind == kind or (kind == RECORD and record is not None)

    terms = plan(request.query, rankings)
    ranked = rank(terms, rankings, keep)
    page = ranked[offset : offset + limit]
    more = offset + limit < len(ranked)
    return RecallAnswer(
        query=request.query,
        hits=[_hit(s, terms, records) for s in page],
        next_cursor=cursor("recall", offset + limit) if more else None,
    )


def _hit(scored: Scored, terms: Any, records: dict[str, ReasoningRecord]) -> RecallHit:
    d = scored.document
    record = records.get(d.uri[len(RECORD_URI) :]) if d.uri.startswith(RECORD_URI) else None
    return RecallHit(
        uri=d.uri,
        kind=d.kind,
        title=d.title,
        score=scored.score,
        snippet=snippet(scored, terms),
        why=why(scored),
        id=record.id if record else None,
        task=record.task if record else None,
    )


def record_view(ctx: Workspace, uri: str) -> ResourceView:
    """A record as a resource: its stored JSON, with its head as the title."""
    from majordomus.ledger.store import STATE_DIR

    ident = uri[len(RECORD_URI) :]
    ledger = ledger_ranking(ctx)
    record = ledger.records.get(ident)
    if record is None:
        raise NotFound(f"no reasoning record {ident}")
    return ResourceView(
        source="ledger",
        uri=uri,
        id=record.id,
        kind=record.kind,
        identity=record.id,
        title=ledger.titles[ident],
        metadata={"task": record.task, "recorded_at": record.recorded_at},
        provenance={"path": f"{STATE_DIR}/{record.task}/{record.id}.json"},
        media_type="application/json",
        content=dumps_pretty(record.wire()),
    )


RECALL_QUERY = Capability(
    id="recall.query",
    title="Recall what the repository knows",
    description="Ranked retrieval over the layer's objects and the reasoning ledger's records "
    "together: every word optional, stemmed, typos matched by their nearest spelling, the "
    "layer's links as a bounded boost. Each hit has a score, the best matching window and "
    "why it matched; a record hit also its id and task. Use it for questions and half-"
    "remembered words; `majordomus_search` is the literal substring match. Read-only.",
    handler=recall_query,
    http=("GET", "/api/v1/recall"),
    tags=("layer", "reasoning", "search"),
    cases=(("question", {"query": "what was decided about the rules?"}),),
)

RECALL = Module(
    id="recall",
    title="Recall",
    description="Ranked retrieval over what the layer holds and what the ledger recorded.",
    capabilities=(RECALL_QUERY,),
)

MODULES = (RECALL,)
