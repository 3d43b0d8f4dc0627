"""`reasoning.record`, the one reasoning capability that writes, in a file of its own so
that writing a record imports the ledger's write path and none of the projections."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

from pydantic import Field, ValidationError

from majordomus.capabilities.registry import EXPERIMENTAL, Capability
from majordomus.ledger.record import ReasoningInput, ReasoningRecord, describe_record_error
from majordomus.projections.timeline import ReasoningStep
from majordomus.wire import StrictInput, Wire

if TYPE_CHECKING:
    from majordomus.capabilities.workspace import Workspace


class ReasoningRecordInput(StrictInput):
    """One record as written, tagged by its `kind`; the writer computes everything else
    (id, task, stamp, head, a plan's selection)."""

    record: ReasoningInput
    task: Annotated[
        str | None,
        Field(
            description="The task to record into (default: the current task); letters, "
            "digits, '.', '_' and '-', starting with a letter or digit."
        ),
    ] = None

    @classmethod
    def from_json_value(cls, value: dict[str, Any]) -> ReasoningRecordInput:
        """The input from the JSON value a surface decoded, validated once as it is, never
        written back to text; a record already validated is taken as it is."""
        return cls.model_validate(value)

    @classmethod
    def describe_invalid(cls, exc: ValidationError) -> str:
        """Paths as written (`record.subject`), the kinds when `kind` is wrong."""
        return describe_record_error(exc, root=("record",))


class ReasoningRecorded(Wire):
    """The record as stored, where it was written, and the timeline step it adds."""

    record: ReasoningRecord
    path: str
    step: ReasoningStep


def reasoning_record(ctx: Workspace, request: ReasoningRecordInput) -> ReasoningRecorded:
    """The ledger's write path, and the step the record adds, read from the record alone."""
    from majordomus.ledger.service import Ledger
    from majordomus.projections.timeline import step_of

    done = Ledger.open(ctx.root, ctx.environ).record(request.record, task=request.task)
    return ReasoningRecorded(record=done.record, path=done.path, step=step_of(done.record))


REASONING_RECORD = Capability(
    id="reasoning.record",
    title="Record reasoning",
    description="Admit one typed record (assessment, plan, consultation, disagreement, "
    "resolution, conclusion, validation, attempt) into the append-only store of the current "
    "task or a named one, with secrets redacted; a plan is decided by the review policy "
    "against the advisors available now. A refused record writes nothing. Writes only "
    "`.ai/local/state/reasoning/`.",
    handler=reasoning_record,
    kind="command",
    writes_repository=True,
    http=("POST", "/api/v1/reasoning/records"),
    stability=EXPERIMENTAL,
    tags=("reasoning", "records"),
)
