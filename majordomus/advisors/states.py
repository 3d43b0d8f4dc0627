"""The models of availability; `AdvisorState` is lenient so stored snapshots stay readable."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Annotated

from majordomus.advisors.transports import AdvisorTransport
from majordomus.wire import OMIT, Wire


class AdvisorStatus(StrEnum):
    """Whether an advisor may be asked now; only `available` ones enter a plan."""

    AVAILABLE = "available"
    UNAVAILABLE = "unavailable"
    NOT_CONFIGURED = "not_configured"
    DISABLED = "disabled"
    TEMPORARILY_FAILED = "temporarily_failed"
    RATE_LIMITED = "rate_limited"


class AdvisorCircuit(Wire):
    """An open circuit: the consultation that opened it, the failures behind it, when it closes.

    Derived from records and the clock, never stored by itself.
    """

    opened_by: str
    failures: int
    until: str


class AdvisorState(Wire):
    """One advisor as it stands: what the catalogue declares, its status, one reason word,
    and what was probed."""

    id: str
    title: str
    transport: AdvisorTransport
    adapter: str
    capabilities: list[str]
    model: Annotated[str | None, OMIT] = None
    executable: Annotated[str | None, OMIT] = None
    credential: Annotated[str | None, OMIT] = None
    status: AdvisorStatus
    reason: str
    probe: str
    recovering: bool = False
    circuit: Annotated[AdvisorCircuit | None, OMIT] = None

    def is_available(self) -> bool:
        return self.status is AdvisorStatus.AVAILABLE


def count_available(states: Iterable[AdvisorState]) -> int:
    """How many states may be asked now; zero is an ordinary answer."""
    return sum(1 for s in states if s.is_available())
