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
    from majordomus.advisors.outcomes import ConsultationStatus as ConsultationStatus
    from majordomus.advisors.policy import Materiality as Materiality
    from majordomus.advisors.policy import ReasoningConfidence as ReasoningConfidence
    from majordomus.capabilities.core import ObjectList as ObjectList
    from majordomus.capabilities.core import ObjectSummary as ObjectSummary
    from majordomus.capabilities.core import RepositoryReport as RepositoryReport
    from majordomus.capabilities.core import ResourceView as ResourceView
    from majordomus.capabilities.core import SearchResult as SearchResult
    from majordomus.capabilities.reasoning import AdvisorsReport as AdvisorsReport
    from majordomus.capabilities.reasoning import ReasoningCheck as ReasoningCheck
    from majordomus.capabilities.reasoning import ReasoningStatus as ReasoningStatus
    from majordomus.capabilities.recall import RecallAnswer as RecallAnswer
    from majordomus.capabilities.recall import RecallHit as RecallHit
    from majordomus.capabilities.record import ReasoningRecorded as ReasoningRecorded
    from majordomus.devcontext import CompiledContext as CompiledContext
    from majordomus.devcontext import CompileInput as CompileInput
    from majordomus.devcontext import Explanation as Explanation
    from majordomus.errors import CapabilityError as CapabilityError
    from majordomus.errors import ContractUnmet as ContractUnmet
    from majordomus.errors import Fatal as Fatal
    from majordomus.errors import InvalidInput as InvalidInput
    from majordomus.errors import MissingArtifact as MissingArtifact
    from majordomus.errors import NotFound as NotFound
    from majordomus.errors import Refused as Refused
    from majordomus.layer.model import Index as Index
    from majordomus.layer.model import LayerObject as LayerObject
    from majordomus.ledger.record import AdvisorUsage as AdvisorUsage
    from majordomus.ledger.record import AssessmentInput as AssessmentInput
    from majordomus.ledger.record import AttemptInput as AttemptInput
    from majordomus.ledger.record import ConclusionInput as ConclusionInput
    from majordomus.ledger.record import ConsultationInput as ConsultationInput
    from majordomus.ledger.record import DisagreementInput as DisagreementInput
    from majordomus.ledger.record import DisagreementPosition as DisagreementPosition
    from majordomus.ledger.record import PlanInput as PlanInput
    from majordomus.ledger.record import ReasoningEvidence as ReasoningEvidence
    from majordomus.ledger.record import ReasoningEvidenceKind as ReasoningEvidenceKind
    from majordomus.ledger.record import ReasoningInput as ReasoningInput
    from majordomus.ledger.record import ReasoningRecord as ReasoningRecord
    from majordomus.ledger.record import ResolutionInput as ResolutionInput
    from majordomus.ledger.record import Stance as Stance
    from majordomus.ledger.record import ValidationInput as ValidationInput
    from majordomus.ledger.record import ValidationOutcome as ValidationOutcome
    from majordomus.projections.handover import Handover as Handover
    from majordomus.projections.state import ReasoningExplanation as ReasoningExplanation
    from majordomus.projections.state import ReasoningState as ReasoningState
    from majordomus.repository import Repository as Repository
    from majordomus.repository import RepositoryLedger as RepositoryLedger

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

__all__ = [*_HOMES, "__version__"]


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
