"""majordomus as a library: `Repository.open(path)` answers what the command line answers.

Names are imported on first use (docs/library.md), so no command imports the whole library.
"""

from __future__ import annotations

import importlib
import logging
from typing import TYPE_CHECKING, Any

from majordomus.version import __version__

#: Silent until a caller installs a handler (the CLI does, on stderr).
logging.getLogger("majordomus").addHandler(logging.NullHandler())

if TYPE_CHECKING:
    from majordomus.advisors.outcomes import ConsultationStatus
    from majordomus.advisors.policy import Materiality, ReasoningConfidence
    from majordomus.capabilities.core import (
        ObjectList,
        ObjectSummary,
        RepositoryReport,
        ResourceView,
        SearchResult,
    )
    from majordomus.capabilities.reasoning import AdvisorsReport, ReasoningCheck, ReasoningStatus
    from majordomus.capabilities.recall import RecallAnswer, RecallHit
    from majordomus.capabilities.record import ReasoningRecorded
    from majordomus.devcontext import CompiledContext, CompileInput, Explanation
    from majordomus.errors import (
        CapabilityError,
        ContractUnmet,
        Fatal,
        InvalidInput,
        MissingArtifact,
        NotFound,
        Refused,
    )
    from majordomus.layer.model import Index, LayerObject
    from majordomus.ledger.record import (
        AdvisorUsage,
        AssessmentInput,
        AttemptInput,
        ConclusionInput,
        ConsultationInput,
        DisagreementInput,
        DisagreementPosition,
        PlanInput,
        ReasoningEvidence,
        ReasoningEvidenceKind,
        ReasoningInput,
        ReasoningRecord,
        ResolutionInput,
        Stance,
        ValidationInput,
        ValidationOutcome,
    )
    from majordomus.projections.handover import Handover
    from majordomus.projections.state import ReasoningExplanation, ReasoningState
    from majordomus.repository import Repository, RepositoryLedger

#: Each public name and the module it comes from.
_HOMES = {
    "Repository": "majordomus.repository",
    "RepositoryLedger": "majordomus.repository",
    # what a record is written as
    "AdvisorUsage": "majordomus.ledger.record",
    "AssessmentInput": "majordomus.ledger.record",
    "AttemptInput": "majordomus.ledger.record",
    "ConclusionInput": "majordomus.ledger.record",
    "ConsultationInput": "majordomus.ledger.record",
    "ConsultationStatus": "majordomus.advisors.outcomes",
    "DisagreementInput": "majordomus.ledger.record",
    "DisagreementPosition": "majordomus.ledger.record",
    "Materiality": "majordomus.advisors.policy",
    "PlanInput": "majordomus.ledger.record",
    "ReasoningConfidence": "majordomus.advisors.policy",
    "ReasoningEvidence": "majordomus.ledger.record",
    "ReasoningEvidenceKind": "majordomus.ledger.record",
    "ReasoningInput": "majordomus.ledger.record",
    "ResolutionInput": "majordomus.ledger.record",
    "Stance": "majordomus.ledger.record",
    "ValidationInput": "majordomus.ledger.record",
    "ValidationOutcome": "majordomus.ledger.record",
    # what the ledger answers
    "AdvisorsReport": "majordomus.capabilities.reasoning",
    "Handover": "majordomus.projections.handover",
    "ReasoningCheck": "majordomus.capabilities.reasoning",
    "ReasoningExplanation": "majordomus.projections.state",
    "ReasoningRecord": "majordomus.ledger.record",
    "ReasoningRecorded": "majordomus.capabilities.record",
    "ReasoningState": "majordomus.projections.state",
    "ReasoningStatus": "majordomus.capabilities.reasoning",
    # the layer and the context compiler
    "CompileInput": "majordomus.devcontext",
    "CompiledContext": "majordomus.devcontext",
    "Explanation": "majordomus.devcontext",
    "Index": "majordomus.layer.model",
    "LayerObject": "majordomus.layer.model",
    "ObjectList": "majordomus.capabilities.core",
    "ObjectSummary": "majordomus.capabilities.core",
    "RepositoryReport": "majordomus.capabilities.core",
    "ResourceView": "majordomus.capabilities.core",
    "SearchResult": "majordomus.capabilities.core",
    "RecallAnswer": "majordomus.capabilities.recall",
    "RecallHit": "majordomus.capabilities.recall",
    # what a refusal raises
    "CapabilityError": "majordomus.errors",
    "ContractUnmet": "majordomus.errors",
    "Fatal": "majordomus.errors",
    "InvalidInput": "majordomus.errors",
    "MissingArtifact": "majordomus.errors",
    "NotFound": "majordomus.errors",
    "Refused": "majordomus.errors",
}

__all__ = [
    "AdvisorUsage",
    "AdvisorsReport",
    "AssessmentInput",
    "AttemptInput",
    "CapabilityError",
    "CompileInput",
    "CompiledContext",
    "ConclusionInput",
    "ConsultationInput",
    "ConsultationStatus",
    "ContractUnmet",
    "DisagreementInput",
    "DisagreementPosition",
    "Explanation",
    "Fatal",
    "Handover",
    "Index",
    "InvalidInput",
    "LayerObject",
    "Materiality",
    "MissingArtifact",
    "NotFound",
    "ObjectList",
    "ObjectSummary",
    "PlanInput",
    "ReasoningCheck",
    "ReasoningConfidence",
    "ReasoningEvidence",
    "ReasoningEvidenceKind",
    "ReasoningExplanation",
    "ReasoningInput",
    "ReasoningRecord",
    "ReasoningRecorded",
    "ReasoningState",
    "ReasoningStatus",
    "RecallAnswer",
    "RecallHit",
    "Refused",
    "Repository",
    "RepositoryLedger",
    "RepositoryReport",
    "ResolutionInput",
    "ResourceView",
    "SearchResult",
    "Stance",
    "ValidationInput",
    "ValidationOutcome",
    "__version__",
]


def __getattr__(name: str) -> Any:
    """A public name, imported from its module the first time it is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'majordomus' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})
