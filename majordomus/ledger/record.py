"""Reasoning records: what callers author (`ReasoningInput`, strict), what the store keeps
(`ReasoningBody`: a plan and a conclusion stored with what the writer computed) and the
envelope. Pure models. Over 400 lines on purpose: the eight kinds are one vocabulary."""

from __future__ import annotations

import functools
import typing
from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt, TypeAdapter, ValidationError

from majordomus.advisors.outcomes import ConsultationStatus
from majordomus.advisors.policy import Materiality, ReasoningConfidence, ReviewPlan
from majordomus.advisors.states import AdvisorState
from majordomus.errors import field_path, plain_words
from majordomus.limits import MAX_RECORD_BYTES
from majordomus.order import canonical_strings
from majordomus.wire import OMIT, StrictInput, Wire

#: A record is never edited once written, and a replay hands one instance to every projection:
#: records and their parts are frozen.
FROZEN = ConfigDict(frozen=True)


class _Frozen(StrictInput):
    model_config = FROZEN


RECORD_SCHEMA = "majordomus/reasoning-record"
RECORD_VERSION = 1

#: Every record kind, in the order of docs/ledger.md; also the prefix of a minted id.
KINDS: tuple[str, ...] = (
    "assessment",
    "plan",
    "consultation",
    "disagreement",
    "resolution",
    "conclusion",
    "validation",
    "attempt",
)

#: Per kind, the fields that name other records by id, the record it belongs under first; a
#: consultation's `conclusion` is the advisor's text, a validation's names the conclusion it
#: checks. A disagreement's positions name consultations too, but are not followed in replay.
CITING: dict[str, tuple[str, ...]] = {
    "plan": ("assessment",),
    "consultation": ("plan",),
    "disagreement": ("assessment",),
    "resolution": ("disagreement",),
    "conclusion": ("assessment", "consultations", "disagreements", "supersedes"),
    "validation": ("conclusion",),
    "attempt": ("assessment",),
}

#: Every number a record holds is bounded, so no record can carry a value that breaks the
#: arithmetic of a replay (a circuit's end, a total) or that no real answer would carry.
_WEEK_SECONDS = 7 * 24 * 3600

Count = Annotated[StrictInt, Field(ge=0, le=1_000_000_000)]
DurationMs = Annotated[StrictInt, Field(ge=0, le=_WEEK_SECONDS * 1000)]
RetryAfter = Annotated[StrictInt, Field(ge=0, le=_WEEK_SECONDS)]


class Stance(StrEnum):
    """Where an answer stands against the executor's hypothesis: a label, never a vote."""

    SUPPORTS = "supports"
    OPPOSES = "opposes"
    ALTERNATIVE = "alternative"
    INCONCLUSIVE = "inconclusive"


class ValidationOutcome(StrEnum):
    PASS = "pass"
    FAIL = "fail"


class ReasoningEvidenceKind(StrEnum):
    """How a reader follows an evidence pointer; a prior external opinion is never a fact."""

    FILE = "file"
    TEST = "test"
    ADR = "adr"
    RULE = "rule"
    COMMIT = "commit"
    COMMAND = "command"
    RECORD = "record"
    DOCUMENT = "document"
    RUNTIME = "runtime"
    PRIOR_EXTERNAL_OPINION = "prior_external_opinion"


class ReasoningEvidence(_Frozen):
    """A pointer to what supports a claim (path, path:line, test, id, command), never a copy."""

    kind: ReasoningEvidenceKind
    reference: str
    note: Annotated[str | None, OMIT] = None


class AdvisorUsage(_Frozen):
    """Token counts an adapter reported; a missing count reads as zero, nothing is estimated."""

    input_tokens: Count = 0
    output_tokens: Count = 0


class DisagreementPosition(_Frozen):
    """One side: `primary` (the executor) or a completed consultation's id, and its position."""

    source: str
    position: str


Evidence = Annotated[list[ReasoningEvidence], OMIT]
Lines = Annotated[list[str], OMIT]


class AssessmentInput(_Frozen):
    """An uncertainty stated before anyone is asked: how much it matters and what is known."""

    kind: Literal["assessment"] = "assessment"
    subject: str
    materiality: Materiality = Materiality.LOW
    confidence: ReasoningConfidence = ReasoningConfidence.MEDIUM
    hypothesis: Annotated[str | None, OMIT] = None
    affects: Lines = Field(default_factory=list)
    facts: Lines = Field(default_factory=list)
    assumptions: Lines = Field(default_factory=list)
    questions: Lines = Field(default_factory=list)
    evidence: Evidence = Field(default_factory=list)
    capabilities: Lines = Field(default_factory=list)
    new_evidence: StrictBool = False


class PlanInput(_Frozen):
    """A request to plan review for an assessment; the writer runs the policy."""

    kind: Literal["plan"] = "plan"
    assessment: str


class StoredPlan(Wire):
    """A plan as stored: the policy's decision and the availability it was made against."""

    model_config = FROZEN

    kind: Literal["plan"] = "plan"
    assessment: str
    plan: ReviewPlan
    availability: list[AdvisorState] = Field(default_factory=list)


class ConsultationInput(_Frozen):
    """One advisor's answer to a plan, or the way asking it failed."""

    kind: Literal["consultation"] = "consultation"
    plan: str
    advisor: str
    status: ConsultationStatus
    question: Annotated[str | None, OMIT] = None
    evidence: Evidence = Field(default_factory=list)
    conclusion: Annotated[str | None, OMIT] = None
    stance: Annotated[Stance | None, OMIT] = None
    assumptions: Lines = Field(default_factory=list)
    risks: Lines = Field(default_factory=list)
    actions: Lines = Field(default_factory=list)
    falsifiers: Lines = Field(default_factory=list)
    confidence: Annotated[ReasoningConfidence | None, OMIT] = None
    duration_ms: Annotated[DurationMs | None, OMIT] = None
    usage: Annotated[AdvisorUsage | None, OMIT] = None
    diagnostic: Annotated[str | None, OMIT] = None
    retry_after_seconds: Annotated[RetryAfter | None, OMIT] = None


class DisagreementInput(_Frozen):
    """Positions that diverge, and the question whose answer decides between them."""

    kind: Literal["disagreement"] = "disagreement"
    assessment: str
    positions: list[DisagreementPosition]
    divergent_assumptions: Lines = Field(default_factory=list)
    discriminating_question: str
    experiment: Annotated[str | None, OMIT] = None


class ResolutionInput(_Frozen):
    """The experiment that settled a disagreement, with its evidence: never a count."""

    kind: Literal["resolution"] = "resolution"
    disagreement: str
    experiment: str
    outcome: str
    favours: str
    evidence: list[ReasoningEvidence]


class ConclusionFields(Wire):
    """The fields a conclusion's author writes; shared by the input and the stored body."""

    model_config = FROZEN

    kind: Literal["conclusion"] = "conclusion"
    assessment: str
    decision: str
    rationale: str
    evidence: Evidence = Field(default_factory=list)
    consultations: Lines = Field(default_factory=list)
    disagreements: Lines = Field(default_factory=list)
    rejected: Lines = Field(default_factory=list)
    assumptions: Lines = Field(default_factory=list)
    risks: Lines = Field(default_factory=list)
    validation_plan: Lines = Field(default_factory=list)
    confidence: ReasoningConfidence = ReasoningConfidence.MEDIUM
    supersedes: Annotated[str | None, OMIT] = None


class ConclusionInput(ConclusionFields, StrictInput):
    """A decision with its rationale; who reviewed it is computed, never claimed."""


class StoredConclusion(ConclusionFields):
    """A conclusion as stored: the input flattened, plus the review the writer computed.

    Read leniently (unknown keys ignored), as the original reads stored conclusions.
    """

    reviewed_by: list[str] = Field(default_factory=list)
    independent_review_count: Count = 0

    @classmethod
    def of(cls, conclusion: ConclusionInput, reviewed_by: Iterable[str]) -> StoredConclusion:
        """The stored form: reviewers once each in canonical order, and their count."""
        reviewers = canonical_strings(set(reviewed_by))
        fields = {name: getattr(conclusion, name) for name in ConclusionFields.model_fields}
        return cls(**fields, reviewed_by=reviewers, independent_review_count=len(reviewers))


class ValidationInput(_Frozen):
    """A check run against a conclusion, and whether it passed."""

    kind: Literal["validation"] = "validation"
    conclusion: str
    check: str
    command: Annotated[str | None, OMIT] = None
    outcome: ValidationOutcome
    evidence: Evidence = Field(default_factory=list)


class AttemptInput(_Frozen):
    """Something tried that failed, and what the failure taught."""

    kind: Literal["attempt"] = "attempt"
    assessment: Annotated[str | None, OMIT] = None
    attempt: str
    observed_failure: str
    assumption_invalidated: Annotated[str | None, OMIT] = None
    evidence: Evidence = Field(default_factory=list)
    updated_hypothesis: Annotated[str | None, OMIT] = None


ReasoningInput = Annotated[
    AssessmentInput
    | PlanInput
    | ConsultationInput
    | DisagreementInput
    | ResolutionInput
    | ConclusionInput
    | ValidationInput
    | AttemptInput,
    Field(discriminator="kind"),
]

ReasoningBody = Annotated[
    AssessmentInput
    | StoredPlan
    | ConsultationInput
    | DisagreementInput
    | ResolutionInput
    | StoredConclusion
    | ValidationInput
    | AttemptInput,
    Field(discriminator="kind"),
]


def input_schema(kind: str) -> dict[str, Any] | None:
    """The JSON Schema of what a caller writes for a record of `kind` (`majordomus schema
    KIND`), or None for a word that is not a record kind."""
    for model in typing.get_args(typing.get_args(ReasoningInput)[0]):
        if model.model_fields["kind"].default == kind:
            schema: dict[str, Any] = model.model_json_schema()
            return schema
    return None


@functools.cache
def _adapter(union: Any) -> TypeAdapter[Any]:
    """A union's validator, built when first used: replaying records never needs one."""
    return TypeAdapter(union)


def parse_input(value: Any) -> ReasoningInput:
    """Validate a JSON value (already decoded) as a record input; raises ValidationError."""
    return _adapter(ReasoningInput).validate_python(value)


def parse_body(value: Any) -> ReasoningBody:
    """Validate a JSON value (already decoded) as a stored body; raises ValidationError."""
    return _adapter(ReasoningBody).validate_python(value)


def record_size_problem(size: int) -> str | None:
    """Why a record of `size` bytes (JSON text) is refused, or None when it is not too large."""
    if size <= MAX_RECORD_BYTES:
        return None
    return f"the record is over the 1 MiB limit ({MAX_RECORD_BYTES} bytes): {size} bytes"


#: Envelope keys a caller may put in a record by mistake, and who sets them instead.
_WRITTEN_BY_THE_WRITER = {
    "id": "the writer mints a record's id",
    "recorded_at": "the writer stamps a record's time",
    "head": "the writer reads the commit the checkout is on",
    "redacted": "the writer lists what it redacted",
    "schema": "the writer sets the envelope's schema",
    "version": "the writer sets the envelope's version",
    "reviewed_by": "the writer computes who reviewed a conclusion from its consultations",
    "independent_review_count": "the writer counts a conclusion's reviewers",
}


def describe_record_error(exc: ValidationError, *, root: tuple[str, ...] = ()) -> str:
    """One line in the words of the record as written (the union's tag dropped from paths);
    `root` is where the record sits in the input (`("record",)`, or nothing when bare)."""
    kinds = ", ".join(KINDS)
    bare = not root
    parts: list[str] = []
    for err in exc.errors(include_url=False, include_input=False):
        loc = tuple(err.get("loc", ()))
        inside = loc[: len(root)] == root
        if inside and len(loc) > len(root) and loc[len(root)] in KINDS:
            loc = loc[: len(root)] + loc[len(root) + 1 :]
        kind = err.get("type")
        where = field_path(loc)
        field = str(loc[-1]) if inside and len(loc) == len(root) + 1 else None
        if inside and kind == "union_tag_not_found":
            text = f"{field_path((*root, 'kind'))}: is required; the kinds are {kinds}"
        elif inside and kind == "union_tag_invalid":
            tag = (err.get("ctx") or {}).get("tag", "")
            text = f"{field_path((*root, 'kind'))}: '{tag}' is not a kind; the kinds are {kinds}"
        elif kind == "extra_forbidden" and field == "task":
            hint = "name it with --task" if bare else "pass `task` beside `record`"
            text = f"{where}: a record does not carry its task; {hint}"
        elif kind == "extra_forbidden" and field in _WRITTEN_BY_THE_WRITER:
            text = f"{where}: {_WRITTEN_BY_THE_WRITER[field]}; leave it out"
        elif loc == root and kind in ("dict_type", "model_type", "model_attributes_type"):
            text = f"{where or 'the record'}: must be a JSON object with a `kind`"
        else:
            words = plain_words(err)
            text = f"{where}: {words}" if where else words
        parts.append(text)
    return "; ".join(dict.fromkeys(parts)) or "the record is not valid"


#: The largest Lamport counter: a record beyond it does not parse, and a writer that has seen
#: it stamps this value again rather than fail.
MAX_LAMPORT = 2**53


class ReasoningRecord(Wire):
    """One stored record: the body and the envelope only the writer stamps.

    `lamport` (one more than the largest counter the writer had seen) and `writer` (the
    clone's writer id) order a replay every clone agrees on; a record written before the
    team ledger has neither and sorts first, as it always did.
    """

    model_config = FROZEN

    schema_: str = Field(alias="schema")
    version: Count
    id: str
    task: str
    recorded_at: str
    lamport: Annotated[Annotated[StrictInt, Field(ge=0, le=MAX_LAMPORT)] | None, OMIT] = None
    writer: Annotated[str | None, OMIT] = None
    head: Annotated[str | None, OMIT] = None
    redacted: Lines = Field(default_factory=list)
    body: ReasoningBody

    @property
    def kind(self) -> str:
        return self.body.kind


def parse_stored(data: bytes | None) -> ReasoningRecord | None:
    """The record these bytes hold, or None when they hold none of this schema and version."""
    if data is None:
        return None
    try:
        record = ReasoningRecord.model_validate_json(data)
    except ValidationError:
        return None
    if record.schema_ != RECORD_SCHEMA or record.version != RECORD_VERSION:
        return None
    return record
